# The query classes on a small data set (2M rows): each class reads the
# share of the heap pages it is named for (within a factor of 2), from its
# own EXPLAIN's heap blocks; each sweep records the planner's own plan and
# whether the measured one had to be forced; in a run, a forced class is
# shown and left out of the answer unless --include-forced, and --weights
# leaves a class out at 0 and is printed; the parallel class reads through
# a Parallel Bitmap Heap Scan; the Seq Scan class is refused on 15 when
# named and left out (said) by default; a data set loaded before the
# classes gets their indexes in place. On an emulated device of 2 ms with
# 32 reads at once (ground truth: the latency is the whole story), the
# scattered 0.1% class's heap phase at 16 is at least 4x faster than at 0
# (on 10M rows), and its own answer is 16 or more.
. tests/it/lib.sh
plan 36

D=$T/pg
P=54431
ROWS=2000000
cluster pg $P
q() { sql "$D" $P "$1"; }

ok "a data set of $ROWS rows with the classes' indexes" "$EB" load --datadir "$D" --rows $ROWS

# share: designed share of the heap pages, per class
classes="scattered-0.1:0.001 scattered-1:0.01 scattered-5:0.05 sparse:0.2 runs-16:0.01 runs-128:0.05 blog:1 parallel:0.05"
shares=
plans=
for cs in $classes; do
	c=${cs%%:*}
	"$EB" sweep --datadir "$D" --query "$c" --eic 0 --runs 1 --no-cache-check --out "$T/s-$c" >/dev/null 2>&1 ||
		echo "sweep $c failed" >&2
	read_share=$(jq -s --argjson pages "$(jq '.dataset.heap_bytes / 8192' "$T/s-$c/meta.json")" \
		'[.[] | select(.priming != true) | (.explain.bitmap.exact_heap_blocks + .explain.bitmap.lossy_heap_blocks)] | .[0] / $pages' \
		"$T/s-$c/trials.jsonl" 2>/dev/null)
	shares="$shares $c:$(awk -v s="$read_share" -v w="${cs#*:}" 'BEGIN { print (s >= w / 2 && s <= w * 2) ? "ok" : s }')"
	# the scan the class measures: parallel's under a Gather
	plans="$plans $c:$(jq -r --arg c "$c" '(.plan.planner_plan | length > 0) and (.plan.forced ==
		(.plan.planner_plan | test(if $c == "parallel" then "Gather.*Bitmap Heap Scan" else "Bitmap Heap Scan" end) | not))' "$T/s-$c/meta.json")"
done
same "each class reads its share of the heap pages, within a factor of 2" "$shares" \
	" scattered-0.1:ok scattered-1:ok scattered-5:ok sparse:ok runs-16:ok runs-128:ok blog:ok parallel:ok"
same "each sweep records the planner's own plan, and forced exactly when it is not the bitmap scan" "$plans" \
	" scattered-0.1:true scattered-1:true scattered-5:true sparse:true runs-16:true runs-128:true blog:true parallel:true"
same "parallel reads through a Parallel Bitmap Heap Scan, its two workers launched" \
	"$(jq -s -c '[.[] | select(.priming != true) | [.explain.bitmap.parallel_aware, .explain.workers_launched]] | unique' "$T/s-parallel/trials.jsonl")" '[[true,2]]'

# The Seq Scan class: the setting governs it from 17 on (tests/it/classes-pg18.sh).
fails 2 "PostgreSQL 15 reads a Seq Scan without effective_io_concurrency (17 and later apply it)" \
	"sweep --query seq is refused on 15, saying why" \
	"$EB" sweep --datadir "$D" --query seq --eic 0 --runs 1 --no-cache-check --out "$T/s-seq"
fails 2 "PostgreSQL 15 reads a Seq Scan.*so the class seq measures nothing" "and run --query naming it too" \
	"$EB" run --datadir "$D" --rows $ROWS --no-probe --query scattered-1,seq --out "$T/r-seq"
absent "neither made a folder" "$T/s-seq" "$T/r-seq"
fails 2 "a replay issues one backend's bitmap heap reads, and this class reads through a Parallel Bitmap Heap Scan" \
	"sweep --replay refuses a class whose reads are not one backend's" \
	"$EB" sweep --datadir "$D" --query parallel --replay --eic 0 --runs 1 --out "$T/s-par"
same "the scattered and runs classes are the planner's own bitmap scans" \
	"$(for c in scattered-1 scattered-5 runs-16 runs-128; do jq -r .plan.forced "$T/s-$c/meta.json"; done | sort -u)" false
same "blog is not: the planner runs a Seq Scan for it here" "$(jq -r '[.plan.forced, .plan.planner_plan] | join(" ")' "$T/s-blog/meta.json")" "true Seq Scan"

# A run over a class the planner runs and one it does not.
RUN="--rows $ROWS --no-probe --eic 0,16 --runs 2 --max-runs 2"
ok "a run of scattered-1 and blog" "$EB" run --datadir "$D" $RUN --query scattered-1,blog --out "$T/r1"
"$EB" report "$T/r1" --json >"$T/r1.json" 2>/dev/null
same "blog is shown, forced, and left out of the answer; scattered-1 counts" \
	"$(jq -c '[.classes[] | [.class, .forced, .counted]]' "$T/r1.json")" '[["scattered-1",false,true],["blog",true,false]]'
