#!/usr/bin/env bash
# test_cluster.sh — a hashbench campaign on a real one-machine Slurm cluster.
#
# usage: test_cluster.sh BUILD_DIR SOURCE_DIR
#
# Starts munged (a fresh key), slurmctld and slurmd from Debian's packages as root, in a
# temporary folder with ports of their own (one node: this machine's CPUs), submits
# contrib/slurm/submit.sh with two shards of a quick campaign of SM3 and SHA-2 (each with the
# whole node, so one after the other, timing on the same CPU as identical nodes would) and the
# merge that depends on them, waits, and checks: both shards ran on the cluster, the
# merged evidence holds every shard's records exactly once and nothing else, the site renders
# and `hashgen --check` passes. Stops the daemons it started, by their process ids, whatever
# happens. Exit 77 (skipped) when not root.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
if [ "$(id -u)" != 0 ]; then
	echo "test_cluster: skipped: starting slurmctld, slurmd and munged needs root (CI runs as root)"
	exit 77
fi
for p in munged slurmctld slurmd sbatch squeue sinfo scontrol; do
	command -v "$p" >/dev/null || { echo "test_cluster: $p missing: run make deps" >&2; exit 1; }
done

T=$(mktemp -d /tmp/hb-cluster.XXXXXX)
chmod 755 "$T"
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do
		for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null || true
	done
	if [ "${KEEP:-0}" = 1 ]; then echo "test_cluster: kept $T"; else rm -rf "$T"; fi
}
trap stop EXIT
fail() { echo "test_cluster: FAIL: $*" >&2; for f in "$T"/log/*.log "$T"/out/*.out; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done >&2; exit 1; }

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/out"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
	--pid-file="$T/munge/munged.pid" --seed-file="$T/munge/seed" --log-file="$T/log/munged.log"
for _ in $(seq 1 50); do [ -s "$T/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$T/munge/munged.pid")")

host=$(hostname -s)
cpus=$(nproc)
# ports of our own, away from a real cluster's 6817/6818
port=$((16000 + RANDOM % 4000))
cat >"$T/slurm.conf" <<CONF
ClusterName=hbtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=hb Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF" -i
for _ in $(seq 1 100); do [ -s "$T/slurmctld.pid" ] && break; sleep 0.1; done
[ -s "$T/slurmctld.pid" ] || fail "slurmctld did not start"
pids+=("$(cat "$T/slurmctld.pid")")
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 100); do [ -s "$T/slurmd.pid" ] && break; sleep 0.1; done
[ -s "$T/slurmd.pid" ] || fail "slurmd did not start"
pids+=("$(cat "$T/slurmd.pid")")
for _ in $(seq 1 200); do
	sinfo -h -o %T 2>/dev/null | grep -qx idle && break
	sleep 0.1
done
sinfo -h -o %T | grep -qx idle || fail "the node did not come up: $(sinfo 2>&1)"
echo "test_cluster: Slurm $(sinfo -V | sed 's/slurm //') up: one node, $cpus CPUs, port $port"

# the campaign: two shards, each with the whole node, then the merge and the site
submitted=$(cd "$T/out" && "$src/contrib/slurm/submit.sh" --system x86_cluster --out "$T/run" \
	--shards 2 --profile quick --only sm3,sha2 \
	--hashbench "$build/bin/hashbench" --hashgen "$build/bin/hashgen" \
	--templates "$src/templates" -- --sizes 32,4096 --sets 2_23)
echo "test_cluster: $submitted"
array=$(echo "$submitted" | sed -n 's/^shards: job \([0-9]*\) .*/\1/p')
merge=$(echo "$submitted" | sed -n 's/.*merge: job \([0-9]*\);.*/\1/p')
[ -n "$array" ] && [ -n "$merge" ] || fail "submit.sh printed no job ids: $submitted"
state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
for _ in $(seq 1 1800); do
	s=$(state "$merge")
	case $s in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
	[ -z "$s" ] && break
	sleep 0.2
done
[ "$(state "$merge")" = COMPLETED ] || fail "the merge job ended $(state "$merge") (shards: $(scontrol show job "$array" | grep -o 'JobState=[A-Z_]*' | tr '\n' ' '))"
for k in 1 2; do
	grep -q "hashbench shard $k/2 of x86_cluster on $host" "$T/run"/hashbench-shard-*_"$k".out \
		|| fail "shard $k did not run as task $k of the array"
done

# every shard's records once in the merged evidence, and nothing else
python3 - "$T/run" <<'PY' || fail "the merged evidence does not hold each shard's records once"
import json, os, sys
run = sys.argv[1]
def records(root):
    out = []
    for d, _, files in os.walk(os.path.join(root, 'records')):
        out += [os.path.relpath(os.path.join(d, f), root) for f in files if f.endswith('.json')]
    return out
s1 = records(f'{run}/shards/1/x86_cluster'); s2 = records(f'{run}/shards/2/x86_cluster')
merged = records(f'{run}/data/x86_cluster')
assert s1 and s2, f'a shard measured nothing: {len(s1)} and {len(s2)} records'
assert not set(s1) & set(s2), 'two shards measured the same record'
assert sorted(merged) == sorted(s1 + s2), f'{len(merged)} merged records, shards {len(s1)} + {len(s2)}'
for rel in s1:
    a = open(f'{run}/shards/1/x86_cluster/{rel}', 'rb').read()
    assert a == open(f'{run}/data/x86_cluster/{rel}', 'rb').read(), rel
plan = json.load(open(f'{run}/shards/1/x86_cluster/system.json'))['shard']['plan']
libs = {r.split('/')[1] + '/' + r.split('/')[2].split('__')[0] for r in merged}
assert libs == set(plan), f'merged libraries {sorted(libs)} differ from the plan {plan}'
print(f'test_cluster: merged {len(merged)} records ({len(s1)} + {len(s2)}) of {len(plan)} libraries')
PY
[ -f "$T/run/site/index.html" ] || fail "no site rendered"
"$build/bin/hashgen" --check --data "$T/run/data" --out "$T/run/site" --templates "$src/templates" \
	|| fail "hashgen --check of the cluster's site"
echo "test_cluster: PASS"
