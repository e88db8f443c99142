# lib.sh: helpers for the integration tests. Each test makes a throwaway
# folder the server's user can reach, runs the real eicbench against a real
# cluster in it, and prints TAP lines: its plan ("1..N", from `plan N` at
# the top), then one "ok" / "not ok" line per check, a check that cannot
# run here as "ok N - what # SKIP why". On exit a script whose checks do
# not match its plan, or any of which failed, exits 1.
EB=${EB:-$(pwd)/eicbench}
# The host's free page reporting is left as it is (tests/it/pagereport.sh
# checks the pause, which gives memory back first: seconds for each sweep).
export EICBENCH_PAGE_REPORTING=keep
# Under sudo, --out is checked as the user who ran sudo, and what is
# written is given to them; the tests write into their own root's folders,
# so they run as plain root (tests/it/input.sh sets these itself).
unset SUDO_UID SUDO_GID
T=$(mktemp -d /var/tmp/eicbench-it.XXXXXX)
chmod 755 "$T"
n=0            # checks made, of every kind
npass=0        # of those, passed (skips not counted)
nfail=0
nskip=0
planned=
cleanup_dirs=""
cleanup_mounts=""

cleanup() {
	for d in $cleanup_dirs; do
		"$EB" server stop --datadir "$d" >/dev/null 2>&1
	done
	for m in $cleanup_mounts; do
		umount "$m" 2>/dev/null
	done
	if [ -n "${IT_KEEP:-}" ]; then
		echo "# IT_KEEP: the test's files are kept in $T"
	else
		rm -rf "$T"
	fi
}

# At exit: the faults' count, the plan against the checks made, the status.
finish() {
	_rc=$?
	[ "$announced" -eq 0 ] || [ -n "$summarized" ] || faults_summary
	cleanup
	if [ -z "$planned" ]; then
		echo "# $0: no plan: give the number of checks with 'plan N' at the top"
		exit 1
	fi
	if [ "$n" -ne "$planned" ]; then
		echo "# $0: planned $planned checks, made $n"
		exit 1
	fi
	[ "$nfail" -eq 0 ] || exit 1
	exit "$_rc"
}
trap finish EXIT

# plan N: this script makes N checks (skipped ones included). Once, at the
# top; scripts/run-tests.sh fails a script whose "ok" / "not ok" lines are
# not N, naming both counts. Adding checks, raise N by as many (when two
# changes each raised it, add both raises); a check that runs only on some
# machines needs a skip line on the others, so that N holds everywhere.
plan() {
	planned=$1
	echo "1..$1"
}

# pass DESC, flunk DESC [DETAIL], skip DESC WHY: one check's line
pass() {
	n=$((n + 1)); npass=$((npass + 1))
	echo "ok $n - $1"
}
flunk() {
	n=$((n + 1)); nfail=$((nfail + 1))
	echo "not ok $n - $1"
	[ -z "${2:-}" ] || printf "%s\n" "$2" | sed 's/^/#   /'
}
skip() {
	n=$((n + 1)); nskip=$((nskip + 1))
	echo "ok $n - $1 # SKIP $2"
}

# skip_n N DESC WHY: N checks (of DESC) that cannot run here
skip_n() {
	_k=0
	while [ "$_k" -lt "$1" ]; do
		_k=$((_k + 1))
		skip "$2 (check $_k of $1)" "$3"
	done
}

# skip_rest WHY: every check of the plan not made yet cannot run here
skip_rest() {
	while [ "$n" -lt "$planned" ]; do
		skip "check $((n + 1)) of $planned" "$1"
	done
}

# need_fuse: true where an emulated device can be mounted here (/dev/fuse,
# fusermount3, root: the emulator mounts with allow_other); else every check
# left in the plan is skipped with the reason, and false
need_fuse() {
	if [ ! -c /dev/fuse ]; then
		_why="no /dev/fuse"
	elif ! command -v fusermount3 >/dev/null 2>&1; then
		_why="no fusermount3"
	elif [ "$(id -u)" -ne 0 ]; then
		_why="not root (the emulator mounts with allow_other)"
	else
		return 0
	fi
	skip_rest "$_why"
	return 1
}

