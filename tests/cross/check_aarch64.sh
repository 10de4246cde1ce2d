#!/usr/bin/env bash
# check_aarch64.sh — the aarch64 build against the native one, run under qemu-user: the aarch64
# hashgen renders the bundled baselines' evidence to the same bytes as the native hashgen, and
# accepts the native site with --check; the aarch64 hashbench lists the bundled packages as the
# native one does and names the machine aarch64; with qemu registered in binfmt_misc, a quick
# SM3 campaign completes under emulation. The test suite and the sandbox need more than
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

# what hashbench says of the machine: the architecture it runs as, the host as what emulates it
run_arm "$arm/bin/hashbench" env >"$work/env.json" 2>"$work/err" ||
	fail "the aarch64 hashbench env failed: $(head -n 3 "$work/err")"
python3 - "$work/env.json" <<'PY' || fail "hashbench env under qemu-user describes the machine wrongly"
import json, sys
s = json.load(open(sys.argv[1]))
bad = []
if s.get("arch") != "aarch64": bad.append("arch %r, not 'aarch64'" % s.get("arch"))
if "emulated on" not in (s.get("processor") or ""): bad.append("processor %r does not say it is emulated" % s.get("processor"))
c = s.get("counter") or {}
if c.get("name") != "cntvct" or not (c.get("hz") or 0) > 0: bad.append("counter %r, not cntvct with its frequency" % c)
for b in bad: print("check-aarch64: hashbench env: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
summary="the aarch64 hashgen writes the same $files files as the native one and accepts its site; hashbench lists the same $(grep -c '^[a-z]' "$work/list-arm") packages and names the machine aarch64"

# A quick campaign of SM3 under qemu-user: the driver is an aarch64 program started by the
# aarch64 hashbench, which the kernel runs only through binfmt_misc (make deps-aarch64 registers
# qemu there); libraries built by the cross compiler; no sandbox (qemu-user has no seccomp,
# namespaces or Landlock to give).
if [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && grep -q enabled /proc/sys/fs/binfmt_misc/qemu-aarch64; then
	sed 's/^cc = gcc$/cc = aarch64-linux-gnu-gcc/' bench/profiles.conf >"$work/profiles.conf"
	run_arm "$arm/bin/hashbench" run --system arm-qemu --profile quick --only sm3 --sets 2_23 \
		--no-sandbox --profiles "$work/profiles.conf" --data "$work/data" >"$work/run.out" 2>&1 ||
		fail "the campaign under qemu-user failed: $(tail -n 3 "$work/run.out")"
	python3 - "$work/data/arm-qemu" <<'PY' || fail "the campaign under qemu-user wrote wrong evidence (see above)"
import glob, json, os, sys
d = sys.argv[1]
s = json.load(open(os.path.join(d, "system.json")))
recs = sorted(glob.glob(os.path.join(d, "records", "sm3", "*.json")))
bad = ["%s: %s" % (os.path.basename(f), r.get("detail")) for f in recs
       for r in [json.load(open(f))] if r.get("status") != "ok"]
if s.get("arch") != "aarch64": bad.append("system.json: arch %r" % s.get("arch"))
if (s.get("counter") or {}).get("name") != "cntvct": bad.append("system.json: counter %r" % s.get("counter"))
if len(recs) != 16: bad.append("%d records, not 16 (2 instances x 8 sizes)" % len(recs))
# qemu-user has no execveat: the driver is started as /proc/self/fd/N, and the record says so
starts = sorted(set(str(json.load(open(f))["environment"].get("driver_start")) for f in recs))
if starts != ["/proc/self/fd"]: bad.append("environment.driver_start %s, not ['/proc/self/fd']" % starts)
for b in bad: print("check-aarch64: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	"$native/bin/hashgen" --data "$work/data" --templates templates --out "$work/site" >/dev/null 2>&1 ||
		fail "the native hashgen cannot render the evidence of the campaign under qemu-user"
	summary="$summary; a quick SM3 campaign under it measured 16 records on aarch64 (counter cntvct)"
else
	echo "check-aarch64: skipped the campaign under qemu-user: binfmt_misc has no qemu-aarch64 here (the machine forbids it, or make deps-aarch64 did not run as root)" >&2
fi

echo "check-aarch64: under $("$qemu" --version | head -n 1): $summary"
