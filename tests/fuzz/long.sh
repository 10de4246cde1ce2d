#!/usr/bin/env bash
# long.sh [TARGET...] — the fuzzing benchmark: every harness (or those named) to 10 million
# executions, one at a time under `nice -n 19`, after printing the machine and the commit. Per
# target: executions, seconds, exec/s, final coverage (cov:, ft:) and whether there was a finding
# (then its input is in build-fuzz/findings/). Builds with `make fuzz` first. About an hour on a
# 2-core virtual machine; run it in the background: nohup tests/fuzz/long.sh > fuzz-long.txt &
# Environment: FUZZ_RUNS (default 10000000), FUZZ_NICE (default 19); see run.sh.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
echo "long.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -m), $(nproc) CPUs," \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "long.sh: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"$(git diff --quiet 2>/dev/null || echo '(with uncommitted changes)')," \
	"$(clang --version | head -1)"
make --no-print-directory fuzz || exit 2
FUZZ_NICE="${FUZZ_NICE:-19}" exec tests/fuzz/run.sh --runs "${FUZZ_RUNS:-10000000}" "$@"