# emulated NAME: the mount point $M and the tmpfs backing $B of an
# emulated device (eicbench device emulate); at the end the cluster in $D
# stops first, then the mount and the backing go, then lib.sh's own end
# (plan, status). tmpfs: the backing reads, which the model overlaps, never
# wait for this machine's disk.
emulated() {
	M=$T/emu
	B=/dev/shm/eicbench-$1.$$
	mkdir -p "$B" "$M"
	trap 'rc=$?; emulated_cleanup; (exit $rc); finish' EXIT
}
emulated_cleanup() {
	"$EB" server stop --datadir "$D" >/dev/null 2>&1
	umount -l "$M" 2>/dev/null
	rm -rf "$B"
}

# ok DESCRIPTION COMMAND...: the command must succeed. When its success is
# all there is to look at, use says instead, naming what it must print.
ok() {
	_desc=$1; shift
	if _out=$("$@" 2>&1); then
		pass "$_desc"
	else
		flunk "$_desc" "$_out"
	fi
}

# says DESCRIPTION PATTERN COMMAND...: the command succeeds and its
# standard output has a line matching PATTERN (grep's basic expression)
says() {
	_desc=$1; _pat=$2; shift 2
	"$@" >"$T/.says.out" 2>"$T/.says.err"
	_rc=$?
	if [ "$_rc" -eq 0 ] && grep -q -- "$_pat" "$T/.says.out"; then
		pass "$_desc"
	else
		flunk "$_desc (exit $_rc, wanted 0 and /$_pat/ on stdout)" \
			"$(sed 's/^/stdout: /' "$T/.says.out"; sed 's/^/stderr: /' "$T/.says.err")"
	fi
}

# says_err DESCRIPTION PATTERN COMMAND...: the command succeeds and its
# standard error has a line matching PATTERN (for commands that report
# there: load, export, a sweep's progress)
says_err() {
	_desc=$1; _pat=$2; shift 2
	fails 0 "$_pat" "$_desc" "$@"
}

# fails STATUS PATTERN DESCRIPTION COMMAND...: exit STATUS and a line of
# its standard error matching PATTERN
fails() {
	_want=$1; _pat=$2; _desc=$3; shift 3
	"$@" >"$T/.fails.out" 2>"$T/.fails.err"
	_rc=$?
	if [ "$_rc" -eq "$_want" ] && grep -q -- "$_pat" "$T/.fails.err"; then
		pass "$_desc"
	else
		flunk "$_desc (exit $_rc, wanted $_want and /$_pat/ on stderr)" \
			"$(sed 's/^/stdout: /' "$T/.fails.out"; sed 's/^/stderr: /' "$T/.fails.err")"
	fi
}

# same DESCRIPTION GOT WANT: GOT is WANT, and not nothing (two empty
# captures are a failure: say what should be there, or use absent)
same() {
	if [ -z "$2" ] && [ -z "$3" ]; then
		flunk "$1: got nothing, and nothing was wanted: the check cannot fail"
	elif [ "$2" = "$3" ]; then
		pass "$1"
	else
		flunk "$1: got '$2', wanted '$3'"
	fi
}

# absent DESCRIPTION PATH...: none of the paths exists, though the folder
# each would be in does
absent() {
	_desc=$1; shift
	for _p in "$@"; do
		if [ ! -d "$(dirname "$_p")" ]; then
			flunk "$_desc: the folder of $_p is not there either"; return
		elif [ -e "$_p" ] || [ -L "$_p" ]; then
			flunk "$_desc: $_p is there"; return
		fi
	done
	pass "$_desc"
}

