# PostgreSQL 18 on the managed cluster: init with --pg 18 (checksums on by
# default, or off when asked), start, load, cold cycle, the server facts that
# status reports (io_method and friends), stop. Runs when a built 18 is in the
# build cache (make check builds one first; run alone, EICBENCH_BUILD_PG=1
# builds it, one check more); otherwise every check is reported as skipped,
# never as passed.
. tests/it/lib.sh
D=$T/pg18
P=54418
cache=$(scripts/build-pg.sh --cache-dir)
bindir=$(scripts/build-pg.sh --cached 18)
build=0
[ -z "$bindir" ] && [ -n "${EICBENCH_BUILD_PG:-}" ] && build=1
plan $((28 + build))
if [ "$build" = 1 ]; then
	ok "build PostgreSQL 18 (EICBENCH_BUILD_PG=1)" scripts/build-pg.sh 18
	bindir=$(scripts/build-pg.sh --cached 18)
fi

if [ -z "$bindir" ]; then
	skip_rest "no PostgreSQL 18 build in $cache; scripts/build-pg.sh 18 makes one"
	exit 0
fi

st() { "$EB" server status --datadir "$1" --json | jq -r "$2"; }
q() { sql "$D" $P "$1"; }

says "init an 18 cluster with --pg 18" "^initialized $D (PostgreSQL 18" "$EB" server init --datadir "$D" --pg 18 --port $P
cleanup_dirs="$D"
same "init recorded the build's binaries" "$(jq -r .bindir "$D/eicbench.json")" "$bindir"
same "init recorded version 18" "$(jq -r '.version | split(".")[0]' "$D/eicbench.json")" 18
same "data checksums recorded as on (18's default)" "$(jq -r .data_checksums "$D/eicbench.json")" true
same "status says the same while stopped" "$(st "$D" '[.version, .data_checksums, .running] | join(" ")')" "$(jq -r .version "$D/eicbench.json") true false"
says "start (binaries from the marker, no --pg)" "^running: pid" "$EB" server start --datadir "$D"
same "the running server is 18" "$(st "$D" '.server.server_version_num >= 180000 and .server.server_version_num < 190000')" true
same "the server's data_checksums matches the record" "$(st "$D" '.server.data_checksums == .data_checksums')" true
same "SHOW data_checksums" "$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c 'show data_checksums')" on
same "status reports 18's io settings" "$(st "$D" '.server | [.io_method, (.io_workers | type), .io_combine_limit, (.io_max_concurrency | type)] | join(" ")')" "worker number 128kB number"

says "load a small data set" "^data set: test, major 0..100000 (100001 rows)" "$EB" load --datadir "$D" --rows 100000
same "row count" "$(q 'select count(*) from test')" 100001
same "no load setting left behind (wal_level)" "$(q 'show wal_level')" replica
f=$D/$(q "select pg_relation_filepath('test')")
resident() { fincore --noheadings --output PAGES "$1" | tr -d ' '; }
# Another test run as root may drop the whole page cache between the read
# and the look: read and look up to three times.
cached=no
for _ in 1 2 3; do
	q 'select count(*) from test' >/dev/null
	if [ "$(resident "$f")" -gt 0 ]; then cached=yes; break; fi
done
same "the table is in the page cache after a read" "$cached" yes
pid0=$(head -1 "$D/postmaster.pid")
j=$("$EB" server cold --datadir "$D" --json)
same "cold cycle reports its method" "$(echo "$j" | jq -r .method)" "$([ "$(id -u)" -eq 0 ] && echo drop_caches || echo fadvise)"
same "after cold the table is out of the page cache" "$(resident "$f")" 0
same "cold restarted the server (new postmaster)" "$( [ "$pid0" != "$(head -1 "$D/postmaster.pid")" ] && echo yes)" yes
same "the data survives the cold cycle" "$(q 'select count(*) from test')" 100001

q "alter system set io_method = 'sync'" >/dev/null
says "restart with io_method = sync" "^running: pid" "$EB" server restart --datadir "$D"
same "status reports the new io_method" "$(st "$D" .server.io_method)" sync
q 'alter system reset io_method' >/dev/null
if [ -x /usr/lib/postgresql/15/bin/postgres ]; then
	fails 2 "is PostgreSQL 18; give --pg 18" "15's binaries on the 18 cluster are refused" "$EB" server start --datadir "$D" --pg 15
else
	skip "15's binaries on the 18 cluster are refused" "no PostgreSQL 15 in /usr/lib/postgresql/15"
fi
says "stop" "^stopped (pid" "$EB" server stop --datadir "$D"
same "status says stopped" "$(st "$D" .running)" false

D2=$T/pg18-nosum
says "init an 18 cluster with --checksums off" "data checksums off" "$EB" server init --datadir "$D2" --pg 18 --checksums off --port 54419
cleanup_dirs="$cleanup_dirs $D2"
same "data checksums recorded as off" "$(jq -r .data_checksums "$D2/eicbench.json")" false
says "start it" "^running: pid" "$EB" server start --datadir "$D2"
same "the server says off too" "$(st "$D2" '[.data_checksums, .server.data_checksums] | map(tostring) | join(" ")')" "false false"
says "stop it" "^stopped (pid" "$EB" server stop --datadir "$D2"
