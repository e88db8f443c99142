# The probe command: the file form on a small file, the relation form on a
# real throwaway cluster, the readstream engine, --steady and the knee, the
# cache check on a file, a relation, the data set and a file system without
# O_DIRECT, bad input. Points run --no-cold, or --direct (which evicts the
# files rather than drop the whole page cache, even as root).
. tests/it/lib.sh
plan 91
D=$T/pg
P=54399
F=$T/f.bin
head -c 2097152 /dev/urandom >"$F"        # 256 blocks of 8 KiB
jqf() { jq -r "$1" "$2"; }

# ---- the file form ----
says "file form: three engines at depths 1 and 4" "^io_uring  *4 " \
	"$EB" probe --file "$F" --engine psync,fadvise,io_uring --depth 1,4 --count 200 --no-cold --out "$T/fa"
same "one point per engine and depth (psync once: it has no depth)" "$(wc -l <"$T/fa/points.jsonl")" 5
same "engines and depths as asked" "$(jq -r '"\(.engine):\(.depth)"' "$T/fa/points.jsonl" | tr '\n' ' ')" \
	"psync:1 fadvise:1 io_uring:1 fadvise:4 io_uring:4 "
same "every point read 200 blocks of 8 KiB with sane figures" \
	"$(jq -s 'all(.ios == 200 and .bytes == 200 * 8192 and .iops > 0 and .elapsed_s > 0 and .lat_ns.p50 > 0 and .lat_ns.max >= .lat_ns.p50 and .stopped == false)' "$T/fa/points.jsonl")" true
same "meta.json knows the file's size" "$(jqf .file_blocks "$T/fa/meta.json")" 256
"$EB" probe --file "$F" --engine psync,io_uring --depth 2 --count 50 --no-cold --json --out "$T/fj" >"$T/fj.out" 2>"$T/fj.err"
same "--json: one JSON line per point on stdout" "$(jq -s 'length' "$T/fj.out")" 2
same "--json: the table goes to stderr" "$(grep -c '^io_uring ' "$T/fj.err")" 1
says "file form, cold (evicting the file) with --direct" "^io_uring  *4 " \
	"$EB" probe --file "$F" --engine io_uring --depth 4 --count 100 --direct --out "$T/fd"
same "the point was made cold by eviction" "$(jqf .cold "$T/fd/points.jsonl")" evict
printf '0\n2\n4\n250\n' >"$T/list"
says "file form: replay of a list, one pass" "^psync " "$EB" probe --file "$F" --pattern "replay:$T/list" --engine psync --no-cold --out "$T/fr"
same "one pass reads each listed block once" "$(jqf .ios "$T/fr/points.jsonl")" 4

# readstream: 200 blocks from 0 up in reads of at most 16, so 13 reads (12 of 16, one of 8)
says "file form: readstream, sequential, --combine 16" "^readstream  *4 " \
	"$EB" probe --file "$F" --pattern seq --engine readstream --depth 1,4 --combine 16 --count 200 --no-cold --out "$T/fs"
same "readstream: 13 reads covering the 200 blocks at each depth" \
	"$(jq -r '"\(.ios)/\(.blocks)/\(.bytes)/\(.combine)"' "$T/fs/points.jsonl" | tr '\n' ' ')" "13/200/1638400/16 13/200/1638400/16 "
printf '0\n1\n2\n3\n10\n11\n200\n' >"$T/runs"
says "file form: readstream replaying a list with runs" "^readstream  *2 " \
	"$EB" probe --file "$F" --pattern "replay:$T/runs" --engine readstream --depth 2 --combine 4 --direct --out "$T/fq"
same "three reads: 0-3, 10-11, 200" "$(jq -r '"\(.ios) \(.blocks)"' "$T/fq/points.jsonl")" "3 7"
same "reads in flight never above the depth" \
	"$(jq -s 'all(.inflight > 0 and .inflight <= .depth + 1e-9)' "$T/fa/points.jsonl" "$T/fs/points.jsonl")" true
