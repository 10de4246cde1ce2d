#!/usr/bin/env bash
# libfloor.sh — what a clean build's libraries alone take on the same evidence and site
# (libfloor.c): reading the evidence, SHA-256, jansson and the .gz twins, each on one CPU.
#
# usage: benchmarks/gen-bench/libfloor.sh [N] [ROUNDS]
#   N       the run.sh size whose evidence and fresh site are used (default 1000: the evidence in
#           ${GEN_BENCH_DIR:-/tmp/hashgen-gen-bench}/n<N>/data and the site in n<N>/fresh;
#           run run.sh first)
#   ROUNDS  rounds, each running every step, the order turning by one (default 5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-1000}
dir=${GEN_BENCH_DIR:-${TMPDIR:-/tmp}/hashgen-gen-bench}/n$n
for d in "$dir/data" "$dir/fresh"; do
	[ -d "$d" ] || { echo "libfloor: $d: no such folder (run benchmarks/gen-bench/run.sh first)" >&2; exit 1; }
done
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cc -O2 -o "$bin/libfloor" "$here/libfloor.c" -ljansson -ldeflate -lcrypto -lz
"$bin/libfloor" "$dir/data" "$dir/fresh" "${2:-5}"
