# The TPC-B driver on a real cluster: init and its -I steps and shapes,
# pgbench's connection conventions, custom scripts in every protocol, every
# builtin in every protocol with and without a pipeline, after each run its
# exit status, the history count and what the builtin promises of the
# balances (tpcb-like: the TPC-B invariant; simple-update: accounts move as
# history does, branches and tellers not; select-only: nothing moves),
# retries under serializable isolation, logs, bad input, and a server
# stopped in the middle of a run.
. tests/it/lib.sh
plan 160
D=$T/pg
P=54396
cluster pg $P
q() { sql "$D" $P "$1"; }
qo() { psql -X -At -h "$D" -p $P -U postgres -d "$1" -c "$2"; }
# Runs without --out write results/<UTC>-tpcb in the working directory:
# theirs, not the checkout's.
run() { (cd "$T" && "$EB" tpcb run --datadir "$D" "$@"); }
unset PGHOST PGPORT PGUSER PGDATABASE PGAPPNAME PGBENCH_RANDOM_SEED
j() { jq -r "$1" "$T/out.json"; }
tpcb_folders() { ls -d results/*-tpcb 2>/dev/null | wc -l; }
before=$(tpcb_folders)
# balances [DB]: the sums of branches, tellers, accounts and history's
# deltas, and history's rows
balances() { qo "${1:-eicbench}" 'select (select sum(bbalance) from pgbench_branches) || $$ $$ || (select sum(tbalance) from pgbench_tellers) || $$ $$ || (select sum(abalance) from pgbench_accounts) || $$ $$ || (select coalesce(sum(delta), 0) from pgbench_history) || $$ $$ || (select count(*) from pgbench_history)'; }
# invariant [DB]: the TPC-B invariant, as "holds" when the four sums agree
invariant() { balances "$1" | awk '$1 == $2 && $2 == $3 && $3 == $4 { print "holds"; next } { print "broken: " $0 }'; }

# ---- init ----------------------------------------------------------------
says_err "init at scale 1" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1
same "1 branch, 10 tellers, 100000 accounts, no history" \
	"$(q 'select (select count(*) from pgbench_branches) || $$ $$ || (select count(*) from pgbench_tellers) || $$ $$ || (select count(*) from pgbench_accounts) || $$ $$ || (select count(*) from pgbench_history)')" \
	"1 10 100000 0"
same "ids and branches as pgbench lays them out" \
	"$(q 'select min(aid) = 1 and max(aid) = 100000 and bool_and(bid = 1) and sum(abalance) = 0 and bool_and(filler = $$$$) from pgbench_accounts')" t
same "tellers belong to their branch" "$(q 'select bool_and(bid = (tid - 1) / 10 + 1) and count(*) = 10 from pgbench_tellers')" t
same "primary keys on bid, tid, aid" \
	"$(q "select string_agg(pg_get_constraintdef(oid), ',' order by conname) from pg_constraint where conname like 'pgbench_%_pkey'")" \
	"PRIMARY KEY (aid),PRIMARY KEY (bid),PRIMARY KEY (tid)"
same "aid is int below scale 20000, fillfactor 100" \
	"$(q "select format_type(atttypid, atttypmod) from pg_attribute where attrelid = 'pgbench_accounts'::regclass and attname = 'aid'"),$(q "select reloptions::text from pg_class where relname = 'pgbench_accounts'")" \
	"integer,{fillfactor=100}"
q 'create extension if not exists pg_visibility' >/dev/null
same "accounts are frozen (COPY FREEZE)" "$(q "select count(*) from pg_visibility_map('pgbench_accounts') where not all_frozen")" 0
same "statistics are there (VACUUM ANALYZE)" "$(q "select count(*) > 0 from pg_stats where tablename = 'pgbench_accounts'")" t
says_err "init again over its own tables" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1 -F 90 --foreign-keys
same "fillfactor and foreign keys" \
	"$(q "select reloptions::text from pg_class where relname = 'pgbench_tellers'") $(q "select count(*) from pg_constraint where contype = 'f' and conname like 'pgbench_%'")" \
	"{fillfactor=90} 5"
says_err "init back to plain tables" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1

# Tables eicbench did not make are left alone.
q 'create database other' >/dev/null
qo other 'create table pgbench_branches (bid int, bbalance int, filler char(88)); insert into pgbench_branches values (42, 0)' >/dev/null
fails 2 "will not drop them" "init refuses pgbench tables it did not make" \
	"$EB" tpcb init --dsn "host=$D port=$P user=postgres dbname=other"
same "the foreign table is untouched" "$(qo other 'select bid from pgbench_branches')" 42
fails 2 "has no pgbench_accounts, pgbench_tellers, pgbench_history" "run refuses missing tables" \
	"$EB" tpcb run --dsn "host=$D port=$P user=postgres dbname=other" -t 1

# ---- bad input and pgbench's rules on a server ---------------------------------
# (the option cases pgbench's own tests check are in pgbench_compat.sh)
fails 2 "'0' is not allowed" "-c 0 is refused" run -c 0
out=$(run -c 2 -j 3 -t 1 -n 2>&1)
same "-j above -c counts as -c, as pgbench" "$(echo "$out" | grep -c '^number of threads: 2$')" 1
fails 2 "specify either a number of transactions (-t) or a duration (-T), not both" "-T with -t is refused" run -T 5 -t 10
fails 2 "--pipeline needs -M extended or -M prepared" "--pipeline with -M simple is refused" run --pipeline 4 -t 1
out=$(run -s 5 -t 1 -n 2>&1)
same "-s other than the tables': pgbench's warning, the tables' scale" \
	"$(echo "$out" | grep -c -e 'warning: scale option ignored, using count from pgbench_branches table (1)' -e '^scaling factor: 1$')" 2
fails 2 "no builtin script found for name \"tpcc\"" "an unknown builtin is refused" run -b tpcc -t 1
out=$(run -S -N -t 2 -n 2>&1)
same "-S with -N: two scripts, as pgbench" "$(echo "$out" | grep -c -e '^transaction type: multiple scripts$' -e '^SQL script 2: <builtin: simple update>$')" 2
fails 2 "-R '0' is not allowed" "a zero rate is refused" run -R 0 -t 1
fails 2 "-L '-1' is not allowed" "a negative latency limit is refused" run -L -1 -t 1
fails 2 "invalid query mode (-M) 'fast'" "an unknown protocol is refused" run -M fast -t 1
fails 2 "log aggregation (--aggregate-interval) is allowed only when logging transactions (-l)" \
	"--aggregate-interval without -l is refused" run --aggregate-interval 1 -t 1
fails 2 "unknown option '-X'" "an unknown short option is refused" run -X
fails 2 "-q/--quiet is an option of eicbench tpcb init" "an init option in a run is refused" run -q -t 1
fails 2 "-c/--client is an option of eicbench tpcb run" "a run option in an init is refused" "$EB" tpcb init --datadir "$D" -c 2

# ---- the server, as pgbench finds it ---------------------------------------------
ok "-h -p -U -d name the server" "$EB" tpcb run -h "$D" -p $P -U postgres -d eicbench -S -t 5 -n --out "$T/hpud"
ok "... and the database may be the positional argument" "$EB" tpcb run -h "$D" -p $P -U postgres -S -t 5 -n eicbench --out "$T/hpup"
ok "... or a connection string" "$EB" tpcb run -S -t 5 -n "host=$D port=$P user=postgres dbname=eicbench" --out "$T/hpuc"
PGHOST=$D PGPORT=$P PGUSER=postgres PGDATABASE=eicbench ok "a bare run takes the PG* variables" \
	"$EB" tpcb run -S -t 5 -n --out "$T/pgbare"
PGHOST=$D PGPORT=$P PGUSER=postgres PGDATABASE=eicbench ok "so does pgbench's form: eicbench tpcb OPTIONS" \
	"$EB" tpcb -S -t 5 -n --out "$T/pgform"
PGHOST=$D PGPORT=$P PGUSER=postgres PGDATABASE=eicbench ok "--dsn '' takes the PG* variables" "$EB" tpcb run --dsn '' -t 5 --out "$T/pgenv"
fails 1 "cannot connect" "-h is the host, not help" "$EB" tpcb run -h "$T/nowhere" -p $P -t 1 --out "$T/nohost"
fails 2 "--datadir names the server, and -h or -U another" "--datadir with -h is refused" run -h "$D" -t 1
same "--help and -? print the help" "$("$EB" tpcb run --help | grep -c 'PGHOST')$("$EB" tpcb -? | grep -c 'PGHOST')" 22
q 'create table apps (name text)' >/dev/null
printf "INSERT INTO apps VALUES (current_setting('application_name'));\n" >"$T/app.sql"
run -f "$T/app.sql" -t 1 -n >/dev/null 2>&1
PGAPPNAME=mine "$EB" tpcb run -h "$D" -p $P -U postgres eicbench -f "$T/app.sql" -t 1 -n --out "$T/app2" >/dev/null 2>&1
"$EB" tpcb run -f "$T/app.sql" -t 1 -n "host=$D port=$P user=postgres dbname=eicbench application_name=given" --out "$T/app3" >/dev/null 2>&1
same "eicbench is the fallback application name; PGAPPNAME and the connection string's win" \
	"$(q 'select string_agg(name, $$,$$ order by name) from apps')" "eicbench,given,mine"

# ---- custom scripts ---------------------------------------------------------------
cat >"$T/c.sql" <<'SQL'
\set aid random(1, 100000 * :scale)
SELECT abalance, aid AS got FROM pgbench_accounts WHERE aid = :aid \gset x_
\if :x_got = :aid and :client_id >= 0
SELECT :x_abalance + 0 AS ok;
\elif false
SELECT 1 / 0;
\else
SELECT 1 / 0;
\endif
\sleep 1 ms
\startpipeline
SELECT 1;
SELECT :client_id AS c;
\endpipeline
SQL
for m in simple extended prepared; do
	f="$T/c.sql"
	# the simple protocol: no pipeline, but a compound command (\\;)
	[ $m = simple ] && grep -v pipeline "$T/c.sql" | sed 's/^SELECT 1;$/SELECT 1 \\; SELECT 2;/' >"$T/c-simple.sql" &&
		f="$T/c-simple.sql"
	run -f "$f" -M $m -c 3 -j 2 -t 30 -n -r --json --out "$T/c-$m" >"$T/out.json" 2>"$T/err"
	same "a script with \\gset, \\if, \\sleep and a pipeline, -M $m: 90 of 90, none failed" \
		"$(j '"\(.transactions)/\(.expected) \(.failed) \(.aborted_clients)"')" "90/90 0 0"
	same "-M $m: -r counts each meta-command too" "$(j '[.statements[] | select(.sql | startswith("\\")) | .count > 0] | map(select(.)) | length')" \
		"$([ $m = simple ] && echo 5 || echo 7)"
done
# With -r each command is timed by a clock read after the loop's own, and a
# pipeline's last send once looked older than 120 s to the loop's check of
# waits (a client or two stopped within the first second, in most runs of
# 900 transactions).
run -f "$T/c.sql" -M extended -c 3 -j 2 -t 300 -n -r --json --out "$T/c-long" >"$T/out.json" 2>"$T/err"
same "-r with a pipeline, 900 transactions: none stopped early" \
	"$(j '"\(.transactions)/\(.expected) \(.aborted_clients)"'),$(grep -c 'stopped early' "$T/err")" "900/900 0,0"
"$EB" tpcb run --show-script tpcb-like 2>&1 | tail -n +2 >"$T/tpcb.sql"
run -f "$T/tpcb.sql" -t 20 -n -r >"$T/f.out" 2>&1
run -b tpcb -t 20 -n -r >"$T/b.out" 2>&1
# the commands' lines, without the "record: FOLDER" line after them (stdout
# is line-buffered, so it comes in the order it was printed)
commands() { grep -A20 '^statement latencies' "$1" | grep -v '^record: ' | sed 's/^ *[0-9.]* *[0-9]* *//' | md5sum; }
same "-b tpcb-like and -f of its text: the same commands" "$(commands "$T/f.out")" "$(commands "$T/b.out")"
printf '\\set x :foo * 2\n\\set y debug(:x)\n' >"$T/d.sql"
same "-D gives a variable" "$(run -f "$T/d.sql" -D foo=21 -t 1 -n 2>&1 | grep -c 'debug(script=0,command=2): int 42')" 1
printf '\\set r debug(random(1, 1000000000))\n' >"$T/r.sql"
same "--random-seed N: the same draws again" "$(run -f "$T/r.sql" -t 5 -n --random-seed 77 2>&1 | grep debug | md5sum)" \
	"$(PGBENCH_RANDOM_SEED=77 run -f "$T/r.sql" -t 5 -n 2>&1 | grep debug | md5sum)"
printf '\\set x random(0, 3)\n\\set y 10 / (:x - 1)\nSELECT :y;\n' >"$T/div.sql"
fails 1 "aborted in command 1 (set) of script 0; evaluation of meta-command failed: division by zero" \
	"division by zero aborts the client (the run goes on, exit 1)" run -f "$T/div.sql" -c 2 -t 50 -n
fails 1 "stopped (--exit-on-abort): client" "--exit-on-abort stops the whole run" run -f "$T/div.sql" -c 2 -T 5 -n --exit-on-abort
printf 'SELECT 1;\n\\set y 1 +\n' >"$T/syn.sql"
fails 2 "syn.sql:2:11: syntax error in command \"set\"" "a syntax error names the line and column" run -f "$T/syn.sql" -t 1
printf '\\set y :nowhere + 1\n' >"$T/unk.sql"
fails 2 "unk.sql:1:8: undefined variable \"nowhere\"" "an unknown variable is refused" run -f "$T/unk.sql" -t 1
fails 2 "total script weight must not be zero" "a weight of 0 on every script is refused" run -b se@0 -f "$T/r.sql@0" -t 1
fails 2 "could not open file \"$T/none.sql\"" "-f of a missing file is refused" run -f "$T/none.sql" -t 1
# \sleep out of range: a negative time does not sleep (as pgbench; it used
# to leave the client waiting for ever, so -t never ended); one past 64 bits
# of nanoseconds is refused, a constant before the run, a variable's value
# by aborting the client, naming the script and its line.
printf '\\sleep -5\n\\set t -3\n\\sleep :t ms\nSELECT 1;\n' >"$T/neg.sql"
same "a negative \\sleep, constant or variable, does not sleep: -t 3 ends at once" \
	"$(timeout 60 "$EB" tpcb run --datadir "$D" -f "$T/neg.sql" -t 3 -n --json --out "$T/neg" 2>/dev/null | jq -r '"\(.transactions) \(.run_s < 5)"')" "3 true"
printf 'SELECT 1;\n\\sleep 99999999999999999999 ms\n' >"$T/over.sql"
fails 2 "over.sql:2:8: sleep time out of range, at most 9223372036854775 us" "a \\sleep past 64 bits is refused before the run, by line" \
	timeout 60 "$EB" tpcb run --datadir "$D" -f "$T/over.sql" -t 1 -n --out "$T/over"
printf '\\set t 9223372036854775807\n\\sleep :t\n' >"$T/overv.sql"
fails 1 "(.*overv.sql line 2); sleep: sleep time \"9223372036854775807\" for variable \"t\" out of range" \
	"a variable's \\sleep past 64 bits aborts the client, naming the script's line" \
	timeout 60 "$EB" tpcb run --datadir "$D" -f "$T/overv.sql" -t 1 -n --out "$T/overv"
ok "-C: a connection per transaction" run -S -C -c 2 -t 10 -n --out "$T/conn"
same "-C reports pgbench's connection lines" "$(run -S -C -t 3 -n 2>&1 | grep -c -e '^average connection time = ' -e 'including reconnection times')" 2

# ---- init's steps and shapes --------------------------------------------------------
ok "pgbench's form: eicbench tpcb -i" "$EB" tpcb -i --datadir "$D" -s 1 -q
same "init says nothing on stdout, pgbench's lines on stderr" \
	"$("$EB" tpcb init --datadir "$D" -s 1 2>/dev/null | wc -c)$("$EB" tpcb init --datadir "$D" -s 1 2>&1 >/dev/null | grep -c -e '^dropping old tables...$' -e '^done in ')" "02"
ok "-I dtGvp: rows made by the server" "$EB" tpcb init --datadir "$D" -s 1 -I dtGvp
same "... pgbench's rows all the same" "$(q 'select count(*), sum(bid), count(distinct filler) from pgbench_accounts')" "100000|100000|1"
ok "--partitions 3 --unlogged-tables" "$EB" tpcb init --datadir "$D" -s 1 --partitions 3 --unlogged-tables
same "... accounts partitioned in 3, tables unlogged" \
	"$(q "select relkind from pg_class where relname = 'pgbench_accounts'") $(q "select count(*) from pg_inherits where inhparent = 'pgbench_accounts'::regclass") $(q "select relpersistence from pg_class where relname = 'pgbench_tellers'")" "p 3 u"
same "a run on them says so" "$(run -S -t 5 -n 2>&1 | grep -A1 '^partition method: range$' | grep -c '^partitions: 3$')" 1
ok "-I dt then -I gvp: the steps apart" "$EB" tpcb init --datadir "$D" -s 1 -I dt
same "... tables made, empty" "$(q 'select count(*) from pgbench_accounts')" 0
ok "... then filled" "$EB" tpcb init --datadir "$D" -s 1 -I gvp
same "... 100000 accounts, their key" "$(q 'select count(*) from pgbench_accounts')/$(q "select count(*) from pg_indexes where indexname = 'pgbench_accounts_pkey'")" "100000/1"
fails 2 "unrecognized initialization step \"x\"" "an unknown init step is refused" "$EB" tpcb init --datadir "$D" -I dtx
mkdir -p "$T/ts" && chown postgres "$T/ts" && q "create tablespace ts1 location '$T/ts'" >/dev/null
ok "--tablespace and --index-tablespace" "$EB" tpcb init --datadir "$D" -s 1 --tablespace ts1 --index-tablespace ts1
same "... the tables and keys there" "$(q "select count(*) from pg_tables where tablespace = 'ts1' and tablename like 'pgbench_%'")/$(q "select count(*) from pg_indexes where tablespace = 'ts1'")" "4/3"
ok "init back to plain tables before the matrix" "$EB" tpcb init --datadir "$D" -s 1
# Every input is checked before anything is dropped (a wrong tablespace
# used to fail only after the tables were gone, and a wrong index tablespace
# only after they were made again: the same table, not only its rows).
accounts=$(q "select 'pgbench_accounts'::regclass::oid")
fails 2 "--tablespace \"nots\": no such tablespace; nothing was dropped" "init --tablespace of no such tablespace is refused" \
	"$EB" tpcb init --datadir "$D" -s 1 --tablespace nots
fails 2 "--index-tablespace \"pg_global\": pg_global holds shared catalogs only" "init --index-tablespace pg_global is refused" \
	"$EB" tpcb init --datadir "$D" -s 1 --index-tablespace pg_global
same "... and the tables were not dropped: the same pgbench_accounts, every account there" \
	"$(q "select 'pgbench_accounts'::regclass::oid || ' ' || count(*) from pgbench_accounts")" "$accounts 100000"

# ---- every builtin, protocol and pipeline -----------------------------------
# -n keeps history across runs, so it must hold every committed transaction.
total=0
# promise BUILTIN WAS: what BUILTIN keeps of the balances, WAS those before
# its run
promise() {
	case $1 in
	tpcb-like) invariant ;;
	simple-update) balances | awk -v was="$2" 'BEGIN { split(was, w, " ") }
		{ print ($1 == w[1] && $2 == w[2] ? "branches and tellers as before" : "branches or tellers moved: " $0) ", " ($3 - w[3] == $4 - w[4] ? "accounts moved as history" : "accounts and history apart: " $0) }' ;;
	select-only) balances | awk -v was="$2" '{ print $0 == was ? "as before" : "moved: " $0 " (was " was ")" }' ;;
	esac
}
promised() {
	case $1 in
	tpcb-like) echo holds ;;
	simple-update) echo "branches and tellers as before, accounts moved as history" ;;
	select-only) echo "as before" ;;
	esac
}
matrix() { # builtin: 5 runs of -t 200 -c 4 -j 2
	for m in simple extended prepared; do
		for pipe in "" "--pipeline 4"; do
			[ "$m" = simple ] && [ -n "$pipe" ] && continue
			was=$(balances)
			if run -b "$1" -M "$m" $pipe -c 4 -j 2 -t 200 -n --json --out "$T/r-$1-$m${pipe#--pipeline }" >"$T/out.json" 2>"$T/err"; then
				same "$1 -M $m $pipe: exit 0, 800 of 800 processed, none failed" "$(j '"\(.transactions)/\(.expected) \(.failed) \(.aborted_clients)"')" "800/800 0 0"
				[ "$1" = select-only ] || total=$((total + $(j .transactions)))
			else
				same "$1 -M $m $pipe runs" "failed: $(cat "$T/err")" "ok"
			fi
			same "$1 -M $m $pipe: history holds every committed transaction" "$(q 'select count(*) from pgbench_history')" "$total"
			same "$1 -M $m $pipe: the balances as $1 keeps them" "$(promise "$1" "$was")" "$(promised "$1")"
		done
	done
}
matrix tpcb-like
same "the invariant's sums are not all zero" "$(q 'select count(*) > 0 from pgbench_history where delta <> 0')" t
matrix simple-update
matrix select-only

