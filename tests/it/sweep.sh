# The cold sweep on a real throwaway cluster: records, plan check, resume, bad input.
. tests/it/lib.sh
plan 118
D=$T/pg
P=54394
cluster pg $P
q() { sql "$D" $P "$1"; }
# EXPLAIN's own Bitmap Heap Scan node in a record's plan, read by jq here
# rather than by the program
BHS='def bhs: first(.plan[0].Plan | .. | objects | select(."Node Type" == "Bitmap Heap Scan"));'

# Before any data set: refused.
fails 2 "no data set" "a sweep without a data set is refused" "$EB" sweep --datadir "$D" --eic 1 --runs 1 --out "$T/r0"
fails 2 "is not a PostgreSQL cluster" "a missing data directory is refused" "$EB" sweep --datadir "$T/none" --eic 1
says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000

# A first sweep: three values, two rounds, a fixed order seed.
says "cold sweep of three values" "^Written to $T/s1: summary.csv, report.md" "$EB" sweep --datadir "$D" --eic 0,1,16 --runs 2 --order-seed 42 --out "$T/s1"
R=$T/s1/trials.jsonl
same "one record per trial" "$(wc -l <"$R")" 6
same "every planned trial recorded once" "$(jq -r .trial_key "$R" | sort | uniq | wc -l)" 6
same "records follow the plan's order" "$(jq -r .trial_key "$R" | tr '\n' ,)" "$(jq -r '.plan.trial_keys[]' "$T/s1/meta.json" | tr '\n' ,)"
same "each round holds every value once" "$(jq -r 'select(.round == 2) | .settings.effective_io_concurrency' "$R" | sort -n | tr '\n' ,)" "0,1,16,"
same "every plan has a Bitmap Heap Scan" "$(jq -r '.explain.has.bitmap_heap_scan' "$R" | sort -u)" true
same "the bitmap plan was forced and recorded" "$(jq -r '[.forced_bitmap, .explain.settings.enable_seqscan] | @tsv' "$R" | sort -u)" "$(printf 'true\toff')"
same "JIT off in every trial" "$(jq -r '[.jit, .explain.settings.jit] | @tsv' "$R" | sort -u)" "$(printf 'false\toff')"
same "every trial was cold" "$(jq -r '[.cold, (.cold_times.total_ms > 0)] | @tsv' "$R" | sort -u)" "$(printf 'true\ttrue')"
same "each value was in force" "$(jq -s 'map(select(.settings.effective_io_concurrency == .in_force.effective_io_concurrency)) | length' "$R")" 6
same "cold reads came from the device (shared read > 0)" "$(jq -r '.explain.buffers.shared_read_blocks > 0' "$R" | sort -u)" true
same "I/O timing captured" "$(jq -r '.explain.io_read_ms > 0' "$R" | sort -u)" true
same "the query's rows" "$(jq -r '.explain.top_rows' "$R" | sort -u)" "$(q 'select count(*) from test where major between 10 and 100 or minor between 800 and 900')"
same "the device was watched" "$(jq -r '(.disk.reads > 0) and (.disk.avg_read_kib > 0) and (.disk.device | length > 0)' "$R" | sort -u)" true
same "the backend's CPU was measured" "$(jq -r '(.backend.cpu_share >= 0) and (.backend.pid > 0)' "$R" | sort -u)" true
# the shares are of all the CPUs' time, the host's steal among them (a trial
# during which the host took more than a tenth of the CPUs left the other four
# under 90% in a fresh-clone CI run)
same "CPU shares recorded, adding up to the CPUs' time" "$(jq -r '.cpu.user_pct + .cpu.system_pct + .cpu.iowait_pct + .cpu.idle_pct + .cpu.steal_pct | . > 90 and . < 110' "$R" | sort -u)" true
M=$T/s1/meta.json
same "meta: server version" "$(jq -r '.server.version_num' "$M")" "$(q 'show server_version_num')"
same "meta: device and read-ahead" "$(jq -r '(.device.read_ahead_kb | type) + "," + (.device.scheduler | type)' "$M")" "number,string"
same "meta: the exact command line" "$(jq -r '.command_line | join(" ")' "$M")" "$EB sweep --datadir $D --eic 0,1,16 --runs 2 --order-seed 42 --out $T/s1"
same "meta: the revision built from" "$(jq -r .git_rev "$M")" "$(git describe --always --dirty 2>/dev/null || echo unknown)"
same "meta: host and data set" "$(jq -r '(.host.cpu_count > 0) and (.dataset.rows == 300001)' "$M")" true
same "meta: the plan's order seed" "$(jq -r '.plan.order_seed' "$M")" 42
same "summary.csv: a header and one row per value" "$(wc -l <"$T/s1/summary.csv")" 4
same "report.md: a row of two runs for each value" "$(grep -c '^| *\(0\|1\|16\) | *2 |' "$T/s1/report.md")" 3
same "report.md: each value's heap-phase median is its records' (computed here)" \
	"$(awk -F'|' '/^\| *effective_io_concurrency/ { on = 1; next } on && /^\| *[0-9]/ { gsub(/ /, ""); print $2 ":" $4 } on && !/^\|/ { on = 0 }' "$T/s1/report.md" | tr '\n' ' ')" \
	"$(medians "$R" .settings.effective_io_concurrency .explain.bitmap.heap_phase.total_ms | tr '\n' ' ')"
