#!/usr/bin/env bash
# supercop-parity.sh TREE PRIMITIVE... — does hashbench give each SUPERCOP implementation, at each
# compiler line, the verdict SUPERCOP's own do-part gives it?
#
# 1. Copies TREE (read-only input) to a scratch folder outside any repository and runs SUPERCOP's
#    do-part there as SUPERCOP runs it: ./do-part init, ./do-part keccak, ./do-part cryptopp (each
#    may fail: recorded, and the run goes on), then what the primitives use of operations SUPERCOP
#    builds before crypto_hash (./do-part crypto_hashblocks PRIMITIVE when the tree has it, and
#    each crypto_core_… or other primitive an implementation includes), then ./do-part
#    crypto_hash PRIMITIVE for each. From do-part's output (every implementation and line it
#    tried, those it skipped for their architectures or a missing subroutine) and its
#    bench/<host>/data file (try lines with ok, unknown or fails; tryfails; fromcompiler) it
#    derives SUPERCOP's verdict per implementation and line: passes, unknown (the primitive has
#    no checksum files), fails checksums, does not compile, does not link, try fails (a crash,
#    try.c's own findings), not run here, subroutine missing.
# 2. Runs hashbench kat-check --supercop TREE --compilers COMPILERS PRIMITIVE for each primitive
#    (COMPILERS default TREE/okcompilers/c) and reads each setting's result and detail from what
#    it prints, sorted into the same verdicts.
# 3. Prints, per implementation and compiler line, both verdicts; then every disagreement with
#    both sides' reasons, and how many agree. Disagreements are findings: the exit status is 0
#    with them, 1 when a step cannot run at all (do-part init, hashbench), 2 on bad usage.
#
# Each do-part run compiles every implementation with each of the tree's compiler lines (minutes
# per primitive; Crypto++ alone takes long): run it under nice on a shared machine. Environment:
# HASHBENCH, KEEP=1 (keeps the scratch folder: the tree's copy with bench/<host>/, each step's
# log and data, hashbench's output), COMPILERS, LIBRARIES (default "keccak cryptopp": the
# do-part library steps to run), HASHBENCH_ARGS (more options for kat-check, e.g. --jobs 1),
# RESUME=DIR (a scratch folder an earlier run of the same TREE kept, KEEP=1, stopped or not: its
# copy of the tree, hashbench's builds, and each do-part step that finished there, the one with a
# data file, are taken as they are; the others run again).
set -euo pipefail

usage() {
	echo "usage: supercop-parity.sh TREE PRIMITIVE..." >&2
	exit 2
}
die() { # MESSAGE [STATUS]
	echo "supercop-parity.sh: $1" >&2
	exit "${2:-1}"
}

