#!/usr/bin/env bash
# run_ctest.sh — ctest in a build folder, then every skipped test with its reason
# (tests/support/skips.py). In CI (CI set) a skip for any reason but an allowed machine limit
# (tests/skips-allowed) fails the run, as a failed test does.
#
# usage: tests/support/run_ctest.sh BUILD LABEL [ctest options…]
set -u -o pipefail

[ $# -ge 2 ] || { echo "usage: $0 BUILD LABEL [ctest options...]" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
label=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
junit=$build/ctest-junit.xml
rm -f "$junit"
rc=0
# the whole output of passing tests too: Criterion's [SKIP] lines are in it
(cd "$build" && ctest --output-on-failure --test-output-size-passed 4000000 \
	--output-junit "$junit" "$@") || rc=$?
[ -f "$junit" ] || { echo "$label: ctest wrote no $junit" >&2; exit 1; }
python3 "$here/skips.py" "$junit" "$label" ${CI:+--strict} || rc=1
exit "$rc"
