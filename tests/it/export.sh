# Result folders into a results database: rows per folder and trial, keys
# unique across hosts, loading again replaces rather than adds, a torn last
# line is left out; TPC-B runs (tpcb, confsweep) as tests with their logs,
# the views; the schema's migrations, also of an older database; bad input.
. tests/it/lib.sh
plan 42
D=$T/pg
P=54396
cluster pg $P
DSN="host=$D port=$P user=postgres dbname=eicbench"
q() { sql "$D" $P "$1"; }

says "load 200000 rows" "^data set: test, major 0..200000 (200001 rows)" "$EB" load --datadir "$D" --rows 200000
says "a sweep to export" "^Written to $T/s1: summary.csv" "$EB" sweep --datadir "$D" --eic 0,16 --runs 2 --out "$T/s1"
says_err "export it" "^loaded $(hostname)/s1 (sweep, 4 trials)$" "$EB" export "$T/s1" --dsn "$DSN"
same "one row per trial" "$(q 'select count(*) from eicbench.trials')" 4
same "the folder's facts, keyed HOST/NAME" "$(q "select command, dataset_rows, query, folder_name from eicbench.folders where folder_id = '$(hostname)/s1'")" "sweep|200001|blog|s1"
same "figures as columns, the records' own" "$(q "select count(*) from eicbench.trials where heap_ms > 0 and execution_ms >= heap_ms and index_ms > 0 and heap_ms = (record #>> '{explain,bitmap,heap_phase,total_ms}')::float8 and execution_ms = (record #>> '{explain,execution_ms}')::float8")" 4
same "the whole record kept" "$(q "select count(*) from eicbench.trials where record->>'trial_key' = trial_key and record ? 'plan'")" 4
says_err "export it again" "^loaded $(hostname)/s1 (sweep, 4 trials)$" "$EB" export "$T/s1" --dsn "$DSN"
same "loading again replaces, not adds" "$(q 'select count(*) from eicbench.trials')" 4
same "still one folder row" "$(q 'select count(*) from eicbench.folders')" 1

# A folder whose last record was torn by a crash: the torn line is left out.
mkdir "$T/s2" && cp "$T/s1/meta.json" "$T/s2/" && head -n 3 "$T/s1/trials.jsonl" >"$T/s2/trials.jsonl"
tail -n 1 "$T/s1/trials.jsonl" | head -c 100 >>"$T/s2/trials.jsonl"
says_err "a torn last line is said" "^loaded $(hostname)/s2 (sweep, 3 trials); a torn last line was left out$" "$EB" export "$T/s2" --dsn "$DSN"
same "the whole lines loaded" "$(q "select count(*) from eicbench.trials where folder_id = '$(hostname)/s2'")" 3

# ---- TPC-B: tpcb and confsweep folders, tests, logs, views ------------------------
H=$(hostname)
ok "pgbench's tables" "$EB" tpcb init --datadir "$D" -s 1
ok "a tpcb run with logs" "$EB" tpcb run --datadir "$D" -c 2 -t 30 -S -l --out "$T/t1"
ok "a tpcb run with aggregate logs" "$EB" tpcb run --datadir "$D" -c 2 -T 2 -S -l --aggregate-interval 1 --out "$T/t2"
ok "a confsweep of two steps" "$EB" confsweep --datadir "$D" --set work_mem=1MB,4MB -c 2 -T 1s --warmup 0 --runs 2 -s 1 -b select-only --out "$T/cs"
ok "export them, with the logs" "$EB" export "$T/t1" "$T/t2" "$T/cs" --dsn "$DSN" --label "disk A" --with-logs
same "a test per tpcb folder and per confsweep trial" "$(q 'select count(*) from eicbench.tests')" 6
same "the tpcb run's figures as columns" \
	"$(q "select scripts, clients, transactions, failures, tps > 0, latency_p99_ms >= latency_p50_ms, cpu_us_per_tx > 0, label from eicbench.tests where folder_id = '$H/t1'")" \
	"select-only|2|60|0|t|t|t|disk A"
same "the confsweep trials keyed by their trial keys, with their steps" \
	"$(q "select string_agg(distinct step, ',' order by step) from eicbench.tests where folder_id = '$H/cs'")" "work_mem=1MB,work_mem=4MB"
same "timing: a row per transaction of the -l log" "$(q "select count(*), count(*) filter (where status = 'ok' and latency_us > 0) from eicbench.timing where folder_id = '$H/t1'")" "60|60"
same "timing_intervals: the aggregate log's lines, every transaction counted" \
	"$(q "select sum(count) from eicbench.timing_intervals where folder_id = '$H/t2'")" "$(q "select transactions from eicbench.tests where folder_id = '$H/t2'")"
same "tps_by_step: a row per step, each of two runs" \
	"$(q "select count(*), min(runs), bool_and(tps_median between tps_min and tps_max) from eicbench.tps_by_step where folder_id = '$H/cs'")" "2|2|t"
same "latency_by_value: the swept values" \
	"$(q "select string_agg(value, ',' order by value) from eicbench.latency_by_value where name = 'work_mem'")" "1MB,4MB"
ok "export them again" "$EB" export "$T/t1" "$T/cs" --dsn "$DSN" --with-logs
same "loading again replaces tests and logs" "$(q 'select count(*) from eicbench.tests')/$(q "select count(*) from eicbench.timing")" "6/60"
same "schema_version: three migrations, in order" "$(q 'select string_agg(version::text, $$,$$ order by version) from eicbench.schema_version')" "1,2,3"

# A database an export made before schema versions: migrated, its keys given their host.
q 'create database old' >/dev/null
qo() { psql -X -At -h "$D" -p $P -U postgres -d old -c "$1"; }
qo 'create schema eicbench' >/dev/null
sed -n '/^CREATE TABLE/,$p' sql/export/migrate_0001_base.sql | psql -X -q -h "$D" -p $P -U postgres -d old >/dev/null
qo "insert into eicbench.folders (folder_id, command, path, hostname, meta) values ('s0', 'sweep', '/x', 'oldhost', '{}')" >/dev/null
qo "insert into eicbench.trials (folder_id, trial_key, record) values ('s0', 'round=1', '{}')" >/dev/null
out=$("$EB" export "$T/t1" --dsn "host=$D port=$P user=postgres dbname=old" 2>&1)
same "an old results database is migrated (said)" "$(echo "$out" | grep -c 'schema is now at version 3 (3 migrations applied)')" 1
same "... its folder keyed by its host, the trial following" \
	"$(qo "select folder_id, folder_name from eicbench.folders where command = 'sweep'")/$(qo "select folder_id from eicbench.trials")" "oldhost/s0|s0/oldhost/s0"

# Bad input: exit 2 when nothing could be loaded; what was loaded stays.
sum=$(md5sum <"$T/s1/trials.jsonl")
fails 2 "no readable meta.json" "a folder that is no result folder" "$EB" export "$T" --dsn "$DSN"
fails 2 "give the results database" "no --dsn" "$EB" export "$T/s1"
fails 2 "give one or more result folders: " "no folder" "$EB" export --dsn "$DSN"
fails 2 "1 folder(s) loaded, 1 refused" "a good folder and a bad one: the good one loads, exit 2" "$EB" export "$T/s1" "$T/nosuch" --dsn "$DSN"
fails 1 "cannot connect" "an unreachable database" "$EB" export "$T/s1" --dsn "host=$T/none password=hunter2"
out=$("$EB" export "$T/s1" --dsn "host=$T/none password=hunter2" 2>&1)
same "the password never printed (the refusal is)" "$(echo "$out" | grep -c hunter2),$(echo "$out" | grep -c 'cannot connect')" 0,1
same "records untouched" "$(md5sum <"$T/s1/trials.jsonl")" "$sum"

# Every message redacted against the connection string: a server that
# refuses the connection (no such role), the password quoted with a space
# in it, or bare with a space (libpq names the word after the space).
out=$("$EB" export "$T/s1" --dsn "host=$D port=$P user=nobody dbname=eicbench password='hunter secretword'" 2>&1)
same "a refused connection, a quoted password with a space: not printed (the refusal is)" \
	"$(echo "$out" | grep -c -e hunter -e secretword),$(echo "$out" | grep -c 'role "nobody" does not exist')" 0,1
out=$("$EB" export "$T/s1" --dsn "host=$D port=$P user=postgres dbname=eicbench password=hunter secretword" 2>&1)
same "a bare password with a space: neither word printed, libpq's message is" \
	"$(echo "$out" | grep -c -e hunter -e secretword),$(echo "$out" | grep -c 'missing "=" after "\*\*\*"')" 0,1

# Two folders of one name would share a key (HOST/NAME): the second is
# refused, naming both, and the first loads.
mkdir -p "$T/x1" "$T/x2" && cp -r "$T/s2" "$T/x1/dup" && cp -r "$T/s1" "$T/x2/dup"
fails 2 "refused $T/x2/dup: its key in the results database (HOST/NAME) is that of $T/x1/dup" \
	"a second folder of the same name is refused, naming both" "$EB" export "$T/x1/dup" "$T/x2/dup" --dsn "$DSN"
same "... the first one's trials loaded, not the second's over them" "$(q "select count(*) from eicbench.trials where folder_id = '$H/dup'")" 3

# A folder with a field the database refuses does not stop the others.
mkdir "$T/bad" && jq -c '.started_utc = "not a time"' "$T/s1/meta.json" >"$T/bad/meta.json" && cp "$T/s1/trials.jsonl" "$T/bad/"
q "delete from eicbench.trials where folder_id = '$H/s2'" >/dev/null
fails 2 "refused .*invalid input syntax for type timestamp with time zone: \"not a time\"" \
	"a folder with a wrongly typed field is refused, naming the value" "$EB" export "$T/bad" "$T/s2" --dsn "$DSN"
same "... and the folder after it still loads" "$(q "select count(*) from eicbench.trials where folder_id = '$H/s2'")" 3