# medians FILE KEY FIGURE [FORMAT]: for each value of KEY (a jq path)
# among the records of FILE (query trials only: priming and replay trials left out, as every report
# leaves them), the median of FIGURE (a jq path) over its records, as
# "value:median" (the median printed with FORMAT, default %.1f), a line
# each in the values' numeric order: the test's own figure, to hold a
# report's against
medians() {
	jq -s -r "def median: sort | if length % 2 == 1 then .[(length - 1) / 2] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		map(select(.priming != true and .workload == null)) | group_by($2) | .[] | [(.[0] | $2), (map($3) | median)] | @tsv" "$1" |
		sort -n | awk -F '\t' -v fmt="${4:-%.1f}" '{ printf "%s:" fmt "\n", $1, $2 }'
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
# fault NAME ... held: one fault. It was injected and survived when a check
# between the two passed and none failed; injected and not survived when
# one failed; skipped (not injected) when every check between them was
# skipped. The script's last line counts them; scripts/run-tests.sh adds
# them up.
announced=0
injected=0
survived=0
fskipped=0
fault_open=
summarized=
fault() {
	[ -z "$fault_open" ] || held
	announced=$((announced + 1))
	fault_open=1
	fault_fail0=$nfail
	fault_pass0=$npass
	echo "# fault $announced: $1"
}
held() {
	[ -n "$fault_open" ] || return 0
	fault_open=
	if [ "$nfail" -gt "$fault_fail0" ]; then
		injected=$((injected + 1))
	elif [ "$npass" -eq "$fault_pass0" ]; then
		fskipped=$((fskipped + 1))
	else
		injected=$((injected + 1)); survived=$((survived + 1))
	fi
}
faults_summary() {
	held
	summarized=1
	echo "# faults injected: $injected, survived: $survived, skipped: $fskipped"
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
# set, whole (as dataset_of says, or the function named by $dataset_fn).
# SETTINGS and DATASET are the captures taken before the fault; an empty or
# failed capture, before or after, fails.
unchanged() {
	_now=$(settings_of "$1" "$2")
	if [ "$_now" = "$3" ] && printf '%s\n' "$_now" | grep -q '^fsync='; then
		pass "the server's settings as they were (SHOW, postgresql.auto.conf)"
	else
		printf '%s\n' "$3" >"$T/settings.want"
		flunk "the server's settings as they were (SHOW, postgresql.auto.conf)" \
			"$(printf '%s\n' "$_now" | diff "$T/settings.want" -)"
	fi
	absent "no settings journal left" "$1/eicbench-settings.journal"
	same "the same data set, whole" "$("${dataset_fn:-dataset_of}" "$1" "$2")" "$4"
}

# records_kept FILE K HEAD N: FILE holds N records, each trial_key once, and
# its first K lines (K > 0) are the ones finished before the fault (HEAD:
# their md5sum, taken before it)
records_kept() {
	same "every planned trial recorded once ($4)" "$(jq -r .trial_key "$1" | sort -u | wc -l),$(wc -l <"$1")" "$4,$4"
	if [ "$2" -gt 0 ] && [ "$3" != "$(printf '' | md5sum)" ]; then
		same "the $2 record(s) finished before the fault kept byte for byte" "$(head -n "$2" "$1" | md5sum)" "$3"
	else
		flunk "the records finished before the fault kept byte for byte: none was finished ($2)"
	fi
}

# hit SIG PID COMMAND DIR: SIGINT or SIGKILL where the sweep or confsweep
# (COMMAND) PID, writing into DIR (its stderr in DIR.err), stopped itself, on
# the cluster $D, port $P, whose settings were $settings. Interrupted, it
# must exit 130 (128 + SIGINT), say how to finish and have put the settings back itself;
# killed, it leaves its settings journal for the next command.
hit() {
	if [ "$1" = INT ]; then
		interrupt "$2"
		same "the interrupted $3 exits 130 (128 + SIGINT)" "$?" 130
		ok "it says how to finish" grep "interrupted; finished trials are in $4; finish with: eicbench $3 --resume $4" "$4.err"
		same "it put the settings back itself" "$(settings_of "$D" $P)" "$settings"
	else
		slay "$2"
		ok "the killed $3 left its journal" test -f "$D/eicbench-settings.journal"
	fi
}
