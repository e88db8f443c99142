#!/bin/sh
# report-snapshot.sh OUT [FOLDER...]: render the report of every result folder
# under tests/fixtures (sweep, run, confsweep) and of each FOLDER given (a
# run's subfolders included) in every format, into OUT: one file per folder
# and format holding the report's stdout, stderr and exit status, and a copy
# of what the report wrote into the folder (report.md, report.html, plots'
# data). Two snapshots taken before and after a change compare with
# `diff -r OLD NEW`: a refactor that leaves the reports alone shows nothing.
# Each folder is copied to one fixed scratch path first, so the paths the
# reports print are the same in every snapshot and the originals stay as
# they are. EB names the binary (default ./eicbench).
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/report-snapshot.sh OUT [FOLDER...]" >&2; exit 2; }
out=$1; shift
EB=${EB:-$(pwd)/eicbench}
scratch=/tmp/eicbench-report-snapshot
mkdir -p "$out"

# snap NAME DIR: every format of DIR's report into $out/NAME.*
snap() {
	rm -rf "$scratch" && mkdir -p "$scratch"
	cp -a "$2" "$scratch/$1"
	for fmt in text md html json csv; do
		rc=0
		(cd "$scratch" && "$EB" report "$1" --format "$fmt" --no-plot) \
			>"$out/$1.$fmt" 2>"$out/$1.$fmt.err" || rc=$?
		echo "exit $rc" >>"$out/$1.$fmt.err"
	done
	(cd "$scratch/$1" && find . -type f \( -name 'report.*' -o -name '*.dat' -o -name 'summary.csv' \) |
		sort | while read -r f; do
			printf '== %s\n' "$f"; cat "$f"
		done) >"$out/$1.files"
}

for d in tests/fixtures/sweep/* tests/fixtures/run/* tests/fixtures/confsweep; do
	snap "$(echo "$d" | sed 's|^tests/fixtures/||; s|/|-|g')" "$d"
done
for d in "$@"; do
	name=$(basename "$d")
	snap "$name" "$d"
	for s in "$d"/*/; do
		[ -f "$s/meta.json" ] && snap "$name-$(basename "$s")" "$s"
	done
done
rm -rf "$scratch"
echo "report-snapshot: $(ls "$out" | wc -l) files in $out" >&2