says "the report renders again from the records" "^Written to $T/s1: summary.csv, report.md" "$EB" report "$T/s1" --no-plot

# Per-phase figures against EXPLAIN's own nodes (read here from the plan
# kept in each record): the node's time and reads are EXPLAIN's; the index
# phase is the bitmap node under it, which took no longer than it did; the
# heap phase is what is left, and took time and read blocks.
same "the Bitmap Heap Scan node's time and reads are EXPLAIN's" \
	"$(jq -r "$BHS"' bhs as $n | .explain.bitmap.node | .total_ms == $n."Actual Total Time" and .shared_read_blocks == $n."Shared Read Blocks"' "$R" | sort -u)" true
same "the index phase is EXPLAIN's bitmap under it, no longer than the heap node" \
	"$(jq -r "$BHS"' bhs as $n | ($n.Plans | map(."Actual Total Time") | add) as $k | .explain.bitmap.index_phase.total_ms == $k and $k <= $n."Actual Total Time" and $k > 0' "$R" | sort -u)" true
same "the heap phase is the rest of the node, took time and read blocks" \
	"$(jq -r "$BHS"' bhs as $n | .explain.bitmap.heap_phase as $h | ($n."Actual Total Time" - ($n.Plans | map(."Actual Total Time") | add)) as $t | ($h.total_ms - $t | fabs) < 1e-6 and $h.total_ms > 0 and $h.shared_read_blocks == $n."Shared Read Blocks" - ($n.Plans | map(."Shared Read Blocks") | add) and $h.shared_read_blocks > 0' "$R" | sort -u)" true
same "the Bitmap Heap Scan is on the table test" "$(jq -r '.explain.bitmap.relation' "$R" | sort -u)" test
same "EXPLAIN's own output is kept whole: the heap scan over a BitmapOr of the query's two index scans" \
	"$(jq -r '.plan[0] | [.Plan."Node Type", .Plan.Plans[0]."Node Type", (.Plan.Plans[0].Plans | map(."Index Cond") | join(" OR ")), (."Execution Time" > 0)] | @tsv' "$R" | sort -u)" \
	"$(printf 'Bitmap Heap Scan\tBitmapOr\t((major >= 10) AND (major <= 100)) OR ((minor >= 800) AND (minor <= 900))\ttrue')"
same "samples of the device and the backend kept" "$(jq -r '(.samples.t_ms | length >= 2) and (.samples.interval_ms == 10) and (.samples.disks | length == 1)' "$R" | sort -u)" true
same "every record says whether its samples were split by phase" "$(jq -r '.phases.split | type' "$R" | sort -u)" boolean
same "the plan matched its reference in every trial" "$(jq -r '.plan_check.ok' "$R" | sort -u)" true
same "meta: file system, max_sectors_kb, md/dm members" "$(jq -r '(.device.fstype | type) + "," + (.device.max_sectors_kb | type) + "," + (.device.members | type)' "$M")" "string,number,array"
same "meta: the tablespace and its own value" "$(jq -r '[.plan.tablespace.relation, .plan.tablespace.name, (.plan.tablespace.effective_io_concurrency | type)] | @tsv' "$M")" "$(printf 'test\tpg_default\tnull')"
same "the cache check ran before the first trial and is recorded" "$(jq -r '.plan.cache_check | (.ran and (.ratio > 0) and (.passes.fresh.reads > 0))' "$M")" true
ok "and the report says what it found" grep -q "check for caches below this machine read" "$T/s1/report.md"
same "the report leads with the heap phase" "$(grep -c 'heap phase' "$T/s1/report.md" | awk '$1 > 0 { print "yes" }')" yes

