# Faults in a whole-configuration sweep (confsweep, TPC-B) whose every step
# sets a restart setting (shared_buffers): SIGINT and SIGKILL of eicbench
# in the second step, its value written to postgresql.auto.conf and not yet
# in force (EICBENCH_FAULT stops it there). After each: the runs finished
# before are kept byte for byte and none is repeated, the server's settings
# are as they were, no journal is left, pgbench's tables are the same, and
# --resume and report succeed.
. tests/it/lib.sh
plan 25
D=$T/pg
P=54462
cluster pg $P
q() { sql "$D" $P "$1"; }
# the data set here: pgbench's tables, their rows and files
tables_of() { sql "$1" "$2" "select (select count(*) from pgbench_accounts) || ' accounts; files ' || pg_relation_filenode('pgbench_accounts') || '/' || pg_relation_filenode('pgbench_branches') || '/' || pg_relation_filenode('pgbench_tellers')"; }
dataset_fn=tables_of

says_err "pgbench's tables at scale 1" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1
settings=$(settings_of "$D" $P)
data=$(tables_of "$D" $P)
run="--set shared_buffers=64MB,96MB --runs 1 -T 1s --warmup 0 -c 2 -j 1 -s 1 --order-seed 5"

k=0
for sig in INT KILL; do
	k=$((k + 1))
	S=$T/c$k
	fault "confsweep: SIG$sig in a restart-setting step"
	EICBENCH_FAULT=runner:settings@2 "$EB" confsweep --datadir "$D" $run --out "$S" >/dev/null 2>"$S.err" &
	cp=$!
	if ! stopped_at $cp; then
		same "the sweep got to its second step" "$(cat "$S.err")" "(stopped there)"
		held; continue
	fi
	same "one run finished" "$(wc -l <"$S/trials.jsonl")" 1
	same "the step's shared_buffers is written, not yet in force" \
		"$(grep -c "^shared_buffers = '$(jq -r '.settings.shared_buffers' "$S/trials.jsonl" | sed 's/64MB/96MB/;t;s/96MB/64MB/')'" "$D/postgresql.auto.conf")" 1
	head=$(md5sum <"$S/trials.jsonl")
	hit $sig $cp confsweep "$S"
	says "report reads the runs there are" "^Written to $S: report.md" "$EB" report "$S" --no-plot
	says "--resume finishes the plan" "^Written to $S: report.md" "$EB" confsweep --resume "$S" --datadir "$D"
	records_kept "$S/trials.jsonl" 1 "$head" 2
	unchanged "$D" $P "$settings" "$data"
	says "report" "^Written to $S: report.md" "$EB" report "$S" --no-plot
	held
done

[ "$nfail" -eq 0 ]
