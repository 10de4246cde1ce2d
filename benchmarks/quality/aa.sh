#!/usr/bin/env bash
# aa.sh — do hashbench's figures repeat, and do their intervals and marks mean something?
#
# The A/A comparison: PAIRS pairs (default 3) of identical quick campaigns back to back (--only
# ONLY, default sm3,sha2, --fresh, each in its own data folder). For each pair, over every figure
# of at least 1024 bytes measured in both: the median and the largest relative difference of the
# headline figure (headline.cycles_per_byte; the guide's mean for a record without one),
# |a - b| / min(a, b); how often the two 95 % intervals (headline.interval) overlap, their median
# half-width, and the figures more than 5 % apart whose intervals overlap though both are
# narrower than 2 % (the interval's calibration); the figures marked in neither run (wide or
# unconfirmed) that lie more than 5 % apart; each run's wide and unconfirmed records and wall
# time. The guide's mean cycles/byte is compared the same way, for contrast.
#
# The paired ratios too (paired_pass.c: each record's headline.paired, its ratio to the anchor):
# every library against SM3's reference and SHA-256 through OpenSSL at 1 KiB and more, the
# second through the anchor (quadrature, as hashgen takes it): how often the two campaigns'
# intervals overlap, their median half-width, and the median difference between the two
# campaigns of the paired ratios and of the same ratios from the headlines.
#
# Then the hog case (HOG=0 leaves it out): a calm quick campaign of ONLY, then the same with a
# busy loop pinned to the timing CPU for HOG_SECONDS (default 10) from HOG_AT (1) seconds into
# it; every headline more than 5 % from the calm campaign's must have an interval that holds the
# calm figure or be marked, every paired ratio lie within 1 % of the calm one's or be marked
# wide, and the script says which do not. With HOG_PAIRED=1 (the default) once more, the busy
# loop over the campaign's last 12 seconds, where the paired passes run.
#
# With HISTORY=N (default 0) the campaigns share one history of the machine, as the campaigns of
# one system do (data/<system>/history.json, whose drift sets the interval's floor): N quick
# campaigns build it first, and every campaign after starts from the history the one before left.
#
# Takes about PAIRS x 60 s plus 90 s (and N x 30 s). Environment: HASHBENCH, KEEP=1, PAIRS, ONLY,
# PROFILE (default quick), CPU (the timing CPU, default the campaign's own choice), HOG,
# HOG_SECONDS, HOG_AT, HOG_PAIRED, HISTORY, ARGS (extra options of every campaign).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PAIRS=${PAIRS:-3}
ONLY=${ONLY:-sm3,sha2}
PROFILE=${PROFILE:-quick}
HOG=${HOG:-1}
HOG_SECONDS=${HOG_SECONDS:-10}
HOG_AT=${HOG_AT:-1}
HISTORY=${HISTORY:-0}
cpu_args=()
[ -n "${CPU:-}" ] && cpu_args=(--cpu "$CPU")

# run SYSTEM DATA [extra...]: one campaign, its wall time in TMP/SYSTEM.time
run() {
	local sys=$1 data=$2 t0 t1
	shift 2
	if [ -f "$TMP/history.json" ]; then
		mkdir -p "$data/$sys"
		cp "$TMP/history.json" "$data/$sys/history.json"
	fi
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # ARGS is a list of options
	quality_campaign "$TMP/$sys.log" --system "$sys" --profile "$PROFILE" --only "$ONLY" --fresh \
		--data "$data" --work "$TMP/work" "${cpu_args[@]}" ${ARGS:-} "$@" | sed 's/^/  /'
	t1=$(date +%s%N)
	if [ "$HISTORY" != 0 ] && [ -f "$data/$sys/history.json" ]; then
		cp "$data/$sys/history.json" "$TMP/history.json"
	fi
	python3 -c 'import sys; print((int(sys.argv[2]) - int(sys.argv[1])) / 1e9)' "$t0" "$t1" \
		>"$TMP/$sys.time"
}

quality_machine
echo
if [ "$HISTORY" != 0 ]; then
	echo "history: $HISTORY campaigns of $ONLY before the pairs"
	for h in $(seq 1 "$HISTORY"); do
		run "h$h" "$TMP/h$h"
	done
