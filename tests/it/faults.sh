# Faults injected into real runs on a throwaway cluster, each stopped at
# its place by EICBENCH_FAULT: after each, the records finished before it
# kept byte for byte and none twice, the server's settings as they were
# with no journal left, the data set the same (rows, record, files; never
# loaded again to find out), and the next command succeeding. The last line
# counts the faults injected, survived and skipped.
. tests/it/lib.sh
plan 36
D=$T/pg
P=54398
cluster pg $P
q() { sql "$D" $P "$1"; }
says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)

# 1. SIGKILL of a sweep in its second trial's query, a restart setting of
#    that trial in force: the journal keeps the originals; the next
#    command puts them back.
fault "sweep killed, restart setting in force"
EICBENCH_FAULT=sweep:query@2 "$EB" sweep --datadir "$D" --eic 1 --set shared_buffers=144MB,160MB --runs 3 --order-seed 5 --out "$T/s1" >/dev/null 2>"$T/s1.err" &
sp=$!
if stopped_at $sp; then
	same "the second trial runs with its shared_buffers" "$(q 'show shared_buffers' | grep -c '^1[46][04]MB$')" 1
else
	same "the sweep got to its second query" "$(cat "$T/s1.err")" "(stopped there)"
fi
head=$(head -n 1 "$T/s1/trials.jsonl" | md5sum)
slay $sp
ok "the journal was left next to the cluster" test -f "$D/eicbench-settings.journal"
says_err "the next sweep restores them first, and says so" "left settings changed; put back: shared_buffers" \
	"$EB" sweep --resume "$T/s1"
records_kept "$T/s1/trials.jsonl" 1 "$head" 6
unchanged "$D" $P "$settings" "$data"
held

# 2. SIGKILL of a load in its copy, durability relaxed: the data set in use
#    is the one before, and the next command puts fsync and the rest back.
fault "load killed, durability relaxed"
EICBENCH_FAULT=load:copy "$EB" load --datadir "$D" --rows 3000000 --force >/dev/null 2>"$T/l2.err" &
lp=$!
if stopped_at $lp; then
	same "the load runs with fsync off" "$(q 'show fsync')" off
else
	same "the load got to its copy" "$(cat "$T/l2.err")" "(stopped there)"
fi
slay $lp
ok "the journal was left" test -f "$D/eicbench-settings.journal"
says_err "the next command (a restart) puts the settings back, and says so" "put back: wal_level, max_wal_senders, fsync" \
	"$EB" server restart --datadir "$D"
unchanged "$D" $P "$settings" "$data"
says "and a load finds the same data set, reused" "(300001 rows), seed 1, recipe fast (already loaded; reused)" \
	"$EB" load --datadir "$D" --rows 300000
held

# 3. drop_caches cannot be written (a container): the cold cycle evicts the
#    cluster's files one by one instead, tablespaces included, and says so.
fault "drop_caches not writable"
mkdir -p "$T/ts" && chown postgres "$T/ts" 2>/dev/null
q "CREATE TABLESPACE far LOCATION '$T/ts'" >/dev/null
q "CREATE TABLE far_t TABLESPACE far AS SELECT g AS a FROM generate_series(1, 200000) g" >/dev/null
far=$D/$(q "SELECT pg_relation_filepath('far_t')")
cat "$far" >/dev/null
out=$(EICBENCH_DROP_CACHES=/proc/version "$EB" server cold --datadir "$D" --json)
same "the cold cycle fell back to evicting files" "$?:$(echo "$out" | jq -r .method)" "0:fadvise (drop_caches refused)"
if command -v fincore >/dev/null 2>&1; then
	same "the tablespace's file was evicted too" "$(fincore -nb -o PAGES "$far" | tr -d ' ')" 0
else
	skip "the tablespace's file was evicted too" "fincore not installed"
fi
EICBENCH_DROP_CACHES=/proc/version says "a sweep goes on that way" "^Written to $T/s3: summary.csv" "$EB" sweep --datadir "$D" --eic 0 --runs 1 --no-cache-check --out "$T/s3"
same "and its records say so" "$(jq -r .cold_times.method "$T/s3/trials.jsonl")" "fadvise (drop_caches refused)"
q "DROP TABLE far_t" >/dev/null; q "DROP TABLESPACE far" >/dev/null
unchanged "$D" $P "$settings" "$data"
held

# 4. Two commands on one cluster, and on one result folder, at once: the
#    second is refused naming the first, which finishes untouched. (The
#    sweep is held after its first record, by EICBENCH_FAULT, while the
#    others try.)
fault "two commands at once"
EICBENCH_FAULT=record:append "$EB" sweep --datadir "$D" --eic 0,1 --runs 2 --no-cache-check --out "$T/s4" >/dev/null 2>&1 &
sp=$!
if stopped_at $sp; then
	same "the sweep holds its first record" "$(wc -l <"$T/s4/trials.jsonl")" 1
else
	same "the sweep got to its first record" "stopped" "(stopped there)"
fi
head=$(md5sum <"$T/s4/trials.jsonl")
fails 3 "the cluster in $D is in use: held by pid $sp, .*eicbench sweep --datadir" "a load meanwhile is refused (exit 3, busy), naming the sweep" \
	"$EB" load --datadir "$D" --rows 300000 --force
fails 3 "is in use: held by pid $sp" "so is a server stop" "$EB" server stop --datadir "$D"
fails 3 "is in use: held by pid $sp" "and a probe of the data set's files (it would start the server and evict them)" \
	"$EB" probe --datadir "$D" --relation test --engine psync --depth 1 --count 100 --out "$T/p4"
absent "the refused probe made no folder" "$T/p4"
fails 3 "the result folder $T/s4 is in use: held by pid $sp" "a resume of the same folder is refused" \
	"$EB" sweep --resume "$T/s4"
kill -CONT $sp
wait $sp
same "the sweep finished" "$?" 0
records_kept "$T/s4/trials.jsonl" 1 "$head" 4
says "the lock went with the sweep: the next command runs" "^running: pid" "$EB" server restart --datadir "$D"
unchanged "$D" $P "$settings" "$data"
held
