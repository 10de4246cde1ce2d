#!/usr/bin/env bash
# compare-quality.sh — does hashbench compare say what is true? RUNS (20) comparisons of SM3's
# reference with itself (A/A: every size should read "within noise") and RUNS of SHA-256's
# reference against SHA-256 through OpenSSL (every size of 1 KiB and more should read "slower"),
# one after the other, each with the command's defaults (6 passes of 20 rounds, noise 1 %); prints
# each run's ratios and verdicts, how many runs gave the expected verdict at every size, and how
# far each size's ratio moved over the runs. Environment: HASHBENCH, KEEP=1, RUNS, SIZES (default
# the guide's), ARGS (extra options of every compare).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

RUNS=${RUNS:-20}
size_args=()
[ -n "${SIZES:-}" ] && size_args=(--sizes "$SIZES")

quality_machine
for spec in "SM3:reference SM3:reference" "SHA-256:reference SHA-256:openssl"; do
	set -- $spec
	echo "compare $1 $2: $RUNS runs"
	for r in $(seq 1 "$RUNS"); do
		rc=0
		# shellcheck disable=SC2086 # ARGS is a list of options
		"$HB" compare "$1" "$2" "${size_args[@]}" --json "$TMP/$1-$2-$r.json" ${ARGS:-} \
			>"$TMP/$1-$2-$r.txt" 2>"$TMP/$1-$2-$r.err" || rc=$?
		if [ "$rc" -gt 1 ]; then
			echo "  run $r: exit $rc: $(tail -n 1 "$TMP/$1-$2-$r.err")"
		fi
	done
done
python3 - "$TMP" "$RUNS" <<'PY'
import glob, json, os, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
for a, b, want, minb in (("SM3:reference", "SM3:reference", "within noise", 0),
                         ("SHA-256:reference", "SHA-256:openssl", "slower", 1024)):
    good, ratios, halves = 0, {}, []
    for r in range(1, runs + 1):
        path = os.path.join(tmp, f"{a}-{b}-{r}.json")
        if not os.path.exists(path):
            print(f"  {a} vs {b} run {r}: no evidence")
            continue
        d = json.load(open(path))
        sizes = [s for s in d["sizes"] if s["bytes"] >= minb]
        ok = all(s["verdict"] == want for s in sizes)
        good += ok
        for s in sizes:
            ratios.setdefault(s["bytes"], []).append(s["ratio"])
            halves.append((s["ratio_high"] - s["ratio_low"]) / 2 / s["ratio"] * 100)
        print(f"  {a} vs {b} run {r}: " + ", ".join(f"{s['bytes']} B {s['ratio']:.4f} "
              f"({s['ratio_low']:.4f}-{s['ratio_high']:.4f}) {s['verdict']}" for s in sizes))
    spread = {k: (max(v) - min(v)) / min(v) * 100 for k, v in ratios.items()}
    print(f"{a} vs {b}: '{want}' at every size{' of %d B and more' % minb if minb else ''} in "
          f"{good} of {runs} runs; ratio half-width median {statistics.median(halves):.2f} %; the "
          f"ratio's spread over the runs, per size: " +
          ", ".join(f"{k} B {v:.2f} %" for k, v in sorted(spread.items())))
PY
quality_disturbance
