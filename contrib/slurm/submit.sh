#!/bin/sh
# submit.sh — a hashbench campaign on a Slurm cluster: a job array of shards, then a merge.
#
# usage: submit.sh --system NAME --out DIR [--shards N] [--profile guide|quick]
#                  [--submissions DIR] [--only LIST] [--partition P]
#                  [--hashbench PATH] [--hashgen PATH] [--templates DIR] [-- RUN_OPTIONS...]
#
# DIR must be a folder every node sees (a shared file system). Each shard takes a whole node
# (--exclusive), so nothing else runs beside its timing, and times on the same CPU number as
# every other shard (the node's last CPU, or --cpu N after --), as `hashbench merge` requires:
# the nodes of the partition must be identical. The merge job waits for every shard (afterok)
# and writes DIR/data/ and DIR/site/. Prints the two job ids.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
shards=4 profile=guide partition="" system="" out=""
hashbench="" hashgen="" templates="" submissions="" only=""
while [ $# -gt 0 ]; do
	case $1 in
	--system) system=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--shards) shards=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--submissions) submissions=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--partition) partition=$2; shift 2 ;;
	--hashbench) hashbench=$2; shift 2 ;;
	--hashgen) hashgen=$2; shift 2 ;;
	--templates) templates=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "submit.sh: unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
	esac
done
[ -n "$system" ] || { echo "submit.sh: --system NAME is required" >&2; exit 2; }
[ -n "$out" ] || { echo "submit.sh: --out DIR is required" >&2; exit 2; }
case $shards in ''|*[!0-9]*|0) echo "submit.sh: --shards $shards: expected a number of 1 or more" >&2; exit 2 ;; esac
# the programs: given, else on PATH, else those of the checkout this script lies in
find_prog() {
	if command -v "$1" >/dev/null 2>&1; then command -v "$1"
	else echo "$here/../../build/bin/$1"; fi
}
hashbench=${hashbench:-$(find_prog hashbench)}
hashgen=${hashgen:-$(find_prog hashgen)}
for p in "$hashbench" "$hashgen"; do
	[ -x "$p" ] || { echo "submit.sh: $p: not an executable program (--hashbench/--hashgen)" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
HB_HASHBENCH=$(abs "$hashbench") HB_HASHGEN=$(abs "$hashgen") HB_SYSTEM=$system HB_OUT=$out
HB_PROFILE=$profile HB_ONLY=$only HB_ARGS="$*"
HB_SUBMISSIONS=${submissions:+$(abs "$submissions")} HB_TEMPLATES=${templates:+$(abs "$templates")}
export HB_HASHBENCH HB_HASHGEN HB_SYSTEM HB_OUT HB_PROFILE HB_ONLY HB_ARGS HB_SUBMISSIONS HB_TEMPLATES
# shellcheck disable=SC2086 # the partition is a list of options
job=$(sbatch --parsable --export=ALL --chdir="$out" --array="1-$shards" --exclusive \
	${partition:+--partition="$partition"} "$here/campaign.sbatch")
job=${job%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable --export=ALL --chdir="$out" --dependency="afterok:$job" \
	${partition:+--partition="$partition"} "$here/merge.sbatch")
merge=${merge%%;*}
echo "shards: job $job (array 1-$shards); merge: job $merge; evidence in $out/data, site in $out/site"