says "the same order seed gives the same plan" "^Written to $T/s2: summary.csv" "$EB" sweep --datadir "$D" --eic 0,1,16 --runs 2 --order-seed 42 --warm --out "$T/s2"
same "same seed, same order" "$(jq -c .plan.trial_keys "$T/s2/meta.json")" "$(jq -c .plan.trial_keys "$M")"
same "warm trials say so" "$(jq -r '[.cold, .cold_times] | @tsv' "$T/s2/trials.jsonl" | sort -u)" "$(printf 'false\t')"

# Bad input: exit 2, and the records already written stay whole.
sum=$(md5sum <"$R")
nres=$(ls results 2>/dev/null | wc -l)
fails 2 "'x' is not allowed" "a non-numeric value" "$EB" sweep --datadir "$D" --eic 1,x
fails 2 "'-1' is not allowed" "a negative value" "$EB" sweep --datadir "$D" --eic -1
fails 2 "'1001' is not allowed" "a value over 1000" "$EB" sweep --datadir "$D" --eic 1001
fails 2 "an empty value" "an empty list" "$EB" sweep --datadir "$D" --eic ""
fails 2 "'0' is not allowed" "--runs 0" "$EB" sweep --datadir "$D" --runs 0
fails 2 "not a preset" "an unknown preset" "$EB" sweep --datadir "$D" --query nosuch
fails 2 "no such setting" "an unknown setting" "$EB" sweep --datadir "$D" --set no_such_setting=1
fails 2 "the server rejects 'lots'" "a value the server rejects" "$EB" sweep --datadir "$D" --set work_mem=lots
echo "SELECT * FROM test" >"$T/nobitmap.sql"
fails 2 "no Bitmap Heap Scan" "a query without a bitmap plan even when forced" "$EB" sweep --datadir "$D" --query "$T/nobitmap.sql" --eic 1 --runs 1
fails 2 "different plan" "--resume of a folder from a different plan" "$EB" sweep --resume "$T/s1" --eic 0,2
fails 2 "meta.json" "--resume of a folder that is no sweep" "$EB" sweep --resume "$T"
printf 'DELETE FROM test WHERE minor = 800\n' >"$T/delete.sql"
fails 2 "must be a SELECT" "a query file that writes is refused" "$EB" sweep --datadir "$D" --query "$T/delete.sql" --eic 1 --runs 1
fails 2 "given twice" "a value given twice" "$EB" sweep --datadir "$D" --eic 1,16,1
fails 2 "'01' is not written plainly; give 1" "one value written three ways" "$EB" sweep --datadir "$D" --eic 1,01,+1
fails 2 "it cannot be varied" "a grid that would let a trial write" "$EB" sweep --datadir "$D" --eic 1 --set default_transaction_read_only=off
printf 'WITH d AS (DELETE FROM test WHERE minor = 800 RETURNING *) SELECT * FROM test WHERE minor = 800\n' >"$T/cte.sql"
fails 2 "the query writes" "a data-modifying WITH is refused" "$EB" sweep --datadir "$D" --query "$T/cte.sql" --eic 1 --runs 1
fails 2 "--max-runs 2 is below --runs 3" "--max-runs below --runs" "$EB" sweep --datadir "$D" --until-separated --runs 3 --max-runs 2
fails 2 "only counts with --until-separated" "--max-runs without --until-separated" "$EB" sweep --datadir "$D" --max-runs 5
fails 2 "budget" "a budget of 0" "$EB" sweep --datadir "$D" --until-separated --budget 0
fails 2 "budget" "a budget that is no time" "$EB" sweep --datadir "$D" --until-separated --budget soon
mkdir "$T/full" && touch "$T/full/x"
fails 2 "not empty" "--out naming a folder in use" "$EB" sweep --datadir "$D" --eic 1 --runs 1 --out "$T/full"
cluster other 54395
fails 2 "ran on --datadir" "--resume on another data directory" "$EB" sweep --resume "$T/s1" --datadir "$T/other"
same "no record file damaged" "$(md5sum <"$R")" "$sum"
same "no stray result folders" "$(ls "$T" | grep -c '^s')" 2
same "nothing written under results/" "$(ls results 2>/dev/null | wc -l)" "$nres"
same "the data set is whole" "$(q 'select count(*) from test')" 300001

