#!/usr/bin/env bash
# run.sh [--runs N | --time S] [TARGET...] — run the libFuzzer harnesses of build-fuzz/ (make
# fuzz) one after the other, each over a fresh copy of its seed corpus tests/fuzz/corpus/<target>/,
# and print per target: executions, seconds, executions per second, final coverage (cov: edges, ft:
# features) and whether it found anything. Exit status 1 when any target found a crash, leak,
# undefined behaviour, timeout or out-of-memory: the input is then in build-fuzz/findings/ (add
# it to the corpus once the reader is fixed, so that fuzz_regress_<target> keeps it).
#
# --runs N stops each target after N executions (default), --time S after S seconds.
# Environment: FUZZ_BUILD (default build-fuzz), FUZZ_NICE (a nice level, e.g. 19), FUZZ_KEEP=1
# keeps the grown corpora and logs in $FUZZ_BUILD/run/<pid>/ (else only those of findings).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
all="kat kat_gz manifest header profiles catalog evidence sums cache"
limit="-runs=10000000"
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) limit="-runs=$2"; shift 2 ;;
	--time) limit="-max_total_time=$2"; shift 2 ;;
	-h|--help) sed -n '2,12p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
targets="${*:-$all}"
build="${FUZZ_BUILD:-build-fuzz}"
work="$build/run/$$" # one per invocation: a short run beside a long one is fine
findings="$build/findings"
nice_cmd=()
[ -n "${FUZZ_NICE:-}" ] && nice_cmd=(nice -n "$FUZZ_NICE")
# shorter allocation stacks and no fill of new memory: the readers allocate on every input
asan=detect_leaks=1:abort_on_error=1:malloc_context_size=10:max_malloc_fill_size=0
export ASAN_OPTIONS="${ASAN_OPTIONS:-$asan}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

mkdir -p "$work" "$findings"
printf '%-10s %12s %9s %10s %7s %8s  %s\n' target executions seconds exec/s cov ft finding
failed=0
for t in $targets; do
	exe="$build/bin/fuzz_$t"
	if [ ! -x "$exe" ]; then
		echo "run.sh: $exe is missing: run make fuzz first" >&2
		exit 2
	fi
	rm -rf "$work/$t" "$work/$t.log"
	mkdir -p "$work/$t"
	cp tests/fuzz/corpus/"$t"/* "$work/$t/"
	start=$(date +%s.%N)
	"${nice_cmd[@]}" "$exe" "$limit" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$findings/$t-" "$work/$t" >"$work/$t.log" 2>&1
	rc=$?
	end=$(date +%s.%N)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log" | tail -1)
	last=$(grep -E '^#[0-9]+.*cov: ' "$work/$t.log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
	[ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")
	rate=$(awk -v n="${execs:-0}" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0) ? n / s : 0 }')
	if [ $rc -eq 0 ]; then
		finding=none
	else
		failed=1
		art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$work/$t.log" | tail -1)
		kind=$(grep -m1 -oE 'ERROR: ([A-Za-z]+Sanitizer|libFuzzer): [a-z-]+|runtime error: .*' \
			"$work/$t.log" | head -1)
		finding="YES (exit $rc${kind:+: $kind}${art:+; input $art})"
	fi
	printf '%-10s %12s %9s %10s %7s %8s  %s\n' "$t" "${execs:-?}" "$secs" "$rate" "${cov:-?}" \
		"${ft:-?}" "$finding"
	[ $rc -ne 0 ] && tail -30 "$work/$t.log" | sed 's/^/    /' >&2
	[ -z "${FUZZ_KEEP:-}" ] && [ $rc -eq 0 ] && rm -rf "$work/$t" "$work/$t.log"
done
rmdir "$work" 2>/dev/null
exit $failed
