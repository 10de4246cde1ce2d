#!/usr/bin/env bash
# check_aarch64.sh — the aarch64 build against the native one, run under qemu-user: the aarch64
# hashgen renders the bundled baselines' evidence to the same bytes as the native hashgen, and
# accepts the native site with --check; the aarch64 hashbench lists the bundled packages as the
# native one does. It runs the programs only: the test suite, sandbox and timing need more than
# qemu-user gives (see docs/arm.md).
#
# usage: tests/cross/check_aarch64.sh NATIVE_BUILD AARCH64_BUILD
set -u -o pipefail

[ $# -eq 2 ] || { echo "usage: $0 NATIVE_BUILD AARCH64_BUILD" >&2; exit 2; }
native=$1 arm=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fail() { echo "check-aarch64: $*" >&2; exit 1; }

qemu=$(command -v qemu-aarch64) || fail "qemu-aarch64 not found (make deps-aarch64 installs qemu-user)"
for p in "$native/bin/hashgen" "$native/bin/hashbench" "$arm/bin/hashgen" "$arm/bin/hashbench"; do
	[ -x "$p" ] || fail "$p: not built"
done
file -b "$arm/bin/hashgen" | grep -q 'ARM aarch64' || fail "$arm/bin/hashgen: not an aarch64 program"
# the arm64 libraries and loader are installed beside the native ones (multiarch): root is /
run_arm() { "$qemu" -L / "$@"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here" || exit 1

run_arm "$arm/bin/hashgen" --version >"$work/version" 2>&1 || fail "hashgen --version under qemu: $(cat "$work/version")"
[ "$(cat "$work/version")" = "$("$native/bin/hashgen" --version)" ] ||
	fail "the two builds are not of the same commit: '$(cat "$work/version")' against '$("$native/bin/hashgen" --version)'"

data=tests/fixtures/baselines
"$native/bin/hashgen" --data "$data" --templates templates --out "$work/native" >/dev/null \
	2>"$work/err" || fail "the native hashgen could not render $data: $(head -n 3 "$work/err")"
run_arm "$arm/bin/hashgen" --data "$data" --templates templates --out "$work/arm" >/dev/null 2>"$work/err" ||
	fail "the aarch64 hashgen could not render $data: $(head -n 3 "$work/err")"
if ! diff -r "$work/native" "$work/arm" >"$work/diff" 2>&1; then
	echo "check-aarch64: the aarch64 hashgen's site differs from the native one's:" >&2
	head -n 20 "$work/diff" >&2
	exit 1
fi
files=$(find "$work/arm" -type f | wc -l)
run_arm "$arm/bin/hashgen" --data "$data" --templates templates --out "$work/native" --check \
	>"$work/check" 2>&1 || fail "the aarch64 hashgen --check rejects the native site: $(head -n 3 "$work/check")"

"$native/bin/hashbench" list --submissions bench/algorithms >"$work/list-native" 2>&1 ||
	fail "the native hashbench list failed"
run_arm "$arm/bin/hashbench" list --submissions bench/algorithms >"$work/list-arm" 2>&1 ||
	fail "the aarch64 hashbench list failed: $(head -n 3 "$work/list-arm")"
diff "$work/list-native" "$work/list-arm" >"$work/diff" ||
	fail "the aarch64 hashbench lists the bundled packages differently: $(head -n 5 "$work/diff")"

echo "check-aarch64: under $("$qemu" --version | head -n 1): the aarch64 hashgen writes the same $files files as the native one and accepts its site; hashbench lists the same $(grep -c '^[a-z]' "$work/list-arm") packages"
