# Faults injected into real runs on a throwaway cluster: after each, no
# finished record lost or repeated, the server's settings as they were, the
# data set whole, and the next command succeeding. The last line counts the
# faults injected and survived.
. tests/it/lib.sh
D=$T/pg
P=54398
cluster pg $P
q() { sql "$D" $P "$1"; }
ok "load 300000 rows" "$EB" load --datadir "$D" --rows 300000
sb=$(q 'show shared_buffers')
fs=$(q 'show fsync')

# 1. SIGKILL of a sweep between trials of a restart setting: the journal
#    keeps the originals; the next command puts them back.
fault "sweep killed, restart setting in force"
"$EB" sweep --datadir "$D" --eic 1 --set shared_buffers=128MB,144MB --runs 3 --order-seed 5 --out "$T/s1" >/dev/null 2>&1 &
sp=$!
wait_lines "$T/s1/trials.jsonl" 1
kill -KILL $sp; wait $sp 2>/dev/null
ok "the journal was left next to the cluster" test -f "$D/eicbench-settings.journal"
k=$(wc -l <"$T/s1/trials.jsonl")
fails 0 "left settings changed; put back: shared_buffers" "the next sweep restores them first" \
	"$EB" sweep --resume "$T/s1"
same "shared_buffers as before" "$(q 'show shared_buffers')" "$sb"
same "postgresql.auto.conf clean" "$(grep -c shared_buffers "$D/postgresql.auto.conf")" 0
same "the journal is gone" "$(ls "$D/eicbench-settings.journal" 2>/dev/null)" ""
same "every planned trial once" "$(jq -r .trial_key "$T/s1/trials.jsonl" | sort | uniq -d | wc -l),$(wc -l <"$T/s1/trials.jsonl")" "0,6"
held

# 2. SIGKILL of a load with durability relaxed: fsync and the rest come back.
fault "load killed, durability relaxed"
"$EB" load --datadir "$D" --rows 3000000 --force >/dev/null 2>"$T/l2.err" &
lp=$!
i=0
while ! grep -q "copy" "$T/l2.err" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -KILL $lp; wait $lp 2>/dev/null
ok "the journal was left" test -f "$D/eicbench-settings.journal"
fails 0 "put back: wal_level, max_wal_senders, fsync" "the next command restores the settings" \
	"$EB" load --datadir "$D" --rows 300000
same "fsync as before" "$(q 'show fsync')" "$fs"
same "no relaxed setting left in postgresql.auto.conf" "$(grep -cE 'fsync|full_page_writes|autovacuum|wal_level' "$D/postgresql.auto.conf")" 0
same "the data set whole" "$(q 'select count(*) from test')" 300001
held

# 3. drop_caches cannot be written (a container): the cold cycle evicts the
#    cluster's files one by one instead, tablespaces included, and says so.
fault "drop_caches not writable"
mkdir -p "$T/ts" && chown postgres "$T/ts" 2>/dev/null
q "CREATE TABLESPACE far LOCATION '$T/ts'" >/dev/null
q "CREATE TABLE far_t TABLESPACE far AS SELECT g AS a FROM generate_series(1, 200000) g" >/dev/null
far=$D/$(q "SELECT pg_relation_filepath('far_t')")
cat "$far" >/dev/null
out=$(EICBENCH_DROP_CACHES=/proc/version "$EB" server cold --datadir "$D" --json 2>&1)
same "the cold cycle fell back to evicting files" "$(echo "$out" | jq -r .method)" "fadvise (drop_caches refused)"
if command -v fincore >/dev/null 2>&1; then
	same "the tablespace's file was evicted too" "$(fincore -nb -o PAGES "$far" | tr -d ' ')" 0
else
	n=$((n + 1)); echo "ok $n - the tablespace's file was evicted too # SKIP fincore not installed"
fi
EICBENCH_DROP_CACHES=/proc/version ok "a sweep goes on that way" "$EB" sweep --datadir "$D" --eic 0 --runs 1 --no-cache-check --out "$T/s3"
same "and its records say so" "$(jq -r .cold_times.method "$T/s3/trials.jsonl")" "fadvise (drop_caches refused)"
q "DROP TABLE far_t" >/dev/null; q "DROP TABLESPACE far" >/dev/null
held

# 4. Two commands on one cluster, and on one result folder, at once: the
#    second is refused naming the first, which finishes untouched. (The
#    sweep is held after its first record, by EICBENCH_FAULT, while the
#    others try.)
fault "two commands at once"
EICBENCH_FAULT=record:append "$EB" sweep --datadir "$D" --eic 0,1 --runs 2 --no-cache-check --out "$T/s4" >/dev/null 2>&1 &
sp=$!
stopped_at $sp
same "the sweep holds its first record" "$(wc -l <"$T/s4/trials.jsonl")" 1
fails 2 "the cluster in $D is in use: held by pid $sp, .*eicbench sweep --datadir" "a load meanwhile is refused, naming the sweep" \
	"$EB" load --datadir "$D" --rows 300000 --force
fails 2 "is in use: held by pid $sp" "so is a server stop" "$EB" server stop --datadir "$D"
fails 2 "is in use: held by pid $sp" "and a probe of the data set's files (it would start the server and evict them)" \
	"$EB" probe --datadir "$D" --relation test --engine psync --depth 1 --count 100 --out "$T/p4"
same "the refused probe made no folder" "$(ls -d "$T/p4" 2>/dev/null)" ""
fails 2 "the result folder $T/s4 is in use: held by pid $sp" "a resume of the same folder is refused" \
	"$EB" sweep --resume "$T/s4"
kill -CONT $sp
wait $sp
same "the sweep finished" "$?" 0
same "its four trials, once each" "$(jq -r .trial_key "$T/s4/trials.jsonl" | sort -u | wc -l),$(wc -l <"$T/s4/trials.jsonl")" "4,4"
same "the data set whole" "$(q 'select count(*) from test')" 300001
ok "the lock went with the sweep: the next command runs" "$EB" server restart --datadir "$D"
held

faults_summary
