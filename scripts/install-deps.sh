#!/bin/sh
# install-deps.sh [build-pg]: install what eicbench needs to build, test and
# run, with apt-get on Debian or Ubuntu. Does nothing when everything is
# present. Runs apt-get as root, or through sudo when not root.
# "build-pg" installs instead what scripts/build-pg.sh needs to fetch a
# PostgreSQL source package and build it.
set -eu

case "${1:-}" in
"")
	# chromium: the test of the HTML report loads it in a headless browser;
	# man-db and groff-base: the man pages are checked by rendering them;
	# libfuse3-dev and fuse3: the emulated device (eicbench device emulate);
	# python3-jsonschema: the run's JSON verdict is validated against its schema.
	PKGS="gcc make pkg-config libpq-dev liburing-dev libjansson-dev libinih-dev libcmocka-dev
libfuse3-dev fuse3 postgresql postgresql-client postgresql-contrib gnuplot-nox fio jq procps
util-linux libxml2-utils time chromium man-db groff-base python3-jsonschema"
	;;
build-pg)
	PKGS="gcc make pkg-config perl bison flex libreadline-dev zlib1g-dev
liburing-dev dpkg-dev bzip2 xz-utils debian-archive-keyring util-linux"
	;;
*)
	echo "install-deps: unknown mode '$1'; give none (what eicbench needs) or build-pg (what scripts/build-pg.sh needs)" >&2
	exit 2
	;;
esac

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

# The tests read the page cache's contents with fincore (util-linux-extra on
# Debian 12 and later, util-linux itself on older releases).
need_fincore=""
[ -n "${1:-}" ] || command -v fincore >/dev/null 2>&1 || need_fincore=1

if [ -z "$missing" ] && [ -z "$need_fincore" ]; then
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: apt-get not found; install them with your system's package manager" >&2
	exit 2
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		echo "install-deps: missing packages:$missing; run as root or install sudo" >&2
		exit 2
	fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if [ -n "$need_fincore" ] && apt-cache show util-linux-extra >/dev/null 2>&1; then
	missing="$missing util-linux-extra"
fi
[ -n "$missing" ] || exit 0
echo "install-deps: installing$missing"
# Debian's server package creates and starts a "main" cluster of its own when
# installed; eicbench never uses it (its clusters live in data directories it
# makes), and a stray server would add I/O to the measurements: keep the
# package from creating it. The package's own createcluster.conf is kept
# where it already exists (--force-confold answers dpkg's question).
if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
	$SUDO mkdir -p /etc/postgresql-common
	echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null
fi
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing
