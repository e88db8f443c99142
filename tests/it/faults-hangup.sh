# Faults by a hang-up (SIGHUP: the terminal or the ssh session gone) and a
# closed pipe (SIGPIPE), in a load and in a sweep that varies a restart
# setting: each stops the command as Ctrl-C does, at its next safe point,
# through the same restore path. After each, before any other eicbench
# command: it exited 128 + the signal, the server's settings are as they
# were (SHOW, postgresql.auto.conf; a load's relaxed durability put back),
# no journal is left, the data set is the one before. Started with SIGHUP
# ignored (nohup), a load goes on through a hang-up.
. tests/it/lib.sh
plan 29
D=$T/pg
P=54471
cluster pg $P

# A hang-up is a terminal's default: the commands below start with SIGHUP
# at its default even when this script runs with it ignored (under nohup,
# or a CI runner that ignores it), which a shell cannot undo itself.
hupdfl="env --default-signal=HUP"

says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)
grid="--eic 0,1 --set shared_buffers=128MB,144MB --runs 1 --order-seed 3 --no-cache-check"

# signal SIG PID: SIG where PID stopped itself, then on; its exit status
signal() {
	kill -"$1" "$2"; kill -CONT "$2"
	wait "$2"
}

for sig in HUP PIPE; do
	case $sig in HUP) code=129 ;; PIPE) code=141 ;; esac
	fault "load: SIG$sig in the copy phase (fsync=off in force)"
	EICBENCH_FAULT=load:copy $hupdfl "$EB" load --datadir "$D" --rows 300000 --seed 2 --force >/dev/null 2>"$T/l.err" &
	lp=$!
	if ! stopped_at $lp; then
		same "the load got to its copy phase" "$(cat "$T/l.err")" "(stopped there)"
		skip_n 4 "the load stopped by SIG$sig" "it did not get there"
		held; continue
	fi
	signal $sig $lp
	same "the load stopped by SIG$sig exits $code (128 + SIG$sig)" "$?" $code
	unchanged "$D" $P "$settings" "$data"
	held
done

k=0
for point in server:cold sweep:query; do
	case $point in
	server:cold) what="during a trial's cold restart (the server down)" ;;
	sweep:query) what="during a trial's query" ;;
	esac
	for sig in HUP PIPE; do
		case $sig in HUP) code=129 ;; PIPE) code=141 ;; esac
		[ $point = server:cold ] && [ $sig = PIPE ] && continue
		k=$((k + 1))
		S=$T/s$k
		fault "sweep: SIG$sig $what"
		EICBENCH_FAULT=$point@2 $hupdfl "$EB" sweep --datadir "$D" $grid --out "$S" >/dev/null 2>"$S.err" &
		sp=$!
		if ! stopped_at $sp; then
			same "the sweep got to $point" "$(cat "$S.err")" "(stopped there)"
			skip_n 5 "the sweep stopped by SIG$sig" "it did not get there"
			held; continue
		fi
		signal $sig $sp
		same "the sweep stopped by SIG$sig exits $code (128 + SIG$sig)" "$?" $code
		ok "it says how to finish" grep "finished trials are in $S; finish with: eicbench sweep --resume $S" "$S.err"
		unchanged "$D" $P "$settings" "$data"
		says "--resume finishes the plan" "^Written to $S: summary.csv" "$EB" sweep --resume "$S"
		held
	done
done

# Under nohup (SIGHUP ignored when it starts) a hang-up does not stop it.
fault "load under nohup: SIGHUP in the copy phase"
sh -c 'trap "" HUP; exec "$@"' sh env EICBENCH_FAULT=load:copy "$EB" load --datadir "$D" --rows 300000 --seed 2 --force >/dev/null 2>"$T/n.err" &
lp=$!
if stopped_at $lp; then
	signal HUP $lp
	same "it goes on and finishes (exit 0)" "$?" 0
	same "the new data set is in use" "$(sql "$D" $P "select rows || '/' || seed from eicbench_dataset")" "300000/2"
else
	same "the load got to its copy phase" "$(cat "$T/n.err")" "(stopped there)"
	skip "the new data set is in use" "it did not get there"
fi
held
