#!/usr/bin/env bash
# test_install.sh — hashbench installed, moved and packaged, run from outside the checkout.
#
# usage: test_install.sh BUILD_DIR SOURCE_DIR
#
# Installs the build into a scratch prefix (cmake --install), and from a folder outside the
# checkout: both programs' --version, a quick SM3 campaign without --system, --profiles or
# --work (the installed baselines, profiles and driver, this machine's default name, a work
# folder under $HOME/.cache), hashgen without --templates, --check, and the man pages with
# man -l; no evidence names a path of the checkout. Then moves the installed tree and runs it
# again, builds the Debian package with CPack, checks what it holds and depends on, unpacks it
# with dpkg -x and renders the same site from there, byte for byte.
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
T=$(mktemp -d /tmp/hb-install.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
fail() { echo "test_install: FAIL: $*" >&2; exit 1; }
P=$T/prefix
cmake --install "$build" --prefix "$P" >/dev/null
for f in bin/hashbench bin/hashgen libexec/hashbench/hashbench-measure \
	libexec/hashbench/null/CryptHash_null.c share/hashbench/profiles.conf \
	share/hashbench/algorithms/sm3/algorithm.json share/hashbench/templates/page.html \
	share/man/man1/hashbench.1 share/man/man1/hashgen.1 share/doc/hashbench/README.md \
	share/doc/hashbench/docs/campaign.md; do
	[ -e "$P/$f" ] || fail "make install wrote no $f"
done

mkdir -p "$T/elsewhere" "$T/home"
cd "$T/elsewhere"
export HOME=$T/home
unset HASHBENCH_WORK XDG_CACHE_HOME
"$P/bin/hashbench" --version | grep -q '^hashbench ' || fail "hashbench --version"
"$P/bin/hashgen" --version | grep -q '^hashgen ' || fail "hashgen --version"
"$P/bin/hashbench" run --profile quick --only sm3 --data data --sizes 32,4096 --passes 2 \
	--sets 2_23 2>"$T/run.err" || { cat "$T/run.err" >&2; fail "the installed campaign"; }
system=$(ls data | grep -v '^algorithms$')
arch=$(uname -m)
# an aarch64 build run under qemu-user (make test-aarch64) names the machine it runs as
file -b "$P/bin/hashbench" | grep -q 'ARM aarch64' && arch=aarch64
[ "$system" = "$arch-$(hostname -s | tr -c 'A-Za-z0-9_.\n-' '-')" ] \
	|| fail "the evidence is data/$system, not this machine's default name"
grep -q "no --system given: this machine's evidence is data/$system/" "$T/run.err" \
	|| fail "the campaign did not say which name it chose: $(cat "$T/run.err")"
[ -d "$HOME/.cache/hashbench/work" ] || fail "no work folder under \$HOME/.cache/hashbench"
n=$(find "data/$system/records" -name '*.json' | wc -l)
[ "$n" = 4 ] || fail "$n records, expected 4 (SM3 reference and OpenSSL at 32 and 4096 B)"
grep -rqF "$P/share/hashbench/algorithms/sm3" "data/$system/records" \
	|| fail "the records do not name the installed baselines"
if grep -rqF "$src/" data; then fail "evidence names a path of the checkout: $(grep -rlF "$src/" data | head -1)"; fi
"$P/bin/hashgen" --data data --out site 2>/dev/null || fail "the installed hashgen"
[ -f site/index.html ] || fail "no site/index.html"
"$P/bin/hashgen" --check --data data --out site >/dev/null || fail "hashgen --check"
for m in hashbench hashgen; do
	out=$(MANWIDTH=80 man -l "$P/share/man/man1/$m.1" 2>&1 >/dev/null) || fail "man -l $m.1"
	[ -z "$out" ] || fail "man -l $m.1: $out"
done

# a moved tree still finds its own files
mv "$P" "$T/moved"
listing=$("$T/moved/bin/hashbench" list) || fail "the moved hashbench list"
grep -q '^sm3' <<<"$listing" || fail "the moved hashbench lists no baselines: $listing"
"$T/moved/bin/hashgen" --check --data data --out site >/dev/null || fail "the moved hashgen --check"

# the Debian package
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$T/pkg" >/dev/null
deb=$(ls "$T"/pkg/hashbench_*.deb)
contents=$(dpkg-deb -c "$deb")
grep -q ' ./usr/bin/hashbench$' <<<"$contents" || fail "the package holds no usr/bin/hashbench"
deps=$(dpkg-deb -f "$deb" Depends)
for d in libjansson4 libcmark libxml2 libseccomp2 gcc libc6-dev libssl-dev; do
	case $deps in *"$d"*) ;; *) fail "the package does not depend on $d: $deps" ;; esac
done
dpkg -x "$deb" "$T/root"
"$T/root/usr/bin/hashgen" --data data --out site2 2>/dev/null || fail "the packaged hashgen"
diff -r site site2 >/dev/null || fail "the packaged hashgen renders another site"
echo "test_install: PASS ($(basename "$deb"), Depends: $deps)"
