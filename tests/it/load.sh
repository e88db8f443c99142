# The data set: both recipes on a real cluster, reuse, reproducibility, bad input.
. tests/it/lib.sh
plan 40
D=$T/pg
P=54393
N=300000
cluster pg $P
q() { sql "$D" $P "$1"; }

fails 2 "'0' is not allowed" "--rows 0 is refused" "$EB" load --datadir "$D" --rows 0
fails 2 "'-5' is not allowed" "negative --rows is refused" "$EB" load --datadir "$D" --rows -5
fails 2 "'many' is not allowed" "non-numeric --rows is refused" "$EB" load --datadir "$D" --rows many
fails 2 "give fast or blog" "an unknown recipe is refused" "$EB" load --datadir "$D" --recipe quick
fails 2 "is not a PostgreSQL cluster" "a missing cluster is refused" "$EB" load --datadir "$T/none" --rows 10
need=235	# GiB the estimate asks for 2e9 rows (table, two indexes, sort space)
avail=$(df -P -k "$T" | awk 'NR==2 { print int($4 / 1024 / 1024) }')
if [ "$avail" -lt "$need" ]; then
	fails 2 "needs about .* GiB free" "not enough free space is refused before loading" "$EB" load --datadir "$D" --rows 2000000000
else
	skip "not enough free space is refused before loading" "$avail GiB free here, enough for the largest load (2e9 rows, about $need GiB)"
fi

says "fast load of $N rows" "^data set: test, major 0..$N ($((N + 1)) rows), seed 7, recipe fast$" "$EB" load --datadir "$D" --rows $N --seed 7
same "row count" "$(q 'select count(*) from test')" $((N + 1))
same "major runs 0..N in physical order" "$(q "select min(major) = 0 and max(major) = $N and bool_and(ctid = ('(' || major / 226 || ',' || major % 226 + 1 || ')')::tid) from test")" t
same "minor stays in 0..1000" "$(q 'select min(minor) = 0 and max(minor) = 1000 from test')" t
same "minor is uniform (mean near 500)" "$(q 'select abs(avg(minor) - 500) < 3 from test')" t
same "minor 0 and 1000 are half as likely as the rest" "$(q 'select count(*) filter (where minor = 0) between 80 and 220 and count(*) filter (where minor = 1000) between 80 and 220 and count(*) filter (where minor = 500) between 200 and 400 from test')" t
same "primary key like the post's" "$(q "select pg_get_constraintdef(oid) from pg_constraint where conname = 'test_pkey'")" "PRIMARY KEY (major)"
same "minor_idx like the post's" "$(q "select indexdef from pg_indexes where indexname = 'minor_idx'")" "CREATE INDEX minor_idx ON public.test USING btree (major, minor)"
same "major is NOT NULL, minor nullable" "$(q "select string_agg(attname || ':' || attnotnull, ',' order by attnum) from pg_attribute where attrelid = 'test'::regclass and attnum > 0")" "major:true,minor:false"
q 'create extension if not exists pg_visibility' >/dev/null
same "every page is frozen (VACUUM FREEZE)" "$(q "select count(*) from pg_visibility_map('test') where not all_frozen")" 0
same "statistics are there (ANALYZE)" "$(q "select count(*) from pg_stats where tablename = 'test'")" 2
same "durability settings restored after the load" "$(q "select current_setting('wal_level') || ',' || current_setting('fsync') || ',' || current_setting('full_page_writes') || ',' || current_setting('autovacuum')")" "replica,on,on,on"
sum7=$(q "select md5(string_agg(minor::text, ',' order by major)) from test")
same "load info is recorded" "$(q 'select rows from eicbench_dataset')" $N
heap=$(q "select pg_relation_size('test')")

files=$(q "select pg_relation_filenode('test')")
says "the same data set is reused, not reloaded" "seed 7, recipe fast (already loaded; reused)$" "$EB" load --datadir "$D" --rows $N --seed 7
same "and its files are the same" "$(q "select pg_relation_filenode('test')")" "$files"
says "forced reload" "seed 7, recipe fast$" "$EB" load --datadir "$D" --rows $N --seed 7 --force
same "the same seed gives the same table" "$(q "select md5(string_agg(minor::text, ',' order by major)) from test")" "$sum7"
says "another seed" "seed 8, recipe fast$" "$EB" load --datadir "$D" --rows $N --seed 8
sum8=$(q "select md5(string_agg(minor::text, ',' order by major)) from test")
same "another seed gives another table" "$( [ -n "$sum8" ] && [ "$sum8" != "$sum7" ] && echo differs)" differs

says "blog recipe load" "recipe blog$" "$EB" load --datadir "$D" --rows $N --recipe blog
same "blog: row count" "$(q 'select count(*) from test')" $((N + 1))
same "blog: minor in 0..1000, mean near 500" "$(q 'select min(minor) >= 0 and max(minor) <= 1000 and abs(avg(minor) - 500) < 3 from test')" t
same "blog: table size equals the fast recipe's" "$(q "select pg_relation_size('test')")" "$heap"
same "blog: every page is frozen" "$(q "select count(*) from pg_visibility_map('test') where not all_frozen")" 0
same "blog: recorded as blog" "$(q 'select recipe from eicbench_dataset')" blog

# A --dsn database with a table test that eicbench did not load: left alone.
q 'create database other' >/dev/null
psql -X -q -h "$D" -p $P -U postgres -d other -c 'create table test (x int); insert into test values (42)'
fails 2 "will not drop it" "a foreign table test is refused" "$EB" load --dsn "host=$D port=$P user=postgres dbname=other" --rows 1000
same "the foreign table is untouched" "$(psql -X -At -h "$D" -p $P -U postgres -d other -c 'select x from test')" 42

# Interrupted load: the data set in use stays as it was, nothing half-made.
data=$(dataset_of "$D" $P)
"$EB" load --datadir "$D" --rows 30000000 --seed 9 >/dev/null 2>"$T/int.err" &
lp=$!
sleep 2
kill -INT $lp
t0=$(date +%s)
wait $lp
rc=$?
same "an interrupted load exits 130 (128 + SIGINT)" "$rc" 130
same "and stops within seconds" "$( [ $(( $(date +%s) - t0 )) -le 5 ] && echo yes)" yes
ok "it says the data set in use is as it was" grep -q "the data set in use is as it was" "$T/int.err"
same "the data set in use is the one before (rows, record, files)" "$(dataset_of "$D" $P)" "$data"
same "no staging schema left" "$(q "select count(*) from pg_namespace where nspname = 'eicbench_new'")" 0
same "settings restored after an interrupted load" "$(q "select current_setting('wal_level') || ',' || current_setting('fsync')")" "replica,on"

# The index step's progress: both indexes are built at once, and the one
# that finishes first leaves the server's view; what is shown never goes
# back (test_dataset has the case) and ends at 100% once both are built.
"$EB" load --datadir "$D" --rows 10000000 --seed 9 >/dev/null 2>"$T/idx.err"
sed -n 's/^index: \([0-9]*\)%.*/\1/p' "$T/idx.err" >"$T/idx.pct"
if [ "$(wc -l <"$T/idx.pct")" -ge 4 ]; then
	same "the index progress never goes back, and ends at 100%" \
		"$(awk 'NR > 1 && $1 < p { print "back from " p " to " $1; bad = 1; exit } { p = $1 } END { if (!bad) print (p == 100 ? "onward to 100" : "ended at " p) }' "$T/idx.pct")" "onward to 100"
else
	skip "the index progress never goes back, and ends at 100%" "the indexes were built in under 3 s: $(wc -l <"$T/idx.pct") progress lines"
fi
