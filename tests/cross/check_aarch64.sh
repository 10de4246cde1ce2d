#!/usr/bin/env bash
# check_aarch64.sh — the aarch64 build against the native one, run under qemu-user: the aarch64
# hashgen renders the bundled baselines' evidence to the same bytes as the native hashgen, and
# accepts the native site with --check; the aarch64 hashbench lists the bundled packages as the
# native one does and names the machine aarch64; with qemu registered in binfmt_misc, a quick
# SM3 campaign completes under emulation, its pages call the cntvct figures ticks, and run again
# with --core-hz 2710000000 its figures are ticks × 2710000000 / the counter's rate, stated on the
# page. The test suite and the sandbox need more than qemu-user gives (see docs/arm.md).
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
	# The same records with a declared core clock: the campaign run again with --core-hz resumes,
	# keeps every record (the ticks as read) and declares the conversion in system.json.
	cp -r "$work/data" "$work/data-hz"
	run_arm "$arm/bin/hashbench" run --system arm-qemu --profile quick --only sm3 --sets 2_23 \
		--no-sandbox --profiles "$work/profiles.conf" --data "$work/data-hz" --core-hz 2710000000 \
		>"$work/run-hz.out" 2>&1 || fail "the campaign with --core-hz under qemu-user failed: $(tail -n 3 "$work/run-hz.out")"
	"$native/bin/hashgen" --data "$work/data-hz" --templates templates --out "$work/site-hz" >/dev/null 2>&1 ||
		fail "the native hashgen cannot render the evidence of the campaign with --core-hz"
	python3 - "$work" >"$work/units" <<'PY' || fail "the pages of the campaign under qemu-user name its figures wrongly (see above)"
import glob, json, os, re, sys
w = sys.argv[1]
bad = []
# what calls a figure cycles: a unit after a number, the labels of the tables and charts
label = re.compile(r"cycles(/| per (byte|call)| at | vs\.)|(mean|median|headline|usual best) cycles|[0-9] cycles|cycles are", re.I)
def pages(site):
    return sorted(f for f in glob.glob(os.path.join(site, "arm-qemu", "*"))
                  if f.endswith((".html", ".md", ".svg", ".csv")))
def counter(d):
    return json.load(open(os.path.join(w, d, "arm-qemu", "system.json")))["counter"]
def hz_text(hz):
    return ("%.4g GHz" % (hz / 1e9)) if hz >= 1e9 else ("%.4g MHz" % (hz / 1e6))
def csv_units(site):
    # the downloads: every part the index lists
    units = set()
    for part in json.load(open(os.path.join(site, "results-index.json")))["parts"]:
        lines = open(os.path.join(site, part["csv"]), encoding="utf-8", newline="").read().split("\r\n")
        col = lines[0].split(",").index("unit")
        units |= set(l.split(",")[col] for l in lines[1:] if l.startswith("arm-qemu,"))
    return sorted(units)

# without --core-hz: counter ticks, and no figure of the system's pages is called cycles
c = counter("data")
hz = c.get("hz") or 0
if (c.get("unit"), c.get("core_hz"), c.get("counts_core_cycles")) != ("ticks", None, False):
    bad.append("system.json without --core-hz: counter %r" % c)
files = pages(os.path.join(w, "site"))
for f in files:
    m = label.search(open(f, encoding="utf-8").read())
    if m:
        bad.append("%s calls a figure cycles: %r" % (os.path.basename(f), m.group(0)))
sm3 = open(os.path.join(w, "site", "arm-qemu", "sm3.md"), encoding="utf-8").read()
row = "| counter | cntvct at %s: not the core's clock; the figures are counter ticks |" % hz_text(hz)
if row not in sm3: bad.append("sm3.md has no row %r" % row)
if "| mean ticks | ticks/byte |" not in sm3: bad.append("sm3.md: the performance table is not headed in ticks")
if csv_units(os.path.join(w, "site")) != ["ticks"]: bad.append("the downloads: arm-qemu's unit %s" % csv_units(os.path.join(w, "site")))