fi
for p in $(seq 1 "$PAIRS"); do
	echo "pair $p: two $PROFILE campaigns of $ONLY back to back"
	run "a$p" "$TMP/a$p"
	run "b$p" "$TMP/b$p"
done

if [ "$HOG" = 1 ]; then
	echo "hog: a calm campaign of $ONLY, then one with a busy loop on the timing CPU for $HOG_SECONDS s"
	run calm "$TMP/calm"
	(
		# the hog starts HOG_AT seconds into the campaign, on the CPU the campaign times on
		sleep "$HOG_AT"
		c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["campaign"]["timing_cpus"][0])' \
			"$TMP/calm/calm/system.json")
		date +%s >"$TMP/hog.start"
		timeout "$HOG_SECONDS" taskset -c "$c" sh -c 'while :; do :; done' || true
		date +%s >"$TMP/hog.end"
	) &
	hogger=$!
	run hog "$TMP/hog"
	wait "$hogger"
	if [ "${HOG_PAIRED:-1}" = 1 ]; then
		# the same, the busy loop over the campaign's last seconds, where its paired passes run
		at=$(python3 -c 'import sys; print(max(1, int(float(open(sys.argv[1]).read()) - 12)))' \
			"$TMP/calm.time")
		echo "hog over the paired passes: a busy loop on the timing CPU for $HOG_SECONDS s from $at s"
		(
			sleep "$at"
			c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["campaign"]["timing_cpus"][0])' \
				"$TMP/calm/calm/system.json")
			timeout "$HOG_SECONDS" taskset -c "$c" sh -c 'while :; do :; done' || true
		) &
		hogger=$!
		run hogp "$TMP/hogp"
		wait "$hogger"
	fi
fi

echo
python3 - "$TMP" "$PAIRS" "$HOG" <<'PY'
import glob, json, os, statistics, sys

tmp, pairs, hog = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
MIN_BYTES, FAR = 1024, 5.0

def load(system):
    """(instance, implementation, bytes) -> (headline, mean, disturbed, remeasured, low, high,
    half-width %, interval state) per record."""
    out = {}
    for path in glob.glob(os.path.join(tmp, system, system, "records", "*", "*.json")):
        r = json.load(open(path))
        if r.get("status") != "ok":
            continue
        n, t = r["message_bytes"], r["trials"]
        mean = sum(x["cycles"] for x in t) / sum(x["iterations"] for x in t) / n
        head = (r.get("headline") or {}).get("cycles_per_byte", mean)
        iv = (r.get("headline") or {}).get("interval") or {}
        out[(r["instance"], r["implementation"], n)] = (
            head, mean, bool(r.get("disturbed")), bool(r.get("retries")),
            iv.get("low_cycles_per_byte", head), iv.get("high_cycles_per_byte", head),
            iv.get("half_width_pct", 0.0), iv.get("state"))
    return out

def load_paired(system):
    """(instance, implementation, bytes) -> (ratio to the anchor, low, high, state, self) of
    every record whose headline has its paired ratio (paired_pass.c)."""
    out = {}
    for path in glob.glob(os.path.join(tmp, system, system, "records", "*", "*.json")):
        r = json.load(open(path))
        q = (r.get("headline") or {}).get("paired")
        if r.get("status") == "ok" and q:
            out[(r["instance"], r["implementation"], r["message_bytes"])] = (
                q["ratio"], q["low"], q["high"], q["state"], q["self"])
    return out

YARDSTICKS = (("SM3", "reference"), ("SHA-256", "openssl"))

def ratios(heads, paired):
    """(library, yardstick, bytes) -> (paired ratio, low, high, wide, unpaired ratio): every
    library against each yardstick at 1 KiB and more, the paired ratio the quotient of the two
    ratios to the anchor, their log half-widths in quadrature (as hashgen takes it)."""
    import math
    out = {}
    for (i, m, n), x in paired.items():
        for yi, ym in YARDSTICKS:
            y = paired.get((yi, ym, n))
            if n < MIN_BYTES or (i, m) == (yi, ym) or not y or (i, m, n) not in heads \
                    or (yi, ym, n) not in heads:
                continue
            r = x[0] / y[0]
            lo = r / math.exp(math.hypot(math.log(x[0] / x[1]), math.log(y[2] / y[0])))
            hi = r * math.exp(math.hypot(math.log(x[2] / x[0]), math.log(y[0] / y[1])))
            out[(i, m, yi, ym, n)] = (r, lo, hi, x[3] == "wide" or y[3] == "wide",
                                      heads[(i, m, n)][0] / heads[(yi, ym, n)][0])
    return out

