# Faults in a sweep that varies a restart setting (shared_buffers) with
# effective_io_concurrency: SIGINT and SIGKILL of eicbench during a trial's
# cold restart (the server down), during its query, and while it writes a
# record; SIGKILL of the server in the middle of a trial; a full disk under
# the result folder; a record torn by a crash. eicbench is stopped exactly
# there by EICBENCH_FAULT. After each: the records finished before are kept
# byte for byte, none is repeated and a torn one is not counted, the
# server's settings are as they were, no journal is left, the data set is
# the same, and --resume and report succeed.
. tests/it/lib.sh
D=$T/pg
P=54461
cluster pg $P
q() { sql "$D" $P "$1"; }

ok "load 300000 rows" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)
# four trials: two values of each, one round, in a fixed order
grid="--eic 0,1 --set shared_buffers=128MB,144MB --runs 1 --order-seed 3 --no-cache-check"

# after DIR K HEAD: the checks once the fault is over: report, resume, report
after() {
	ok "report reads the records there are" "$EB" report "$1" --no-plot
	same "and counts the $2 finished" "$("$EB" report "$1" --format json 2>/dev/null | jq '[.groups[].runs] | add')" "$2"
	ok "--resume finishes the plan" "$EB" sweep --resume "$1"
	records_kept "$1/trials.jsonl" "$2" "$3" 4
	unchanged "$D" $P "$settings" "$data"
	same "the report counts every trial once" "$("$EB" report "$1" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 4
}

k=0
for point in server:cold sweep:query record:append; do
	case $point in
	server:cold) what="during a trial's cold restart (the server down)"; whole=1 ;;
	sweep:query) what="during a trial's query"; whole=1 ;;
	record:append) what="while writing a record (written, not yet synced)"; whole=2 ;;
	esac
	for sig in INT KILL; do
		k=$((k + 1))
		S=$T/s$k
		fault "sweep: SIG$sig $what"
		EICBENCH_FAULT=$point@2 "$EB" sweep --datadir "$D" $grid --out "$S" >/dev/null 2>"$S.err" &
		sp=$!
		if ! stopped_at $sp; then
			same "the sweep got to $point" "$(cat "$S.err")" "(stopped there)"
			held; continue
		fi
		same "the second trial's $point: $whole record(s) finished" "$(wc -l <"$S/trials.jsonl")" $whole
		[ $point = server:cold ] && same "the server is down" "$("$EB" server status --datadir "$D" --json | jq .running)" false
		head=$(head -n $whole "$S/trials.jsonl" | md5sum)
		hit $sig $sp sweep "$S"
		after "$S" $whole "$head"
		held
	done
done

# The server killed in the middle of a trial (SIGKILL of the postmaster,
# as the OOM killer would): the trial fails, the settings are put back, and
# the sweep says how to finish.
fault "the server SIGKILLed during a trial"
S=$T/pm
EICBENCH_FAULT=sweep:query@2 "$EB" sweep --datadir "$D" $grid --out "$S" >/dev/null 2>"$S.err" &
sp=$!
if stopped_at $sp; then
	pm=$(head -n 1 "$D/postmaster.pid")
	kill -KILL "$pm"
	head=$(head -n 1 "$S/trials.jsonl" | md5sum)
	kill -CONT $sp
	wait $sp
	same "the sweep fails (exit 1)" "$?" 1
	ok "it says how to finish" grep "finished trials are in $S; finish with: eicbench sweep --resume $S" "$S.err"
	same "it put the settings back itself" "$(settings_of "$D" $P)" "$settings"
	after "$S" 1 "$head"
else
	same "the sweep got to its second query" "$(cat "$S.err")" "(stopped there)"
fi
held

# A full disk under the result folder: the record that does not fit is not
# written at all (no torn line), the sweep stops and puts the settings back;
# with room again, --resume finishes.
fault "the result folder's file system full"
F=$T/full
mkdir "$F"
if mount -t tmpfs -o size=200k eicbench-full "$F" 2>/dev/null; then
	cleanup_mounts="$F"
	head -c $((176 * 1024)) /dev/zero >"$F/filler"
	S=$F/s
	"$EB" sweep --datadir "$D" --eic 0,1,2,4 --runs 2 --no-cache-check --out "$S" >/dev/null 2>"$T/full.err"
	same "the sweep fails (exit 1)" "$?" 1
	ok "it says the disk is full, and how to finish" \
		grep "trials.jsonl: No space left on device" "$T/full.err"
	ok "and how to finish" grep "finish with: eicbench sweep --resume $S" "$T/full.err"
	whole=$(wc -l <"$S/trials.jsonl")
	same "no torn line left (the file ends with its last whole record)" "$(tail -c 1 "$S/trials.jsonl" | od -An -c | tr -d ' ')" '\n'
	same "it put the settings back itself" "$(settings_of "$D" $P)" "$settings"
	head=$(md5sum <"$S/trials.jsonl")
	rm "$F/filler"
	ok "with room again, --resume finishes the plan" "$EB" sweep --resume "$S"
	records_kept "$S/trials.jsonl" "$whole" "$head" 8
	unchanged "$D" $P "$settings" "$data"
	ok "report" "$EB" report "$S" --no-plot
	umount "$F" && cleanup_mounts=""
else
	n=$((n + 1)); echo "ok $n - a full result folder # SKIP cannot mount a tmpfs here"
fi
held

# A record torn by a crash (power lost in the middle of a write): the report
# leaves it out and says so, --resume runs that trial again.
fault "a record torn by a crash"
S=$T/s1
cp "$S/trials.jsonl" "$T/whole.jsonl"
size=$(stat -c %s "$S/trials.jsonl")
truncate -s $((size - 200)) "$S/trials.jsonl"
head=$(head -n 3 "$S/trials.jsonl" | md5sum)
fails 0 "ignored a partial" "the report says it left the torn record out" "$EB" report "$S" --no-plot
same "and counts the whole ones" "$("$EB" report "$S" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 3
ok "--resume runs that trial again" "$EB" sweep --resume "$S"
records_kept "$S/trials.jsonl" 3 "$head" 4
same "the report counts every trial once" "$("$EB" report "$S" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 4
unchanged "$D" $P "$settings" "$data"
held

echo "1..$n"
faults_summary
[ "$nfail" -eq 0 ]