same "the answer is scattered-1's own" "$(jq -r '[.recommendation, (.classes[0].own_answer)] | map(tostring) | unique | length' "$T/r1.json")" 1
ok "the box says blog is not counted, and why" grep -q "Not counted: blog: the planner runs a Seq Scan for it, so its bitmap plan was" "$T/r1/report.md"
ok "the class table names the planner's plan" grep -Eq "^\| blog +\| .*\| Seq Scan \(forced\) +\| no " "$T/r1/report.md"
same "racing left blog out the same way" "$(jq -r .plan.racing.include_forced "$T/r1/sweep-blog/meta.json")" false

ok "the same with --include-forced" "$EB" run --datadir "$D" $RUN --query scattered-1,blog --include-forced --out "$T/r2"
same "blog counts then" "$("$EB" report "$T/r2" --json 2>/dev/null | jq -c '[.classes[] | .counted]')" '[true,true]'

ok "--weights blog=0 with --include-forced" "$EB" run --datadir "$D" $RUN --query scattered-1,blog --include-forced --weights blog=0 --out "$T/r3"
same "the weights are recorded, and blog is left out at 0" \
	"$(jq -c .options.weights "$T/r3/meta.json") $("$EB" report "$T/r3" --json 2>/dev/null | jq -c '[.classes[] | [.counted, .weight]]')" \
	'{"blog":0} [[true,1],[false,0]]'
fails 2 "'runs-16' is not a class this run measures" "--weights naming a class not measured is refused" \
	"$EB" run --datadir "$D" $RUN --query scattered-1,blog --weights runs-16=2 --out "$T/r4"
same "and nothing was made" "$(ls -d "$T/r4" 2>/dev/null | wc -l)" 0

# Every class by default: on 15, seq is left out, said and recorded.
says_err "a run of every class on 15 says seq is not measured" \
	"^eicbench run: not measured: seq (PostgreSQL 15 reads a Seq Scan without effective_io_concurrency; 17 and later apply it)" \
	"$EB" run --datadir "$D" --rows $ROWS --no-probe --eic 0 --runs 1 --max-runs 1 --out "$T/r-all"
same "the run measured the other eight, recorded what it left out" \
	"$(ls -d "$T"/r-all/sweep-* | sed 's/.*sweep-//' | sort | tr '\n' ' ')$(jq -r .options.classes_left_out "$T/r-all/meta.json" | cut -c1-4)" \
	"blog parallel runs-128 runs-16 scattered-0.1 scattered-1 scattered-5 sparse seq "
same "the classes measured are what options.query records" "$(jq -r .options.query "$T/r-all/meta.json")" \
	"scattered-0.1,scattered-1,scattered-5,sparse,runs-16,runs-128,blog,parallel"
says_err "and the run resumes (nothing left to do)" "^eicbench run: 0 steps left" "$EB" run --resume "$T/r-all"
fails 2 "'seq' is not a class this run measures" "--weights naming seq on 15 is refused" \
	"$EB" run --datadir "$D" --rows $ROWS --no-probe --eic 0 --weights seq=2 --out "$T/r-w"
fails 2 "--replay does not apply here" "--replay with --no-probe is refused" \
	"$EB" run --datadir "$D" --rows $ROWS --no-probe --replay --query scattered-1 --out "$T/r-w"
same "its class table shows the parallel class with the planner's plan" \
	"$("$EB" report "$T/r-all" --json 2>/dev/null | jq -r '.classes[] | select(.class == "parallel") | .planner_scan')" "Parallel Bitmap Heap Scan"

# A data set from before the classes: their indexes are added in place.
q "drop index test_scattered_idx; drop statistics test_scattered_stat" >/dev/null
says "a reused data set without them gets them" "^classes:  the query classes' indexes and statistics added" \
	"$EB" load --datadir "$D" --rows $ROWS
same "and the planner picks the bitmap scan again" "$(q "explain $(grep -v '^--' sql/query/scattered-1.sql)" | head -1 | cut -c1-16)" "Bitmap Heap Scan"

# Ground truth on an emulated device: 2 ms a read, 32 at once.
"$EB" server stop --datadir "$D" >/dev/null 2>&1
if ! need_fuse; then exit 0; fi
emulated classes
"$EB" server start --datadir "$D" >/dev/null
ok "an emulated device of 2 ms, 32 at once" "$EB" device emulate --backing "$B" --mount "$M" --latency 2ms --parallel 32 --daemon
# 10M rows: 0.1% of the pages is 44 pages, enough to hide the prefetch
# distance's ramp (PostgreSQL 15 starts at 1 and doubles it per page read:
# at 2M rows, 9 pages, 16 gained only about 2.5x)
ok "a 10M-row data set on a tablespace there" "$EB" load --datadir "$D" --rows 10000000 --tablespace-dir "$M/ts"
ok "scattered-0.1 swept there at 0 and 16" "$EB" sweep --datadir "$D" --query scattered-0.1 --eic 0,16 --runs 3 --no-cache-check --out "$T/emu-s"
x=$(medians "$T/emu-s/trials.jsonl" .settings.effective_io_concurrency .explain.bitmap.heap_phase.total_ms %.3f | tr '\n' ' ')
same "its heap phase at 16 at least 4x faster than at 0 ($x)" \
	"$(echo "$x" | awk '{ split($1, a, ":"); split($2, b, ":"); print (a[1] == 0 && b[1] == 16 && a[2] >= 4 * b[2]) ? "yes" : "no" }')" yes
same "and its answer is 16 or more" "$("$EB" report "$T/emu-s" --format json 2>/dev/null | jq -r '[.groups[] | select(.recommended == true) | .effective_io_concurrency | tonumber] | (.[0] // -1) >= 16')" true
