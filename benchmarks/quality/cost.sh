#!/usr/bin/env bash
# cost.sh [quick|guide] — what a campaign of the whole bundle costs in wall time.
#
# Runs a quick and then a guide campaign of every bundled library (--fresh, each with its own
# data folder and its own empty work folder, so each includes compiling the libraries and the
# KAT check, as a first campaign on a new machine does), and prints for each its wall time and
# the seconds per figure: wall time / records written (one record = one figure of the
# performance table: an instance, an implementation and a message size).
#
# With an argument only that profile runs: `cost.sh quick` takes under a minute, the guide
# campaign several minutes. Environment: HASHBENCH (default build/bin/hashbench), KEEP=1 keeps
# the temporary folder (evidence and logs).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

case ${1:-} in
	'') PROFILES="quick guide" ;;
	quick|guide) PROFILES=$1 ;;
	*) echo "usage: cost.sh [quick|guide]" >&2; exit 2 ;;
esac

quality_machine
for p in $PROFILES; do
	echo
	echo "campaign cost-$p: $p profile, whole bundle"
	start=$(date +%s%N)
	quality_campaign "$TMP/$p.log" --system "cost-$p" --profile "$p" --fresh \
		--data "$TMP/data-$p" --work "$TMP/work-$p"
	end=$(date +%s%N)
	python3 - "$TMP/data-$p/cost-$p" "$p" "$start" "$end" <<'PY'
import glob, json, os, sys

system_dir, profile, start, end = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
wall = (end - start) / 1e9
paths = glob.glob(os.path.join(system_dir, "records", "*", "*.json"))
ok = sum(json.load(open(p)).get("status") == "ok" for p in paths)
if not paths:
    sys.exit("cost.sh: the %s campaign wrote no record" % profile)
print(f"{profile}: {wall:.1f} s wall, {len(paths)} records written ({ok} ok), "
      f"{wall / len(paths):.2f} s per figure")
PY
done
echo
quality_disturbance
