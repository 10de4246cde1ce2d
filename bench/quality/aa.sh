#!/usr/bin/env bash
# aa.sh — do hashbench's figures repeat, and does its "disturbed" flag mean something?
#
# The A/A comparison: PAIRS pairs (default 3) of identical quick campaigns back to back (--only
# ONLY, default sm3,sha2, --fresh, each in its own data folder). For each pair, over every figure
# of at least 1024 bytes measured in both: the median and the largest relative difference of the
# headline figure (headline.cycles_per_byte; the guide's mean for a record without one),
# |a - b| / min(a, b); how many figures flagged in neither run (not disturbed) lie more than 5 %
# apart; the records each run marked disturbed and measured again; each campaign's wall time.
# The guide's mean cycles/byte is compared the same way, for contrast.
#
# Then the hog case (HOG=0 leaves it out): a calm quick campaign of sm3, then the same with a
# busy loop pinned to the timing CPU for HOG_SECONDS (default 10) from the end of the first pass;
# every headline more than 5 % from the calm campaign's must be flagged, and the script says
# which are not.
#
# Takes about PAIRS x 25 s plus 20 s. Environment: HASHBENCH, KEEP=1, PAIRS, ONLY, PROFILE
# (default quick), CPU (the timing CPU, default the campaign's own choice), HOG, HOG_SECONDS,
# ARGS (extra options of every campaign).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PAIRS=${PAIRS:-3}
ONLY=${ONLY:-sm3,sha2}
PROFILE=${PROFILE:-quick}
HOG=${HOG:-1}
HOG_SECONDS=${HOG_SECONDS:-10}
cpu_args=()
[ -n "${CPU:-}" ] && cpu_args=(--cpu "$CPU")

# run SYSTEM DATA [extra...]: one campaign, its wall time in TMP/SYSTEM.time
run() {
	local sys=$1 data=$2 t0 t1
	shift 2
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # ARGS is a list of options
	quality_campaign "$TMP/$sys.log" --system "$sys" --profile "$PROFILE" --only "$ONLY" --fresh \
		--data "$data" --work "$TMP/work" "${cpu_args[@]}" ${ARGS:-} "$@" | sed 's/^/  /'
	t1=$(date +%s%N)
	python3 -c 'import sys; print((int(sys.argv[2]) - int(sys.argv[1])) / 1e9)' "$t0" "$t1" \
		>"$TMP/$sys.time"
}

quality_machine
echo
for p in $(seq 1 "$PAIRS"); do
	echo "pair $p: two $PROFILE campaigns of $ONLY back to back"
	run "a$p" "$TMP/a$p"
	run "b$p" "$TMP/b$p"
done

if [ "$HOG" = 1 ]; then
	echo "hog: a calm campaign of sm3, then one with a busy loop on the timing CPU for $HOG_SECONDS s"
	ONLY=sm3 run calm "$TMP/calm"
	(
		# the hog starts once the first pass is done, on the CPU the campaign times on
		for _ in $(seq 1 600); do
			grep -q 'pass 1: ' "$TMP/hog.log" 2>/dev/null && break
			sleep 0.05
		done
		c=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["campaign"]["timing_cpus"][0])' \
			"$TMP/calm/calm/system.json")
		date +%s >"$TMP/hog.start"
		timeout "$HOG_SECONDS" taskset -c "$c" sh -c 'while :; do :; done' || true
		date +%s >"$TMP/hog.end"
	) &
	hogger=$!
	ONLY=sm3 run hog "$TMP/hog"
	wait "$hogger"
fi

echo
python3 - "$TMP" "$PAIRS" "$HOG" <<'PY'
import glob, json, os, statistics, sys

tmp, pairs, hog = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
MIN_BYTES, FAR = 1024, 5.0

def load(system):
    """(instance, implementation, bytes) -> (headline, mean, disturbed, remeasured) per record."""
    out = {}
    for path in glob.glob(os.path.join(tmp, system, system, "records", "*", "*.json")):
        r = json.load(open(path))
        if r.get("status") != "ok":
            continue
        n, t = r["message_bytes"], r["trials"]
        mean = sum(x["cycles"] for x in t) / sum(x["iterations"] for x in t) / n
        head = (r.get("headline") or {}).get("cycles_per_byte", mean)
        out[(r["instance"], r["implementation"], n)] = (head, mean, bool(r.get("disturbed")),
                                                        bool(r.get("retries")))
    return out

def seconds(system):
    return float(open(os.path.join(tmp, system + ".time")).read())

def diff(x, y):
    return abs(x - y) / min(x, y) * 100

rows = []
for p in range(1, pairs + 1):
    a, b = load(f"a{p}"), load(f"b{p}")
    common = sorted(k for k in set(a) & set(b) if k[2] >= MIN_BYTES)
    if not common:
        sys.exit(f"aa.sh: pair {p}: no figure of at least {MIN_BYTES} B in both campaigns")
    dh = {k: diff(a[k][0], b[k][0]) for k in common}
    dm = {k: diff(a[k][1], b[k][1]) for k in common}
    unflagged = [k for k in common if not a[k][2] and not b[k][2] and dh[k] > FAR]
    worst = max(common, key=lambda k: dh[k])
    print(f"pair {p}: {len(common)} figures >= {MIN_BYTES} B; headline: median "
          f"{statistics.median(dh.values()):.2f} %, largest {dh[worst]:.2f} % "
          f"({worst[0]} {worst[1]} {worst[2]} B); guide's mean: median "
          f"{statistics.median(dm.values()):.2f} %, largest {max(dm.values()):.2f} %")
    print(f"  flagged in neither run and more than {FAR:g} % apart: {len(unflagged)}"
          + "".join(f"\n    {k[0]} {k[1]} {k[2]} B: {dh[k]:.2f} %" for k in unflagged))
    for s, d in ((f"a{p}", a), (f"b{p}", b)):
        print(f"  {s}: {len(d)} records, {sum(v[2] for v in d.values())} disturbed "
              f"({100 * sum(v[2] for v in d.values()) / max(len(d), 1):.0f} %), "
              f"{sum(v[3] for v in d.values())} with a pass measured again, {seconds(s):.1f} s")
    rows.append((statistics.median(dh.values()), dh[worst], len(unflagged)))
if rows:
    print(f"all pairs: median of the medians {statistics.median(r[0] for r in rows):.2f} %, "
          f"worst median {max(r[0] for r in rows):.2f} %, largest {max(r[1] for r in rows):.2f} %, "
          f"unflagged figures more than {FAR:g} % apart {sum(r[2] for r in rows)}")

if hog:
    calm, hogged = load("calm"), load("hog")
    common = sorted(set(calm) & set(hogged))
    far = [k for k in common if diff(calm[k][0], hogged[k][0]) > FAR]
    missed = [k for k in far if not hogged[k][2]]
    print(f"hog: {len(common)} figures, {sum(v[2] for v in hogged.values())} marked disturbed, "
          f"{len(far)} more than {FAR:g} % from the calm campaign's, {len(missed)} of those unflagged"
          + "".join(f"\n    unflagged: {k[0]} {k[1]} {k[2]} B {diff(calm[k][0], hogged[k][0]):.1f} %"
                    for k in missed) + f"; calm {seconds('calm'):.1f} s, hogged {seconds('hog'):.1f} s")
PY
echo
quality_disturbance