same "curve.json: a knee for each engine run at two depths or more" \
	"$(jq -r '[.engines[] | "\(.engine):\(.depths | length)"] | join(" ")' "$T/fa/curve.json")" "fadvise:2 io_uring:2"
# A knee only where a deeper point shows the plateau; else none, and the
# 90% point is the deepest, so the peak is there too.
same "the knee reaches 90% of the peak and no shallower depth does; none without a deeper point" \
	"$(jq '.engines | all(. as $e | if $e.plateau then ($e.knee_iops >= 0.9 * $e.peak_iops) and ([range($e.depths | length)] | all($e.depths[.] >= $e.knee_depth or $e.iops[.] < 0.9 * $e.peak_iops)) and ([$e.depths[] | select(. > $e.knee_depth)] | length > 0) else ($e.knee_depth == null and $e.knee_iops == null and $e.peak_depth == ($e.depths | max)) end)' "$T/fa/curve.json")" true
"$EB" probe --file "$F" --engine psync --steady --duration 5s --no-cold --out "$T/st" >"$T/st.out" 2>&1
same "--steady: exit 0, a point of at most five one-second windows, the rule recorded" \
	"$?:$(jq -r '.steady | "\(.rule_windows) \(.rule_tolerance) \((.window_iops | length) >= 1 and (.window_iops | length) <= 5) \(.reached == ((.window_iops | length) == 5 and (.window_iops | add / length) as $m | all(.window_iops[]; (. - $m | fabs) <= 0.05 * $m)))"' "$T/st/points.jsonl")" \
	"0:5 0.05 true true"
same "--steady: the table says whether it was reached" "$(grep -cE '^psync .*\| (yes|no) after [0-9]+ s' "$T/st.out")" 1

# ---- the cache check on a file ----
"$EB" probe --file "$F" --cache-check --seed 7 --out "$T/cc" >"$T/cc.out" 2>"$T/cc.err"
same "--cache-check: exit 0, three passes of 128 reads (half the file)" \
	"$?:$(jq -r '[.passes[].reads] | map(tostring) | join(",")' "$T/cc/cachecheck.json")" "0:128,128,128"
same "--cache-check: the ratio is of the medians, inside its interval" \
	"$(jq '.ran and (.ratio - .passes.fresh.median_ns / .passes.reread.median_ns | fabs) < 1e-9 and .ci95[0] <= .ratio and .ratio <= .ci95[1]' "$T/cc/cachecheck.json")" true
same "--cache-check: the verdict follows the interval and the threshold 1.5" \
	"$(jq '.threshold == 1.5 and .cache_below == (.ci95[0] > 1.5)' "$T/cc/cachecheck.json")" true
same "--cache-check: the figures and the sentence are printed" \
	"$(grep -c '^re-read \|^fresh \|^statistic: median(fresh) / median(re-read)\|^Re-reads took a median of' "$T/cc.out")" 4
same "--cache-check: meta.json records it" "$(jq -r '"\(.options.cache_check) \(.options.seed)"' "$T/cc/meta.json")" "true 7"
"$EB" probe --file "$F" --cache-check --json --out "$T/cj" >"$T/cj.out" 2>/dev/null
same "--cache-check --json: the record on stdout" "$(jq -r '.statistic' "$T/cj.out")" "median(fresh) / median(re-read)"
fails 2 "does not apply to --cache-check" "--cache-check with --depth is refused" "$EB" probe --file "$F" --cache-check --depth 4
fails 2 "needs at least 100" "--cache-check on a file of 12 blocks is refused" \
	sh -c "head -c 98304 '$F' >'$T/tiny' && '$EB' probe --file '$T/tiny' --cache-check --out '$T/ct'"
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	# ramfs has no O_DIRECT; a private mount namespace keeps the mount to this test
	unshare -m sh -c "mkdir -p '$T/ram' && mount -t ramfs ramfs '$T/ram' && head -c 2097152 '$F' >'$T/ram/f' &&
		'$EB' probe --file '$T/ram/f' --cache-check --out '$T/cr'" >"$T/cr.out" 2>&1
	same "--cache-check on ramfs: exit 2, said, recorded as skipped" \
		"$?:$(grep -c 'refuses O_DIRECT (a ramfs file system).*skipped' "$T/cr.out"):$(jq -r '"\(.ran) \(.reason)"' "$T/cr/cachecheck.json")" \
		"2:1:false no_direct"
