# Result folders into a results database: rows per folder and trial, loading
# again replaces rather than adds, a torn last line is left out, bad input.
. tests/it/lib.sh
plan 19
D=$T/pg
P=54396
cluster pg $P
DSN="host=$D port=$P user=postgres dbname=eicbench"
q() { sql "$D" $P "$1"; }

says "load 200000 rows" "^data set: test, major 0..200000 (200001 rows)" "$EB" load --datadir "$D" --rows 200000
says "a sweep to export" "^Written to $T/s1: summary.csv" "$EB" sweep --datadir "$D" --eic 0,16 --runs 2 --out "$T/s1"
says_err "export it" "^loaded s1 (sweep, 4 trials)$" "$EB" export "$T/s1" --dsn "$DSN"
same "one row per trial" "$(q 'select count(*) from eicbench.trials')" 4
same "the folder's facts" "$(q "select command, dataset_rows, query from eicbench.folders where folder_id = 's1'")" "sweep|200001|blog"
same "figures as columns, the records' own" "$(q "select count(*) from eicbench.trials where heap_ms > 0 and execution_ms >= heap_ms and index_ms > 0 and heap_ms = (record #>> '{explain,bitmap,heap_phase,total_ms}')::float8 and execution_ms = (record #>> '{explain,execution_ms}')::float8")" 4
same "the whole record kept" "$(q "select count(*) from eicbench.trials where record->>'trial_key' = trial_key and record ? 'plan'")" 4
says_err "export it again" "^loaded s1 (sweep, 4 trials)$" "$EB" export "$T/s1" --dsn "$DSN"
same "loading again replaces, not adds" "$(q 'select count(*) from eicbench.trials')" 4
same "still one folder row" "$(q 'select count(*) from eicbench.folders')" 1

# A folder whose last record was torn by a crash: the torn line is left out.
mkdir "$T/s2" && cp "$T/s1/meta.json" "$T/s2/" && head -n 3 "$T/s1/trials.jsonl" >"$T/s2/trials.jsonl"
tail -n 1 "$T/s1/trials.jsonl" | head -c 100 >>"$T/s2/trials.jsonl"
says_err "a torn last line is said" "^loaded s2 (sweep, 3 trials); a torn last line was left out$" "$EB" export "$T/s2" --dsn "$DSN"
same "the whole lines loaded" "$(q "select count(*) from eicbench.trials where folder_id = 's2'")" 3

# Bad input: exit 2 when nothing could be loaded; what was loaded stays.
sum=$(md5sum <"$T/s1/trials.jsonl")
fails 2 "no readable meta.json" "a folder that is no result folder" "$EB" export "$T" --dsn "$DSN"
fails 2 "give the results database" "no --dsn" "$EB" export "$T/s1"
fails 2 "result folders first" "no folder" "$EB" export --dsn "$DSN"
says_err "a good folder and a bad one: the good one loads" "1 folder(s) loaded, 1 skipped" "$EB" export "$T/s1" "$T/nosuch" --dsn "$DSN"
fails 1 "cannot connect" "an unreachable database" "$EB" export "$T/s1" --dsn "host=$T/none password=hunter2"
out=$("$EB" export "$T/s1" --dsn "host=$T/none password=hunter2" 2>&1)
same "the password never printed (the refusal is)" "$(echo "$out" | grep -c hunter2),$(echo "$out" | grep -c 'cannot connect')" 0,1
same "records untouched" "$(md5sum <"$T/s1/trials.jsonl")" "$sum"
