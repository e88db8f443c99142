#!/bin/sh
# install-deps.sh [--run | --bench | --test | build-pg] [--print] [--no-etc]:
# install with apt-get (Debian or Ubuntu) the packages one use of eicbench
# needs, and nothing more:
#   --run    (the default) build the program and run it: make run, make deps
#   --bench  that, and the tools the benchmark targets run beside it
#   --test   that, and what the tests use: make check, make deps-test
#   build-pg what scripts/build-pg.sh needs to fetch and build PostgreSQL
# Does nothing when everything is present; runs apt-get as root, or through
# sudo when not root. --print lists the packages of the mode, one a line,
# and installs nothing. Nothing under /etc changes but one file, said when
# it is written, and never with --no-etc or EICBENCH_NO_ETC=1 (see below).
set -eu

mode=run
print=""
no_etc=${EICBENCH_NO_ETC:-}
[ "$no_etc" != 0 ] || no_etc=""
for arg in "$@"; do
	case "$arg" in
	--run | --bench | --test) mode=${arg#--} ;;
	build-pg | --build-pg) mode=build-pg ;;
	--print) print=1 ;;
	--no-etc) no_etc=1 ;;
	*)
		echo "install-deps: unknown argument '$arg'; give --run (what running eicbench needs), --bench, --test, build-pg, --print or --no-etc" >&2
		exit 2
		;;
	esac
done

# To build and run: the compiler and libraries; libfuse3-dev and fuse3 for
# the emulated device (eicbench device emulate); the PostgreSQL server and
# client; gnuplot for the report's plots.
RUN_PKGS="gcc make pkg-config libpq-dev liburing-dev libjansson-dev libinih-dev
libfuse3-dev fuse3 postgresql postgresql-client gnuplot-nox procps util-linux"
# The benchmark targets (make bench-*): fio beside the probes, jq to read
# records, GNU time around pgbench.
BENCH_PKGS="fio jq time"
# The tests: cmocka for the unit tests; jq to read records;
# postgresql-contrib for pg_visibility; chromium loads the HTML report in a
# headless browser and libxml2-utils checks it; man-db and groff-base render
# the man pages; python3-jsonschema validates the JSON verdict against its
# schema. util-linux-extra (fincore, which reads the page cache's contents)
# is added below where the release has it.
TEST_PKGS="libcmocka-dev jq postgresql-contrib libxml2-utils chromium man-db
groff-base python3-jsonschema"

case "$mode" in
run) PKGS=$RUN_PKGS ;;
bench) PKGS="$RUN_PKGS $BENCH_PKGS" ;;
test) PKGS="$RUN_PKGS $TEST_PKGS" ;;
build-pg)
	PKGS="gcc make pkg-config perl bison flex libreadline-dev zlib1g-dev
liburing-dev dpkg-dev bzip2 xz-utils debian-archive-keyring util-linux"
	;;
esac

if [ -n "$print" ]; then
	for p in $PKGS; do echo "$p"; done
	[ "$mode" != test ] || echo "util-linux-extra (where the release has it, for fincore)"
	exit 0
fi

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done

# The tests read the page cache's contents with fincore (util-linux-extra on
# Debian 12 and later, util-linux itself on older releases).
need_fincore=""
[ "$mode" != test ] || command -v fincore >/dev/null 2>&1 || need_fincore=1

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

# Debian's server package creates and starts a cluster "main" of its own
# when first installed. eicbench never uses it (its clusters live in data
# directories it makes), and a stray server would add I/O to the
# measurements, so before that first install one setting keeps the package
# from creating it; the user is told, and may say no. A createcluster.conf
# already there is never touched (--force-confold keeps it). The file's
# place can be moved for the tests (EICBENCH_CREATECLUSTER_CONF).
conf=${EICBENCH_CREATECLUSTER_CONF:-/etc/postgresql-common/createcluster.conf}
case " $missing " in
*" postgresql "*)
	if [ -e "$conf" ]; then
		:
	elif [ -n "$no_etc" ]; then
		echo "install-deps: leaving /etc alone (--no-etc or EICBENCH_NO_ETC): the postgresql package will create and start a cluster \"main\"; eicbench does not use it (pg_lsclusters lists it, pg_dropcluster --stop removes it)"
	else
		echo "install-deps: writing $conf with \"create_main_cluster = false\", so that the postgresql package does not create and start a cluster \"main\" of its own, whose server would add I/O to the measurements (eicbench makes its own clusters). To leave /etc alone instead, run again with EICBENCH_NO_ETC=1 (make run EICBENCH_NO_ETC=1); to undo it later, delete the file."
		$SUDO mkdir -p "$(dirname "$conf")"
		echo "create_main_cluster = false" | $SUDO tee "$conf" >/dev/null
	fi
	;;
esac
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends \
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $missing
