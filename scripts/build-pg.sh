#!/bin/sh
# build-pg.sh [--cached] VERSION | --cache-dir: build PostgreSQL VERSION (a major version,
# e.g. 18) from Debian's source package and install it into eicbench's build
# cache; print its bindir as the last line on stdout.
#
# The source package is fetched with apt-get, but through a private sources
# list, state and cache folder under the build cache: the system's apt
# sources and state are neither read nor changed. The Debian suites are tried
# in order (sid, then trixie, then bookworm) until one carries
# postgresql-VERSION. The upstream tree (Debian's patches are not applied) is
# configured upstream's way (--with-liburing, no LLVM, ICU only when its dev
# package is present), built with make -j$(nproc) and installed into
# CACHE/pg/VERSION.MINOR. A finished build leaves eicbench-build.json there;
# a later call finds it and prints the same bindir without building.
# With --cached, only look: print the bindir of a finished build, or exit 1.
# With --background, return at once: when no build is finished, one starts
# behind the caller at the lowest CPU priority (nice 19), its progress in
# CACHE/build-VERSION.log; a later plain call waits for it (the cache's lock)
# and prints its bindir, or builds again if it failed. make check starts 18
# this way so that the build runs while the tests wait on the disk.
# --cache-dir prints the build cache's folder.
#
# The build cache: $EICBENCH_CACHE, else /var/cache/eicbench as root (the
# server's user must reach it, and root's home is private), else
# ${XDG_CACHE_HOME:-$HOME/.cache}/eicbench. eicbench's --pg N looks there too.
# Environment: EICBENCH_DEBIAN_MIRROR (default: the Debian mirror named in
# /etc/apt/sources.list*), EICBENCH_DEBIAN_SUITES ("sid trixie bookworm").
# Progress goes to stderr; each failure names the step and what to do.
set -eu
umask 022

usage() {
	echo "usage: scripts/build-pg.sh [--cached | --background] VERSION   (a PostgreSQL major version, 10..99, e.g. 18)" >&2
	echo "       scripts/build-pg.sh --cache-dir" >&2
	exit 2
}

# The same rule as bench/pg/pgbin.c's pgbin_cache_dir().
if [ -n "${EICBENCH_CACHE:-}" ]; then
	cache=$EICBENCH_CACHE
elif [ "$(id -u)" -eq 0 ]; then
	cache=/var/cache/eicbench
else
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/eicbench
fi

cached_only=""
background=""
case "${1:-}" in
--cache-dir) [ $# -eq 1 ] || usage; echo "$cache"; exit 0 ;;
--cached) cached_only=1; shift ;;
--background) background=1; shift ;;
esac
[ $# -eq 1 ] || usage
case "$1" in
[1-9][0-9]) major=$1 ;;
*) echo "build-pg: VERSION '$1' is not a PostgreSQL major version; give 10..99, e.g. 18" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)

say() { echo "build-pg: $*" >&2; }

# fail STEP LOG WHAT: say which step failed, show the end of its log, exit 1
fail() {
	say "step '$1' failed: $3"
	if [ -n "$2" ] && [ -s "$2" ]; then
		say "the end of $2:"
		tail -n 25 "$2" | sed 's/^/    /' >&2
	fi
	exit 1
}

# The newest finished build of $major in the cache, as its bindir.
find_build() {
	best=""
	for d in "$cache/pg/$major".*; do
		[ -f "$d/eicbench-build.json" ] && [ -x "$d/bin/postgres" ] || continue
		best="$best$(basename "$d" | sed "s/^$major\\.//") $d/bin
"
	done
	printf '%s' "$best" | sort -n | tail -n 1 | cut -d' ' -f2-
}

found=$(find_build)
if [ -n "$found" ]; then
	[ -n "$cached_only" ] || say "PostgreSQL $(basename "$(dirname "$found")") is already built in $(dirname "$found")"
	echo "$found"
	exit 0
fi
[ -z "$cached_only" ] || exit 1

if [ -n "$background" ]; then
	mkdir -p "$cache" ||
		fail cache "" "cannot create the build cache '$cache'; set EICBENCH_CACHE to a writable directory"
	blog=$cache/build-$major.log
	say "PostgreSQL $major is not built yet: building it behind this at nice 19 (progress in $blog)"
	nice -n 19 "$here/scripts/build-pg.sh" "$major" >"$blog" 2>&1 </dev/null &
	exit 0
fi

mkdir -p "$cache/pg" "$cache/apt" "$cache/src" ||
	fail cache "" "cannot create the build cache '$cache'; set EICBENCH_CACHE to a writable directory"
exec 9>"$cache/pg/.lock"
if command -v flock >/dev/null 2>&1; then
	flock 9
	found=$(find_build)	# another call may have built it meanwhile
	[ -z "$found" ] || { echo "$found"; exit 0; }
fi

# ---- build dependencies, the project's way ----------------------------------
say "step deps: checking the build dependencies (scripts/install-deps.sh build-pg)"
"$here/scripts/install-deps.sh" build-pg >&2 ||
	fail deps "" "could not install the build dependencies; as root (or with sudo) run: apt-get install gcc make pkg-config perl bison flex libreadline-dev zlib1g-dev liburing-dev dpkg-dev bzip2 xz-utils debian-archive-keyring"

# ---- the source package, through a private apt ------------------------------
mirror=${EICBENCH_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n -e 's/^URIs:[[:space:]]*//p' -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' |
		tr ' ' '\n' | grep -E '^https?://.*/debian/?$' | head -n 1)
	mirror=${mirror:-http://deb.debian.org/debian}
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail fetch "" "no Debian archive keyring at $keyring; install debian-archive-keyring"

# papt SUITE TOOL ARGS...: apt-get or apt-cache with the private configuration
papt() {
	s=$1 tool=$2
	shift 2
	"$tool" -q -o Dir::Etc::sourcelist="$cache/apt/$s/sources.list" \
		-o Dir::Etc::sourceparts=- -o Dir::State="$cache/apt/$s/state" \
		-o Dir::Cache="$cache/apt/$s/cache" -o Dir::State::status=/dev/null \
		-o Dir::Etc::preferences=/dev/null -o Dir::Etc::preferencesparts=- \
		-o APT::Default-Release= "$@"
}

pkg=postgresql-$major
version=""
for suite in ${EICBENCH_DEBIAN_SUITES:-sid trixie bookworm}; do
	mkdir -p "$cache/apt/$suite/state/lists/partial" "$cache/apt/$suite/cache/archives/partial"
	echo "deb-src [signed-by=$keyring] $mirror $suite main" >"$cache/apt/$suite/sources.list"
	say "step fetch: reading the source index of Debian $suite from $mirror"
	log=$cache/apt/$suite/update.log
	papt "$suite" apt-get update >"$log" 2>&1 && ! grep -q '^[WE]: Failed' "$log" ||
		fail fetch "$log" "could not read Debian's $suite source index from $mirror (is the mirror reachable? set EICBENCH_DEBIAN_MIRROR to another)"
	version=$(papt "$suite" apt-cache showsrc "$pkg" 2>/dev/null |
		sed -n 's/^Version: //p' | sort -V | tail -n 1)
	[ -z "$version" ] || break
	say "Debian $suite has no $pkg"
done
[ -n "$version" ] || fail fetch "" "no Debian suite of '${EICBENCH_DEBIAN_SUITES:-sid trixie bookworm}' carries $pkg; set EICBENCH_DEBIAN_SUITES to one that does"
upstream=${version#*:}
upstream=${upstream%-*}
case "$upstream" in
"$major".[0-9]*) ;;
*) fail fetch "" "$pkg $version in Debian $suite is not a release of $major (beta or snapshot); set EICBENCH_DEBIAN_SUITES to a suite with a release" ;;
esac

src=$cache/src/$upstream
prefix=$cache/pg/$upstream
rm -rf "$src" "$prefix"
mkdir -p "$src"
say "step download: $pkg $version from Debian $suite"
# apt-get source writes into the working directory
(cd "$src" && papt "$suite" apt-get source --download-only "$pkg=$version") >"$src/download.log" 2>&1 ||
	fail download "$src/download.log" "could not download the source package $pkg $version"
dsc=""
for f in "$src"/*.dsc; do
	if [ -f "$f" ]; then dsc=$f; fi
done
[ -n "$dsc" ] || fail download "$src/download.log" "apt-get source left no .dsc in $src"

say "step unpack: the upstream tree of $(basename "$dsc") (Debian's patches not applied)"
(cd "$src" && dpkg-source --skip-patches -x "$(basename "$dsc")" tree) >"$src/unpack.log" 2>&1 ||
	fail unpack "$src/unpack.log" "dpkg-source could not unpack $dsc (install dpkg-dev, bzip2 and xz-utils)"

# Called from make (make check's pg18 step), the environment says so
# (MAKELEVEL, MAKEFLAGS): PostgreSQL's build would take itself for a
# sub-make, skip generating its headers first, and fail. Build as if alone.
unset MAKELEVEL MAKEFLAGS MFLAGS

icu=--without-icu
pkg-config --exists icu-uc icu-i18n 2>/dev/null && icu=--with-icu
say "step configure: --prefix=$prefix --with-liburing --without-llvm $icu"
(cd "$src/tree" && ./configure --prefix="$prefix" --with-liburing --without-llvm "$icu") >"$src/configure.log" 2>&1 ||
	fail configure "$src/configure.log" "configure stopped; its last lines name what is missing (install its -dev package; scripts/install-deps.sh build-pg installs the usual ones; details in $src/tree/config.log)"

jobs=$(nproc 2>/dev/null || echo 2)
say "step make: make -j$jobs (a few minutes; log in $src/make.log)"
make -C "$src/tree" -j"$jobs" >"$src/make.log" 2>&1 ||
	fail make "$src/make.log" "the build stopped (see the log; a missing header means a missing -dev package)"

say "step install: make install into $prefix"
make -C "$src/tree" install >"$src/install.log" 2>&1 ||
	fail install "$src/install.log" "make install into $prefix failed (free space? permissions?)"
chmod -R a+rX "$prefix"

# The server runs as an unprivileged user: it must reach and run the build.
if [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 &&
	! runuser -u postgres -- "$prefix/bin/postgres" --version >/dev/null 2>&1; then
	fail install "" "the user postgres cannot run $prefix/bin/postgres (a parent directory of $cache is closed to others?); set EICBENCH_CACHE to a directory every user can reach"
fi

secs=$(($(date +%s) - start))
cat >"$prefix/eicbench-build.json" <<EOF
{
  "version": "$upstream",
  "debian_package": "$pkg",
  "debian_version": "$version",
  "debian_suite": "$suite",
  "mirror": "$mirror",
  "configure": "--prefix=$prefix --with-liburing --without-llvm $icu",
  "patches": "none (upstream tree)",
  "jobs": $jobs,
  "build_seconds": $secs,
  "built_at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}
EOF
rm -rf "$src/tree"
say "built PostgreSQL $upstream in $secs s"
echo "$prefix/bin"
