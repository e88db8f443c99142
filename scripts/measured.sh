#!/bin/sh
# measured.sh FOLDER... : docs/measured.md, the page of current figures,
# written anew from result folders (each a run's folder, or a bench-repeat
# folder holding run-1 and run-2), judged again by the program from their
# records: per run its machine, device, PostgreSQL, data set, answer, how
# sure, rounds and time; per bench-repeat whether its two answers agree.
# The page is replaced, not added to: history stays in git. EB names the
# binary (default ./eicbench); OUT the page (default docs/measured.md).
set -eu
[ $# -ge 1 ] || { echo "usage: scripts/measured.sh RESULT-FOLDER..." >&2; exit 2; }
EB=${EB:-./eicbench}
out=${OUT:-docs/measured.md}
tmp=$(mktemp)
scratch=$(mktemp -d)
trap 'rm -f "$tmp"; rm -rf "$scratch"' EXIT

# row DIR: one table row for a run's folder
row() {
	# rendered in a copy: a report writes its files into the folder, and a
	# fixture's committed files must stay as they are
	rm -rf "$scratch/f" && cp -r "$1" "$scratch/f"
	v=$("$EB" report "$scratch/f" --format json --no-plot 2>/dev/null) || { echo "measured: $1: no verdict" >&2; return 1; }
	m=$1/meta.json
	s=$(jq -r '.sweeps | to_entries[0].value' "$m")
	jq -r --argjson v "$v" --slurpfile s "$1/$s/meta.json" '
		($s[0]) as $w |
		[ (.started_utc | sub("T"; " ") | sub(":[0-9]+Z$"; " UTC")),
		  (.host.kernel.release // "?"),
		  "\($w.device.name // "?") (read_ahead_kb \($w.device.read_ahead_kb // "?"))",
		  ($w.server.version // "?" | split(" ")[0]),
		  "\((($w.dataset.rows // 0) / 1000000) | floor)M rows",
		  "\($v.recommendation // "none") (\($v.state))",
		  (if $v.stability == null then "-" else "\($v.stability.share * 100 | round)%" end),
		  "\($v.rounds)",
		  "\(([.steps[].took_s // 0] | add) / 60 * 10 | round / 10) min" ] | "| " + join(" | ") + " |"' "$m"
}

{
	echo "# Measured"
	echo
	echo "The project's current figures, written by \`scripts/measured.sh\` from the"
	echo "result folders named below and judged again from their records by the"
	echo "program of this checkout. The page is replaced, never added to; earlier"
	echo "figures are in git's history. Benchmarks on these 2-core machines are"
	echo "noisy and their disks drift by up to ±20% from hour to hour: compare"
	echo "within a row, and rerun before comparing rows."
	echo
	echo "## Runs"
	echo
	echo "| started | kernel | device | PostgreSQL | data set | answer | how sure | rounds | took |"
	echo "| --- | --- | --- | --- | --- | --- | ---: | ---: | ---: |"
	for d in "$@"; do
		if [ -f "$d/run-1/meta.json" ]; then
			row "$d/run-1"; row "$d/run-2"
		elif [ -f "$d/meta.json" ] && [ "$(jq -r .command "$d/meta.json")" = run ]; then
			row "$d"
		fi
	done
	echo
	echo "how sure: the share of 200 re-draws of the run's rounds that give its"
	echo "answer or a value within the margin of it in every query (see"
	echo "[decision.md](decision.md)); took: the run's steps, the load included."
	echo
	echo "## The same run twice"
	echo
	for d in "$@"; do
		[ -f "$d/run-1/meta.json" ] || continue
		a=$("$EB" report "$d/run-1" --format json --no-plot 2>/dev/null | jq -r '.recommendation')
		b=$("$EB" report "$d/run-2" --format json --no-plot 2>/dev/null | jq -r '.recommendation')
		if [ "$a" = "$b" ]; then
			echo "- $(basename "$d"): both runs answered $a."
		else
			echo "- $(basename "$d"): the runs answered $a and $b (make bench-repeat says whether each is within the margin on the other's figures)."
		fi
	done
	echo
	echo "Sources: $(for d in "$@"; do printf '`%s` ' "$(basename "$d")"; done)"
	echo
	echo "## Where the other figures are"
	echo
	echo "- The decision's error rates on simulated records: \`make bench-judge\`"
	echo "  (and \`tests/test_decision\`, \`tests/test_judge_sim\` print theirs)."
	echo "- eicbench beside fio and pgbench: \`make bench-probe\`, \`make bench-tpcb\`"
	echo "  ([benchmarks.md](benchmarks.md) says how to read them)."
} >"$tmp"
mv "$tmp" "$out"
rm -rf "$scratch"
trap - EXIT
echo "measured: $out written from $# folder(s)" >&2
