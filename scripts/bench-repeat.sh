#!/bin/sh
# bench-repeat.sh (make bench-repeat): does the verdict hold on a second
# run? It runs the same `eicbench run` twice on one data set, one after the
# other (--quick by default; FULL=1 for the full run, which takes two full
# runs' time), into results/<UTC>-bench-repeat/run-1 and run-2, and prints
# each answer with its state and stability, and whether each answer is
# within the margin on the other run's figures: in every query, its time
# over the fastest value's (its regret there) at most 1 + margin times the
# other answer's. DATADIR names the cluster (default data/repeat, or
# data/pg with FULL=1, so the full run reuses make run's data set).
set -eu
cd "$(dirname "$0")/.."
EB=${EB:-./eicbench}
if [ -n "${FULL:-}" ]; then
	datadir=${DATADIR:-data/pg}
	set -- --datadir "$datadir"
else
	datadir=${DATADIR:-data/repeat}
	set -- --datadir "$datadir" --quick
fi
out=results/$(date -u +%Y%m%dT%H%M%SZ)-bench-repeat
mkdir -p "$out"
echo "bench-repeat: eicbench run $* twice, into $out"
for i in 1 2; do
	echo "== run $i: started $(date -u +%H:%M:%S) UTC"
	"$EB" run "$@" --out "$out/run-$i" >"$out/run-$i.log" 2>&1 || {
		echo "bench-repeat: run $i failed (its output: $out/run-$i.log)" >&2
		tail -n 20 "$out/run-$i.log" >&2
		exit 1
	}
	"$EB" report "$out/run-$i" --format json --no-plot >"$out/verdict-$i.json" 2>/dev/null
done

# within A B: is run A's answer within the margin on run B's figures?
within() {
	jq -r --slurpfile a "$out/verdict-$1.json" '
		($a[0].recommendation | tostring) as $x | (.recommendation | tostring) as $y |
		.margin as $m | .regret as $rows |
		($rows | map(select((.value | tostring) == $x)) | first) as $rx |
		($rows | map(select((.value | tostring) == $y)) | first) as $ry |
		if $rx == null then "not measured there"
		elif $x == $y then "the same answer"
		else
			[ .queries[] as $q | {q: $q, x: $rx.queries[$q].regret, y: $ry.queries[$q].regret} ] as $c |
			if ($c | all(.x != null and .y != null and .x <= (1 + $m) * .y)) then
				"within: " + ($c | map("\(.q) \(.x)x against \(.y)x") | join(", "))
			else
				"not within: " + ($c | map("\(.q) \(.x)x against \(.y)x") | join(", "))
			end
		end' "$out/verdict-$2.json"
}

echo
printf '%-6s %-8s %-12s %-30s %s\n' run answer state stability "on the other run's figures"
for i in 1 2; do
	j=$((3 - i))
	answer=$(jq -r '.recommendation // "none"' "$out/verdict-$i.json")
	state=$(jq -r '.state' "$out/verdict-$i.json")
	stab=$(jq -r 'if .stability == null then "none" else "\(.stability.share * 100 | round)% (\(if .stability.stable then "stable" else "a close call" end))" end' "$out/verdict-$i.json")
	printf '%-6s %-8s %-12s %-30s %s\n' "$i" "$answer" "$state" "$stab" "$(within "$i" "$j")"
done
echo
echo "bench-repeat: both verdicts in $out (report.md in run-1 and run-2)"
