# What the server saw, on real clusters, through tests/pgstats-watch (the
# modules bench/pgstats, bench/pgaios and bench/pgprocs run as a trial runs
# them): on 15 pg_stat_io and pg_aios say "not available" cleanly while the
# worker listing works; on 18 (when a build is in the cache, see pg18.sh) a
# cold sparse query under io_method = worker shows I/Os in flight in pg_aios,
# reads in pg_stat_io's difference and the I/O workers by pid.
. tests/it/lib.sh
plan 26
W=$(pwd)/tests/pgstats-watch
SPARSE="EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM test WHERE minor = 800"
watch_sparse() { # CONNINFO
	"$W" -s 'SET enable_seqscan = off' -s 'SET enable_indexscan = off' \
		-s 'SET enable_indexonlyscan = off' -s 'SET max_parallel_workers_per_gather = 0' \
		-s 'SET track_io_timing = on' "$1" "$SPARSE"
}
j() { printf '%s\n' "$out" | jq -r "$1"; }

# ---- 15: nothing to read, said so; the listing still works ----
P=54431
cluster pg15 $P
D=$T/pg15
CI="host=$D port=$P user=postgres dbname=eicbench"
says "15: load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
out=$(watch_sparse "$CI")
same "15: the query ran beside the watchers" "$(j '[.query_error, (.result[0].Plan["Node Type"])] | @tsv')" "$(printf '\tBitmap Heap Scan')"
v15=$(sql "$D" $P "select current_setting('server_version_num')::int / 10000 || '.' || current_setting('server_version_num')::int % 100")
same "15: pg_stat_io is not available, and says why" "$(j '.pg_stat_io | [.available, .why] | @tsv')" "$(printf 'false\tpg_stat_io needs PostgreSQL 16 or later (the server is %s)' "$v15")"
same "15: pg_aios is not available, and says why" "$(j '.pg_aios | [.available, .why] | @tsv')" "$(printf 'false\tpg_aios needs PostgreSQL 18 or later (the server is %s)' "$v15")"
same "15: the listing works and finds no I/O workers" "$(j '.procs | [.available, .io_workers_possible, .io_workers] | @tsv')" "$(printf 'true\tfalse\t0')"
# force_parallel_mode (debug_parallel_query from 16) runs the query in one worker
out=$("$W" -s 'SET force_parallel_mode = on' "$CI" 'SELECT pg_sleep(0.3)')
same "15: the query's parallel worker was found while it ran, and not the backend" "$(j '[(.parallel_workers | length), (.parallel_workers[0] != .backend_pid)] | @tsv')" "$(printf '1\ttrue')"
out=$("$W" -s 'SET max_parallel_workers_per_gather = 0' "$CI" 'SELECT pg_sleep(0.1)')
same "15: no parallel workers found for a query without them" "$(j '.parallel_workers | length')" 0
says "stop 15" "^stopped (pid" "$EB" server stop --datadir "$D"

# ---- 18: the same watchers see the asynchronous reads ----
bindir=$(scripts/build-pg.sh --cached 18)
if [ -z "$bindir" ]; then
	skip_rest "no PostgreSQL 18 build in $(scripts/build-pg.sh --cache-dir); scripts/build-pg.sh 18 makes one"
	exit 0
fi
P=54432
D=$T/pg18
CI="host=$D port=$P user=postgres dbname=eicbench"
says "18: init and start an 18 cluster" "^running: pid" sh -c "'$EB' server init --datadir '$D' --pg 18 --port $P && '$EB' server start --datadir '$D'"
cleanup_dirs="$cleanup_dirs $D"
says "18: load 3000000 rows" "^data set: test, major 0..3000000 (3000001 rows)" "$EB" load --datadir "$D" --rows 3000000
same "18: io_method is worker" "$(sql "$D" $P 'show io_method')" worker
says "18: cold cycle" "^total " "$EB" server cold --datadir "$D"
out=$(watch_sparse "$CI")
same "18: the query ran beside the watchers" "$(j '[.query_error, (.result[0].Plan["Node Type"])] | @tsv')" "$(printf '\tBitmap Heap Scan')"
same "18: pg_aios sampled all along without a failed sample" "$(j '.pg_aios | (.samples >= 3) and (.failed_samples == 0) and ((.timeline.t_ms | length) == .samples)')" true
same "18: pg_aios saw I/Os in flight at some sample" "$(j '.pg_aios | (.summary.in_flight_max > 0) and (.timeline.in_flight | max > 0)')" true
same "18: bytes in flight seen" "$(j '.pg_aios.summary.bytes_in_flight_max >= 8192')" true
same "18: only the backend's I/Os were counted" "$(j '.pg_aios.pid == .backend_pid')" true
same "18: pg_stat_io's difference shows reads by the client backend or I/O workers" "$(j '.pg_stat_io.totals | ((."client backend".reads // 0) + (."io worker".reads // 0)) > 0')" true
same "18: 18 counts reads as I/Os and bytes from read_bytes" "$(j '.pg_stat_io | [.reads_are, .bytes_from, .reset_between] | @tsv')" "$(printf 'I/Os\tread_bytes\tfalse')"
same "18: pg_stat_io read at least the blocks EXPLAIN counted" "$(j '(.pg_stat_io.totals."client backend".read_bytes / 8192) >= .result[0].Plan["Shared Read Blocks"]')" true
same "18: the I/O workers are found by pid" "$(j '.procs | [.io_workers_possible, .io_workers] | @tsv')" "$(printf 'true\t%s' "$(sql "$D" $P 'show io_workers')")"
kinds=$(for pid in $(j '.procs.list[].pid'); do tr '\0' ' ' </proc/"$pid"/cmdline | grep -o 'io worker' ; done | sort -u)
same "18: each found pid is an io worker process" "$kinds" "io worker"
sql "$D" $P 'create role plain login; grant select on test to plain' >/dev/null
out=$("$W" "host=$D port=$P user=plain dbname=eicbench" 'SELECT count(*) FROM test WHERE minor = 5')
same "18: a role without pg_read_all_stats: pg_aios refused, saying why" "$(j '.pg_aios.error | test("permission denied for view pg_aios")')" true
same "18: a role without pg_read_all_stats: the workers are said to be hidden" "$(j '.procs.error | test("hides the type of [0-9]+ processes.*pg_read_all_stats")')" true
same "18: a role without pg_read_all_stats: pg_stat_io still read" "$(j '[.pg_stat_io.available, (.pg_stat_io.totals."client backend".hits > 0)] | @tsv')" "$(printf 'true\ttrue')"
says "18: stop 18" "^stopped (pid" "$EB" server stop --datadir "$D"