def half(v):
    return max(v[2] / v[0] - 1, 1 - v[1] / v[0]) * 100

def seconds(system):
    return float(open(os.path.join(tmp, system + ".time")).read())

def diff(x, y):
    return abs(x - y) / min(x, y) * 100

def overlap(x, y):
    return x[4] <= y[5] and y[4] <= x[5]

def marked(x):
    return x[7] is not None and x[7] != "narrow" or x[7] is None and x[2]

rows, paired_rows = [], []
for p in range(1, pairs + 1):
    a, b = load(f"a{p}"), load(f"b{p}")
    common = sorted(k for k in set(a) & set(b) if k[2] >= MIN_BYTES)
    if not common:
        sys.exit(f"aa.sh: pair {p}: no figure of at least {MIN_BYTES} B in both campaigns")
    dh = {k: diff(a[k][0], b[k][0]) for k in common}
    dm = {k: diff(a[k][1], b[k][1]) for k in common}
    unflagged = [k for k in common if not marked(a[k]) and not marked(b[k]) and dh[k] > FAR]
    apart = [k for k in common if not overlap(a[k], b[k])]
    narrow_far = [k for k in common if dh[k] > FAR and overlap(a[k], b[k])
                  and a[k][6] < 2 and b[k][6] < 2]
    halves = [a[k][6] for k in common] + [b[k][6] for k in common]
    worst = max(common, key=lambda k: dh[k])
    print(f"pair {p}: {len(common)} figures >= {MIN_BYTES} B; headline: median "
          f"{statistics.median(dh.values()):.2f} %, largest {dh[worst]:.2f} % "
          f"({worst[0]} {worst[1]} {worst[2]} B); guide's mean: median "
          f"{statistics.median(dm.values()):.2f} %, largest {max(dm.values()):.2f} %")
    print(f"  intervals: {len(common) - len(apart)} of {len(common)} overlap "
          f"({100 * (len(common) - len(apart)) / len(common):.1f} %), half-width median "
          f"{statistics.median(halves):.2f} %, largest {max(halves):.2f} %; more than {FAR:g} % "
          f"apart yet overlapping and both narrower than 2 %: {len(narrow_far)}"
          + "".join(f"\n    apart: {k[0]} {k[1]} {k[2]} B {dh[k]:.2f} % (± {a[k][6]:.2f} and "
                    f"± {b[k][6]:.2f} %)" for k in apart))
    print(f"  marked in neither run and more than {FAR:g} % apart: {len(unflagged)}"
          + "".join(f"\n    {k[0]} {k[1]} {k[2]} B: {dh[k]:.2f} %" for k in unflagged))
    for s, d in ((f"a{p}", a), (f"b{p}", b)):
        print(f"  {s}: {len(d)} records, {sum(v[7] == 'wide' for v in d.values())} wide, "
              f"{sum(v[2] for v in d.values())} unconfirmed, "
              f"{sum(v[3] for v in d.values())} with a pass left out, {seconds(s):.1f} s")
    rows.append((statistics.median(dh.values()), dh[worst], len(unflagged), len(common),
                 len(apart), len(narrow_far), statistics.median(halves)))
    ra, rb = ratios(a, load_paired(f"a{p}")), ratios(b, load_paired(f"b{p}"))
    both = sorted(set(ra) & set(rb))
    if both:
        dp = [diff(ra[k][0], rb[k][0]) for k in both]
        du = [diff(ra[k][4], rb[k][4]) for k in both]
        ov = sum(ra[k][1] <= rb[k][2] and rb[k][1] <= ra[k][2] for k in both)
        hw = [half(ra[k]) for k in both] + [half(rb[k]) for k in both]
        print(f"  paired ratios (every library against SM3 reference and SHA-256 OpenSSL, >= "
              f"{MIN_BYTES} B): {ov} of {len(both)} intervals overlap, half-width median "
              f"{statistics.median(hw):.2f} %; between the two campaigns: paired median "
              f"{statistics.median(dp):.2f} % (largest {max(dp):.2f} %), from the headlines "
              f"median {statistics.median(du):.2f} % (largest {max(du):.2f} %)"
              + "".join(f"\n    apart: {k[0]} {k[1]} / {k[2]} {k[3]} {k[4]} B: "
                        f"{ra[k][0]:.4f} ± {half(ra[k]):.2f} % vs {rb[k][0]:.4f} ± "
                        f"{half(rb[k]):.2f} %" for k in both
                        if not (ra[k][1] <= rb[k][2] and rb[k][1] <= ra[k][2])))
        paired_rows.append((len(both), ov, statistics.median(hw), statistics.median(dp),
                            statistics.median(du), hw, dp, du))
