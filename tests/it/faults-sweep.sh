# Faults in a sweep that varies a restart setting (shared_buffers) with
# effective_io_concurrency: SIGINT and SIGKILL of eicbench during a trial's
# cold restart (the server down), during its query, and while it writes a
# record; SIGKILL of the server in the middle of a trial; a full disk under
# the result folder; a record torn by a crash. eicbench is stopped exactly
# there by EICBENCH_FAULT. After each: the records finished before are kept
# byte for byte, none is repeated and a torn one is not counted, the
# server's settings are as they were, no journal is left, the data set is
# the same, and --resume and report succeed. Every baseline is taken before
# its fault, the sweep stopped in its place.
. tests/it/lib.sh
plan 112
D=$T/pg
P=54461
cluster pg $P
q() { sql "$D" $P "$1"; }

says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)
# four trials: two values of each, one round, in a fixed order
grid="--eic 0,1 --set shared_buffers=128MB,144MB --runs 1 --order-seed 3 --no-cache-check"

# after DIR K HEAD: the checks once the fault is over: report, resume, report
after() {
	says "report reads the records there are" "^Written to $1: summary.csv" "$EB" report "$1" --no-plot
	same "and counts the $2 finished" "$("$EB" report "$1" --format json 2>/dev/null | jq '[.groups[].runs] | add')" "$2"
	says "--resume finishes the plan" "^Written to $1: summary.csv" "$EB" sweep --resume "$1"
	records_kept "$1/trials.jsonl" "$2" "$3" 4
	unchanged "$D" $P "$settings" "$data"
	same "the report counts every trial once" "$("$EB" report "$1" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 4
}

k=0
for point in server:cold sweep:query record:append; do
	case $point in
	server:cold) what="during a trial's cold restart (the server down)"; whole=1; up=false ;;
	sweep:query) what="during a trial's query"; whole=1; up=true ;;
	record:append) what="while writing a record (written, not yet synced)"; whole=2; up=true ;;
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
		same "the server is running: $up" "$("$EB" server status --datadir "$D" --json | jq .running)" $up
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
	head=$(head -n 1 "$S/trials.jsonl" | md5sum)
	pm=$(head -n 1 "$D/postmaster.pid")
	kids=$(ps -o pid= --ppid "$pm")
	kill -KILL "$pm"
	# its backends go when they see it gone: let the sweep on only then
	alive() { for k in "$@"; do kill -0 "$k" 2>/dev/null && return 0; done; return 1; }
	i=0
	while [ $i -lt 600 ] && alive $kids; do sleep 0.05; i=$((i + 1)); done
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

# A full disk under the result folder: the sweep is stopped after its first
# record (EICBENCH_FAULT), the file system filled, and let go: the record
# that does not fit is not written at all (no torn line), the sweep stops
# and puts the settings back; with room again, --resume finishes.
fault "the result folder's file system full"
F=$T/full
mkdir "$F"
if mount -t tmpfs -o size=400k eicbench-full "$F" 2>/dev/null; then
	cleanup_mounts="$F"
	S=$F/s
	EICBENCH_FAULT=record:append "$EB" sweep --datadir "$D" --eic 0,1,2,4 --runs 2 --no-cache-check --out "$S" >/dev/null 2>"$T/full.err" &
	sp=$!
	stopped_at $sp
	head=$(md5sum <"$S/trials.jsonl")
	cat /dev/zero >"$F/filler" 2>/dev/null
	kill -CONT $sp
	wait $sp
	same "the sweep fails (exit 1)" "$?" 1
	ok "it says the disk is full" grep "trials.jsonl: No space left on device" "$T/full.err"
	ok "and how to finish" grep "finish with: eicbench sweep --resume $S" "$T/full.err"
	same "no torn line left (the file ends with its only record)" "$(wc -l <"$S/trials.jsonl"):$(tail -c 1 "$S/trials.jsonl" | od -An -c | tr -d ' ')" '1:\n'
	same "it put the settings back itself" "$(settings_of "$D" $P)" "$settings"
	rm "$F/filler"
	says "with room again, --resume finishes the plan" "^Written to $S: summary.csv" "$EB" sweep --resume "$S"
	records_kept "$S/trials.jsonl" 1 "$head" 8
	unchanged "$D" $P "$settings" "$data"
	says "report" "^Written to $S: summary.csv" "$EB" report "$S" --no-plot
	umount "$F" && cleanup_mounts=""
else
	skip_n 12 "a full result folder" "cannot mount a tmpfs here"
fi
held

# A record torn by a crash (power lost in the middle of a write): the report
# leaves it out and says so, --resume runs that trial again.
fault "a record torn by a crash"
S=$T/s1
head=$(head -n 3 "$S/trials.jsonl" | md5sum)
size=$(stat -c %s "$S/trials.jsonl")
truncate -s $((size - 200)) "$S/trials.jsonl"
says "the report says it left the torn record out" "ignored a partial" "$EB" report "$S" --no-plot
same "and counts the whole ones" "$("$EB" report "$S" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 3
says "--resume runs that trial again" "^Written to $S: summary.csv" "$EB" sweep --resume "$S"
records_kept "$S/trials.jsonl" 3 "$head" 4
same "the report counts every trial once" "$("$EB" report "$S" --format json 2>/dev/null | jq '[.groups[].runs] | add')" 4
unchanged "$D" $P "$settings" "$data"
held

[ "$nfail" -eq 0 ]