# Interrupt a sweep in its fourth trial's query (EICBENCH_FAULT stops it
# there), the three finished taken down first; then resume it: nothing
# repeated, nothing lost.
EICBENCH_FAULT=sweep:query@4 "$EB" sweep --datadir "$D" --eic 0,1,2,4 --runs 3 --out "$T/s3" >/dev/null 2>"$T/s3.err" &
sp=$!
if stopped_at $sp; then
	same "three trials finished when the sweep is stopped" "$(wc -l <"$T/s3/trials.jsonl")" 3
else
	same "the sweep got to its fourth query" "$(cat "$T/s3.err")" "(stopped there)"
fi
head=$(md5sum <"$T/s3/trials.jsonl")
interrupt $sp
same "an interrupted sweep exits 130 (128 + SIGINT)" "$?" 130
ok "it says how to resume" grep -q "eicbench sweep --resume $T/s3" "$T/s3.err"
says "resume finishes the plan" "^Written to $T/s3: summary.csv" "$EB" sweep --resume "$T/s3"
records_kept "$T/s3/trials.jsonl" 3 "$head" 12

# A setting that needs a restart, varied with effective_io_concurrency.
before=$(q 'show shared_buffers')
says "a grid with a restart setting" "^Written to $T/s4: summary.csv" "$EB" sweep --datadir "$D" --eic 1 --set shared_buffers=128MB,144MB --runs 1 --out "$T/s4"
same "each shared_buffers value was in force" "$(jq -r '.in_force.shared_buffers' "$T/s4/trials.jsonl" | sort | tr '\n' ,)" "128MB,144MB,"
same "shared_buffers restored afterwards" "$(q 'show shared_buffers')" "$before"
same "postgresql.auto.conf left clean" "$(grep -c shared_buffers "$D/postgresql.auto.conf")" 0

# A tablespace that sets its own effective_io_concurrency wins over the
# session's: refused, naming the fix, unless allowed.
q 'ALTER TABLESPACE pg_default SET (effective_io_concurrency = 7)' >/dev/null
fails 2 "ALTER TABLESPACE pg_default RESET (effective_io_concurrency)" "a tablespace with its own value is refused" "$EB" sweep --datadir "$D" --eic 0,16 --runs 1 --out "$T/s5"
absent "nothing made for the refused sweep" "$T/s5"
says "--allow-override sweeps anyway" "^Written to $T/s6: summary.csv" "$EB" sweep --datadir "$D" --eic 0,16 --runs 1 --allow-override --out "$T/s6"
same "and records the override" "$(jq -r '.plan.tablespace.effective_io_concurrency' "$T/s6/meta.json")" 7
q 'ALTER TABLESPACE pg_default RESET (effective_io_concurrency)' >/dev/null

# More rounds until separated: until the answer is decided (within the
# margin, every smaller value out), or at --max-runs.
says "--until-separated adds rounds" "^Written to $T/s7: summary.csv" "$EB" sweep --datadir "$D" --query sparse --eic 0,64 --runs 1 --until-separated --max-runs 6 --out "$T/s7"
r7=$(jq -r '.plan.runs' "$T/s7/meta.json")
same "it added rounds, up to --max-runs" "$(jq -r '.plan.runs >= 2 and .plan.runs <= 6' "$T/s7/meta.json")" true
# Disturbed runs on this small data set can hold the answer open to the
# last round; then the same sweep runs once more before the check is skipped.
R7=$T/s7 n7=$r7
if [ "$n7" -ge 6 ]; then
	"$EB" sweep --datadir "$D" --query sparse --eic 0,64 --runs 1 --until-separated --max-runs 6 --out "$T/s7b" >/dev/null 2>&1
	R7=$T/s7b n7=$(jq -r '.plan.runs' "$T/s7b/meta.json" 2>/dev/null || echo 6)
fi
if [ "$n7" -lt 6 ]; then
	ok "stopped early only when decided" grep -q "Recommended: effective_io_concurrency = " "$R7/report.md"
else
	skip "stopped early only when decided" "two sweeps each ran all 6 rounds"
