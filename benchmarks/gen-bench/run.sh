#!/usr/bin/env bash
# run.sh — the same-site comparison: hashgen, Hugo on the same site and the floor (the same files
# made without rendering anything), alternating in every round, on synthetic evidence trees of N
# algorithms; then, at each N, a rebuild after one record changes and a no-op rebuild, checked
# against a clean build.
#
# usage: benchmarks/gen-bench/run.sh [HASHGEN]      (default build/bin/hashgen)
# environment: GEN_BENCH_DIR   work folder, kept between runs (default ${TMPDIR:-/tmp}/hashgen-gen-bench)
#              GEN_BENCH_SIZES algorithm counts to time (default "100 1000 10000")
#              GEN_BENCH_ROUNDS clean builds of each tool per N (default 3)
#              GEN_BENCH_HUGO  0: leave Hugo out (it is also left out at an N where it would not
#                              fit in memory)
#              GEN_BENCH_LIBFLOOR largest N at which libfloor.c times what the libraries alone
#                              take on the same evidence and site (default 1000; 0: never)
#              GEN_BENCH_SYSTEMS, GEN_BENCH_SEED   passed to synth.py (default 2, 1)
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
synth=$here/synth.py
sizes=${GEN_BENCH_SIZES:-100 1000 10000}
systems=${GEN_BENCH_SYSTEMS:-2}
seed=${GEN_BENCH_SEED:-1}
rounds=${GEN_BENCH_ROUNDS:-3}
libfloor_max=${GEN_BENCH_LIBFLOOR:-1000}
work=${GEN_BENCH_DIR:-${TMPDIR:-/tmp}/hashgen-gen-bench}

# Disk per algorithm and system, in KiB (measured at N = 100: 179, 195 and 263; about 30 % to
# spare): the evidence; one rendered site with its cache, apart from its evidence copies (they
# are hard links, only their folders count); Hugo's copy (its content, and public/ with a real
# copy of the evidence).
ev_kib_per=230
site_kib_per=260
hugo_kib_per=340
# Hugo 0.111's peak RSS per page when no smaller N has been measured (about 3 GB for 2000 pages).
hugo_prior_kib_per_page=1536

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
[ -n "${sizes// /}" ] || die "GEN_BENCH_SIZES: no size given"
case $systems in ''|*[!0-9]*|0) die "GEN_BENCH_SYSTEMS: '$systems' is not a positive number" ;; esac
case $seed in ''|*[!0-9]*) die "GEN_BENCH_SEED: '$seed' is not a number" ;; esac
case $rounds in ''|*[!0-9]*|0) die "GEN_BENCH_ROUNDS: '$rounds' is not a positive number" ;; esac
case $libfloor_max in ''|*[!0-9]*) die "GEN_BENCH_LIBFLOOR: '$libfloor_max' is not a number" ;; esac

# ---- the machine and the three tools ----
cpu_model=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
[ -n "$cpu_model" ] || cpu_model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)
[ -n "$cpu_model" ] || cpu_model=unknown
version=$("$hashgen" --version 2>/dev/null | head -n1)
echo "machine: $cpu_model, nproc $(nproc), $(uname -sr)"
echo "hashgen: $hashgen (${version:-version unknown})"
# its time per step (hashgen --timings), when it has the option (an older binary may not)
timings=()
if "$hashgen" --help 2>/dev/null | grep -q -- --timings; then
	timings=(--timings)
	echo "hashgen's steps: --timings, the best clean build's and the best rebuild's"
fi
echo "evidence: synth.py --systems $systems --seed $seed, in $work"
if [ "${GEN_BENCH_HUGO:-1}" != 0 ] && command -v hugo >/dev/null; then
	hugo_version=$(hugo version 2>/dev/null | cut -d' ' -f2)
	echo "hugo: $(command -v hugo) ($hugo_version), on the same site: the Markdown twins of the algorithm pages, the evidence as static files"
elif [ "${GEN_BENCH_HUGO:-1}" = 0 ]; then
	hugo_version=
	echo "hugo: left out (GEN_BENCH_HUGO=0)"
