#!/bin/sh
# run-tests.sh UNIT_TEST...: run the cmocka unit tests, then the integration
# tests (tests/it/*.sh, each on a real throwaway cluster), and close with one
# line "N passed, N failed" counting every test case.
# IT_ONLY=name runs only tests/it/name.sh; UNIT_ONLY=1 skips integration.
set -u
passed=0
failed=0
failures=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() { # file pattern
	sed -n "$2" "$1" | awk '{ s += $1 } END { print s + 0 }'
}

for t in "$@"; do
	"$t" >"$log" 2>&1
	rc=$?
	p=$(count "$log" 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p')
	f=$(count "$log" 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed or failed before cmocka could count
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -gt 0 ]; then
		failures="$failures $t"
		cat "$log"
	fi
	printf '%-28s %3d passed, %d failed\n' "$t" "$p" "$f"
done

if [ -z "${UNIT_ONLY:-}" ]; then
	for s in tests/it/*.sh; do
		case "$s" in *"/lib.sh") continue ;; esac
		if [ -n "${IT_ONLY:-}" ] && [ "$s" != "tests/it/$IT_ONLY.sh" ]; then
			continue
		fi
		sh "$s" >"$log" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$log")
		f=$(grep -c '^not ok ' "$log")
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			f=1
		fi
		passed=$((passed + p))
		failed=$((failed + f))
		if [ "$f" -gt 0 ]; then
			failures="$failures $s"
			cat "$log"
		fi
		printf '%-28s %3d passed, %d failed\n' "$s" "$p" "$f"
	done
fi

[ -z "$failures" ] || echo "failing:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
