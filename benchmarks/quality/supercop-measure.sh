#!/usr/bin/env bash
# supercop-measure.sh TREE [PRIMITIVE/IMPL...] — does hashbench time a SUPERCOP implementation as
# SUPERCOP's own measure.c does?
#
# For each implementation (default sha256/ref blake2b/ref), in one run on this machine:
#   - a quick hashbench campaign of its primitive at 4096 bytes, built with the tree's first
#     okcompilers/c line (--supercop TREE --only PRIMITIVE --sizes 4096), REPEAT times (default 3);
#   - SUPERCOP's crypto_hash/measure.c with measure-anything.c, compiled with that same line,
#     -DSUPERCOP -DLOOPS=3 and linked with the very objects the campaign built and checked (and
#     the crypto_hashblocks objects they call), run RUNS times (default 5) pinned with taskset to
#     the campaign's timing CPU; each run's figure is the median of its three loops' medians at
#     4096 bytes (measure prints one median of 16 single calls per loop), in cycles per byte.
# Prints hashbench's headlines, measure's runs, the lowest of them and their spread, and how far
# hashbench's figure lies from that lowest. The counter both read is the time-stamp counter
# (measure through hashbench's cpucycles for the try programs, rdtsc as SUPERCOP's amd64-tsc).
# Environment: HASHBENCH, KEEP=1, RUNS, REPEAT, CPU (the timing CPU; default the last).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TREE=${1:?usage: supercop-measure.sh TREE [PRIMITIVE/IMPL...]}
TREE=$(cd "$TREE" && pwd)
shift
IMPLS=("$@")
[ ${#IMPLS[@]} -gt 0 ] || IMPLS=(sha256/ref blake2b/ref)
RUNS=${RUNS:-5}
REPEAT=${REPEAT:-3}
CPU=${CPU:-$(($(nproc) - 1))}
LINE=$(grep -v '^#' "$TREE/okcompilers/c" | head -n 1)

echo "machine: $(quality_machine 2>/dev/null || uname -m)"
echo "compiler line: $LINE"
echo "timing CPU: $CPU"
for spec in "${IMPLS[@]}"; do
	prim=${spec%%/*}
	impl=${spec#*/}
	stem="$prim.${impl//\//-}"
	heads=()
	for r in $(seq 1 "$REPEAT"); do
		data=$TMP/data-$prim-$r
		# exit status 1: some other implementation of the primitive failed its checksums
		"$HB" run --system sc --profile quick --supercop "$TREE" --only "$prim" --sizes 4096 \
			--cpu "$CPU" --data "$data" --work "$TMP/work" >/dev/null 2>"$TMP/run.err" || true
		[ -f "$data/sc/records/$prim/${stem}__hash_4096.json" ] ||
			{ cat "$TMP/run.err" >&2; exit 1; }
		heads+=("$(python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["headline"]["cycles_per_byte"])' \
			"$data/sc/records/$prim/${stem}__hash_4096.json")")
	done
	lib=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["build"]["library"])' \
		"$TMP/data-$prim-1/sc/records/$prim/${stem}__hash_4096.json")
	unit=$(dirname "$lib")
	fw=$(ls -d "$TMP"/work/supercop/framework-* | head -n 1)
	# SUPERCOP's measure-anything.c reads the CPU's name from a generated supercopcpuid.h
	gcc -o "$TMP/cpuid" "$TREE/cpuid/x86.c" 2>/dev/null || gcc -o "$TMP/cpuid" "$TREE/cpuid/unknown.c"
	{ echo 'static const char cpuid[] = {'; "$TMP/cpuid" | od -t x1 -A n | sed 's/ \(..\)/0x\1,/g'; echo '0} ;'; } \
		>"$TMP/supercopcpuid.h"
	deps=$(find "$TMP/work/supercop" -path '*/crypto_hashblocks/*' -name '*.o' ! -name 'hashbench-*' | sort)
	objs=$(find "$unit" -maxdepth 1 -name '*.o' ! -name 'hashbench-*' | sort)
	# shellcheck disable=SC2086
	$LINE -DSUPERCOP -DLOOPS=3 -D'COMPILER="'"$LINE"'"' -I"$unit" -I"$TREE/include" \
		-I"$TREE/cryptoint" -I"$fw" -I"$TMP" -o "$TMP/measure-$prim" "$TREE/crypto_hash/measure.c" \
		"$TREE/measure-anything.c" $objs $deps "$fw"/fw*.o -lm -lcrypto
	runs=()
	for r in $(seq 1 "$RUNS"); do
		runs+=("$(taskset -c "$CPU" "$TMP/measure-$prim" | awk '$1 == "cycles" && $2 == 4096 { print $3 }' |
			sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] / 4096 }')")
	done
	python3 - "$spec" "${heads[*]}" "${runs[*]}" <<'PY'
import sys
spec, heads, runs = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
low = min(runs)
print(f"{spec} at 4096 B, cycles per byte")
print(f"  hashbench headlines: {', '.join('%.2f' % h for h in heads)} (spread {100 * (max(heads) - min(heads)) / min(heads):.1f} %)")
print(f"  SUPERCOP measure.c runs: {', '.join('%.2f' % r for r in runs)} (lowest {low:.2f}, spread {100 * (max(runs) - low) / low:.1f} %)")
for h in heads:
    print(f"  hashbench {h:.2f} against the lowest: {100 * (h - low) / low:+.1f} %")
PY
done
