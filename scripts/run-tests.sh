#!/bin/sh
# run-tests.sh UNIT_TEST...: run the cmocka unit tests, then the integration
# tests (tests/it/*.sh, each on a real throwaway cluster), and close with one
# line "N passed, N failed, N skipped" counting every test case. A test that
# could not run here (cmocka's skip(), or a TAP line "ok N - ... # SKIP why")
# counts as skipped, never as passed, and is listed by name before that line.
# The fault-injection tests (tests/it/faults*.sh) each end with a line
# "# faults injected: N, survived: M"; their sum is one line of the summary.
# IT_ONLY=name runs only tests/it/name.sh; UNIT_ONLY=1 skips integration.
set -u
passed=0
failed=0
skipped=0
injected=0
survived=0
failures=""
log=$(mktemp)
skips=$(mktemp)
trap 'rm -f "$log" "$skips"' EXIT

count() { # file pattern
	sed -n "$2" "$1" | awk '{ s += $1 } END { print s + 0 }'
}

# tally NAME P F S: add to the totals, show the log on failure, print a line
tally() {
	passed=$((passed + $2))
	failed=$((failed + $3))
	skipped=$((skipped + $4))
	if [ "$3" -gt 0 ]; then
		failures="$failures $1"
		cat "$log"
	fi
	if [ "$4" -gt 0 ]; then
		printf '%-28s %3d passed, %d failed, %d skipped\n' "$1" "$2" "$3" "$4"
	else
		printf '%-28s %3d passed, %d failed\n' "$1" "$2" "$3"
	fi
}

for t in "$@"; do
	"$t" >"$log" 2>&1
	rc=$?
	p=$(count "$log" 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	f=$(count "$log" 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
	s=$(count "$log" 's/^\[  SKIPPED \] \([0-9]*\) test(s), listed below:.*/\1/p')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed or failed before cmocka could count
	fi
	grep '^\[  SKIPPED \] ' "$log" | grep -v 'test(s), listed below:' |
		sed "s|^\[  SKIPPED \] |$t: |" | sort -u >>"$skips"
	tally "$t" "$p" "$f" "$s"
done

if [ -z "${UNIT_ONLY:-}" ]; then
	for it in tests/it/*.sh; do
		case "$it" in *"/lib.sh") continue ;; esac
		if [ -n "${IT_ONLY:-}" ] && [ "$it" != "tests/it/$IT_ONLY.sh" ]; then
			continue
		fi
		sh "$it" >"$log" 2>&1
		rc=$?
		p=$(grep '^ok ' "$log" | grep -vic '# skip')
		s=$(grep '^ok ' "$log" | grep -ic '# skip')
		f=$(grep -c '^not ok ' "$log")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1
		fi
		grep -i '^ok .*# skip' "$log" | sed "s|^ok |$it: |" >>"$skips"
		injected=$((injected + $(count "$log" 's/^# faults injected: \([0-9]*\), survived: [0-9]*$/\1/p')))
		survived=$((survived + $(count "$log" 's/^# faults injected: [0-9]*, survived: \([0-9]*\)$/\1/p')))
		tally "$it" "$p" "$f" "$s"
	done
fi

if [ -s "$skips" ]; then
	echo "skipped (could not run here):"
	sed 's/^/  /' "$skips"
fi
[ -z "$failures" ] || echo "failing:$failures"
[ "$injected" -eq 0 ] || echo "faults injected: $injected, survived: $survived"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