else
	skip "--cache-check on ramfs: exit 2, said, recorded as skipped" "mounting a ramfs needs root and unshare"
fi

fails 2 "No such file" "a missing file is refused" "$EB" probe --file "$T/none" --count 10
fails 2 "is a directory" "a directory is refused" "$EB" probe --file "$T" --count 10
: >"$T/empty"
fails 2 "is empty or shorter than one block" "an empty file is refused" "$EB" probe --file "$T/empty" --count 10
fails 2 "'0' is not allowed" "--depth 0 is refused" "$EB" probe --file "$F" --depth 0
fails 2 "not a multiple of 512" "--bs 1000 with --direct is refused" "$EB" probe --file "$F" --bs 1000 --direct
fails 2 "--engine fadvise with --direct: .*O_DIRECT reads bypass" "fadvise with --direct is refused (it would read each block twice)" \
	"$EB" probe --file "$F" --engine psync,fadvise --direct --depth 4 --count 10 --out "$T/fadv-direct"
absent "and nothing was written" "$T/fadv-direct"
ok "--direct alone" "$EB" probe --file "$F" --direct --depth 4 --count 20 --no-cold --out "$T/direct-default"
same "runs psync and io_uring, not fadvise" "$(jq -r .engine "$T/direct-default/points.jsonl" | sort -u | tr '\n' ' ')" "io_uring psync "
fails 2 "'foo' is not an engine" "an unknown engine is refused" "$EB" probe --file "$F" --engine psync,foo
fails 2 "applies to the readstream engine only" "--combine without readstream is refused" \
	"$EB" probe --file "$F" --engine io_uring --combine 8
fails 2 "from 1 to 128" "--combine 200 is refused" "$EB" probe --file "$F" --engine readstream --combine 200
fails 2 "more than the 256 MiB of buffers" "readstream buffers past 256 MiB are refused" \
	"$EB" probe --file "$F" --engine readstream --depth 4096 --combine 16
fails 2 "with --steady is outside 5..600" "--steady with --duration 2s is refused" \
	"$EB" probe --file "$F" --steady --duration 2s
fails 2 "--count excludes --steady" "--steady with --count is refused" "$EB" probe --file "$F" --steady --count 5
printf '1\nx\n' >"$T/bad1"
fails 2 'line 2: "x" is not a block number' "a replay list with a non-number is refused" \
	"$EB" probe --file "$F" --pattern "replay:$T/bad1" --no-cold --out "$T/b1"
printf '1\n256\n' >"$T/bad2"
fails 2 "block 256 is past the end (blocks 0..255)" "a replay list past the end is refused" \
	"$EB" probe --file "$F" --pattern "replay:$T/bad2" --no-cold --out "$T/b2"
fails 2 "give --file PATH .* or --relation NAME" "neither form is refused" "$EB" probe --count 10

# ---- the relation form ----
cluster pg $P
q() { sql "$D" $P "$1"; }
says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
sparse=$(q "SELECT count(DISTINCT (ctid::text::point)[0]) FROM test WHERE minor = 800")

says "relation form: sparse, three engines at depths 1 and 8, one pass" "^io_uring  *8 " \
	"$EB" probe --datadir "$D" --relation test --query sparse --engine psync,fadvise,io_uring --depth 1,8 --no-cold --out "$T/ra"
