# What the install step of each make target asks apt-get for. The step is
# taken from the Makefile as make would run it (make -n), then run with
# stand-ins for apt-get, apt-cache, dpkg-query and sudo that record what
# they are asked and install nothing, as on a machine with none of the
# packages: make run's step asks for what building and running need and no
# test tool; make check's for all of that and the test tools. The one file
# under /etc the step may write (moved into the test's folder) is written
# only before the server package's first install, with a line saying what
# and why, never with EICBENCH_NO_ETC=1 (also given through make), and never
# over one already there.
. tests/it/lib.sh
plan 14
top=$(pwd)

F=$T/bin
mkdir -p "$F"
printf '#!/bin/sh\necho "$*" >>"%s/apt.log"\n' "$T" >"$F/apt-get"
printf '#!/bin/sh\nexit 1\n' >"$F/apt-cache"
printf '#!/bin/sh\nexit 1\n' >"$F/dpkg-query"
printf '#!/bin/sh\nexec "$@"\n' >"$F/sudo"
chmod 755 "$F"/*
CONF=$T/etc/createcluster.conf
export EICBENCH_CREATECLUSTER_CONF=$CONF
mkdir -p "$T/etc"

# step TARGET: the install-deps line of make -n TARGET
step() {
	make --no-print-directory -n -C "$top" "$1" 2>/dev/null | grep 'install-deps\.sh' | head -n 1
}
# asked CMD...: run the step with the stand-ins; the packages apt-get was
# asked to install, sorted, one a line
asked() {
	rm -f "$T/apt.log" "$CONF"
	PATH="$F:$PATH" "$@" >"$T/step.out" 2>&1
	sed -n 's/.*--force-confold //p' "$T/apt.log" 2>/dev/null | tr ' ' '\n' | grep . | sort
}

run_step=$(step run)
check_step=$(step check)
same "make run installs with the run's list" "$(echo "$run_step" | grep -c 'install-deps\.sh --run')" 1
same "make check with the tests' list" "$(echo "$check_step" | grep -c 'install-deps\.sh --test')" 1

run_pkgs=$(asked sh -c "cd '$top' && $run_step")
same "make run's step asks apt-get for the server, libpq and a compiler" \
	"$(echo "$run_pkgs" | grep -cx 'postgresql\|libpq-dev\|gcc')" 3
same "and for no test tool (chromium, cmocka, jsonschema, man, xmllint)" \
	"$(echo "$run_pkgs" | grep -c 'chromium\|cmocka\|jsonschema\|man-db\|groff\|libxml2-utils'),$(echo "$run_pkgs" | wc -l | awk '$1 > 5 { print "some" }')" 0,some
same "--print lists what it installs" "$(cd "$top" && scripts/install-deps.sh --run --print | sort)" "$run_pkgs"
ok "the step says what it writes under /etc and why" \
	grep -q "^install-deps: writing $CONF with \"create_main_cluster = false\", so that the postgresql package does not create and start a cluster \"main\".*EICBENCH_NO_ETC=1" "$T/step.out"
same "and writes it before the install" "$(cat "$CONF" 2>/dev/null)" "create_main_cluster = false"

check_pkgs=$(asked sh -c "cd '$top' && $check_step")
same "make check's step asks for chromium, cmocka and jsonschema" \
	"$(echo "$check_pkgs" | grep -cx 'chromium\|libcmocka-dev\|python3-jsonschema')" 3
same "and for everything make run's asks for" "$(echo "$run_pkgs" | grep -vxF "$check_pkgs" | tr '\n' ' ')|$(echo "$run_pkgs" | wc -l | awk '$1 > 0 { print "some" }')" "|some"

asked make --no-print-directory -s -C "$top" deps EICBENCH_NO_ETC=1 >/dev/null
absent "make deps EICBENCH_NO_ETC=1 writes nothing under /etc" "$CONF"
ok "and says so" grep -q "^install-deps: leaving /etc alone" "$T/step.out"
echo "create_main_cluster = true" >"$CONF.mine"
asked_mine=$(rm -f "$T/apt.log"; cp "$CONF.mine" "$CONF"; PATH="$F:$PATH" "$top/scripts/install-deps.sh" >"$T/step.out" 2>&1; cat "$CONF")
same "a createcluster.conf already there is left as it is" "$asked_mine" "create_main_cluster = true"

rm -f "$T/apt.log"
PATH="$F:$PATH" "$top/scripts/install-deps.sh" --test --print >/dev/null 2>&1
absent "--print runs no apt-get" "$T/apt.log"
fails 2 "unknown argument '--tests'" "a mistyped mode is refused" "$top/scripts/install-deps.sh" --tests