# with --core-hz 2710000000: every figure is ticks x core_hz / hz, and the pages say so
c = counter("data-hz")
if (c.get("unit"), c.get("core_hz"), c.get("hz")) != ("cycles", 2710000000, hz):
    bad.append("system.json with --core-hz: counter %r" % c)
k = 2710000000 / hz
# the records are the ones read without --core-hz, byte for byte: only the declaration changed
for f in glob.glob(os.path.join(w, "data", "arm-qemu", "records", "sm3", "*.json")):
    if open(f, "rb").read() != open(f.replace(os.path.join(w, "data"), os.path.join(w, "data-hz"), 1), "rb").read():
        bad.append("%s: the run with --core-hz rewrote the record" % os.path.basename(f))
sm3 = open(os.path.join(w, "site-hz", "arm-qemu", "sm3.md"), encoding="utf-8").read()
def shown(cell):
    v = cell.strip().rstrip("†‡").strip()
    unit = {"k": (1e3, 0.05e3), "M": (1e6, 0.005e6)}.get(v[-1:], (1, 0.5))
    return float(v.split()[0]) * unit[0], unit[1]
checked = 0
for f in sorted(glob.glob(os.path.join(w, "data-hz", "arm-qemu", "records", "sm3", "*.json"))):
    r = json.load(open(f))
    ticks = sum(t["cycles"] for t in r["trials"]) / sum(t["iterations"] for t in r["trials"])
    cycles = ticks * k
    inst = "`%s`" % r["instance"] + ("" if r["implementation"] == "reference" else " (%s)" % r["implementation"])
    m = re.search(r"^\| %s \| %d B \| ([^|]+) \| ([^|]+) \|" % (re.escape(inst), r["message_bytes"]), sm3, re.M)
    if not m:
        bad.append("sm3.md: no row of %s at %d B" % (inst, r["message_bytes"]))
        continue
    (mean, tol), cpb = shown(m.group(1)), float(m.group(2))
    if abs(mean - cycles) > tol * 1.0001 or abs(cpb - cycles / r["message_bytes"]) > 0.05001:
        bad.append("sm3.md: %s at %d B shows %s and %s cycles/byte; ticks %.1f x %s / %s = %.1f" % (
            inst, r["message_bytes"], m.group(1).strip(), m.group(2).strip(), ticks, 2710000000, hz, cycles))
    checked += 1
row = "| counter | cntvct at %s; cycles = ticks × 2.71 GHz (the declared core clock) / %s |" % (hz_text(hz), hz_text(hz))
if row not in sm3: bad.append("sm3.md has no row %r" % row)
method = open(os.path.join(w, "site-hz", "arm-qemu", "method.html"), encoding="utf-8").read()
rule = "cycles = ticks × 2710000000 / %d" % hz
if rule not in method: bad.append("method.html does not say %r" % rule)
if csv_units(os.path.join(w, "site-hz")) != ["cycles"]: bad.append("the downloads with --core-hz: arm-qemu's unit %s" % csv_units(os.path.join(w, "site-hz")))
if checked != 16: bad.append("%d figures checked against their records, not 16" % checked)
for b in bad: print("check-aarch64: " + b, file=sys.stderr)
print("without --core-hz none of its %d pages, charts and CSV files calls a figure cycles; "
      "with --core-hz 2710000000 its 16 figures are ticks x 2710000000 / %d on the page, which says so" % (len(files), hz))
sys.exit(1 if bad else 0)
PY
	summary="$summary; a quick SM3 campaign under it measured 16 records on aarch64 (counter cntvct): $(cat "$work/units")"
else
	echo "check-aarch64: skipped the campaign under qemu-user: binfmt_misc has no qemu-aarch64 here (the machine forbids it, or make deps-aarch64 did not run as root)" >&2
fi

echo "check-aarch64: under $("$qemu" --version | head -n 1): $summary"