same "meta.json names the relation" "$(jqf .relation.name "$T/ra/meta.json")" test
same "the block count is the query's distinct heap pages" "$(jqf .relation.blocks "$T/ra/meta.json")" "$sparse"
same "the relation size in blocks" "$(jqf .relation.relation_blocks "$T/ra/meta.json")" "$(q "SELECT pg_relation_size('test') / 8192")"
same "the fraction of the heap visited" "$(jq '.relation | .fraction_visited * .relation_blocks | round' "$T/ra/meta.json")" "$sparse"
same "the query's name and text" "$(jq -r '.relation.query | .name + ": " + (.text | split("\n") | map(select(startswith("SELECT"))) | .[0])' "$T/ra/meta.json")" \
	"sparse: SELECT * FROM test WHERE minor = 800"
same "the server version" "$(jqf .server.version "$T/ra/meta.json")" "$(q 'SHOW server_version')"
same "the files are the relation's segments" "$(jqf '.options.files[0]' "$T/ra/meta.json")" "$D/$(q "SELECT pg_relation_filepath('test')")"
same "one point per engine and depth" "$(wc -l <"$T/ra/points.jsonl")" 5
same "each point replays every block once" "$(jq -s --argjson n "$sparse" 'all(.ios == $n and .iops > 0 and .pattern == "relation:test:sparse")' "$T/ra/points.jsonl")" true

says "relation form, cold (evicting the segments) with --direct and --count" "^io_uring  *4 " \
	"$EB" probe --datadir "$D" --relation test --query sparse --engine io_uring --depth 4 --count 1000 --direct --out "$T/rd"
same "--count wraps the replay; the point was made cold" "$(jq -r '"\(.ios) \(.cold)"' "$T/rd/points.jsonl")" "1000 evict"

printf -- '-- the first 1000 rows\nselect *\n  from TEST\n where major < 1000;\n' >"$T/q_ok.sql"
says "relation form: the relation's own blocks at random, O_DIRECT, steady" "^io_uring  *4 " \
	"$EB" probe --datadir "$D" --relation test --pattern random --seed 3 --engine io_uring --depth 1,4 --direct --duration 3s --out "$T/rr"
same "random over every heap block of the relation" "$(jq -s 'all(.pattern == "relation:test:random" and .direct and .ios > 0)' "$T/rr/points.jsonl")" true
same "no query with a pattern" "$(jq -r '.relation | (.name + "," + (.query | type))' "$T/rr/meta.json")" "test,null"
fails 2 "not both" "--pattern with --query is refused" "$EB" probe --datadir "$D" --relation test --query sparse --pattern random --count 10
fails 2 "not both" "--pattern replay: with --relation is refused" "$EB" probe --datadir "$D" --relation test --pattern replay:/dev/null --count 10
fails 2 "belongs to --pattern random" "--seed without --pattern random" "$EB" probe --datadir "$D" --relation test --seed 3 --count 10

says "relation form: a query file" "^psync " \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_ok.sql" --engine psync --no-cold --out "$T/rq"
same "the file query's blocks (226 rows a page)" "$(jqf .relation.blocks "$T/rq/meta.json")" 5
same "the file query is recorded by path" "$(jqf .relation.query.name "$T/rq/meta.json")" "$T/q_ok.sql"
says "relation form with --dsn" "^io_uring  *2 " \
	"$EB" probe --dsn "host=$D port=$P user=postgres dbname=eicbench" --relation test --query sparse --engine io_uring --depth 2 --no-cold --out "$T/rx"
same "--dsn: an external server, its data_directory asked" "$(jq -r '"\(.server.managed) \(.relation.blocks)"' "$T/rx/meta.json")" "false $sparse"

# ---- the cache check on a relation and on the data set ----
heap=$(q "SELECT pg_relation_size('test') / 8192")
"$EB" probe --datadir "$D" --relation test --cache-check --out "$T/rc" >"$T/rc.out" 2>&1
same "relation form --cache-check: exit 0 over the heap's segments, half the heap per pass" \
	"$?:$(jq -r '"\(.file_blocks) \(.sample)"' "$T/rc/cachecheck.json")" "0:$heap $((heap / 2))"
