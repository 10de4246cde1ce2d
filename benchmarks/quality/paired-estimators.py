#!/usr/bin/env python3
# paired-estimators.py — the campaign's paired ratio recomputed offline with other estimators and
# other bootstraps, over the evidence `KEEP=1 benchmarks/quality/aa.sh` kept (each record's
# headline.paired holds both sides' blocks, pass by pass).
#
#   benchmarks/quality/paired-estimators.py DIR PAIRS [ESTIMATORS] [BOOTSTRAPS]
#
# DIR: the folder aa.sh kept (a1 … aN, b1 … bN); PAIRS: N. ESTIMATORS (comma-separated, default
# all,fast20,fast40): "all", the median of every pair's ratio; "fastF", the median of the ratios of
# the fastest F % of the pairs, each pair ranked by the product of its two blocks over each side's
# fastest (what hashbench does with F = 20, the fraction by nearest rank). BOOTSTRAPS (default
# passes,two-level): "passes" draws whole passes; "two-level" draws passes, then the pairs within
# each (hashbench before the fastest fifth); "pairs" the pairs within each pass, the passes kept.
# With PASSES=K in the environment only each record's first K paired passes are used.
#
# For every estimator and bootstrap, as aa.sh prints for the recorded ratios: every library
# against SM3's reference and SHA-256 through OpenSSL at 1 KiB and more (the second through the
# anchor, the intervals in quadrature), the median difference between the two campaigns of a
# pair (and the same ratios from the headlines), the median half-width and how often the two
# campaigns' intervals overlap, in all and pair by pair. Bootstrap resamples: RESAMPLES (400).
import glob
import json
import math
import os
import random
import statistics
import sys

if len(sys.argv) < 3:
    sys.exit("usage: paired-estimators.py DIR PAIRS [ESTIMATORS] [BOOTSTRAPS]")
TMP, PAIRS = sys.argv[1], int(sys.argv[2])
ESTIMATORS = (sys.argv[3] if len(sys.argv) > 3 else "all,fast20,fast40").split(",")
BOOTSTRAPS = (sys.argv[4] if len(sys.argv) > 4 else "passes,two-level").split(",")
KEEP_PASSES = int(os.environ.get("PASSES", "0"))
RESAMPLES = int(os.environ.get("RESAMPLES", "400"))
YARDSTICKS = (("SM3", "reference"), ("SHA-256", "openssl"))


def load(system):
    """Each ok record's headline and paired ratio, by (instance, implementation, bytes)."""
    out = {}
    for path in glob.glob(os.path.join(TMP, system, system, "records", "*", "*.json")):
        r = json.load(open(path))
        h = r.get("headline") or {}
        q = h.get("paired")
        if r.get("status") != "ok" or not q or not (q.get("self") or q.get("blocks")):
            continue
        if KEEP_PASSES and q.get("blocks"):
            q = dict(q, blocks=q["blocks"][:KEEP_PASSES])
        out[(r["instance"], r["implementation"], r["message_bytes"])] = (h["cycles_per_byte"], q)
    return out


def nearest_rank(v, f):
    v = sorted(v)
    k = math.ceil(f * len(v))
    return v[min(max(k, 1), len(v)) - 1]


def estimate(lib, anc, name):
    if name == "all":
        return statistics.median(l / a for l, a in zip(lib, anc))
    f = float(name[4:]) / 100
    lmin, amin = min(lib), min(anc)
    rank = [l / lmin * (a / amin) for l, a in zip(lib, anc)]
    t = nearest_rank(rank, f)
    return statistics.median(l / a for l, a, c in zip(lib, anc, rank) if c <= t)


def pooled(blocks):
    return ([x for b in blocks for x in b["library"]], [x for b in blocks for x in b["anchor"]])


def interval(blocks, name, how, rng):
    """The estimate and its half-width in logarithms (the larger side of the 95 % interval)."""
    r = estimate(*pooled(blocks), name)
    est = []
    for _ in range(RESAMPLES):
        drawn = [blocks[rng.randrange(len(blocks))] for _ in blocks] if how != "pairs" else blocks
        if how != "passes":
            again = []
            for b in drawn:
                ix = [rng.randrange(len(b["library"])) for _ in b["library"]]
                again.append({"library": [b["library"][i] for i in ix],
                              "anchor": [b["anchor"][i] for i in ix]})
            drawn = again
        est.append(estimate(*pooled(drawn), name))
    est.sort()
    lo, hi = est[int(0.025 * (RESAMPLES - 1))], est[int(0.975 * (RESAMPLES - 1))]
    return r, max(math.log(hi / r), math.log(r / lo), 0.0)


def ratios(d, name, how, rng):
    memo = {}

    def of(key):
        if key not in memo:
            q = d[key][1]
            memo[key] = (1.0, 0.0) if q.get("self") else interval(q["blocks"], name, how, rng)
        return memo[key]

    out = {}
    for (i, m, n), (h, _) in d.items():
        for yi, ym in YARDSTICKS:
            if n < 1024 or (i, m) == (yi, ym) or (yi, ym, n) not in d:
                continue
            (r1, w1), (r2, w2) = of((i, m, n)), of((yi, ym, n))
            out[(i, m, yi, ym, n)] = (r1 / r2, math.hypot(w1, w2), h / d[(yi, ym, n)][0])
    return out


for name in ESTIMATORS:
    for how in BOOTSTRAPS:
        rng = random.Random(1)
        diff, diff_h, half, overlap, total, per = [], [], [], 0, 0, []
        for p in range(1, PAIRS + 1):
            a = ratios(load(f"a{p}"), name, how, rng)
            b = ratios(load(f"b{p}"), name, how, rng)
            o0, n0 = overlap, len(diff)
            for k in sorted(set(a) & set(b)):
                diff.append(abs(a[k][0] - b[k][0]) / min(a[k][0], b[k][0]) * 100)
                diff_h.append(abs(a[k][2] - b[k][2]) / min(a[k][2], b[k][2]) * 100)
                half += [(math.exp(a[k][1]) - 1) * 100, (math.exp(b[k][1]) - 1) * 100]
                la, lb = math.log(a[k][0]), math.log(b[k][0])
                overlap += la - a[k][1] <= lb + b[k][1] and lb - b[k][1] <= la + a[k][1]
                total += 1
            if len(diff) > n0:
                per.append(f"{overlap - o0}/{len(diff) - n0}")
        if not total:
            sys.exit(f"{TMP}: no paired ratios with blocks in a1..a{PAIRS}, b1..b{PAIRS}")
        print(f"{name}, bootstrap {how}: between the campaigns median "
              f"{statistics.median(diff):.2f} % (headlines {statistics.median(diff_h):.2f} %); "
              f"half-width median {statistics.median(half):.2f} %; intervals overlap {overlap} of "
              f"{total} ({100 * overlap / total:.1f} %; pairs {', '.join(per)})")
