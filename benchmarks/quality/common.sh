# shellcheck shell=bash
# Shared set-up of the benchmarks/quality scripts (sourced, not run): repository root, the hashbench
# program, a temporary folder, the machine line and a campaign runner.

# HASHBENCH may be relative to the caller's folder: resolve it before leaving that folder.
HB=${HASHBENCH:-}
case $HB in
	'') ;;
	/*) ;;
	*/*) HB=$PWD/$HB ;;
esac
QUALITY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$QUALITY_DIR/../.." && pwd)
cd "$ROOT" || exit 1
HB=${HB:-$ROOT/build/bin/hashbench}
if ! { [ -x "$HB" ] || command -v "$HB" >/dev/null 2>&1; }; then
	echo "$(basename "$0"): $HB is not an executable: run 'make build' or set HASHBENCH" >&2
	exit 1
fi
command -v python3 >/dev/null || { echo "$(basename "$0"): python3 not found" >&2; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/hb-quality.XXXXXX")
quality_cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $TMP" >&2
	else
		rm -rf "$TMP"
	fi
}
trap quality_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Percent of all CPUs' time not idle over one second (the load average also counts sleeping
# kernel threads, so it is not 0 on an idle virtual machine).
quality_busy() {
	local a b
	a=$(sed -n 's/^cpu  //p' /proc/stat)
	sleep 1
	b=$(sed -n 's/^cpu  //p' /proc/stat)
	python3 -c '
import sys
a, b = [list(map(int, s.split())) for s in sys.argv[1:3]]
d = [y - x for x, y in zip(a, b)]
idle = d[3] + d[4]
print(f"{100 * (1 - idle / max(sum(d[:8]), 1)):.1f}")' "$a" "$b"
}

# CPU time (ticks) used so far by all CPUs, and by this script and the children it waited for;
# quality_disturbance prints the difference since quality_machine: what other processes took.
quality_ticks() {
	python3 -c '
import sys
cpu = list(map(int, open("/proc/stat").readline().split()[1:]))
me = open(f"/proc/{sys.argv[1]}/stat").read().rsplit(")", 1)[1].split()
# busy = user nice system irq softirq steal; own = utime stime cutime cstime
print(sum(cpu[i] for i in (0, 1, 2, 5, 6, 7)), sum(int(me[i]) for i in (11, 12, 13, 14)))' "$$"
}
quality_disturbance() {
	local end now
	now=$(date +%s%N)
	end=$(quality_ticks)
	python3 -c '
import os, sys
b0, o0 = map(int, sys.argv[1].split()); b1, o1 = map(int, sys.argv[2].split())
secs = (int(sys.argv[4]) - int(sys.argv[3])) / 1e9
other = max(0, (b1 - b0) - (o1 - o0)) / os.sysconf("SC_CLK_TCK")
print(f"other processes (and steal time, where reported) used {100 * other / secs:.1f} % of one CPU during "
      f"the {secs:.0f} s run (near 0 for undisturbed figures)")' "$QUALITY_TICKS0" "$end" "$QUALITY_T0" "$now"
}

# The first line of every script's output: what machine the figures come from.
quality_machine() {
	local model
	model=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1 || true)
	[ -n "$model" ] || model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	echo "machine: ${model:-unknown CPU}, nproc $(nproc), $(uname -sr)"
	echo "CPU busy before start: $(quality_busy) % of all CPU time over 1 s"
	echo "program: $("$HB" version 2>/dev/null || echo "hashbench, version unknown") at $HB"
	QUALITY_T0=$(date +%s%N)
	QUALITY_TICKS0=$(quality_ticks)
}

# quality_campaign LOG ARG... — runs `hashbench run ARG... $HASHBENCH_ARGS` (e.g.
# HASHBENCH_ARGS=--no-sandbox) with its progress in LOG and prints its summary line. A campaign that finished with failed items (non-zero status) is reported
# and the caller goes on with the records it has; one that did not finish stops the script.
quality_campaign() {
	local log=$1 rc=0 summary
	shift
	# shellcheck disable=SC2086 # HASHBENCH_ARGS is a list of options
	"$HB" run "$@" ${HASHBENCH_ARGS:-} >"$log" 2>&1 || rc=$?
	summary=$(sed -n 's/^hashbench: \(campaign .* finished.*\)/\1/p' "$log" | tail -n 1)
	if [ -z "$summary" ]; then
		echo "$(basename "$0"): hashbench run $* did not finish (status $rc); its last lines:" >&2
		tail -n 10 "$log" >&2
		exit 1
	fi
	# The campaign's notes other than its progress, machine warnings and the figures it flags
	# (counted in its summary; the log has them): failures and anything unexpected.
	grep -v -e '^hashbench: \[' -e '^hashbench: warning:' -e ' finished: ' \
		-e '; left out of the figures$' -e ' above [0-9.]* %$' "$log" |
		sed 's/^hashbench: /  note: /' || true
	# the summary counts the passes left out and the passes more itself
	echo "  $summary"
	if [ "$rc" -ne 0 ]; then
		echo "  warning: hashbench run exited with status $rc (some items failed; KEEP=1 keeps $log)"
	fi
}