same "relation form --cache-check: meta.json names the relation" "$(jq -r '.relation.name' "$T/rc/meta.json")" test
idx=$(q "SELECT (sum(pg_relation_size(indexrelid)) / 8192)::bigint FROM pg_index WHERE indrelid = 'test'::regclass")
"$EB" probe --datadir "$D" --cache-check --out "$T/rs" >"$T/rs.out" 2>&1
same "data set --cache-check: the table and its indexes (the classes' too), every block" \
	"$?:$(jq -r '"\(.relations | sort | join(",")) \(.file_blocks)"' "$T/rs/cachecheck.json")" \
	"0:minor_idx,test,test_pkey,test_runs128_idx,test_runs16_idx,test_scattered_idx $((heap + idx))"
same "data set --cache-check: the sentence is printed" "$(grep -c '^Re-reads took a median of' "$T/rs.out")" 1
fails 2 "does not apply to --cache-check, .* over the whole relation" "--cache-check with --query is refused" \
	"$EB" probe --datadir "$D" --relation test --query sparse --cache-check
fails 2 "does not apply to the data set's files" "data set --cache-check with --bs is refused" \
	"$EB" probe --datadir "$D" --cache-check --bs 4k
cluster pg2 $((P + 1))
sql "$T/pg2" $((P + 1)) "SELECT 1" >/dev/null 2>&1 ||
	psql -X -q -h "$T/pg2" -p $((P + 1)) -U postgres -d postgres -c "CREATE DATABASE eicbench"
fails 2 "there is no table test: load the data set first" "data set --cache-check without a data set is refused" \
	"$EB" probe --datadir "$T/pg2" --cache-check --out "$T/rn"
same "data set --cache-check without a data set: recorded as skipped" "$(jq -r '"\(.ran) \(.reason)"' "$T/rn/cachecheck.json")" "false bad_input"

fails 2 "--relation nosuch: no such relation" "an unknown relation is refused" \
	"$EB" probe --datadir "$D" --relation nosuch --query sparse --no-cold
fails 2 "is not a table" "an index is refused" "$EB" probe --datadir "$D" --relation test_pkey --query sparse --no-cold
echo 'SELECT major FROM test WHERE minor = 800' >"$T/q_cols.sql"
fails 2 "does not start with SELECT \* FROM" "a query file of another shape is refused" \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_cols.sql" --no-cold
echo 'SELECT * FROM pg_class' >"$T/q_other.sql"
fails 2 "reads FROM pg_class, but --relation is test" "a query file on another relation is refused" \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_other.sql" --no-cold
echo 'SELECT * FROM test WHERE nocol = 1' >"$T/q_err.sql"
fails 2 'column "nocol" does not exist' "a query the server refuses is bad input" \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_err.sql" --no-cold
echo 'SELECT * FROM test WHERE minor = 5000' >"$T/q_none.sql"
fails 2 "no heap blocks to replay" "a query with no rows is refused" \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_none.sql" --no-cold
fails 2 "not a preset (scattered-0.1, scattered-1, scattered-5, sparse, runs-16, runs-128, blog, parallel, seq)" "an unknown query is refused" "$EB" probe --datadir "$D" --relation test --query dense
fails 2 "excludes --relation" "--file with --datadir is refused" "$EB" probe --file "$F" --datadir "$D" --relation test
fails 2 "--relation is required" "--datadir without --relation is refused" "$EB" probe --datadir "$D" --query sparse
fails 2 "give random, seq or replay:FILE" "an unknown pattern in the relation form is refused" \
	"$EB" probe --datadir "$D" --relation test --pattern zigzag
fails 2 "is not the server's block_size 8192" "another --bs in the relation form is refused" \
	"$EB" probe --datadir "$D" --relation test --query sparse --bs 4k --no-cold
fails 2 "is not a PostgreSQL cluster" "a missing cluster is refused" "$EB" probe --datadir "$T/none" --relation test
