#!/usr/bin/env bash
# run.sh — time hashgen on synthetic evidence trees (N = 100 and 1000 algorithms, 2 systems) and
# Hugo on the Markdown twins of the same pages, alternating in every round: clean builds, then a
# rebuild after one record changes, checked against a clean build.
#
# usage: benchmarks/gen-bench/run.sh [HASHGEN]      (default build/bin/hashgen)
# environment: GEN_BENCH_DIR   work folder, kept between runs (default ${TMPDIR:-/tmp}/hashgen-gen-bench)
#              GEN_BENCH_SIZES algorithm counts to time (default "100 1000")
#              GEN_BENCH_ROUNDS clean builds of each tool per N (default 3)
#              GEN_BENCH_HUGO  0: time hashgen alone (Hugo needs about 3 GB per 1000 pages)
#              GEN_BENCH_SYSTEMS, GEN_BENCH_SEED   passed to synth.py (default 2, 1)
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
synth=$here/synth.py
sizes=${GEN_BENCH_SIZES:-100 1000}
systems=${GEN_BENCH_SYSTEMS:-2}
seed=${GEN_BENCH_SEED:-1}
rounds=${GEN_BENCH_ROUNDS:-3}
work=${GEN_BENCH_DIR:-${TMPDIR:-/tmp}/hashgen-gen-bench}

die() { echo "gen-bench: $*" >&2; exit 1; }
note() { echo "gen-bench: $*" >&2; }

[ $# -le 1 ] || { echo "usage: $0 [HASHGEN]" >&2; exit 2; }
arg=${1:-build/bin/hashgen}
# A relative HASHGEN is taken from the caller's folder, else from the repository root.
case $arg in
	/*) hashgen=$arg ;;
	*/*) if [ -e "$PWD/$arg" ]; then hashgen=$PWD/$arg; else hashgen=$repo/$arg; fi ;;
	*) hashgen=$(command -v -- "$arg") || hashgen=$repo/$arg ;;
esac
[ -x "$hashgen" ] || die "$hashgen: not an executable (build it first, or pass its path)"
command -v python3 >/dev/null || die "python3 is needed to synthesise the evidence"
[ -d "$repo/templates" ] || die "$repo/templates: no such folder"
cd "$repo" || exit 1
mkdir -p "$work" || die "cannot create $work"
work=$(cd "$work" && pwd)

for n in $sizes; do
	case $n in ''|*[!0-9]*|0) die "GEN_BENCH_SIZES: '$n' is not a positive number" ;; esac
done
case $systems in ''|*[!0-9]*|0) die "GEN_BENCH_SYSTEMS: '$systems' is not a positive number" ;; esac
case $seed in ''|*[!0-9]*) die "GEN_BENCH_SEED: '$seed' is not a number" ;; esac
case $rounds in ''|*[!0-9]*|0) die "GEN_BENCH_ROUNDS: '$rounds' is not a positive number" ;; esac

# ---- the machine ----
cpu_model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
[ -n "$cpu_model" ] || cpu_model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)
[ -n "$cpu_model" ] || cpu_model=unknown
version=$("$hashgen" --version 2>/dev/null | head -n1)
echo "machine: $cpu_model, nproc $(nproc), $(uname -sr)"
echo "hashgen: $hashgen (${version:-version unknown})"
echo "evidence: synth.py --systems $systems --seed $seed, in $work"
time_bin=/usr/bin/time
if [ -x "$time_bin" ]; then timer=gnu; else timer=bash; note "/usr/bin/time not found: peak RSS is n/a"; fi

# ---- helpers ----

# run_hashgen DATA OUT LOG: a timed hashgen run; sets wall and rss_kib; returns hashgen's status
run_hashgen() {
	local data=$1 out=$2 log=$3 rc
	if [ $timer = gnu ]; then
		"$time_bin" -f '%e %M' -o "$log.time" \
			"$hashgen" --data "$data" --templates templates --out "$out" >"$log.out" 2>"$log.err"
		rc=$?
		# on failure GNU time writes "Command exited with non-zero status N" first
		read -r wall rss_kib < <(tail -n1 "$log.time")
	else
		local TIMEFORMAT=%3R
		{ time "$hashgen" --data "$data" --templates templates --out "$out" \
			>"$log.out" 2>"$log.err"; } 2>"$log.time"
		rc=$?
		wall=$(tail -n1 "$log.time")
		rss_kib=
	fi
	if [ $rc -ne 0 ]; then
		echo "gen-bench: hashgen failed (exit status $rc): $hashgen --data $data --templates templates --out $out" >&2
		if [ -s "$log.err" ]; then
			echo "--- its stderr:" >&2
			cat "$log.err" >&2
		fi
		if [ -s "$log.out" ]; then
			echo "--- the end of its stdout:" >&2
			tail -n 20 "$log.out" >&2
		fi
	fi
	return $rc
}

