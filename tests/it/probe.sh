# The probe command: the file form on a small file, the relation form on a
# real throwaway cluster, bad input. Points run --no-cold, or --direct (which
# evicts the files rather than drop the whole page cache, even as root).
. tests/it/lib.sh
D=$T/pg
P=54399
F=$T/f.bin
head -c 2097152 /dev/urandom >"$F"        # 256 blocks of 8 KiB
jqf() { jq -r "$1" "$2"; }

# ---- the file form ----
ok "file form: three engines at depths 1 and 4" \
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
ok "file form, cold (evicting the file) with --direct" \
	"$EB" probe --file "$F" --engine io_uring --depth 4 --count 100 --direct --out "$T/fd"
same "the point was made cold by eviction" "$(jqf .cold "$T/fd/points.jsonl")" evict
printf '0\n2\n4\n250\n' >"$T/list"
ok "file form: replay of a list, one pass" "$EB" probe --file "$F" --pattern "replay:$T/list" --engine psync --no-cold --out "$T/fr"
same "one pass reads each listed block once" "$(jqf .ios "$T/fr/points.jsonl")" 4

fails 2 "No such file" "a missing file is refused" "$EB" probe --file "$T/none" --count 10
fails 2 "is a directory" "a directory is refused" "$EB" probe --file "$T" --count 10
: >"$T/empty"
fails 2 "is empty or shorter than one block" "an empty file is refused" "$EB" probe --file "$T/empty" --count 10
fails 2 "'0' is not allowed" "--depth 0 is refused" "$EB" probe --file "$F" --depth 0
fails 2 "not a multiple of 512" "--bs 1000 with --direct is refused" "$EB" probe --file "$F" --bs 1000 --direct
fails 2 "'foo' is not an engine" "an unknown engine is refused" "$EB" probe --file "$F" --engine psync,foo
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
"$EB" load --datadir "$D" --rows 300000 >/dev/null 2>&1
sparse=$(q "SELECT count(DISTINCT (ctid::text::point)[0]) FROM test WHERE minor = 800")

ok "relation form: sparse, three engines at depths 1 and 8, one pass" \
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

ok "relation form, cold (evicting the segments) with --direct and --count" \
	"$EB" probe --datadir "$D" --relation test --query sparse --engine io_uring --depth 4 --count 1000 --direct --out "$T/rd"
same "--count wraps the replay; the point was made cold" "$(jq -r '"\(.ios) \(.cold)"' "$T/rd/points.jsonl")" "1000 evict"

printf -- '-- the first 1000 rows\nselect *\n  from TEST\n where major < 1000;\n' >"$T/q_ok.sql"
ok "relation form: a query file" \
	"$EB" probe --datadir "$D" --relation test --query "$T/q_ok.sql" --engine psync --no-cold --out "$T/rq"
same "the file query's blocks (226 rows a page)" "$(jqf .relation.blocks "$T/rq/meta.json")" 5
same "the file query is recorded by path" "$(jqf .relation.query.name "$T/rq/meta.json")" "$T/q_ok.sql"
ok "relation form with --dsn" \
	"$EB" probe --dsn "host=$D port=$P user=postgres dbname=eicbench" --relation test --query sparse --engine io_uring --depth 2 --no-cold --out "$T/rx"
same "--dsn: an external server, its data_directory asked" "$(jq -r '"\(.server.managed) \(.relation.blocks)"' "$T/rx/meta.json")" "false $sparse"

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
fails 2 "not a preset (blog, sparse)" "an unknown query is refused" "$EB" probe --datadir "$D" --relation test --query dense
fails 2 "excludes --relation" "--file with --datadir is refused" "$EB" probe --file "$F" --datadir "$D" --relation test
fails 2 "--relation is required" "--datadir without --relation is refused" "$EB" probe --datadir "$D" --query sparse
fails 2 "--pattern belongs to the file form" "--pattern in the relation form is refused" \
	"$EB" probe --datadir "$D" --relation test --pattern seq
fails 2 "is not the server's block_size 8192" "another --bs in the relation form is refused" \
	"$EB" probe --datadir "$D" --relation test --query sparse --bs 4k --no-cold
fails 2 "is not a PostgreSQL cluster" "a missing cluster is refused" "$EB" probe --datadir "$T/none" --relation test
