# A settings journal left by a killed command is put back by the next
# command on that server, whichever it is: tpcb init and tpcb run too (a
# load killed with fsync=off in force: the TPC-B run that follows runs with
# fsync on), and before the server is started when a value it left keeps
# the server from starting at all (huge_pages=on where there are no huge
# pages: the server is started with the originals, put back, restarted).
# A --dsn server's journal is found by the server's identity, whatever the
# spelling of the string (keys in another order, a URI), and --dsn to a
# cluster here takes the lock --datadir takes. After each: the settings as
# they were, no journal, the same data set.
. tests/it/lib.sh
plan 47
D=$T/pg
P=54472
cluster pg $P
q() { sql "$D" $P "$1"; }

says "load 100000 rows" "^data set: test, major 0..100000 (100001 rows)" "$EB" load --datadir "$D" --rows 100000
says_err "tpcb init at scale 1" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)

# killed_load: a load killed in its copy phase, fsync=off in force, its
# journal left (3 checks)
killed_load() {
	EICBENCH_FAULT=load:copy "$EB" load --datadir "$D" --rows 100000 --seed 2 --force >/dev/null 2>"$T/l.err" &
	lp=$!
	if stopped_at $lp; then
		same "fsync is off while the load copies" "$(q 'show fsync')" off
		slay $lp
		ok "the killed load left its journal" test -f "$D/eicbench-settings.journal"
		same "fsync is still off after it" "$(q 'show fsync')" off
	else
		same "the load got to its copy phase" "$(cat "$T/l.err")" "(stopped there)"
		skip_n 2 "a killed load" "it did not get there"
	fi
}

fault "load killed with fsync=off in force, then tpcb run"
killed_load
(cd "$T" && "$EB" tpcb run --datadir "$D" -c 1 -T 2 --out "$T/tr") >"$T/tr.out" 2>"$T/tr.err"
same "tpcb run succeeds and says it put fsync back" "$?:$(grep -c 'put back: .*fsync' "$T/tr.err")" "0:1"
same "it ran with fsync on (its record)" "$(jq -r '.server.settings.fsync' "$T/tr/meta.json")" on
unchanged "$D" $P "$settings" "$data"
held

fault "load killed with fsync=off in force, then tpcb init"
killed_load
"$EB" tpcb init --datadir "$D" -s 1 >/dev/null 2>"$T/ti.err"
same "tpcb init succeeds and says it put fsync back" "$?:$(grep -c 'put back: .*fsync' "$T/ti.err")" "0:1"
unchanged "$D" $P "$settings" "$data"
held

# A sweep killed in a trial's cold restart, the server down, with
# huge_pages=on written for the start that follows; without huge pages the
# server cannot start with it. The next command starts it with the
# original, puts it back and goes on.
for next in "server start" "load"; do
	fault "sweep killed while the server is down with huge_pages=on left, then $next"
	if [ "$(awk '/^HugePages_Total:/ { print $2 }' /proc/meminfo)" != 0 ]; then
		skip_n 5 "huge_pages=on left" "this machine has huge pages: the server starts with huge_pages=on"
		held; continue
	fi
	S=$T/hp-$(echo $next | tr ' ' -)
	EICBENCH_FAULT=server:cold "$EB" sweep --datadir "$D" --eic 1 --set huge_pages=on --runs 1 --no-cache-check \
		--out "$S" >/dev/null 2>"$S.err" &
	sp=$!
	if ! stopped_at $sp; then
		same "the sweep got to its cold restart" "$(cat "$S.err")" "(stopped there)"
		skip_n 4 "huge_pages=on left" "it did not get there"
		held; continue
	fi
	slay $sp
	same "the server is down, huge_pages=on in postgresql.auto.conf" \
		"$("$EB" server status --datadir "$D" --json | jq .running),$(grep -c "^huge_pages = 'on'" "$D/postgresql.auto.conf")" "false,1"
	case $next in
	"server start") "$EB" server start --datadir "$D" >"$S.next" 2>&1 ;;
	load) "$EB" load --datadir "$D" --rows 100000 >"$S.next" 2>&1 ;;
	esac
	same "$next succeeds and says it put huge_pages back" "$?:$(grep -c 'put back: huge_pages' "$S.next")" "0:1"
	unchanged "$D" $P "$settings" "$data"
	held