mib() { if [ -n "$1" ]; then awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; else printf n/a; fi; }
mib_unit() { if [ -n "$1" ]; then printf '%s MiB' "$(mib "$1")"; else printf n/a; fi; }
rate() { awk -v p="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", p / s; else printf "n/a" }'; }
count_pages() { find "$1" -mindepth 2 -maxdepth 2 -type f -name 'hash-*.html' 2>/dev/null | wc -l; }

# prepare N: $work/nN/data holds the evidence; synth.ok says it is complete and which
# synth.py and arguments made it, so a changed synth.py or interrupted run synthesises again.
prepare() {
	local n=$1 dir=$work/n$1 stamp
	stamp="$(sha256sum <"$synth" | cut -c1-64) --algorithms $n --systems $systems --seed $seed"
	if [ -f "$dir/synth.ok" ] && [ "$(cat "$dir/synth.ok")" = "$stamp" ] && [ -d "$dir/data" ]; then
		note "N=$n: reusing $dir/data"
		return 0
	fi
	rm -rf "$dir/data" "$dir/synth.ok"
	mkdir -p "$dir" || return 1
	note "N=$n: synthesising into $dir/data"
	python3 "$synth" "$dir/data" --algorithms "$n" --systems "$systems" --seed "$seed" >&2 ||
		return 1
	echo "$stamp" >"$dir/synth.ok"
}

