# Faults in a load: SIGINT and SIGKILL in each of its phases (copy, index,
# vacuum, the swap), the load stopped exactly there by EICBENCH_FAULT. After
# each, the data set in use is the one before (the same rows, record and
# files), the server's settings are as they were (a killed load's relaxed
# durability is put back by the next command), no journal is left, and the
# next load succeeds. (PHASES="index swap" SIGS=INT runs only those.)
. tests/it/lib.sh
# The plan: 9 checks for each phase interrupted, 7 for each killed, one
# more each way where a reader blocks the phase (vacuum, swap) and one more
# when interrupted there; 5 besides.
nph=0; nb=0
for phase in ${PHASES:-copy index vacuum swap}; do
	nph=$((nph + 1)); case $phase in vacuum|swap) nb=$((nb + 1)) ;; esac
done
nint=0; nkill=0
for sig in ${SIGS:-INT KILL}; do case $sig in INT) nint=1 ;; KILL) nkill=1 ;; esac; done
plan $((5 + nint * (9 * nph + 2 * nb) + nkill * (7 * nph + nb)))
D=$T/pg
P=54460
cluster pg $P
q() { sql "$D" $P "$1"; }

says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)

# The phase's progress line is on stderr when the load stops there.
progress_line() {
	case "$1" in
	copy) echo "copy: " ;;
	index) echo "index: " ;;
	vacuum) echo "vacuum \.\.\." ;;
	swap) echo "swap \.\.\." ;;
	esac
}

# blocked PID LOCK STATEMENT: another session takes LOCK and holds it (a
# reader of the data set, say); then the stopped load goes on into
# STATEMENT, which waits for that lock, so the signal finds it running
blocker=
blocked() {
	psql -X -q -h "$D" -p $P -U postgres -d eicbench -c "begin; $2; select pg_sleep(60)" >/dev/null 2>&1 &
	blocker=$!
	waits "select count(*) from pg_stat_activity where query like '%pg_sleep(60)%' and wait_event = 'PgSleep'"
	kill -CONT "$1"
	waits "select count(*) from pg_stat_activity where query like '%$3%' and wait_event_type = 'Lock'"
	same "the $3 runs (waiting for a lock) when the signal comes" \
		"$(q "select count(*) from pg_stat_activity where query like '%$3%' and pid <> pg_backend_pid()")" 1
}
# waits QUERY: until QUERY (a count, this session left out) gives 1; 30 s at most
waits() {
	i=0
	while [ "$(q "$1 and pid <> pg_backend_pid()")" != 1 ] && [ $i -lt 600 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
# cancels: how many statements the server log says were cancelled
cancels() {
	grep -c "ERROR:  canceling statement due to user request" "$D/eicbench-server.log"
}
unblock() {
	[ -z "$blocker" ] && return
	q "select pg_terminate_backend(pid) from pg_stat_activity where query like '%pg_sleep(60)%' and pid <> pg_backend_pid()" >/dev/null
	wait $blocker 2>/dev/null
	blocker=
}

for phase in ${PHASES:-copy index vacuum swap}; do
	for sig in ${SIGS:-INT KILL}; do
		fault "load: SIG$sig in the $phase phase"
		EICBENCH_FAULT=load:$phase "$EB" load --datadir "$D" --rows 300000 --seed 2 --force >/dev/null 2>"$T/l.err" &
		lp=$!
		if ! stopped_at $lp; then
			same "the load got to the $phase phase" "$(cat "$T/l.err")" "(stopped there)"
			held; continue
		fi
		ok "its progress says $phase" grep -q "^$(progress_line $phase)" "$T/l.err"
		case $phase in
		vacuum) blocked $lp "lock table eicbench_new.test in share update exclusive mode" "VACUUM (FREEZE" ;;
		swap) blocked $lp "select count(*) from public.test" "DROP TABLE IF EXISTS public.test" ;;
		esac
		if [ $sig = INT ]; then
			cancelled=$(cancels)
			interrupt $lp
			same "the interrupted load exits 130 (128 + SIGINT)" "$?" 130
			[ -n "$blocker" ] && same "it cancelled the waiting statement (the server log says so)" \
				"$(cancels)" $((cancelled + 1))
			ok "it says the data set in use and the settings are as they were" \
				grep "interrupted; the data set in use is as it was, and so are the settings" "$T/l.err"
			unblock
			same "no staging schema left" "$(q "select count(*) from pg_namespace where nspname = 'eicbench_new'")" 0
		else
			slay $lp
			unblock
			if [ $phase != swap ]; then
				ok "the killed load left its journal" test -f "$D/eicbench-settings.journal"
			else
				absent "the load killed in its swap left no journal (the settings were back before it)" "$D/eicbench-settings.journal"
			fi
		fi
		same "the data set in use is the one before" "$(dataset_of "$D" $P)" "$data"
		# a relaxed setting is put back by the next load when a killed
		# load left its journal; that load reuses the data set, not loads it
		back=0; [ $sig = KILL ] && [ $phase != swap ] && back=1
		"$EB" load --datadir "$D" --rows 300000 >"$T/next.out" 2>"$T/next.err"
		same "the next load succeeds, puts back what was left ($back), and reuses the data set" \
			"$?:$(grep -c 'put back: wal_level, max_wal_senders, fsync, full_page_writes, autovacuum' "$T/next.err"):$(grep -c '(300001 rows), seed 1, recipe fast (already loaded; reused)' "$T/next.out")" \
			"0:$back:1"
		unchanged "$D" $P "$settings" "$data"
		held
	done
done

# After all that, a real reload still works and leaves nothing behind.
says "a reload of another data set" "(300001 rows), seed 2, recipe fast$" "$EB" load --datadir "$D" --rows 300000 --seed 2
same "it is in use" "$(q "select rows || '/' || seed from eicbench_dataset")" "300000/2"
same "no staging schema left" "$(q "select count(*) from pg_namespace where nspname = 'eicbench_new'")" 0
same "the settings as they were" "$(settings_of "$D" $P)" "$settings"

[ "$nfail" -eq 0 ]