[ $# -ge 2 ] || usage
[ -d "$1" ] || die "TREE '$1' is not a folder" 2
TREE=$(cd "$1" && pwd)
shift
for f in do-part okcompilers/c crypto_hash/try.c try-anything.c; do
	[ -e "$TREE/$f" ] || die "TREE '$TREE' is not a SUPERCOP tree: it has no $f" 2
done
for p in "$@"; do
	case $p in */* | .* | '') die "PRIMITIVE '$p' is not a primitive's name (e.g. bmw256)" 2 ;; esac
	[ -d "$TREE/crypto_hash/$p" ] || die "PRIMITIVE '$p': the tree has no crypto_hash/$p" 2
done
PRIMS=("$@")
COMPILERS=${COMPILERS:-$TREE/okcompilers/c}
case $COMPILERS in /*) ;; *) COMPILERS=$PWD/$COMPILERS ;; esac
[ -e "$COMPILERS" ] || die "COMPILERS '$COMPILERS' does not exist" 2
LIBRARIES=${LIBRARIES-keccak cryptopp}
for l in $LIBRARIES; do
	case $l in keccak | cryptopp) ;; *) die "LIBRARIES: '$l' is not keccak or cryptopp" 2 ;; esac
done
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# do-part writes bench/ into the tree it runs in: never let that be inside a repository.
if git -C "$TMP" rev-parse --git-dir >/dev/null 2>&1; then
	die "the scratch folder $TMP is inside a git repository; set TMPDIR elsewhere"
fi

quality_machine
echo "SUPERCOP tree: $TREE (version $(cat "$TREE/version" 2>/dev/null || echo unknown))"
echo "primitives: ${PRIMS[*]}"
echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"

if [ -n "${RESUME:-}" ]; then
	[ -d "$RESUME/tree" ] && [ -d "$RESUME/steps" ] ||
		die "RESUME '$RESUME' is not a folder an earlier run kept (no tree/ and steps/)" 2
	rmdir "$TMP"
	TMP=$(cd "$RESUME" && pwd)
	KEEP=1
	echo "resumed in $TMP: its copy of the tree and the do-part steps that finished there"
else
	mkdir -p "$TMP/steps" "$TMP/hb"
	t0=$(date +%s)
	cp -pR "$TREE/." "$TMP/tree"
	rm -rf "$TMP/tree/bench" # an earlier run's results, if TREE has been used in place
	echo "copied the tree to $TMP/tree ($(($(date +%s) - t0)) s)"
fi

# step NAME ARG...: ./do-part ARG... in the copy, its output kept as steps/NAME.log and its data
# file as steps/NAME.data (every do-part run starts bench/<host>/data anew); sets RC and prints
# one line: exit status, seconds and what came of it.
HOSTDIR=
step() {
	local name=$1 start secs note='' kept=''
	shift
	start=$(date +%s)
	RC=0
	if [ -n "${RESUME:-}" ] && [ -f "$TMP/steps/$name.data" ] && [ -f "$TMP/steps/$name.rc" ]; then
		kept=1 # finished in the run resumed: its log, data and exit status as they are
		RC=$(cat "$TMP/steps/$name.rc")
	elif [ -n "${RESUME:-}" ] && [ -f "$TMP/steps/$name.data" ]; then
		kept=1 # the same, kept by a version that did not write the exit status: 1 when the log
		RC=0   # ends with do-part's closing 'cat work/errors' failing, else taken as 0
		if tail -n 1 "$TMP/steps/$name.log" | grep -q '^cat: .*/work/errors: No such file'; then
			RC=1
		fi
	else
		(cd "$TMP/tree" && ./do-part "$@") </dev/null >"$TMP/steps/$name.log" 2>&1 || RC=$?
	fi
	secs=$(($(date +%s) - start))
	[ -n "$HOSTDIR" ] || HOSTDIR=$(find "$TMP/tree/bench" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -n 1)
	if [ -z "$kept" ] && [ -n "$HOSTDIR" ] && [ -f "$HOSTDIR/data" ]; then
		cp "$HOSTDIR/data" "$TMP/steps/$name.data"
		echo "$RC" >"$TMP/steps/$name.rc"
	fi
	case $1 in
		keccak | cryptopp)
			if [ -s "$HOSTDIR/lib/$ABI/lib$1.a" ]; then note="lib$1.a built"; else note="lib$1.a NOT built"; fi ;;
		crypto_*)
			note=$(awk -v op="$1" '$5 == op && $7 == "try" { n[$9]++ } $5 == op && $7 == "tryfails" && $10 == "error" { n["tryfails"]++ }
				END { printf "try lines: %d ok, %d unknown, %d fail; %d tryfails", n["ok"], n["unknown"], n["fails"], n["tryfails"] }' \
				"$TMP/steps/$name.data" 2>/dev/null || echo "no data file") ;;
	esac
	# do-part ends with `cat work/errors`, which fails (exit 1) when the step compiled nothing
	# (init, keccak, cryptopp): that is no failure of the step.
	if [ "$RC" -eq 1 ] && tail -n 1 "$TMP/steps/$name.log" | grep -q '^cat: .*/work/errors: No such file'; then
		note="exit 1 is do-part's closing 'cat work/errors' (nothing compiled by it)${note:+; $note}"
	elif [ "$RC" -ne 0 ]; then
		note="FAILED, its last lines:${note:+ ($note)}"
	fi
	if [ -n "$kept" ]; then
		printf '  do-part %-36s exit %d, kept from the run resumed%s\n' "$*" "$RC" "${note:+; $note}"
	else
		printf '  do-part %-36s exit %d, %5d s%s\n' "$*" "$RC" "$secs" "${note:+; $note}"
	fi
	case $note in
		FAILED*) tail -n 3 "$TMP/steps/$name.log" | sed 's/^/    | /' ;;
	esac
}