if rows:
    n, apart = sum(r[3] for r in rows), sum(r[4] for r in rows)
    print(f"all pairs: median of the medians {statistics.median(r[0] for r in rows):.2f} %, "
          f"worst median {max(r[0] for r in rows):.2f} %, largest {max(r[1] for r in rows):.2f} %, "
          f"unmarked figures more than {FAR:g} % apart {sum(r[2] for r in rows)}; intervals "
          f"overlap for {n - apart} of {n} ({100 * (n - apart) / n:.1f} %), half-width median "
          f"{statistics.median(r[6] for r in rows):.2f} % (largest pair median "
          f"{max(r[6] for r in rows):.2f} %), far apart yet narrow and overlapping "
          f"{sum(r[5] for r in rows)}")

if paired_rows:
    n, ov = sum(r[0] for r in paired_rows), sum(r[1] for r in paired_rows)
    print(f"all pairs, paired ratios: intervals overlap for {ov} of {n} ({100 * ov / n:.1f} %), "
          f"half-width median {statistics.median(h for r in paired_rows for h in r[5]):.2f} %; "
          f"median difference between the campaigns of a pair: paired "
          f"{statistics.median(d for r in paired_rows for d in r[6]):.2f} %, from the headlines "
          f"{statistics.median(d for r in paired_rows for d in r[7]):.2f} %")

def hog_paired(name):
    """Each paired ratio of the hogged campaign against the calm one's: within 1 % or wide."""
    c, h = load_paired("calm"), load_paired(name)
    common = sorted(k for k in set(c) & set(h) if not c[k][4])
    off = [k for k in common if diff(c[k][0], h[k][0]) > 1.0]
    missed = [k for k in off if h[k][3] != "wide"]
    print(f"{name}: paired ratios: {len(common)}, {len(off)} more than 1 % from the calm "
          f"campaign's, {len(missed)} of those not marked wide"
          + "".join(f"\n    missed: {k[0]} {k[1]} {k[2]} B {diff(c[k][0], h[k][0]):.2f} %"
                    for k in missed))

if hog:
    hog_paired("hog")
    if os.path.exists(os.path.join(tmp, "hogp.time")):
        hog_paired("hogp")
    calm, hogged = load("calm"), load("hog")
    common = sorted(set(calm) & set(hogged))
    far = [k for k in common if diff(calm[k][0], hogged[k][0]) > FAR]
    missed = [k for k in far if not marked(hogged[k])
              and not hogged[k][4] <= calm[k][0] <= hogged[k][5]]
    print(f"hog: {len(common)} figures, {sum(marked(v) for v in hogged.values())} marked wide or "
          f"unconfirmed, {len(far)} more than {FAR:g} % from the calm campaign's, {len(missed)} "
          f"of those neither marked nor with an interval holding the calm figure"
          + "".join(f"\n    missed: {k[0]} {k[1]} {k[2]} B {diff(calm[k][0], hogged[k][0]):.1f} %"
                    for k in missed) + f"; calm {seconds('calm'):.1f} s, hogged {seconds('hog'):.1f} s")
PY
echo
quality_disturbance