fi
same "every planned trial recorded once" "$(jq -r .trial_key "$T/s7/trials.jsonl" | sort -u | wc -l)" $((2 * r7))
same "the grown plan is in meta.json" "$(jq -r '.plan.trial_keys | length' "$T/s7/meta.json")" $((2 * r7))

# Racing with a priming trial: the priming trial is recorded apart, the plan
# shrinks when a value leaves, and meta.json says who left when.
says "--race --prime" "^Written to $T/s9: summary.csv" "$EB" sweep --datadir "$D" --query sparse --eic 0,1,64 --runs 3 --race --prime --max-runs 5 --out "$T/s9"
same "it says its trial count once for the first 3 rounds and once per added round" \
	"$(grep -c '^eicbench sweep: [0-9]* trials (' "$T/.says.err")" "$(($(jq .plan.runs "$T/s9/meta.json") - 2))"
same "one priming trial, recorded as such" "$(jq -s '[.[] | select(.priming == true)] | length' "$T/s9/trials.jsonl")" 1
same "a race records the rounds it may run, for the judge's looks" "$(jq -c '[.plan.max_runs, .plan.racing.from_round]' "$T/s9/meta.json")" "[5,3]"
same "and its key apart from the plan's" "$(jq -r 'select(.priming == true) | .trial_key | startswith("priming=")' "$T/s9/trials.jsonl")" true
same "every recorded trial of the plan once" "$(jq -r 'select(.priming != true) | .trial_key' "$T/s9/trials.jsonl" | sort -u | wc -l)" \
	"$(jq -r '.plan.trial_keys | length' "$T/s9/meta.json")"
ok "the racing record: margin, why it stopped" jq -e '.plan.racing.margin == 0.1 and (.plan.racing.stopped | type == "string") and (.plan.racing.dropped | type == "array")' "$T/s9/meta.json"
# A value leaves only when the runs show it out; on this small data set a
# round of disturbed runs (index phases of 15 ms taking 30) can keep every
# value in, so the same sweep runs once more before the check is skipped.
R9=$T/s9
if [ "$(jq '.plan.racing.dropped | length' "$R9/meta.json")" -eq 0 ]; then
	"$EB" sweep --datadir "$D" --query sparse --eic 0,1,64 --runs 3 --race --prime --max-runs 5 --out "$T/s9b" >/dev/null 2>&1
	R9=$T/s9b
fi
if [ "$(jq '.plan.racing.dropped | length' "$R9/meta.json" 2>/dev/null || echo 0)" -gt 0 ]; then
	same "a value that left has no trial after its round" \
		"$(jq -r '.plan.racing.dropped[] | "\(.value) \(.after_round)"' "$R9/meta.json" | while read -r v k; do
			jq -s --arg v "$v" --argjson k "$k" '[.[] | select(.settings.effective_io_concurrency == $v and .round > $k and .priming != true)] | length' "$R9/trials.jsonl"
		done | sort -u)" 0
else
	skip "a value that left has no trial after its round" "no value left the race in two sweeps"
fi
fails 2 "only counts with --race" "--peer without --race" "$EB" sweep --datadir "$D" --peer "$T/s7"
fails 2 "only counts with --race" "--refine without --race" "$EB" sweep --datadir "$D" --refine 0,1,4
fails 2 "--refine 0,x: 'x' is not allowed" "a ladder holding a value that is no number" "$EB" sweep --datadir "$D" --race --refine 0,x

# Refining a coarse grid: after round 3 the leading value's neighbours on
# the ladder that the grid lacks join it (1 leads: 0 below it; 64 leads:
# 16), and race from round 4 on; nothing of theirs runs before.
says "--race --refine" "^Written to $T/s10: summary.csv" "$EB" sweep --datadir "$D" --query sparse --eic 1,64 --runs 3 --race --refine 0,1,16,64 --max-runs 6 --out "$T/s10"
M10=$T/s10/meta.json
same "the ladder is in meta.json" "$(jq -c .plan.racing.refine "$M10")" "[0,1,16,64]"
ok "a value next to the leader joined after a round from the third, and said so" \
	jq -e '(.plan.racing.joined | length >= 1) and (.plan.racing.joined | all(. as $j | $j.after_round >= 3 and ($j.value == "0" or $j.value == "16") and ($j.why | test("the leading value after round \($j.after_round)"))))' "$M10"