echo
echo "SUPERCOP's do-part, in the copy:"
ABI=
step init init
if [ -z "$HOSTDIR" ] || [ ! -x "$HOSTDIR/bin/okabi" ] || [ -z "$("$HOSTDIR/bin/okabi")" ]; then
	die "do-part init built no bench/<host>/bin/okabi (exit $RC); KEEP=1 keeps its log ($TMP/steps/init.log)"
fi
ABI=$("$HOSTDIR/bin/okabi" | head -n 1)
echo "  ABI $ABI; compiler lines that work here (okc-$ABI, okcpp-$ABI): $("$HOSTDIR/bin/okc-$ABI" | wc -l) C, $("$HOSTDIR/bin/okcpp-$ABI" | wc -l) C++"
for l in $LIBRARIES; do
	step "$l" "$l"
done
# What SUPERCOP's full run builds before crypto_hash (operations in OPERATIONS' order) that these
# primitives use: each one's crypto_hashblocks namesake, and every other operation's primitive an
# implementation includes (crypto_core_keccakf160064bits.h: crypto_core keccakf160064bits), which
# do-part otherwise reports missing, skipping the implementation.
needs() {
	local p op prim n
	for p in "${PRIMS[@]}"; do
		if [ -d "$TREE/crypto_hashblocks/$p" ]; then
			echo "crypto_hashblocks $p"
		fi
		grep -RhoE '#include[[:space:]]*["<]crypto_[a-z0-9]+_[a-z0-9]+(_publicinputs)?\.h' "$TREE/crypto_hash/$p" |
			sed -E 's/.*["<](crypto_[a-z0-9]+)_([a-z0-9]+)(_publicinputs)?\.h$/\1 \2/' || true
	done | sort -u | while read -r op prim; do
		n=$(grep -nx "$op" "$TREE/OPERATIONS" | cut -d: -f1) || continue
		if [ "$op" != crypto_hash ] && [ -d "$TREE/$op/$prim" ]; then
			echo "$n $op $prim"
		fi
	done | sort -k1,1n -k3,3 | cut -d' ' -f2-
}
needs >"$TMP/needs"
while read -r op prim; do
	step "$op-$prim" "$op" "$prim"
done <"$TMP/needs"
for p in "${PRIMS[@]}"; do
	step "crypto_hash-$p" crypto_hash "$p"
done

echo
echo "hashbench kat-check --supercop TREE --compilers $COMPILERS ${HASHBENCH_ARGS:-}PRIMITIVE:"
for p in "${PRIMS[@]}"; do
	start=$(date +%s)
	rc=0
	# shellcheck disable=SC2086 # HASHBENCH_ARGS is a list of options
	"$HB" kat-check --supercop "$TREE" --compilers "$COMPILERS" --work "$TMP/hb-work" \
		${HASHBENCH_ARGS:-} "$p" >"$TMP/hb/$p.out" 2>"$TMP/hb/$p.err" || rc=$?
	# 0: all passed, 1: some failed (findings); anything else: it could not check
	if [ "$rc" -gt 1 ] || ! grep -q "^$p (" "$TMP/hb/$p.out"; then
		tail -n 5 "$TMP/hb/$p.err" >&2
		die "hashbench kat-check $p did not run (exit $rc)"
	fi
	printf '  %-20s exit %d, %5d s\n' "$p" "$rc" $(($(date +%s) - start))
done

