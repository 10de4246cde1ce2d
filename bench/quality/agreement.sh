#!/usr/bin/env bash
# agreement.sh [IMPL] — does hashbench time a hash the way OpenSSL's own benchmark does?
#
# On this machine, in one run: a guide-profile campaign of SM3 and SHA-2 at 4096 and 65536 bytes
# (5 rounds of about 0.6 s each), then `openssl speed -elapsed -evp sha256|sm3 -bytes N -seconds 3`
# pinned with taskset to the CPU the campaign used (the "cpu" of system.json). OpenSSL's bytes
# per second become cycles/byte through the campaign's counter frequency (counter.hz in
# system.json): cycles/byte = hz / bytes_per_second; hashbench's cycles/byte of a record is
# Σcycles / Σiterations / message bytes over its trials. With a hardware cycle counter (hz null)
# both sides are compared in ns/byte instead (hashbench: Σns / Σiterations / bytes).
#
# IMPL (argument or environment, default openssl) is the hashbench implementation compared:
# `openssl` times the same libcrypto through the CryptHash interface, so its ratio measures the
# harness (call overhead, counter, pinning); `reference` compares the portable C baselines with
# OpenSSL's assembly and is expected to be far from 1.
#
# Output: one line per instance and size with both figures and ratio = hashbench / openssl
# (1.000 = perfect agreement, above 1 = hashbench slower; "disturbed" when the campaign marked
# the record so: its rounds or its sentinel said the machine moved), then the largest |ratio - 1| in
# percent. `-elapsed` divides by wall-clock time, as hashbench's counters run in wall time;
# OpenSSL's default divisor, user CPU time, leaves out the time the process waited for its CPU
# or spent in the kernel, which flatters OpenSSL on a busy machine.
#
# Takes about a minute. Environment: HASHBENCH (default build/bin/hashbench), OPENSSL
# (default openssl), SECONDS_PER_SIZE (openssl speed -seconds, default 3), KEEP=1 keeps the
# temporary folder (evidence, logs, openssl output).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

IMPL=${1:-${IMPL:-openssl}}
OPENSSL=${OPENSSL:-openssl}
SECS=${SECONDS_PER_SIZE:-3}
SIZES="4096 65536"
# openssl speed's digest name → hashbench instance
PAIRS="sha256:SHA-256 sm3:SM3"

quality_machine
echo "openssl: $("$OPENSSL" version)"
command -v taskset >/dev/null || { echo "agreement.sh: taskset not found (util-linux)" >&2; exit 1; }

# Fail now rather than after the campaign when the implementation is not there.
for pair in $PAIRS; do
	inst=${pair#*:}
	if ! "$HB" list | awk -v i="$inst" -v m="$IMPL" '$1 == i && $2 == m { found = 1 } END { exit !found }'; then
		have=$("$HB" list | awk -v i="$inst" '$1 == i { printf "%s%s", sep, $2; sep = ", " }')
		echo "agreement.sh: hashbench has no $inst implementation '$IMPL' (it has: ${have:-none})" >&2
		exit 1
	fi
done

echo
echo "campaign: guide profile, sm3 and sha2, sizes ${SIZES// /, } B"
quality_campaign "$TMP/campaign.log" --system agree --profile guide --only sm3,sha2 \
	--sizes "${SIZES// /,}" --fresh --data "$TMP/data" --work "$TMP/work"

SYS="$TMP/data/agree/system.json"
CPU=$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cpu"]; print("" if c is None else c)' "$SYS")
if [ -n "$CPU" ]; then
	PIN=(taskset -c "$CPU")
	echo "openssl speed: ${SECS} s per size, wall-clock divisor, pinned to CPU $CPU"
else
	PIN=()
	echo "openssl speed: ${SECS} s per size, wall-clock divisor, NOT pinned (system.json has no cpu)"
fi
for pair in $PAIRS; do
	md=${pair%%:*}
	for n in $SIZES; do
		"${PIN[@]}" "$OPENSSL" speed -elapsed -evp "$md" -bytes "$n" -seconds "$SECS" \
			>"$TMP/speed-$md-$n.txt" 2>"$TMP/speed-$md-$n.err"
	done
done

echo
python3 - "$TMP" "$IMPL" "$SIZES" "$PAIRS" <<'PY'
import glob, json, os, sys

tmp, impl, sizes, pairs = sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3].split()], \
    [p.split(":") for p in sys.argv[4].split()]
system = json.load(open(os.path.join(tmp, "data/agree/system.json")))
counter = system["counter"]
hz = counter.get("hz")

def speed(path):
    """bytes/s from the table after "The 'numbers' are in 1000s of bytes per second"."""
    lines = open(path).read().splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("The 'numbers' are in 1000s")), None)
    if start is None or start + 2 >= len(lines) or not lines[start + 1].startswith("type"):
        sys.exit(f"agreement.sh: no 'numbers' table in {path}")
    value = lines[start + 2].split()[-1]
    if not value.endswith("k"):
        sys.exit(f"agreement.sh: {path}: unexpected figure {value!r}")
    return float(value[:-1]) * 1000.0

records = {}
for path in glob.glob(os.path.join(tmp, "data/agree/records/*/*.json")):
    r = json.load(open(path))
    if r.get("implementation") != impl:
        continue
    records[(r["instance"], r["message_bytes"])] = (path, r)

if hz:
    unit = "cycles/byte"
    print(f"counter: {counter['name']} at {hz} Hz; openssl cycles/byte = {hz} / (bytes/s)")
else:
    unit = "ns/byte"
    print(f"counter: {counter['name']} has no fixed frequency (counter.hz is null), so OpenSSL's "
          "bytes/s cannot become cycles: comparing ns/byte (hashbench: Σns/Σiterations/bytes)")
print()
head = ("instance", "bytes", f"hashbench {unit}", f"openssl speed {unit}", "ratio")
print(f"{head[0]:<10} {head[1]:>6} {head[2]:>22} {head[3]:>26} {head[4]:>7}")
worst = None
for md, inst in pairs:
    for n in sizes:
        if (inst, n) not in records:
            sys.exit(f"agreement.sh: no record of {inst} ({impl}) at {n} bytes")
        path, r = records[(inst, n)]
        if r.get("status") != "ok":
            sys.exit(f"agreement.sh: {path}: status {r.get('status')}: {r.get('detail')}")
        t = r["trials"]
        it = sum(x["iterations"] for x in t)
        key = "cycles" if hz else "ns"
        hb = sum(x[key] for x in t) / it / n
        bps = speed(os.path.join(tmp, f"speed-{md}-{n}.txt"))
        ossl = (hz if hz else 1e9) / bps
        ratio = hb / ossl
        flag = " disturbed" if r.get("disturbed") else ""
        print(f"{inst:<10} {n:>6} {hb:>22.3f} {ossl:>26.3f} {ratio:>7.3f}{flag}")
        if worst is None or abs(ratio - 1) > worst[0]:
            worst = (abs(ratio - 1), inst, n)
print()
print(f"largest |ratio - 1|: {100 * worst[0]:.1f} % ({worst[1]}, {worst[2]} B, implementation {impl})")
PY
echo
quality_disturbance
