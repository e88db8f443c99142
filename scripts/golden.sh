#!/bin/sh
# golden.sh [--check] [FOLDER...]: the committed reports of the fixtures
# (report.md and report.html in tests/fixtures/run/* and tests/fixtures/sweep/*,
# or each FOLDER given) as the renderer writes them from the fixture's
# records. Each folder is copied into a scratch folder under its own name and
# rendered there by that relative name (`eicbench report NAME --no-plot`), so
# the paths a report prints are the same wherever it runs and the fixture
# itself is never written by eicbench. Without --check the rendered files
# replace the committed ones (after a deliberate change to the words:
# review the diff, then commit it); with --check each is compared byte for
# byte and the differing ones are named, a line "golden: FILE differs" or
# "golden: FILE same" each, exit 1 when any differs. EB names the binary
# (default ./eicbench).
set -eu
check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
EB=${EB:-$(pwd)/eicbench}
top=$(pwd)
if [ $# -eq 0 ]; then
	set -- $(ls -d tests/fixtures/run/*/report.md tests/fixtures/sweep/*/report.md 2>/dev/null | sed 's|/report.md$||')
fi
scratch=$(mktemp -d /tmp/eicbench-golden.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
bad=0
for dir in "$@"; do
	name=$(basename "$dir")
	case $dir in
	/*) abs=$dir ;;
	*) abs=$top/$dir ;;
	esac
	rm -rf "${scratch:?}/$name"
	cp -a "$dir" "$scratch/$name"
	rm -f "$scratch/$name/report.md" "$scratch/$name/report.html"
	if ! (cd "$scratch" && "$EB" report "$name" --no-plot >/dev/null 2>"$scratch/err"); then
		echo "golden: $dir: eicbench report failed: $(cat "$scratch/err")"
		bad=1
		continue
	fi
	for f in report.md report.html; do
		if [ "$check" -eq 0 ]; then
			cp "$scratch/$name/$f" "$abs/$f"
		elif cmp -s "$scratch/$name/$f" "$abs/$f"; then
			echo "golden: $dir/$f same"
		else
			echo "golden: $dir/$f differs"
			diff -u "$abs/$f" "$scratch/$name/$f" | head -n 20 | sed 's/^/#   /'
			bad=1
		fi
	done
	rm -rf "${scratch:?}/$name"
done
[ "$check" -eq 1 ] || echo "golden: $# folders rendered into their report.md and report.html" >&2
exit $bad
