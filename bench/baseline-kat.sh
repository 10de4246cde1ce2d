#!/usr/bin/env bash
# Regenerates the submitted KAT files of the bundled baselines with hashbench's own ICCS KAT
# procedure: KAT_2_23 and KAT_Loop as files, KAT_2_12 (2.5 MB each) as kat.sha256 lines only.
# Usage: bench/baseline-kat.sh [build/bin/hashbench]
set -euo pipefail
cd "$(dirname "$0")/.."
hb=${1:-build/bin/hashbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pkg in sm3:SM3:SM3 sha2:SHA2:SHA-256,SHA-512 sha3:SHA3:SHA3-256,SHA3-512,SHAKE256; do
	IFS=: read -r id tree instances <<<"$pkg"
	out=bench/algorithms/$id/$tree/Test_Vectors
	mkdir -p "$out"
	: >"$tmp/kat.sha256"
	for inst in ${instances//,/ }; do
		"$hb" kat-gen "$inst" --sets 2_23,loop --out "$out" >/dev/null
		"$hb" kat-gen "$inst" --sets 2_12 --out "$tmp" >/dev/null
		(cd "$tmp" && sha256sum "KAT_2_12_$inst.txt") >>"$tmp/kat.sha256"
	done
	{
		echo "# sha256sum of the KAT_2_12 files (raw form), made by bench/baseline-kat.sh"
		cat "$tmp/kat.sha256"
	} >"$out/kat.sha256"
	echo "$out: $(ls "$out" | tr '\n' ' ')"
done