# ---- output, logs, progress ------------------------------------------------
out=$(run -S -M prepared -c 2 -t 50 -r --out "$T/text" 2>&1)
same "a select-only run with -r exits 0" "$?" 0
for line in "transaction type: <builtin: select only>" "query mode: prepared" "number of transactions actually processed: 100/100" \
	"latency stddev = " "latency percentiles: p50" "tps = " "statement latencies in milliseconds and failures:" \
	"SELECT abalance FROM pgbench_accounts WHERE aid = :aid;" "starting vacuum...end." "client CPU = "; do
	same "the report has '$line'" "$(echo "$out" | grep -cF -- "$line" | sed 's/^[1-9].*/yes/')" yes
done
same "history was emptied by the pre-run vacuum" "$(q 'select count(*) from pgbench_history')" 0
same "the record folder has meta.json and one record" "$(ls "$T/text" | tr '\n' ' ')$(wc -l <"$T/text/trials.jsonl")" "meta.json trials.jsonl 1"
same "meta.json names the server and its settings" "$(jq -r '.command + " " + (.server.scale|tostring) + " " + .server.settings.fsync' "$T/text/meta.json")" "tpcb run 1 on"

says "-l per-transaction log" "number of transactions actually processed: 120/120" run -c 3 -j 2 -t 40 -l --max-tries 2 --out "$T/log"
same "one log line per transaction, over both threads' files" "$(cat "$T"/log/pgbench_log.* | wc -l)" 120
same "log lines: client_id tx_no latency_us 0 epoch_s epoch_us retries" \
	"$(cat "$T"/log/pgbench_log.* | grep -cvE '^[0-2] [0-9]+ [0-9]+ 0 1[0-9]{9} [0-9]{1,6} 0$')" 0