# ---- Hugo on the same pages ----
# hugo_site N: $work/nN/hugo holds a Hugo site whose content is the Markdown twins of hashgen's
# algorithm pages (the same 2 x N pages, the same text) and a one-line layout.
hugo_site() {
	local n=$1 dir=$work/n$1 site=$work/n$1/site sysdir s
	rm -rf "$dir/hugo"
	mkdir -p "$dir/hugo/layouts/_default" "$dir/hugo/content" || return 1
	printf '%s\n' 'baseURL = "http://example.org/"' 'title = "gen-bench"' \
		'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]' \
		>"$dir/hugo/config.toml"
	printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ .Content }}</body></html>' \
		>"$dir/hugo/layouts/_default/single.html"
	printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>' \
		>"$dir/hugo/layouts/_default/list.html"
	for sysdir in "$site"/*/; do
		s=$(basename "$sysdir")
		[ "$s" = data ] && continue
		mkdir -p "$dir/hugo/content/$s" || return 1
		find "$sysdir" -maxdepth 1 -name 'hash-*.md' -exec cp -t "$dir/hugo/content/$s" {} + ||
			return 1
	done
}

# run_hugo N LOG: a timed Hugo build of $work/nN/hugo into a fresh public/; sets wall and rss_kib
run_hugo() {
	local dir=$work/n$1/hugo log=$2 rc
	rm -rf "$dir/public" "$dir/resources"
	if [ $timer = gnu ]; then
		"$time_bin" -f '%e %M' -o "$log.time" hugo --quiet --source "$dir" >"$log.out" 2>"$log.err"
		rc=$?
		read -r wall rss_kib < <(tail -n1 "$log.time")
	else
		local TIMEFORMAT=%3R
		{ time hugo --quiet --source "$dir" >"$log.out" 2>"$log.err"; } 2>"$log.time"
		rc=$?
		wall=$(tail -n1 "$log.time")
		rss_kib=
	fi
	[ $rc -eq 0 ] || { echo "gen-bench: hugo failed (exit status $rc), see $log.err" >&2; head -n 5 "$log.err" >&2; }
	return $rc
}

# stats V...: "median min max" of the numbers given
stats() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, v[1], v[NR] }'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n1; }

# ---- clean builds, hashgen and Hugo alternating ----
if [ "${GEN_BENCH_HUGO:-1}" != 0 ] && command -v hugo >/dev/null; then
	hugo_version=$(hugo version 2>/dev/null | cut -d' ' -f2)
	echo "hugo: $(command -v hugo) ($hugo_version), on the Markdown twins of the same algorithm pages"
else
	hugo_version=
	[ "${GEN_BENCH_HUGO:-1}" = 0 ] || note "hugo not found (make deps installs it): hashgen alone"
fi
echo "rounds: $rounds, hashgen then Hugo in each; wall time median (min-max), peak RSS the largest"
printf '%7s %7s %-8s %22s %9s %9s\n' N pages tool wall_s pages/s peak_MiB
last=
for n in $sizes; do
	prepare "$n" || die "N=$n: synthesis failed"
	dir=$work/n$n
	hw=() hr=() uw=() ur=()
	for ((r = 1; r <= rounds; r++)); do
		rm -rf "$dir/site" "$dir/site.hashgen-cache"
		run_hashgen "$dir/data" "$dir/site" "$dir/clean" || exit 1
		hw+=("$wall") hr+=("${rss_kib:-0}")
		if [ -n "$hugo_version" ]; then
			[ "$r" -gt 1 ] || hugo_site "$n" || die "N=$n: could not make the Hugo site"
			run_hugo "$n" "$dir/hugo-build" || exit 1
			uw+=("$wall") ur+=("${rss_kib:-0}")
		fi
	done
	pages=$(count_pages "$dir/site")
	[ "$pages" -eq $((n * systems)) ] ||
		note "N=$n: expected $((n * systems)) algorithm pages (N x systems), found $pages"
	read -r hmed hmin hmax < <(stats "${hw[@]}")
	printf '%7s %7s %-8s %22s %9s %9s\n' "$n" "$pages" hashgen "$hmed ($hmin-$hmax)" \
		"$(rate "$pages" "$hmed")" "$(mib "$(maxof "${hr[@]}")")"
	if [ -n "$hugo_version" ]; then
		read -r umed umin umax < <(stats "${uw[@]}")
		printf '%7s %7s %-8s %22s %9s %9s\n' "$n" "$pages" hugo "$umed ($umin-$umax)" \
			"$(rate "$pages" "$umed")" "$(mib "$(maxof "${ur[@]}")")"
		echo "N=$n: hashgen renders $(awk -v a="$umed" -v b="$hmed" 'BEGIN { printf "%.2f", a / b }') times Hugo's pages per second (medians)"
	fi
	last=$n
done

# ---- rebuild after one record changes (largest N), then compare with a clean build ----
dir=$work/n$last
data=$dir/data
backup=$dir/backup
# shellcheck disable=SC2317  # called by the EXIT trap
restore() {
	if [ -f "$backup/rel" ]; then
		local rel sys
		rel=$(cat "$backup/rel")
		sys=${rel%%/*}
		cp "$backup/record" "$data/$rel" && cp "$backup/SHA256SUMS" "$data/$sys/SHA256SUMS" &&
			rm -rf "$backup" && [ -f "$dir/synth.ok.held" ] && mv "$dir/synth.ok.held" "$dir/synth.ok"
	fi
}
trap restore EXIT
trap 'exit 130' INT TERM
rm -rf "$backup"
mkdir -p "$backup" || exit 1
# The evidence is marked incomplete while it differs from what synth.py wrote.
mv "$dir/synth.ok" "$dir/synth.ok.held" || exit 1

# Touch the first record of the first system: one more cycle count in round 1 (and the
# nanoseconds at the same rate), same JSON layout, and that system's SHA256SUMS line updated.
rel=$(python3 - "$data" "$backup" <<'EOF'
import hashlib, json, os, shutil, sys
data, backup = sys.argv[1], sys.argv[2]
system = sorted(d for d in os.listdir(data) if os.path.isfile(os.path.join(data, d, "system.json")))[0]
recdir = os.path.join(data, system, "records")
alg = sorted(os.listdir(recdir))[0]
name = sorted(f for f in os.listdir(os.path.join(recdir, alg)) if f.endswith("__hash_4096.json"))[0]
rel = "%s/records/%s/%s" % (system, alg, name)
path = os.path.join(data, rel)
sums = os.path.join(data, system, "SHA256SUMS")
shutil.copyfile(path, os.path.join(backup, "record"))
shutil.copyfile(sums, os.path.join(backup, "SHA256SUMS"))
with open(os.path.join(backup, "rel"), "w") as f:
    f.write(rel + "\n")
with open(path, encoding="utf-8") as f:
    rec = json.load(f)
t = rec["trials"][0]
t["ns"] = t["ns"] + t["ns"] * 1000 // t["cycles"]
t["cycles"] += 1000
text = (json.dumps(rec, indent=2, ensure_ascii=False) + "\n").encode()
with open(path, "wb") as f:
    f.write(text)
inner = rel.split("/", 1)[1]
lines = open(sums, encoding="utf-8").read().splitlines()
hit = [i for i, l in enumerate(lines) if l[66:] == inner]
if len(hit) != 1:
    sys.exit("gen-bench: %s is not listed once in %s" % (inner, sums))
lines[hit[0]] = "%s  %s" % (hashlib.sha256(text).hexdigest(), inner)
with open(sums, "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
print(rel)
EOF
) || die "could not modify a record"
sys=${rel%%/*}
(cd "$data/$sys" && grep -F "  ${rel#*/}" SHA256SUMS | sha256sum -c --quiet -) ||
	die "$rel: SHA256SUMS does not match after the change"

run_hashgen "$data" "$dir/site" "$dir/rebuild" || exit 1
rebuild_wall=$wall rebuild_rss=$rss_kib
rm -rf "$dir/fresh"
run_hashgen "$data" "$dir/fresh" "$dir/fresh-build" || exit 1
echo "rebuild N=$last after changing $rel: wall $rebuild_wall s, peak RSS $(mib_unit "$rebuild_rss")"
echo "clean build of the same evidence into a fresh folder: wall $wall s, peak RSS $(mib_unit "$rss_kib")"
if diff -r --brief "$dir/site" "$dir/fresh" >"$dir/diff.txt" 2>&1; then
	echo "rebuild vs clean build: identical"
	status=0
else
	echo "rebuild vs clean build: $(wc -l <"$dir/diff.txt") differences (all in $dir/diff.txt):"
	head -n 20 "$dir/diff.txt"
	status=1
fi
exit $status
