#!/usr/bin/env bash
# test_aarch64.sh — the whole test suite on the aarch64 build, run under qemu-user through
# binfmt_misc: the tests, hashbench and the drivers it starts are aarch64 programs; `gcc` is the
# cross compiler (tests/cross/cross-gcc.sh), as an aarch64 machine's gcc builds for aarch64. A
# test that needs what qemu-user cannot give its guest (seccomp, namespaces, Landlock, an
# address-space limit of its own) skips and says so; the skipped tests are listed at the end
# (tests/support/run_ctest.sh; in CI only the allowed machine limits of tests/skips-allowed).
#
# usage: tests/cross/test_aarch64.sh AARCH64_BUILD [ctest options…]
set -u -o pipefail

[ $# -ge 1 ] || { echo "usage: $0 AARCH64_BUILD [ctest options...]" >&2; exit 2; }
arm=$(cd "$1" && pwd) || exit 2
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fail() { echo "test-aarch64: $*" >&2; exit 1; }

[ -x "$arm/bin/test_drng" ] || fail "$arm/bin/test_drng: not built (make cross-aarch64 builds the tests with the arm64 Criterion of make deps-aarch64)"
file -b "$arm/bin/test_drng" | grep -q 'ARM aarch64' || fail "$arm: not an aarch64 build"
# the tests run hashbench, and hashbench its driver, as programs: only binfmt_misc runs them
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
	fail "qemu-aarch64 is not registered in binfmt_misc: run make deps-aarch64 as root (the machine may forbid binfmt_misc)"

mkdir -p "$arm/cross-bin"
ln -sf "$here/tests/cross/cross-gcc.sh" "$arm/cross-bin/gcc"
ln -sf "$here/tests/cross/cross-gcc.sh" "$arm/cross-bin/cc"
PATH="$arm/cross-bin:$PATH" "$here/tests/support/run_ctest.sh" "$arm" \
	"test-aarch64 under $(qemu-aarch64 --version | head -n 1)" "$@"