same "the grid holds every value that joined" "$(jq '(.plan.racing.joined | map(.value)) - .plan.grid.effective_io_concurrency | length' "$M10")" 0
same "no trial of a joined value up to its round" \
	"$(jq -s --slurpfile m "$M10" '[.[] as $t | $m[0].plan.racing.joined[] | select(.value == $t.settings.effective_io_concurrency and $t.round <= .after_round)] | length' "$T/s10/trials.jsonl")" 0
same "each joined value ran in the round after it joined, once" \
	"$(jq -r '.plan.racing.joined[] | "\(.value) \(.after_round + 1)"' "$M10" | while read -r v k; do
		jq -s --arg v "$v" --argjson k "$k" '[.[] | select(.settings.effective_io_concurrency == $v and .round == $k and .priming != true)] | length' "$T/s10/trials.jsonl"
	done | sort -u)" 1
same "every trial of the grown plan recorded once" "$(jq -r 'select(.priming != true) | .trial_key' "$T/s10/trials.jsonl" | sort -u | wc -l)" \
	"$(jq -r '.plan.trial_keys | length' "$M10")"
ok "it says which value joined after which round, and why" grep -q "^eicbench sweep: [0-9]* joins the race after round 3: next to [0-9]* on the ladder" "$T/.says.err"
# at the last round --max-runs allows (one more for a round with a flagged
# run), no value joins: it could not run
says "--refine with no round left" "^Written to $T/s11: summary.csv" "$EB" sweep --datadir "$D" --query sparse --eic 1,64 --runs 3 --race --refine 0,1,16,64 --max-runs 3 --out "$T/s11"
same "nothing joins after the last round" "$(jq '.plan.runs as $n | [.plan.racing.joined[] | select(.after_round >= $n)] | length' "$T/s11/meta.json")" 0

# The index phase, the heap phase and the executor's work outside both
# (start-up from a cold cache, shut-down) add up to EXPLAIN's execution time;
# on a data set whose scan takes long enough, the samples split by phase.
says "load 2M rows" "^data set: test, major 0..2000000 (2000001 rows)" "$EB" load --datadir "$D" --rows 2000000
says "a sweep on it, sampled every 20 ms" "^Written to $T/s8: summary.csv" "$EB" sweep --datadir "$D" --eic 0,16 --runs 1 --sample-ms 20 --out "$T/s8"
same "the rest is EXPLAIN's execution time outside the Bitmap Heap Scan node" \
	"$(jq -r "$BHS"' bhs as $n | (.explain.bitmap.other_ms - (.plan[0]."Execution Time" - $n."Actual Total Time")) | fabs < 1e-6' "$T/s8/trials.jsonl" | sort -u)" true
same "the rest is small: under a tenth of the execution" \
	"$(jq -r "$BHS"' bhs as $n | (.plan[0]."Execution Time" - $n."Actual Total Time") / .plan[0]."Execution Time" | . >= 0 and . < 0.1' "$T/s8/trials.jsonl" | sort -u)" true
same "the samples were split by phase" "$(jq -r '.phases.split' "$T/s8/trials.jsonl" | sort -u)" true
same "heap-phase device figures recorded" "$(jq -r '(.phases.heap.disk.reads > 0) and (.phases.heap.backend.cpu_share > 0) and (.phases.index.disk.reads > 0)' "$T/s8/trials.jsonl" | sort -u)" true
# Every page is read cold in the heap phase: its window holds the device's
# reads of them (within the samples' interpolation), which it does only when
# the executor's work between the rows (200k of them) is counted in it. At 0
# the kernel's readahead reads the heap in about 20 requests of 3-4 MiB, and
# a window's edge on a 20 ms sample can leave one out (0.945 seen): there
# the window may miss one and a half of its mean requests, at 16 (8 KiB
# requests) 5%. The window missing the executor's work read 0.91 and 0.94.
same "the heap phase's window holds its blocks' reads (95-105% of their bytes; at 0 all but 1.5 requests)" \
	"$(jq -r '(.phases.heap.disk.read_bytes / (.explain.bitmap.heap_phase.shared_read_blocks * 8192)) as $r |
		([0.95, 1 - 1.5 / .phases.heap.disk.reads] | min) as $lo | $r >= $lo and $r <= 1.05' "$T/s8/trials.jsonl" | sort -u)" true
