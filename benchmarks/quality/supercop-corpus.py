#!/usr/bin/env python3
"""supercop-corpus.py DATA SYSTEM TREE -- what a campaign over a whole SUPERCOP crypto_hash made of
each implementation: verified and timed, or why not, counted by reason (docs/supercop.md).

DATA is the campaign's --data folder, SYSTEM its --system, TREE the SUPERCOP tree it read.
Implementations are those of TREE (every folder below crypto_hash/<primitive>/ holding an api.h,
links followed); "portable C" are those with no assembly, C++ or Rust file, no x86 or ARM
intrinsics header, no inline assembly, and an architectures file (if any) naming amd64.
"""
import collections
import glob
import json
import os
import re
import sys


def reason_of(result, detail):
    d = re.sub(r"^(no compiler setting of \d+ passes; )?with .*? -Wall: ", "", detail or "")
    rules = [
        ("refused to build by its own #error", "refused to build by its own #error"),
        ("needs a CPU feature", "needs a CPU feature this machine lacks (AVX-512, XOP, ...)"),
        ("when making a PIE", "assembly with absolute addresses: cannot link into a PIE program"),
        ("relocation", "assembly with absolute addresses: cannot link into a PIE program"),
        ("undefined reference", "does not link: undefined symbols"),
        ("multiple definition", "does not link: symbols defined twice"),
        ("No such file", "does not compile: a header or file it names is missing"),
        ("failed (exit status", "does not compile here"),
        ("differs from the tree", "a checksum differs from the tree's"),
        ("nondeterministic", "nondeterministic output (try.c)"),
        ("overlap", "does not handle m = h overlap (try.c)"),
        ("crashed", "crashes under try.c"),
    ]
    for needle, name in rules:
        if needle in d:
            return "%s: %s" % (result, name)
    return "%s: %s" % (result, d[:80])


def main():
    data, system, tree = sys.argv[1:4]
    sysdir = os.path.join(data, system)
    impls = []
    for root, _dirs, files in os.walk(os.path.join(tree, "crypto_hash"), followlinks=True):
        if "api.h" in files:
            impls.append(os.path.relpath(root, tree))
    notrun, kat, timed = {}, {}, collections.Counter()
    for f in glob.glob(os.path.join(data, "algorithms", "*.json")):
        for n in (json.load(open(f)).get("supercop") or {}).get("not_run", []):
            notrun[n["path"]] = n
    for f in glob.glob(os.path.join(sysdir, "kat", "*", "*.json")):
        j = json.load(open(f))
        if "supercop" in j:
            kat[j["supercop"]["path"]] = j
    bad_records = []
    for f in glob.glob(os.path.join(sysdir, "records", "*", "*.json")):
        j = json.load(open(f))
        if "supercop" not in j:
            continue
        if j.get("status", "ok") == "ok":
            timed[j["supercop"]["path"]] += 1
        else:
            bad_records.append((j["supercop"]["path"], j["message_bytes"], j["status"],
                                (j.get("detail") or "")[:90]))
    outcome = collections.Counter()
    reasons = collections.Counter()
    for p in impls:
        if p in notrun:
            n = notrun[p]
            r = n["reason"]
            key = ("not for this machine (architectures file)" if n.get("architecture") else
                   "Rust (a Cargo project)" if r.startswith("a Rust") else
                   "needs Crypto++" if "Crypto++" in r else
                   "needs an ARM CPU (NEON)" if "ARM CPU" in r else
                   "calls an operation the tree lacks" if "does not have" in r else r[:60])
            outcome["not run here"] += 1
            reasons["not run: " + key] += 1
        elif p in kat:
            j = kat[p]
            if j["result"] == "PASS":
                outcome["verified and timed" if timed[p] else "verified, no figure"] += 1
            else:
                outcome["failed its checksums or build"] += 1
                reasons[reason_of(j["result"], j.get("detail"))] += 1
        else:
            outcome["missing from the evidence"] += 1
    print("implementations in the tree: %d" % len(impls))
    for k, v in outcome.most_common():
        print("  %-32s %d" % (k, v))
    print("reasons:")
    for k, v in reasons.most_common():
        print("  %4d  %s" % (v, k))
    print("records that did not time: %d" % len(bad_records))
    for b in sorted(bad_records):
        print("  %s at %d B: %s: %s" % b)
    intr = re.compile(r'#\s*include\s*[<"](immintrin|emmintrin|x86intrin|tmmintrin|smmintrin|'
                      r'wmmintrin|nmmintrin|xmmintrin|pmmintrin|ammintrin|arm_neon)\.h')
    portable = []
    for p in impls:
        names = [os.path.join(r, f) for r, _d, fs in os.walk(os.path.join(tree, p), followlinks=True)
                 for f in fs]
        if any(n.endswith((".s", ".S", ".cpp", ".cc", "Cargo.toml")) for n in names):
            continue
        text = "".join(open(n, errors="replace").read() for n in names
                       if n.endswith((".c", ".h", ".inc", ".i")) and os.path.isfile(n))
        if intr.search(text) or "__asm__" in text or "asm volatile" in text:
            continue
        arch = os.path.join(tree, p, "architectures")
        if os.path.exists(arch) and "amd64" not in open(arch).read().split():
            continue
        portable.append(p)
    ok = [p for p in portable if p in kat and kat[p]["result"] == "PASS"]
    print("portable C implementations for this machine: %d, verified %d (%.1f %%)" %
          (len(portable), len(ok), 100.0 * len(ok) / max(1, len(portable))))


if __name__ == "__main__":
    main()
