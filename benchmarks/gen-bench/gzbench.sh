#!/usr/bin/env bash
# gzbench.sh — zlib against libdeflate on the gzip twins of a rendered site (gzbench.c).
#
# usage: benchmarks/gen-bench/gzbench.sh [SITE_DIR] [ROUNDS]
#   SITE_DIR  a site hashgen wrote (default: the N = 1000 site of run.sh,
#             ${GEN_BENCH_DIR:-/tmp/hashgen-gen-bench}/n1000/fresh; run run.sh first)
#   ROUNDS    rounds, each compressing every file with both libraries in alternating order
#             (default 5)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
site=${1:-${GEN_BENCH_DIR:-${TMPDIR:-/tmp}/hashgen-gen-bench}/n1000/fresh}
[ -d "$site" ] || { echo "gzbench: $site: no such site (run benchmarks/gen-bench/run.sh first)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cc -O2 -o "$bin/gzbench" "$here/gzbench.c" -lz -ldeflate
"$bin/gzbench" "$site" "${2:-5}"
