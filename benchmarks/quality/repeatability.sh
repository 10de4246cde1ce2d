#!/usr/bin/env bash
# repeatability.sh — how far apart are two campaigns of the same code on the same machine?
#
# Runs two quick campaigns of the whole bundle back to back (systems rA and rB, --fresh, each in
# its own data folder), then for every point (instance, implementation, message size) of at
# least 1024 bytes measured in both, the relative difference of its cycles/byte
# (Σcycles / Σiterations / bytes over the record's trials): |a - b| / min(a, b).
#
# Output: the number of points, the median and the largest relative difference in percent, and
# the five worst points with both figures; then, for each campaign, how many of its records were
# measured again (rounds far apart, or the sentinel off the campaign's median) and how many of
# them it flagged (disturbed, unstable), and the difference over the points neither flagged. The median is the typical run-to-run noise of a
# published figure; the largest says how far one figure may move when the machine is measured
# again. Points below 1024 bytes are left out: they are dominated by per-call overhead.
#
# Takes about a minute and a half (two quick campaigns). Environment: HASHBENCH (default
# build/bin/hashbench), PROFILE (default quick; guide takes several minutes per campaign),
# KEEP=1 keeps the temporary folder (both evidence trees and logs), A_ARGS and B_ARGS extra
# options of the first and the second campaign (B_ARGS=--no-sandbox: does the sandbox change
# the figures by more than the run-to-run noise?). B_SHARDS=N runs the second campaign as N
# shards (--shard K/N, one after another, each in its own data folder) and compares the first
# with their `hashbench merge`: do merged shards hold the same points, within the noise?
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PROFILE=${PROFILE:-quick}
MIN_BYTES=1024

quality_machine
echo
for sys in rA rB; do
	extra=${A_ARGS:-}
	[ "$sys" = rB ] && extra=${B_ARGS:-}
	if [ "$sys" = rB ] && [ -n "${B_SHARDS:-}" ]; then
		shards=()
		for k in $(seq 1 "$B_SHARDS"); do
			echo "campaign $sys, shard $k/$B_SHARDS: $PROFILE profile${extra:+, $extra}"
			# shellcheck disable=SC2086 # B_ARGS is a list of options
			quality_campaign "$TMP/$sys-$k.log" --system "$sys" --profile "$PROFILE" --fresh \
				--data "$TMP/shard$k" --work "$TMP/work" --shard "$k/$B_SHARDS" $extra
			shards+=("$TMP/shard$k/$sys")
		done
		"$HB" merge --data "$TMP/$sys" "${shards[@]}" 2>&1 | sed 's/^hashbench: /  /'
		continue
	fi
	echo "campaign $sys: $PROFILE profile, whole bundle${extra:+, $extra}"
	# shellcheck disable=SC2086 # A_ARGS and B_ARGS are lists of options
	quality_campaign "$TMP/$sys.log" --system "$sys" --profile "$PROFILE" --fresh \
		--data "$TMP/$sys" --work "$TMP/work" $extra
done

echo
python3 - "$TMP" "$MIN_BYTES" <<'PY'
import glob, json, os, statistics, sys

tmp, min_bytes = sys.argv[1], int(sys.argv[2])

flags = {}

def spread(r):
    s = sorted(r.get("samples") or [])
    return (s[3 * len(s) // 4] - s[len(s) // 4]) / s[len(s) // 2] * 100 if len(s) >= 4 and s[len(s) // 2] else 0

def figures(system):
    """(instance, implementation, bytes) -> cycles/byte of every ok record of one campaign."""
    out = {}
    again = disturbed = unstable = records = 0
    limit = 5.0
    for path in glob.glob(os.path.join(tmp, system, system, "records", "*", "*.json")):
        r = json.load(open(path))
        n = r["message_bytes"]
        if r.get("status") != "ok":
            continue
        records += 1
        again += bool(r.get("retries"))
        disturbed += bool(r.get("disturbed"))
        unstable += spread(r) > limit
        if n < min_bytes:
            continue
        t = r["trials"]
        key = (r["instance"], r["implementation"], n)
        out[key] = sum(x["cycles"] for x in t) / sum(x["iterations"] for x in t) / n
        if r.get("disturbed") or spread(r) > limit:
            flags.setdefault(key, set()).add(system)
    print(f"campaign {system}: {records} records, {again} measured again, {disturbed} still "
          f"disturbed, {unstable} unstable (spread above {limit:g} %)")
    return out

a, b = figures("rA"), figures("rB")
common = sorted(set(a) & set(b))
if not common:
    sys.exit("repeatability.sh: no point of at least %d bytes measured in both campaigns" % min_bytes)
for key in sorted(set(a) ^ set(b)):
    print("left out (measured in one campaign only): %s %s %d B" % key)
diff = {k: abs(a[k] - b[k]) / min(a[k], b[k]) for k in common}
worst = sorted(common, key=lambda k: diff[k], reverse=True)
w = worst[0]
print(f"points: {len(common)} (instance, implementation, size >= {min_bytes} B, measured in both)")
print(f"median relative difference: {100 * statistics.median(diff.values()):.2f} %")
print(f"largest relative difference: {100 * diff[w]:.2f} % ({w[0]} {w[1]} {w[2]} B)")
print()
print("worst 5 points (cycles/byte):")
print(f"{'instance':<10} {'implementation':<15} {'bytes':>6} {'rA':>10} {'rB':>10} {'difference':>11}")
for k in worst[:5]:
    print(f"{k[0]:<10} {k[1]:<15} {k[2]:>6} {a[k]:>10.3f} {b[k]:>10.3f} {100 * diff[k]:>9.2f} %{'  flagged in ' + ','.join(sorted(flags[k])) if k in flags else ''}")
clean = [k for k in common if k not in flags]
print()
print(f"points flagged in either campaign: {len(common) - len(clean)}", end="")
if clean:
    worst_clean = max(clean, key=lambda k: diff[k])
    print(f"; over the {len(clean)} others: median "
          f"{100 * statistics.median(diff[k] for k in clean):.2f} %, largest "
          f"{100 * diff[worst_clean]:.2f} % ({worst_clean[0]} {worst_clean[1]} {worst_clean[2]} B)")
else:
    print(" (all of them)")
PY
echo
quality_disturbance
