#!/usr/bin/env bash
# Regenerates the submitted KAT files of the bundled baselines with hashbench's own ICCS KAT
# procedure: KAT_2_23 and KAT_Loop as they are, KAT_2_12 gzip-compressed (gzip -n: no
# timestamp, so the same bytes every time).
# Usage: bench/baseline-kat.sh [build/bin/hashbench]
set -euo pipefail
cd "$(dirname "$0")/.."
hb=${1:-build/bin/hashbench}
for pkg in sm3:SM3:SM3 sha2:SHA2:SHA-256,SHA-512 sha3:SHA3:SHA3-256,SHA3-512,SHAKE256; do
	IFS=: read -r id tree instances <<<"$pkg"
	out=bench/algorithms/$id/$tree/Test_Vectors
	mkdir -p "$out"
	rm -f "$out/kat.sha256"
	for inst in ${instances//,/ }; do
		"$hb" kat-gen "$inst" --sets 2_12,2_23,loop --out "$out" >/dev/null
		gzip -n -9 -f "$out/KAT_2_12_$inst.txt"
	done
	echo "$out: $(ls "$out" | tr '\n' ' ')"
done
