# lib.sh: helpers for the integration tests. Each test makes a throwaway
# folder the server's user can reach, runs the real eicbench against a real
# cluster in it, and prints TAP-like "ok" / "not ok" lines.
EB=${EB:-$(pwd)/eicbench}
T=$(mktemp -d /var/tmp/eicbench-it.XXXXXX)
chmod 755 "$T"
n=0
nfail=0
cleanup_dirs=""
cleanup_mounts=""

cleanup() {
	for d in $cleanup_dirs; do
		"$EB" server stop --datadir "$d" >/dev/null 2>&1
	done
	for m in $cleanup_mounts; do
		umount "$m" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT

# ok DESCRIPTION COMMAND...: the command must succeed
ok() {
	desc=$1; shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		printf "%s\n" "$out" | sed 's/^/#   /'
		nfail=$((nfail + 1))
	fi
}

# fails STATUS PATTERN DESCRIPTION COMMAND...: exit STATUS and stderr matching PATTERN
fails() {
	want=$1; pat=$2; desc=$3; shift 3
	n=$((n + 1))
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && printf "%s\n" "$out" | grep -q -- "$pat"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (exit $rc, wanted $want and /$pat/)"
		printf "%s\n" "$out" | sed 's/^/#   /'
		nfail=$((nfail + 1))
	fi
}

# same DESCRIPTION GOT WANT
same() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1: got '$2', wanted '$3'"
		nfail=$((nfail + 1))
	fi
}

# cluster NAME PORT: init and start a managed cluster in $T/NAME
cluster() {
	"$EB" server init --datadir "$T/$1" --port "$2" >/dev/null &&
		"$EB" server start --datadir "$T/$1" >/dev/null
	cleanup_dirs="$cleanup_dirs $T/$1"
}

# sql DATADIR PORT QUERY: one value from the suite's database
sql() {
	psql -X -At -h "$1" -p "$2" -U postgres -d eicbench -c "$3"
}

# ---- fault injection (tests/it/faults*.sh) ----------------------------------
# fault NAME ... held: one fault injected, counted as survived when every
# check between the two passed; faults_summary prints the count as the
# file's last line, which scripts/run-tests.sh adds up.
injected=0
survived=0
fault() {
	injected=$((injected + 1))
	failed_before=$nfail
	echo "# fault $injected: $1"
}
held() {
	[ "$nfail" -eq "$failed_before" ] && survived=$((survived + 1))
}
faults_summary() {
	echo "# faults injected: $injected, survived: $survived"
}

# wait_lines FILE N: until FILE has N lines or more (60 s at most)
wait_lines() {
	i=0
	while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
}

# stopped_at PID: wait until PID has stopped itself at the fault point named
# by EICBENCH_FAULT (state T; 60 s at most). 0 when it has, 1 when it ended
# or did not get there (it is then killed).
stopped_at() {
	i=0
	while [ $i -lt 1200 ]; do
		st=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
		case "$st" in
		T) return 0 ;;
		''|Z|X) return 1 ;;
		esac
		sleep 0.05; i=$((i + 1))
	done
	kill -KILL "$1" 2>/dev/null
	return 1
}

# interrupt PID: Ctrl-C at the point where PID stopped itself; its exit status
interrupt() {
	kill -INT "$1"; kill -CONT "$1"
	wait "$1"
}

# slay PID: SIGKILL where PID stopped itself
slay() {
	kill -KILL "$1"; wait "$1" 2>/dev/null
	return 0
}

# settings_of DATADIR PORT: the server's settings as a new session sees them
# (one name=value a line), then postgresql.auto.conf
settings_of() {
	sql "$1" "$2" "select name || '=' || setting from pg_settings where source not in ('client', 'session') order by name"
	echo "--- postgresql.auto.conf"
	cat "$1/postgresql.auto.conf"
}

# dataset_of DATADIR PORT: the data set's rows, its record (rows, seed,
# recipe, when loaded) and its relations' files: another load changes them
dataset_of() {
	sql "$1" "$2" "select (select count(*) from public.test) || ' rows; ' ||
		(select string_agg(rows || '/' || seed || '/' || recipe || '/' || loaded_at, ',') from eicbench_dataset) || '; files ' ||
		pg_relation_filenode('public.test') || '/' || pg_relation_filenode('public.test_pkey') || '/' || pg_relation_filenode('public.minor_idx')"
}

# unchanged DATADIR PORT SETTINGS DATASET: the checks after every fault: the
# server's settings as they were, no settings journal left, the same data
# set, whole (as dataset_of says, or the function named by $dataset_fn)
unchanged() {
	now=$(settings_of "$1" "$2")
	n=$((n + 1))
	if [ "$now" = "$3" ] && printf '%s\n' "$now" | grep -q '^fsync='; then
		echo "ok $n - the server's settings as they were (SHOW, postgresql.auto.conf)"
	else
		echo "not ok $n - the server's settings as they were (SHOW, postgresql.auto.conf)"
		printf '%s\n' "$3" >"$T/settings.want"
		printf '%s\n' "$now" | diff "$T/settings.want" - | sed 's/^/#   /'
		nfail=$((nfail + 1))
	fi
	same "no settings journal left" "$(ls "$1/eicbench-settings.journal" 2>/dev/null)" ""
	same "the same data set, whole" "$("${dataset_fn:-dataset_of}" "$1" "$2")" "$4"
}

# records_kept FILE K HEAD N: FILE holds N records, each trial_key once, and
# its first K lines are the ones finished before the fault (md5sum HEAD)
records_kept() {
	same "every planned trial recorded once ($4)" "$(jq -r .trial_key "$1" | sort | uniq -d | wc -l),$(wc -l <"$1")" "0,$4"
	same "the records finished before the fault kept byte for byte" "$(head -n "$2" "$1" | md5sum)" "$3"
}

# hit SIG PID COMMAND DIR: SIGINT or SIGKILL where the sweep or confsweep
# (COMMAND) PID, writing into DIR (its stderr in DIR.err), stopped itself, on
# the cluster $D, port $P, whose settings were $settings. Interrupted, it
# must exit 1, say how to finish and have put the settings back itself;
# killed, it leaves its settings journal for the next command.
hit() {
	if [ "$1" = INT ]; then
		interrupt "$2"
		same "the interrupted $3 exits 1" "$?" 1
		ok "it says how to finish" grep "interrupted; finished trials are in $4; finish with: eicbench $3 --resume $4" "$4.err"
		same "it put the settings back itself" "$(settings_of "$D" $P)" "$settings"
	else
		slay "$2"
		ok "the killed $3 left its journal" test -f "$D/eicbench-settings.journal"
	fi
}
