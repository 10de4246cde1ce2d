#!/usr/bin/env bash
# drift.sh — how far the machine's own best moves within a minute or two, with nothing of
# hashbench in the way: the independent timer (evp_timer.c: the fastest of BLOCKS (600) blocks of
# about 1 ms of the same EVP_Digest calls, pinned to CPU) run RUNS (12) times GAP (4) seconds
# apart, for SM3 at 65536 B and SHA-256 at 4096 B; prints each run's nanoseconds per call and the
# spread from the fastest run to the slowest. On a host whose best moves more than the interval's
# floor in a minute, no campaign of a few seconds can draw an interval narrower than that drift
# (docs/measurement-quality.md). Environment: RUNS, GAP, BLOCKS, CPU (default the last CPU).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

RUNS=${RUNS:-12}
GAP=${GAP:-4}
BLOCKS=${BLOCKS:-600}
CPU=${CPU:-$(($(nproc) - 1))}
"${CC:-cc}" -O2 -o "$TMP/evp_timer" "$QUALITY_DIR/evp_timer.c" -lcrypto

quality_machine
echo "evp_timer: the fastest of $BLOCKS blocks of about 1 ms, $RUNS runs $GAP s apart, CPU $CPU"
for spec in "sm3 65536" "sha256 4096"; do
	set -- $spec
	: >"$TMP/runs"
	for r in $(seq 1 "$RUNS"); do
		"$TMP/evp_timer" "$1" "$2" "$CPU" "$BLOCKS" >>"$TMP/runs"
		[ "$r" = "$RUNS" ] || sleep "$GAP"
	done
	python3 - "$1" "$2" "$TMP/runs" <<'PY'
import sys
name, size, path = sys.argv[1], sys.argv[2], sys.argv[3]
v = [float(l.split()[0]) for l in open(path) if l.strip()]
lo, hi = min(v), max(v)
print(f"{name} {size} B: {len(v)} runs, ns a call {lo:.1f} to {hi:.1f}: the best moved "
      f"{(hi - lo) / lo * 100:.2f} % ({', '.join(f'{x:.1f}' for x in v)})")
PY
done
quality_disturbance
