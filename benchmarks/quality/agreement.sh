#!/usr/bin/env bash
# agreement.sh [IMPL] — does hashbench time a hash the way independent timers do?
#
# On this machine, in one run: a guide-profile campaign of SM3 and SHA-2 at 4096 and 65536 bytes
# (5 passes of 120 blocks of about 1 ms), then two independent timers pinned with taskset to the
# CPU the campaign used (the "cpu" of system.json):
#   - evp_timer.c (compiled here against libcrypto): the same EVP_Digest calls, blocks of about
#     1 ms, the fastest of BLOCKS (300) blocks; the best of RUNS (3) runs;
#   - `openssl speed -elapsed -evp sha256|sm3 -bytes N -seconds SECONDS_PER_SIZE` (1), the best
#     of RUNS runs.
# Their ns per call or bytes per second become cycles/byte through the campaign's counter
# frequency (counter.hz in system.json). hashbench's figure is the record's headline
# (headline.cycles_per_byte: the fastest of the passes' fastest blocks), the
# guide's mean (Σcycles / Σiterations / bytes) printed beside it. With a hardware cycle counter
# (hz null) the script stops: the independent timers count nanoseconds.
#
# IMPL (argument or environment, default openssl) is the hashbench implementation compared:
# `openssl` times the same libcrypto through the CryptHash interface, so its ratio measures the
# harness (call overhead, counter, pinning); `reference` compares the portable C baselines with
# OpenSSL's assembly and is expected to be far from 1.
#
# Output: one line per instance and size with the figures and the ratios headline / evp_timer
# and headline / openssl speed (1.000 = perfect agreement, above 1 = hashbench slower;
# "disturbed" when the campaign marked the record so), then the largest |ratio - 1| of each. `-elapsed` divides by wall-clock time, as hashbench's counters run in wall time;
# OpenSSL's default divisor, user CPU time, leaves out the time the process waited for its CPU
# or spent in the kernel, which flatters OpenSSL on a busy machine.
#
# Each line also gives the headline's 95 % interval and where the evp_timer figure lies against
# it (inside, or how far outside in % of the nearer end). PROFILE (default guide) is the
# campaign's profile.
#
# Takes about a minute. Environment: HASHBENCH (default build/bin/hashbench), OPENSSL
# (default openssl), SECONDS_PER_SIZE (openssl speed -seconds, default 1), RUNS (default 3),
# BLOCKS (default 300), CC (default cc), KEEP=1 keeps the temporary folder (evidence, logs,
# openssl output).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

IMPL=${1:-${IMPL:-openssl}}
OPENSSL=${OPENSSL:-openssl}
SECS=${SECONDS_PER_SIZE:-1}
RUNS=${RUNS:-3}
BLOCKS=${BLOCKS:-300}
PROFILE=${PROFILE:-guide}
"${CC:-cc}" -O2 -o "$TMP/evp_timer" "$QUALITY_DIR/evp_timer.c" -lcrypto
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
echo "campaign: $PROFILE profile, sm3 and sha2, sizes ${SIZES// /, } B"
quality_campaign "$TMP/campaign.log" --system agree --profile "$PROFILE" --only sm3,sha2 \
	--sizes "${SIZES// /,}" --fresh --data "$TMP/data" --work "$TMP/work"

SYS="$TMP/data/agree/system.json"
CPU=$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["cpu"]; print("" if c is None else c)' "$SYS")
if [ -n "$CPU" ]; then
	PIN=(taskset -c "$CPU")
	echo "timers: evp_timer ($BLOCKS blocks) and openssl speed (${SECS} s per size, wall-clock divisor), best of $RUNS, pinned to CPU $CPU"
else
	PIN=()
	echo "openssl speed: ${SECS} s per size, wall-clock divisor, NOT pinned (system.json has no cpu)"