else
	hugo_version=
	echo "hugo: not found (make deps installs it), left out"
fi
echo "floor: cp -al of data/, then cp --parents of the other files through xargs ($(cp --version | head -n1))"
# libfloor: the libraries' share, built here (make deps installs their headers)
libfloor=
if [ "$libfloor_max" -gt 0 ]; then
	if cc -O2 -o "$work/libfloor" "$here/libfloor.c" -ljansson -ldeflate -lcrypto -lz 2>"$work/libfloor-build.err"; then
		libfloor=$work/libfloor
		echo "libraries alone: libfloor.c on one CPU (reading the evidence, SHA-256, jansson, the .gz twins), at N <= $libfloor_max"
	else
		note "libfloor.c did not build (see $work/libfloor-build.err): the libraries' share is left out"
	fi
fi
cpus=$(nproc)
time_bin=/usr/bin/time
if [ -x "$time_bin" ]; then timer=gnu; else timer=bash; note "/usr/bin/time not found: peak RSS is n/a"; fi

# ---- helpers ----

mib() { if [ -n "$1" ]; then awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; else printf n/a; fi; }
mib_unit() { if [ -n "$1" ]; then printf '%s MiB' "$(mib "$1")"; else printf n/a; fi; }
gib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1048576 }'; }
rate() { awk -v p="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", p / s; else printf "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }
count_pages() { find "$1" -mindepth 2 -maxdepth 2 -type f -name 'hash-*.html' 2>/dev/null | wc -l; }
# group V: V with a space between groups of three digits from 10 000 on (83 004, 1000)
group() { awk -v v="$1" 'BEGIN { if (v < 10000) { print v; exit } s = ""; while (v >= 1000) { s = sprintf(" %03d", v % 1000) s; v = int(v / 1000) } print v s }'; }
# stats V...: "median min max" of the numbers given
stats() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f %.2f", m, v[1], v[NR] }'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n1; }
# row N PAGES TOOL BEST MEDIAN_RANGE RATE PEAK: one line of a table of the three tools
row() { printf '%7s %7s %-8s %8s %22s %9s %9s\n' "$@"; }

# timed LOG CMD...: runs CMD with its stdout and stderr in LOG.out and LOG.err, after a sync so
# that the writes of the run before are not flushed inside this one; sets wall (s) and rss_kib
# (empty without GNU time); returns CMD's status.
timed() {
	local log=$1 rc
	shift
	sync
	if [ $timer = gnu ]; then
		"$time_bin" -f '%e %M' -o "$log.time" "$@" >"$log.out" 2>"$log.err"
		rc=$?
		# on failure GNU time writes "Command exited with non-zero status N" first
		read -r wall rss_kib < <(tail -n1 "$log.time")
	else
		local TIMEFORMAT=%3R
		{ time "$@" >"$log.out" 2>"$log.err"; } 2>"$log.time"
		rc=$?
		wall=$(tail -n1 "$log.time")
		rss_kib=
	fi
	return $rc
}

# failed WHAT RC LOG: says what failed, with its stderr and the end of its stdout
failed() {
	echo "gen-bench: $1 failed (exit status $2), logs in $3.out and $3.err" >&2
	if [ -s "$3.err" ]; then
		echo "--- its stderr (the end):" >&2
		tail -n 20 "$3.err" >&2
	fi
	if [ -s "$3.out" ]; then
		echo "--- the end of its stdout:" >&2
		tail -n 20 "$3.out" >&2
	fi
}

# run_hashgen DATA OUT LOG: a timed hashgen run into OUT (its cache is OUT.hashgen-cache)
run_hashgen() {
	local rc
	timed "$3" "$hashgen" "${timings[@]}" --data "$1" --templates templates --out "$2"
	rc=$?
	[ $rc -eq 0 ] || failed "hashgen --data $1 --templates templates --out $2" $rc "$3"
	return $rc
}

# steps N WHAT LOG...: the --timings table of the fastest of the hashgen runs LOG... (each
# LOG.time's first field its wall time), indented, under a line naming it; nothing without
# --timings
steps() {
	local n=$1 what=$2 best='' log
	shift 2
	[ ${#timings[@]} -gt 0 ] || return 0
	for log in "$@"; do
		if [ -z "$best" ] || awk -v a="$(tail -n1 "$log.time")" -v b="$(tail -n1 "$best.time")" \
			'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[1] < y[1]) }'; then
			best=$log
		fi
	done
	echo "N=$n: hashgen's steps in $what, $(tail -n1 "$best.time" | cut -d' ' -f1) s ($best.err):"
	sed -n 's/^hashgen: \(.* [0-9.]* s *[0-9.]* s\)$/  \1/p; s/^hashgen: \(step .*\)$/  \1/p' "$best.err"
}

# run_hugo HUGO_DIR LOG: a timed Hugo build of HUGO_DIR into an emptied public/
run_hugo() {
	local rc
	rm -rf "$1/public" "$1/resources"
	timed "$2" hugo --quiet --source "$1"
	rc=$?
	[ $rc -eq 0 ] || failed "hugo --source $1" $rc "$2"
	return $rc
}

# run_floor REF OUT LIST LOG: the floor, timed as one command: into an emptied OUT, hard links of
# REF/data, then a byte copy of every other file of REF (LIST: their paths relative to REF,
# NUL-separated)
# shellcheck disable=SC2016  # the inner script's $1 $2 $3 are its own arguments
floor_script='cp -al -- "$1/data" "$2/data" && cd -- "$1" && xargs -0 cp --parents -t "$2" -- <"$3"'
run_floor() {
	local rc
	rm -rf "$2"
	mkdir -p "$2" || return 1
	timed "$4" bash -c "$floor_script" floor "$1" "$2" "$3"
	rc=$?
	[ $rc -eq 0 ] || failed "the floor (cp -al, cp --parents) into $2" $rc "$4"
	return $rc
}

# stamp N: which synth.py and arguments make the evidence of N
stamp() { echo "$(sha256sum <"$synth" | cut -c1-64) --algorithms $1 --systems $systems --seed $seed"; }

# evidence_ready N: $work/nN/data is complete (synth.ok) and was made by this synth.py with these
# arguments; a changed synth.py or an interrupted run makes it again.
evidence_ready() {
	local dir=$work/n$1
	[ -f "$dir/synth.ok" ] && [ "$(cat "$dir/synth.ok")" = "$(stamp "$1")" ] && [ -d "$dir/data" ]
}

# synthesise N: makes $work/nN/data and its synth.ok stamp
synthesise() {
	local dir=$work/n$1
	rm -rf "$dir/data" "$dir/synth.ok" "$dir/synth.ok.held" "$dir/backup"
	note "N=$1: synthesising into $dir/data"
	python3 "$synth" "$dir/data" --algorithms "$1" --systems "$systems" --seed "$seed" >&2 ||
		return 1
	stamp "$1" >"$dir/synth.ok"
}

# hugo_site REF DIR: a Hugo site in DIR whose content is REF's Markdown twins of the algorithm
# pages, each with its title in front matter, whose layout is baseof.html and single.html, and
# whose static/data holds hard links of REF's data/; prints the number of pages
hugo_site() {
	local ref=$1 dir=$2
	rm -rf "$dir"
	mkdir -p "$dir/layouts/_default" "$dir/content" "$dir/static" || return 1
	# Only the algorithm pages are rendered: no list pages, feeds or sitemap.
	printf '%s\n' 'baseURL = "http://example.org/"' 'title = "gen-bench"' \
		'disableKinds = ["home", "section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]' \
		>"$dir/config.toml" || return 1
	cat >"$dir/layouts/_default/baseof.html" <<'EOF' || return 1
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ .Site.Title }}</title>
</head>
<body>
<main>
{{ block "main" . }}{{ end }}
</main>
</body>
</html>
EOF
	cat >"$dir/layouts/_default/single.html" <<'EOF' || return 1
{{ define "main" }}
{{ .Content }}
{{ end }}
EOF
	cp -al "$ref/data" "$dir/static/data" || return 1
	python3 - "$ref" "$dir/content" <<'EOF'
import os, sys
ref, content = sys.argv[1], sys.argv[2]
count = 0
for system in sorted(os.listdir(ref)):
    sysdir = os.path.join(ref, system)
    if system == "data" or not os.path.isdir(sysdir):
        continue
    names = sorted(f for f in os.listdir(sysdir) if f.startswith("hash-") and f.endswith(".md"))
    if not names:
        continue
    os.makedirs(os.path.join(content, system), exist_ok=True)
    for name in names:
        with open(os.path.join(sysdir, name), encoding="utf-8") as f:
            text = f.read()
        title = name[:-3]
        for line in text.splitlines():
            if line.startswith("# "):
                title = line[2:].strip()
                break
        title = title.replace("\\", "\\\\").replace('"', '\\"')
        with open(os.path.join(content, system, name), "w", encoding="utf-8") as f:
            f.write('---\ntitle: "%s"\n---\n\n%s' % (title, text))
        count += 1
print(count)
EOF
}

# ---- the record that the rebuild changes, restored before the next N and on exit ----
cur_dir='' cur_data='' backup=''
# shellcheck disable=SC2317  # also called by the EXIT trap
restore() {
	[ -n "$backup" ] && [ -f "$backup/rel" ] || return 0
	local rel sys
	rel=$(cat "$backup/rel")
	sys=${rel%%/*}
	cp "$backup/record" "$cur_data/$rel" && cp "$backup/SHA256SUMS" "$cur_data/$sys/SHA256SUMS" &&
		rm -rf "$backup" && mv "$cur_dir/synth.ok.held" "$cur_dir/synth.ok"
}
trap restore EXIT
trap 'exit 130' INT TERM

# change_record: touches the first record of the first system in $cur_data (one more cycle
# count in round 1, the nanoseconds at the same rate, the same JSON layout) and that system's
# SHA256SUMS line, keeping the originals in $backup; prints the record's path in the evidence
change_record() {
	python3 - "$cur_data" "$backup" <<'EOF'
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
}

# compare A B OUT: diff -r --brief of two sites into OUT; prints "identical" or the differences
compare() {
	if diff -r --brief "$1" "$2" >"$3" 2>&1; then
		echo identical
		return 0
	fi
	echo "$(wc -l <"$3") differences (all in $3):"
	head -n 20 "$3"
	return 1
}

# ---- each N: the same-site comparison, then the rebuilds ----
echo "rounds: $rounds at each N, the order rotating from round to round (hashgen, Hugo, floor;"
echo "  Hugo, floor, hashgen; ...); wall time best (min), median (min-max); pages/s from the best;"
echo "  peak RSS the largest over the rounds"
status=0
declare -A hugo_peak=()  # N -> Hugo's largest peak RSS (KiB) at that N
md_rows=()
for n in $sizes; do
	dir=$work/n$n
	pages_expected=$((n * systems))
	mkdir -p "$dir" || die "cannot create $dir"
	# An earlier run's outputs go first, so that the free space counts them.
	rm -rf "$dir/ref" "$dir/ref.hashgen-cache" "$dir/site" "$dir/site.hashgen-cache" \
		"$dir/fresh" "$dir/fresh.hashgen-cache" "$dir/floor" "$dir/hugo" "$dir/other-files.list" ||
		die "N=$n: cannot clear $dir"

	# Hugo at this N if the peak of the largest smaller N measured, scaled linearly (or the
	# prior per page), fits in 90 % of the memory available now.
	hugo_here=$hugo_version hugo_why=
	if [ -n "$hugo_version" ]; then
		m=0
		for k in "${!hugo_peak[@]}"; do
			if [ "$k" -le "$n" ] && [ "$k" -gt "$m" ]; then m=$k; fi
		done
		if [ "$m" -gt 0 ]; then
			est=$(( ${hugo_peak[$m]} * n / m ))
			basis="$(mib "${hugo_peak[$m]}") MiB at N=$m scaled linearly"
		else
			est=$((hugo_prior_kib_per_page * pages_expected))
			basis="$hugo_prior_kib_per_page KiB per page, Hugo 0.111's footprint without static files"
		fi
		avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo 2>/dev/null)
		if [ -n "$avail" ] && [ "$est" -gt $((avail * 9 / 10)) ]; then
			hugo_here=
			hugo_why="it would need about $(gib "$est") GiB ($basis), more than 90 % of the $(gib "$avail") GiB available (MemAvailable)"
			note "N=$n: Hugo skipped: $hugo_why"
		fi
	fi

	# Room for the evidence, four rendered sites (the reference copy, the clean builds, the fresh
	# build, the floor) and Hugo's copy.
	ready=yes
	evidence_ready "$n" || ready=
	need=$((4 * site_kib_per * pages_expected))
	[ -n "$ready" ] || need=$((need + ev_kib_per * pages_expected))
	[ -z "$hugo_here" ] || need=$((need + hugo_kib_per * pages_expected))
	free=$(df -Pk "$work" | awk 'NR == 2 { print $4 }')
	[ -n "$free" ] || die "N=$n: df cannot tell the free space in $work"
	[ "$free" -ge "$need" ] ||
		die "N=$n: about $(gib "$need") GiB of disk needed in $work, $(gib "$free") GiB free (set GEN_BENCH_DIR or GEN_BENCH_SIZES)"
	if [ -n "$ready" ]; then note "N=$n: reusing $dir/data"; else synthesise "$n" || die "N=$n: synthesis failed"; fi

	# Not timed: the rendered copy the floor copies from, its two lists, Hugo's site.
	note "N=$n: rendering the reference copy $dir/ref"
	run_hashgen "$dir/data" "$dir/ref" "$dir/ref-build" || exit 1
	(cd "$dir/ref" && find . -path ./data -prune -o ! -type d -printf '%P\0') >"$dir/other-files.list" ||
		die "N=$n: cannot list the files of $dir/ref"
	n_other=$(tr -cd '\0' <"$dir/other-files.list" | wc -c)
	n_evidence=$(find "$dir/ref/data" ! -type d | wc -l)
	if [ -n "$hugo_here" ]; then
		note "N=$n: preparing Hugo's site $dir/hugo"
		hugo_pages=$(hugo_site "$dir/ref" "$dir/hugo") || die "N=$n: could not make the Hugo site"
		[ "$hugo_pages" -eq "$pages_expected" ] ||
			note "N=$n: Hugo's content has $hugo_pages pages, expected $pages_expected"
	fi

	tools=(hashgen)
	[ -z "$hugo_here" ] || tools+=(hugo)
	tools+=(floor)
	hw=() hr=() uw=() ur=() fw=() fr=()
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#tools[@]}; i++)); do
			t=${tools[(i + r) % ${#tools[@]}]}
			case $t in
			hashgen)
				rm -rf "$dir/site" "$dir/site.hashgen-cache"
				run_hashgen "$dir/data" "$dir/site" "$dir/clean-$((r + 1))" || exit 1
				hw+=("$wall") hr+=("${rss_kib:-0}")
				;;
			hugo)
				run_hugo "$dir/hugo" "$dir/hugo-build" || exit 1
				uw+=("$wall") ur+=("${rss_kib:-0}")
				;;
			floor)
				run_floor "$dir/ref" "$dir/floor" "$dir/other-files.list" "$dir/floor-build" || exit 1
				fw+=("$wall") fr+=("${rss_kib:-0}")
				# once: the floor makes the very files of the rendered copy
				if [ ${#fw[@]} -eq 1 ] && ! diff -r --brief "$dir/ref" "$dir/floor" >"$dir/floor-diff.txt" 2>&1; then
					die "N=$n: the floor's copy differs from $dir/ref (see $dir/floor-diff.txt)"
				fi
				;;
			esac
			note "N=$n round $((r + 1))/$rounds: $t $wall s, peak RSS $(mib_unit "$rss_kib")"
		done
	done

	pages=$(count_pages "$dir/site")
	[ "$pages" -eq "$pages_expected" ] ||
		note "N=$n: expected $pages_expected algorithm pages (N x systems), found $pages"
	if [ -n "$hugo_here" ]; then
		hugo_out=$(find "$dir/hugo/public" -mindepth 3 -maxdepth 3 -type f -path '*/hash-*/index.html' | wc -l)
		[ "$hugo_out" -eq "$pages" ] || note "N=$n: Hugo wrote $hugo_out algorithm pages, hashgen $pages"
	fi
	echo
	echo "N=$n: $(group "$pages") algorithm pages; the site holds $(group "$n_evidence") evidence files and $(group "$n_other") other files"
	row N pages tool best_s "median_s (range)" pages/s peak_MiB
	read -r hmed hmin hmax < <(stats "${hw[@]}")
	row "$n" "$pages" hashgen "$hmin" "$hmed ($hmin-$hmax)" \
		"$(rate "$pages" "$hmin")" "$(mib "$(maxof "${hr[@]}")")"
	if [ -n "$hugo_here" ]; then
		read -r umed umin umax < <(stats "${uw[@]}")
		hugo_peak[$n]=$(maxof "${ur[@]}")
		[ "${hugo_peak[$n]}" -gt 0 ] || unset "hugo_peak[$n]"
		row "$n" "$pages" hugo "$umin" "$umed ($umin-$umax)" \
			"$(rate "$pages" "$umin")" "$(mib "$(maxof "${ur[@]}")")"
	fi
	read -r fmed fmin fmax < <(stats "${fw[@]}")
	row "$n" "$pages" floor "$fmin" "$fmed ($fmin-$fmax)" \
		"$(rate "$pages" "$fmin")" "$(mib "$(maxof "${fr[@]}")")"
	vs_floor=$(ratio "$hmin" "$fmin")
	echo "N=$n: hashgen ÷ floor: $vs_floor (best of each)"
	clean_logs=()
	for ((r = 1; r <= rounds; r++)); do clean_logs+=("$dir/clean-$r"); done
	steps "$n" "its best clean build" "${clean_logs[@]}"
	if [ -n "$hugo_here" ]; then
		vs_hugo=$(ratio "$umin" "$hmin")
		echo "N=$n: hashgen pages/s ÷ Hugo pages/s: $vs_hugo (best of each)"
		md_hugo="$umin s"
	else
		vs_hugo=—
		if [ -n "$hugo_why" ]; then
			echo "N=$n: Hugo skipped: $hugo_why"
			echo "N=$n: hashgen pages/s ÷ Hugo pages/s: n/a (Hugo skipped)"
			md_hugo="skipped (about $(gib "$est") GiB of memory)"
		else
			md_hugo=—
		fi
	fi

	# ---- the libraries alone: with the floor, a bound no clean build goes below ----
	md_bound=—
	if [ -n "$libfloor" ] && [ "$n" -le "$libfloor_max" ]; then
		"$libfloor" "$dir/data" "$dir/ref" "$rounds" >"$dir/libfloor.out" 2>"$dir/libfloor.err" ||
			die "N=$n: libfloor failed (see $dir/libfloor.err)"
		sed "s/^/N=$n: libfloor: /" "$dir/libfloor.out"
		libs=$(awk '/^all steps/ { print $NF }' "$dir/libfloor.out")
		bound=$(awk -v f="$fmin" -v l="$libs" -v p="$cpus" 'BEGIN { printf "%.2f", (f + l) / p }')
		echo "N=$n: a clean build on $cpus CPUs cannot take less than (floor + the libraries) / $cpus = ($fmin + $libs) / $cpus = $bound s, $(ratio "$bound" "$fmin") × the floor"
		md_bound="$bound s ($(ratio "$bound" "$fmin"))"
	fi

	# ---- rebuild after one record changed, a no-op rebuild, each against a clean build ----
	cur_dir=$dir cur_data=$dir/data backup=$dir/backup
	rm -rf "$backup"
	mkdir -p "$backup" || exit 1
	# The evidence is marked incomplete while it differs from what synth.py wrote.
	mv "$dir/synth.ok" "$dir/synth.ok.held" || exit 1
	rel=$(change_record) || die "N=$n: could not modify a record"
	sys=${rel%%/*}
	(cd "$cur_data/$sys" && grep -F "  ${rel#*/}" SHA256SUMS | sha256sum -c --quiet -) ||
		die "N=$n: $rel: SHA256SUMS does not match after the change"
	run_hashgen "$cur_data" "$dir/site" "$dir/rebuild" || exit 1
	rebuild_wall=$wall rebuild_rss=$rss_kib
	run_hashgen "$cur_data" "$dir/fresh" "$dir/fresh-build" || exit 1
	fresh_wall=$wall fresh_rss=$rss_kib
	echo "N=$n: rebuild after changing $rel: wall $rebuild_wall s, peak RSS $(mib_unit "$rebuild_rss")"
	echo "N=$n: clean build of the same evidence into a fresh folder: wall $fresh_wall s, peak RSS $(mib_unit "$fresh_rss")"
	same=yes
	verdict=$(compare "$dir/site" "$dir/fresh" "$dir/diff.txt") || same=no
	echo "N=$n: rebuild vs clean build: $verdict"
	# the no-op rebuild $rounds times: the first comes right after the fresh clean build, which may
	# have pushed the evidence's inodes out of the kernel's caches
	noop_walls=()
	for ((r = 0; r < rounds; r++)); do
		run_hashgen "$cur_data" "$dir/site" "$dir/noop-rebuild" || exit 1
		noop_walls+=("$wall")
		echo "N=$n: no-op rebuild (nothing changed): wall $wall s, peak RSS $(mib_unit "$rss_kib")"
	done
	read -r nmed nmin nmax < <(stats "${noop_walls[@]}")
	echo "N=$n: no-op rebuild, $rounds times: best $nmin s, median $nmed s ($nmin-$nmax)"
	verdict=$(compare "$dir/site" "$dir/fresh" "$dir/diff-noop.txt") || same=no
	echo "N=$n: no-op rebuild vs clean build: $verdict"
	[ $same = yes ] || status=1
	# more rebuilds after one record changed ($rounds in all): back to the original record and
	# SHA256SUMS, then the changed ones again, and so on
	rebuild_walls=("$rebuild_wall")
	cp "$cur_data/$rel" "$backup/record.changed" &&
		cp "$cur_data/$sys/SHA256SUMS" "$backup/SHA256SUMS.changed" || exit 1
	for ((r = 1; r < rounds; r++)); do
		if [ $((r % 2)) -eq 1 ]; then suffix=; else suffix=.changed; fi
		cp "$backup/record$suffix" "$cur_data/$rel" &&
			cp "$backup/SHA256SUMS$suffix" "$cur_data/$sys/SHA256SUMS" || exit 1
		run_hashgen "$cur_data" "$dir/site" "$dir/rebuild-$r" || exit 1
		rebuild_walls+=("$wall")
	done
	read -r rmed rmin rmax < <(stats "${rebuild_walls[@]}")
	echo "N=$n: rebuild after one record changed, $rounds times: best $rmin s, median $rmed s ($rmin-$rmax)"
	rebuild_logs=("$dir/rebuild")
	for ((r = 1; r < rounds; r++)); do rebuild_logs+=("$dir/rebuild-$r"); done
	steps "$n" "its best rebuild after one record changed" "${rebuild_logs[@]}"
	restore || die "N=$n: could not restore $cur_data/$rel from $backup"

	md_rows+=("| $(group "$n") ($(group "$pages")) | $hmin s, $hmed s | $md_hugo | $fmin s | $md_bound | $vs_floor | $vs_hugo | $(mib_unit "$(maxof "${hr[@]}")") | $rmin, $rmed | $nmin, $nmed | $same |")
done

echo
echo "Markdown, for docs/benchmarks.md:"
echo
echo "| N (pages) | hashgen clean build (best, median) | Hugo on the same site (best) | floor (best) | (floor + libraries) ÷ CPUs (÷ floor) | hashgen ÷ floor | hashgen ÷ Hugo pages/s | hashgen peak RSS | rebuild after one record (s: best, median) | no-op rebuild (s: best, median) | identical |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${md_rows[@]}"
[ $status -eq 0 ] || note "a rebuild differs from a clean build of the same evidence (see diff.txt, diff-noop.txt)"
exit $status