# Compiler lines as both sides name them: spaces squeezed, then turned into '_' (do-part's
# compilerword); numbered c1… (okcompilers/c) and cpp1… (okcompilers/cpp) in the files' order.
norm_awk='function norm(c) { gsub(/[ \t]+/, " ", c); sub(/^ /, "", c); sub(/ $/, "", c); gsub(/ /, "_", c); return c }'
{
	for lang in c cpp; do
		[ -f "$TREE/okcompilers/$lang" ] || continue
		works=$("$HOSTDIR/bin/ok$lang-$ABI" 2>/dev/null || true)
		awk -v lang="$lang" -v works="$works" "$norm_awk"'
			BEGIN { n = split(works, w, "\n"); for (i = 1; i <= n; i++) ok[norm(w[i])] = 1 }
			/^[ \t]*(#|$)/ { next }
			{ c = norm($0); print lang (++k) "\t" c "\t" norm_shown($0) (c in ok ? "" : "  (not among the lines that work here by SUPERCOP'"'"'s own test)") }
			function norm_shown(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }' "$TREE/okcompilers/$lang"
	done
} >"$TMP/lines.tsv"

# SUPERCOP's verdicts, one line each: sc TAB implementation TAB compilerword TAB verdict TAB detail
# (compilerword '*': every line). An implementation is named as hashbench names it: primitive /
# its path below the primitive with '/' turned into '-'.
awk "$norm_awk"'
function key(dir,   p, rest) {
	sub(/^crypto_hash\//, "", dir)
	p = index(dir, "/")
	rest = substr(dir, p + 1)
	gsub(/\//, "-", rest)
	return substr(dir, 1, p) rest
}
# checksums as hashbench prints them: the first 16 hex digits
function short(sums,   n, i, a, s) {
	n = split(sums, a, "/")
	for (i = 1; i <= n; i++) s = s (i > 1 ? "/" : "") (length(a[i]) > 16 ? substr(a[i], 1, 16) "…" : a[i])
	return s
}
function words(from,   s, i) { s = $from; for (i = from + 1; i <= NF; i++) s = s " " $i; return s }
# keep the first message of a kind, or the first that reads as an error
function remember(arr, isbad, k, m) {
	if (!(k in arr) || (!(k in isbad) && m ~ /error|undefined reference|multiple definition|relocation/)) {
		arr[k] = m
		if (m ~ /error|undefined reference|multiple definition|relocation/) isbad[k] = 1
	}
}
# security: do-part builds an implementation with goals constbranch and constindex as
# constbranchindex, any other as timingleaks; hashbench builds timingleaks. Keep both, prefer the
# timingleaks one where an implementation has both.
function seen(impl, cw, sec) { pair[impl SUBSEP cw] = 1; got[impl SUBSEP cw SUBSEP sec] = 1 }
FILENAME ~ /\.log$/ {
	if (!sub(/^=== .* === /, "")) next
	if ($1 == "skipping" && $2 ~ /\/implementation\/crypto_hash\//) {
		d = $2
		sub(/^[^\/]*\/implementation\//, "", d)
		skipped[key(d)] = 1
	} else if ($1 == "missing" && $3 == "in" && $4 ~ /\/implementation\/crypto_hash\//) {
		d = $4
		sub(/^[^\/]*\/implementation\//, "", d)
		missing[key(d)] = $2
	} else if (NF >= 4 && $2 ~ /^crypto_hash\/[^\/]+\/./) # abi implementation security line
		seen(key($2), norm(words(4)), $3)
	next
}
$5 != "crypto_hash" { next }
{ sec = $6; sub(/.*\//, "", sec) }
$7 == "try" {
	k = key($13) SUBSEP $14 SUBSEP sec
	seen(key($13), $14, sec)
	v[k] = $9 == "ok" ? "passes" : $9 == "unknown" ? "unknown" : $9 == "fails" ? "fails checksums" : "try: " $9
	det[k] = "checksum " short($8) " " $9
	next
}
$7 == "tryfails" {
	k = key($8) SUBSEP $9 SUBSEP sec
	seen(key($8), $9, sec)
	if ($10 == "error" && NF == 11) tfcode[k] = $11
	else if (!(k in tfmsg)) tfmsg[k] = words(10)
	tf[k] = 1
	next
}
$7 == "fromcompiler" {
	if ($10 ~ /^measure\./) next # measure is built after try passed
	k = key($8) SUBSEP $9 SUBSEP sec
	seen(key($8), $9, sec)
	if ($10 ~ /^try\./) remember(lmsg, lbad, k, $10 ": " words(11))
	else remember(cmsg, cbad, k, $10 ": " words(11))
}
END {
	OFS = "\t"
	for (p in pair) {
		split(p, a, SUBSEP)
		k = p SUBSEP ((p SUBSEP "timingleaks") in got ? "timingleaks" : "constbranchindex")
		if (k in v) print "sc", a[1], a[2], v[k], det[k]
		else if (k in tf) print "sc", a[1], a[2], "try fails", "exit " tfcode[k] (k in tfmsg ? ": " tfmsg[k] : "")
		else if (k in lmsg) print "sc", a[1], a[2], "does not link", lmsg[k]
		else if (k in cmsg) print "sc", a[1], a[2], "does not compile", cmsg[k]
		else print "sc", a[1], a[2], "no result", "tried, but nothing of it in the data file"
	}
	for (i in skipped) print "sc", i, "*", "not run here", "its architectures file does not name this ABI"
	for (i in missing) print "sc", i, "*", "subroutine missing", "do-part: missing " missing[i] " (no implementation of it built and kept)"
}' "$TMP"/steps/crypto_hash-*.log "$TMP"/steps/crypto_hash-*.data >"$TMP/sc.tsv"

# hashbench's verdicts from what kat-check printed: per implementation, a line per setting
# ("  <compiler line>: PASS|FAIL|ERROR[ (in turns…)][: detail]"), its checksums, then
# "<primitive> (<impl>): <RESULT> with <line>[: why]" (alone when one setting was tried), or
# "… (<impl>): NOT RUN: why" or "… (<impl>): ERROR: why".
awk "$norm_awk"'
function verdict(result, detail) {
	if (result == "PASS") return "passes"
	if (result == "FAIL") return "fails checksums"
	if (result ~ /^(UNKNOWN|UNVERIFIED)/) return "unknown"
	if (detail ~ /^try(-small)? failed|^try(-small)?: no result|did not link/) return "does not link"
	if (detail ~ /^refused to build by its own #error|inlining failed|target specific option mismatch/ ||
		detail ~ /^[^ :]+\.(c|cc|cpp|s|S)( failed|: )/) return "does not compile"
	if (detail ~ /crashed \(signal|exited with status|no result (after|within) [0-9]+ s|^violation: |printed no checksum/)
		return "try fails"
	if (detail ~ /^no implementation of .* that it calls passes/) return "what it calls fails"
	return "error"
}
# a path in the build cache (<work>/supercop/<key>/crypto_hash/…) without the cache
function bare(s) { gsub(/\/[^ :]*\/supercop\/[0-9a-f]+\//, "", s); return s }
BEGIN { OFS = "\t" }
/^  / && !/^  checksum(small|big): / {
	s = substr($0, 3)
	i = index(s, ": ")
	n++
	line[n] = norm(substr(s, 1, i - 1))
	rest = substr(s, i + 2)
	res[n] = rest
	sub(/[ :].*/, "", res[n])
	j = index(rest, ": ")
	det[n] = j ? bare(substr(rest, j + 2)) : ""
	next
}
/^[^ ]+ \([^)]*\): / {
	impl = $2
	gsub(/^\(|\):$/, "", impl)
	k = $1 "/" impl
	rest = $0
	sub(/^[^ ]+ \([^)]*\): /, "", rest)
	if (rest ~ /^NOT RUN: /)
		print "hb", k, "*", "not run here", substr(rest, 10)
	else if (n == 0 && rest ~ /^[A-Z]+ with /) { # one setting tried
		r = rest
		sub(/ .*/, "", r)
		c = substr(rest, length(r) + 7)
		d = ""
		if ((j = index(c, ": ")) > 0) { d = bare(substr(c, j + 2)); c = substr(c, 1, j - 1) }
		print "hb", k, norm(c), verdict(r, d), r (d != "" ? ": " d : "")
	} else if (n == 0)
		print "hb", k, "*", "error", bare(rest)
	for (i = 1; i <= n; i++)
		print "hb", k, line[i], verdict(res[i], det[i]), res[i] (det[i] != "" ? ": " det[i] : "")
	n = 0
}' "$TMP"/hb/*.out >"$TMP/hb.tsv"

echo
# The table: each implementation (sorted) and compiler line either side has (in the files'
# order); an implementation neither side tried at any line gets one row, line '*'.
sort -t "$(printf '\t')" -k2,2 -s "$TMP/sc.tsv" "$TMP/hb.tsv" |
	awk -F '\t' '
function cut(s) { return length(s) > 200 ? substr(s, 1, 197) "..." : s }
function side(s, impl, cw) {
	if ((s SUBSEP impl SUBSEP cw) in v) return v[s, impl, cw]
	if ((s SUBSEP impl SUBSEP "*") in v) return v[s, impl, "*"]
	return "not tried"
}
function why(s, impl, cw) {
	if ((s SUBSEP impl SUBSEP cw) in v) return det[s, impl, cw]
	if ((s SUBSEP impl SUBSEP "*") in v) return det[s, impl, "*"]
	return s == "sc" ? "do-part did not try this line" : "kat-check did not try this line"
}
function row(impl, cw,   p, a, b) {
	p = impl
	sub(/\/.*/, "", p)
	a = side("sc", impl, cw)
	b = side("hb", impl, cw)
	nr++
	r_impl[nr] = impl; r_line[nr] = cw == "*" ? "*" : id[cw]; r_sc[nr] = a; r_hb[nr] = b
	r_same[nr] = a == b
	total[p]++
	if (a == b) agree[p]++
	else {
		nd++
		diff[nd] = impl ", " r_line[nr] ": SUPERCOP " a " (" cut(why("sc", impl, cw)) "); hashbench " b " (" cut(why("hb", impl, cw)) ")"
	}
	if (length(impl) > wi) wi = length(impl)
	if (!(p in prim_seen)) { prim_seen[p] = 1; prims[++np] = p }
}
FILENAME == ARGV[1] { nc++; order[nc] = $2; id[$2] = $1; shown[$2] = $3; next }
{
	if (!($2 in known)) { known[$2] = 1; impls[++ni] = $2 }
	v[$1, $2, $3] = $4
	det[$1, $2, $3] = $5
	if ($3 != "*") {
		has[$2, $3] = 1
		if (!($3 in id)) { nc++; order[nc] = $3; id[$3] = "x" ++nx; shown[$3] = $3 " (in neither file)" }
	}
}
END {
	wi = length("implementation")
	print "compiler lines:"
	for (c = 1; c <= nc; c++) printf "  %-5s %s\n", id[order[c]], shown[order[c]]
	print ""
	for (i = 1; i <= ni; i++) {
		any = 0
		for (c = 1; c <= nc; c++)
			if ((impls[i] SUBSEP order[c]) in has) { row(impls[i], order[c]); any = 1 }
		if (!any) row(impls[i], "*")
	}
	fmt = "%-" wi "s  %-5s  %-19s  %-19s  %s\n"
	printf fmt, "implementation", "line", "SUPERCOP", "hashbench", ""
	for (r = 1; r <= nr; r++)
		printf fmt, r_impl[r], r_line[r], r_sc[r], r_hb[r], r_same[r] ? "" : "DIFFERS"
	print ""
	print "disagreements: " nd
	for (d = 1; d <= nd; d++) print "  " diff[d]
	print ""
	all = 0; same = 0
	for (k = 1; k <= np; k++) {
		printf "%s: %d of %d agree\n", prims[k], agree[prims[k]], total[prims[k]]
		all += total[prims[k]]; same += agree[prims[k]]
	}
	printf "all: %d of %d agree\n", same, all
}' "$TMP/lines.tsv" -