done

# A warm sweep of a reload setting on the cluster given as --dsn, killed
# in its second trial's query with the setting changed: the next command,
# given the string spelled otherwise, finds its journal and puts it back.
export EICBENCH_STATE=$T/state
DSN="host=$D port=$P user=postgres dbname=eicbench"
# its restart command runs eicbench on the cluster the sweep holds: granted
RESTART="$EB server restart --datadir '$D'"
journals() { ls "$EICBENCH_STATE"/settings-*.journal 2>/dev/null | wc -l; }
k=0
for other in "dbname=eicbench user=postgres port=$P host=$D" "postgresql:///eicbench?host=$D&port=$P&user=postgres"; do
	k=$((k + 1))
	S=$T/dsn$k
	fault "sweep on --dsn killed with bgwriter_delay changed, then load --dsn '$other'"
	EICBENCH_FAULT=sweep:query@2 "$EB" sweep --dsn "$DSN" --restart-cmd "$RESTART" --warm --eic 1 \
		--set bgwriter_delay=150ms,250ms --runs 1 --no-cache-check --out "$S" >/dev/null 2>"$S.err" &
	sp=$!
	if ! stopped_at $sp; then
		same "the sweep got to its second query" "$(cat "$S.err")" "(stopped there)"
		skip_n 5 "a killed --dsn sweep" "it did not get there"
		held; continue
	fi
	slay $sp
	same "bgwriter_delay is changed, its journal left in the state folder" \
		"$(q 'show bgwriter_delay' | grep -c -e '^150ms$' -e '^250ms$'),$(journals)" "1,1"
	"$EB" load --dsn "$other" --rows 100000 >"$S.next" 2>&1
	same "the load given the other spelling succeeds and says it put bgwriter_delay back" \
		"$?:$(grep -c 'put back: bgwriter_delay' "$S.next")" "0:1"
	same "no journal left in the state folder" "$(journals)" 0
	unchanged "$D" $P "$settings" "$data"
	held
done

# One lock for the cluster, --datadir or --dsn: each way round, the second
# is refused as busy (exit 3), naming the first.
fault "a sweep holding the cluster, then the other form"
through() {
	case $1 in
	datadir) exec "$EB" sweep --datadir "$D" --eic 1 --runs 1 --no-cache-check --out "$T/hold-$1" ;;
	dsn) exec "$EB" sweep --dsn "$DSN" --warm --eic 1 --runs 1 --no-cache-check --out "$T/hold-$1" ;;
	esac
}
for form in datadir dsn; do
	case $form in
	datadir) try() { "$EB" load --dsn "$DSN" --rows 100000; } ;;
	dsn) try() { "$EB" server stop --datadir "$D"; } ;;
	esac
	EICBENCH_FAULT=sweep:query through $form >/dev/null 2>"$T/hold-$form.err" &
	sp=$!
	if stopped_at $sp; then
		fails 3 "is in use: held by pid $sp" "held through --$form, the other form is refused as busy, naming it" try
		[ $form = datadir ] && fails 3 "is in use: held by pid $sp" \
			"so is --dsn naming a database not made yet (the server known through another)" \
			"$EB" load --dsn "host=$D port=$P user=postgres dbname=notyet" --rows 100000
		kill -CONT $sp
		wait $sp
		same "the holder through --$form finishes" "$?" 0
	else
		same "the sweep through --$form got to its query" "$(cat "$T/hold-$form.err")" "(stopped there)"
		skip "the holder through --$form finishes" "it did not get there"
		[ $form = datadir ] && skip "--dsn naming a database not made yet" "it did not get there"
	fi
done
unchanged "$D" $P "$settings" "$data"
held