same "each client numbers its transactions 1..40" "$(cat "$T"/log/pgbench_log.* | awk '{ print $1, $2 }' | sort -u | wc -l)" 120

says "--aggregate-interval log with -R and -L" '"transactions"' run -c 2 -T 2 -R 200 -L 100 -l --aggregate-interval 1 --json --out "$T/agg"
jq . "$T/agg/trials.jsonl" >"$T/out.json"
same "aggregate lines have pgbench's 15 columns" "$(awk '{ print NF }' "$T"/agg/pgbench_log.* | sort -u)" 15
same "aggregate counts add up to the committed transactions" "$(awk '{ s += $2 } END { print s }' "$T"/agg/pgbench_log.*)" "$(j .transactions)"
same "-R records the schedule lag" "$(j '.lag_ms.mean >= 0 and .lag_ms.max >= .lag_ms.mean')" true

out=$(run -c 2 -T 2 -P 1 2>&1 >/dev/null)
same "-P prints progress lines (exit 0)" "$?:$(echo "$out" | grep -cE '^progress: [0-9.]+ s, [0-9.]+ tps, lat [0-9.]+ ms stddev [0-9.]+, 0 failed$' | sed 's/^[12]$/yes/')" 0:yes

# ---- retries: serializable isolation on one branch row ----------------------
q 'create database ser' >/dev/null
qo ser "alter database ser set default_transaction_isolation = 'serializable'" >/dev/null
DS="host=$D port=$P user=postgres dbname=ser"
says_err "init another database" "^scale 1: pgbench_accounts" "$EB" tpcb init --dsn "$DS" -s 1
for mode in "-M extended" "-M prepared --pipeline 4"; do
	"$EB" tpcb run --dsn "$DS" -c 4 -j 2 -t 100 --max-tries 20 $mode -n --json --out "$T/ser$(echo $mode | tr -cd a-z0-9)" >"$T/out.json" 2>"$T/err"
	same "serializable $mode: exit 0, conflicts were retried" "$?:$(j '.retries > 0')" 0:true
	same "serializable $mode: committed and failed make every transaction" "$(j '.transactions + .failed == .expected')" true
