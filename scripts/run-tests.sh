#!/bin/sh
# run-tests.sh UNIT_TEST...: run the cmocka unit tests, then the integration
# tests (tests/it/*.sh, each on a real throwaway cluster), and close with one
# line "N passed, N failed, N skipped". It counts a unit test case (one
# cmocka test function, however many assertions it makes) or an
# integration check (one TAP "ok" / "not ok" line) as one. A check that
# could not run here (cmocka's skip(), or "ok N - ... # SKIP why") counts as
# skipped, never as passed, and is listed with its reason before that line.
# Each program must account for all it planned: a unit test binary for the
# tests it said it runs, an integration script for the "1..N" of its plan;
# one that did not (it stopped early, or miscounted) is one failure more,
# named with both counts. The fault-injection tests (tests/it/faults*.sh)
# each end with "# faults injected: N, survived: M, skipped: K"; their sum
# is one line of the summary.
# IT_ONLY=name runs only tests/it/name.sh; UNIT_ONLY=1 skips integration.
# The integration tests that use a built PostgreSQL (those that look for one
# with scripts/build-pg.sh --cached) run last; with EICBENCH_WAIT_PG=N (make
# check: it started the build of N behind the tests) they first wait for
# that build, and one that failed is a failure. Each line ends with the
# program's seconds.
set -u
passed=0
failed=0
skipped=0
injected=0
survived=0
fskipped=0
failures=""
log=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$log" "$skips"' EXIT

count() { # file pattern
	sed -n "$2" "$1" | awk '{ s += $1 } END { print s + 0 }'
}

# tally NAME P F S [SECONDS]: add to the totals, show the log on failure,
# print a line
tally() {
	passed=$((passed + $2))
	failed=$((failed + $3))
	skipped=$((skipped + $4))
	if [ "$3" -gt 0 ]; then
		failures="$failures $1"
		cat "$log"
	fi
	secs=""
	[ -z "${5:-}" ] || secs=" ($5 s)"
	if [ "$4" -gt 0 ]; then
		printf '%-28s %3d passed, %d failed, %d skipped%s\n' "$1" "$2" "$3" "$4" "$secs"
	else
		printf '%-28s %3d passed, %d failed%s\n' "$1" "$2" "$3" "$secs"
	fi
}

# unplanned NAME PLANNED COUNTED: a failure when a program did not account
# for what it planned
unplanned() {
	[ "$2" = "$3" ] && return 1
	echo "# $1: planned $2 checks, counted $3 (passed, failed and skipped)" >>"$log"
	return 0
}

for t in "$@"; do
	t0=$(date +%s)
	"$t" >"$log" 2>&1
	rc=$?
	planned=$(count "$log" 's/^\[==========\] Running \([0-9]*\) test(s)\..*/\1/p')
	p=$(count "$log" 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	f=$(count "$log" 's/^\[  FAILED  \] \([0-9]*\) test(s), listed below:.*/\1/p')
	s=$(count "$log" 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:.*/\1/p')
	if unplanned "$t" "$planned" $((p + f + s)) || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then
		f=$((f + 1))	# crashed, or failed before cmocka could count
	fi
	grep '^\[  SKIPPED \] ' "$log" | grep -v 'test(s), listed below:' |
		sed "s|^\[  SKIPPED \] |$t: |" | sort -u >>"$skips"
	tally "$t" "$p" "$f" "$s" $(($(date +%s) - t0))
done

# wait_pg: before the first test that uses a built PostgreSQL, wait for the
# build make check started (a plain build-pg.sh call takes the cache's lock
# after it, and builds again if it failed); a failed build is a failure
waited=""
wait_pg() {
	[ -n "${EICBENCH_WAIT_PG:-}" ] && [ -z "$waited" ] || return 0
	waited=1
	t0=$(date +%s)
	if scripts/build-pg.sh --cached "$EICBENCH_WAIT_PG" >/dev/null; then
		return 0
	fi
	echo "waiting for the build of PostgreSQL $EICBENCH_WAIT_PG ($(scripts/build-pg.sh --cache-dir)/build-$EICBENCH_WAIT_PG.log)"
	if scripts/build-pg.sh "$EICBENCH_WAIT_PG" >/dev/null 2>"$log"; then
		echo "PostgreSQL $EICBENCH_WAIT_PG built; waited $(($(date +%s) - t0)) s"
	else
		tally "build of PostgreSQL $EICBENCH_WAIT_PG" 0 1 0 $(($(date +%s) - t0))
	fi
}

if [ -z "${UNIT_ONLY:-}" ]; then
	built=$(grep -l 'build-pg.sh --cached' tests/it/*.sh)
	for it in $(grep -L 'build-pg.sh --cached' tests/it/*.sh) $built; do
		case "$it" in *"/lib.sh") continue ;; esac
		if [ -n "${IT_ONLY:-}" ] && [ "$it" != "tests/it/$IT_ONLY.sh" ]; then
			continue
		fi
		case " $(echo $built) " in *" $it "*) wait_pg ;; esac
		t0=$(date +%s)
		sh "$it" >"$log" 2>&1
		rc=$?
		p=$(grep '^ok ' "$log" | grep -vc ' # SKIP')
		s=$(grep '^ok ' "$log" | grep -c ' # SKIP')
		f=$(grep -c '^not ok ' "$log")
		planned=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$log" | head -n 1)
		if [ -z "$planned" ]; then
			echo "# $it: no plan (a line 1..N): give the number of checks with 'plan N' at the top" >>"$log"
			f=$((f + 1))
		elif unplanned "$it" "$planned" $((p + f + s)) || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then
			f=$((f + 1))
		fi
		# one line per check skipped, or per reason when it skipped several
		grep '^ok .* # SKIP' "$log" | sed 's/^ok [0-9]* - \(.*\) # SKIP \(.*\)$/\2\t\1/' |
			awk -F '\t' -v it="$it" '{ n[$1]++; d[$1] = $2; if (n[$1] == 1) o[++k] = $1 }
				END { for (i = 1; i <= k; i++) if (n[o[i]] == 1) printf "%s: %s # SKIP %s\n", it, d[o[i]], o[i];
					else printf "%s: %d checks # SKIP %s\n", it, n[o[i]], o[i] }' >>"$skips"
		fsum='s/^# faults injected: \([0-9]*\), survived: \([0-9]*\), skipped: \([0-9]*\)$/'
		injected=$((injected + $(count "$log" "${fsum}\\1/p")))
		survived=$((survived + $(count "$log" "${fsum}\\2/p")))
		fskipped=$((fskipped + $(count "$log" "${fsum}\\3/p")))
		tally "$it" "$p" "$f" "$s" $(($(date +%s) - t0))
	done
fi

if [ -s "$skips" ]; then
	echo "skipped (could not run here):"
	sed 's/^/  /' "$skips"
fi
[ -z "$failures" ] || echo "failing:$failures"
[ "$injected" -eq 0 ] && [ "$fskipped" -eq 0 ] ||
	echo "faults injected: $injected, survived: $survived, skipped (could not be injected here): $fskipped"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