fi
[ -n "$CPU" ] || { echo "agreement.sh: system.json names no CPU to pin the timers to" >&2; exit 1; }
for r in $(seq 1 "$RUNS"); do
	for pair in $PAIRS; do
		md=${pair%%:*}
		for n in $SIZES; do
			"${PIN[@]}" "$OPENSSL" speed -elapsed -evp "$md" -bytes "$n" -seconds "$SECS" \
				>"$TMP/speed-$md-$n-$r.txt" 2>"$TMP/speed-$md-$n-$r.err"
			"$TMP/evp_timer" "$md" "$n" "$CPU" "$BLOCKS" >"$TMP/evp-$md-$n-$r.txt"
		done
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

if not hz:
    sys.exit("agreement.sh: the counter has no fixed frequency (counter.hz is null): the timers' "
             "nanoseconds cannot become its cycles")
runs = int(os.environ.get("RUNS", "3"))
print(f"counter: {counter['name']} at {hz} Hz; timers: cycles/byte = hz x (ns per call) / 1e9 / bytes,"
      f" hz / (bytes/s); best of {runs} runs each")
print()
print(f"{'instance':<10} {'bytes':>6} {'headline':>9} {'interval':>15} {'mean':>8} {'evp_timer':>10} "
      f"{'ratio':>6} {'timer vs interval':>18} {'openssl speed':>14} {'ratio':>6}")
worst_t = worst_s = worst_i = None
for md, inst in pairs:
    for n in sizes:
        if (inst, n) not in records:
            sys.exit(f"agreement.sh: no record of {inst} ({impl}) at {n} bytes")
        path, r = records[(inst, n)]
        if r.get("status") != "ok":
            sys.exit(f"agreement.sh: {path}: status {r.get('status')}: {r.get('detail')}")
        t = r["trials"]
        mean = sum(x["cycles"] for x in t) / sum(x["iterations"] for x in t) / n
        head = (r.get("headline") or {}).get("cycles_per_byte", mean)
        timer = min(float(open(os.path.join(tmp, f"evp-{md}-{n}-{k}.txt")).read())
                    for k in range(1, runs + 1)) * hz / 1e9 / n
        ossl = hz / max(speed(os.path.join(tmp, f"speed-{md}-{n}-{k}.txt"))
                        for k in range(1, runs + 1))
        rt, rs = head / timer, head / ossl
        iv = (r.get("headline") or {}).get("interval") or {}
        lo, hi = iv.get("low_cycles_per_byte", head), iv.get("high_cycles_per_byte", head)
        # how far the timer lies outside the interval, in % of the nearer end (0: inside)
        out = 0.0 if lo <= timer <= hi else (lo - timer) / lo * 100 if timer < lo else \
            (timer - hi) / hi * 100
        where = "inside" if out == 0 else f"{out:.2f} % outside"
        flag = f" {iv['state']}" if iv.get("state", "narrow") != "narrow" else ""
        print(f"{inst:<10} {n:>6} {head:>9.3f} {lo:>7.3f}-{hi:<7.3f} {mean:>8.3f} {timer:>10.3f} "
              f"{rt:>6.3f} {where:>18} {ossl:>14.3f} {rs:>6.3f}{flag}")
        if worst_i is None or out > worst_i[0]:
            worst_i = (out, inst, n)
        if worst_t is None or abs(rt - 1) > worst_t[0]:
            worst_t = (abs(rt - 1), inst, n)
        if worst_s is None or rs - 1 > worst_s[0]:
            worst_s = (rs - 1, inst, n)
print()
print(f"evp_timer outside the headline's interval by at most {worst_i[0]:.2f} % "
      f"({worst_i[1]}, {worst_i[2]} B; 0: always inside); "
      f"largest |headline / evp_timer - 1|: {100 * worst_t[0]:.1f} % ({worst_t[1]}, {worst_t[2]} B); "
      f"largest headline above openssl speed: {100 * worst_s[0]:+.1f} % ({worst_s[1]}, {worst_s[2]} B); "
      f"implementation {impl}")
PY
echo
quality_disturbance