done
same "serializable: history holds the committed transactions" "$(qo ser 'select count(*) from pgbench_history')" \
	"$(cat "$T"/ser*/trials.jsonl | jq -s 'map(.transactions) | add')"
same "serializable: the TPC-B invariant holds" "$(invariant ser)" holds

# ---- interrupted and broken runs ------------------------------------------------
"$EB" tpcb run --datadir "$D" -c 2 -T 30 --out "$T/int" >"$T/int.out" 2>&1 &
rp=$!
sleep 1.5
kill -INT $rp
wait $rp
same "Ctrl-C ends the run with status 130 (128 + SIGINT)" "$?" 130
same "Ctrl-C prints the figures so far" "$(grep -c 'interrupted; the figures above cover the run so far' "$T/int.out")" 1
same "Ctrl-C keeps the record" "$(jq -r '.interrupted and .transactions > 0' "$T/int/trials.jsonl")" true

"$EB" tpcb run --datadir "$D" -c 3 -j 2 -T 30 --out "$T/stop" >"$T/stop.out" 2>&1 &
rp=$!
sleep 1.5
# The run holds the cluster's lock, so eicbench will not stop it: a fast
# shutdown signalled to the postmaster, as an operator's pg_ctl would.
kill -INT "$(head -n 1 "$D/postmaster.pid")"
wait $rp
same "a server stopped midway ends the run with status 1" "$?" 1
same "... with a clear message naming a client" "$(grep -cE 'client [0-9]+ (script [0-9]+ )?(aborted|lost)' "$T/stop.out" | sed 's/^[1-9].*/yes/')" yes
same "... and a record of the clients lost" "$(jq -r '.aborted_clients' "$T/stop/trials.jsonl")" 3
same "no tpcb folder written under the checkout's results/" "$(tpcb_folders)" "$before"
