# A stale postmaster.pid: the managed cluster's postmaster was killed and
# its pid now names a live process of another program, or the postmaster of
# another cluster (run from the same binaries). server status, stop, cold
# and start must not take it for the cluster's server: nothing is signalled,
# the cluster is reported stopped, and start and cold start it.
. tests/it/lib.sh
plan 28
D=$T/pg
P=54464
cluster pg $P
cluster other $((P + 1))
q() { sql "$D" $P "$1"; }
says "a database for the suite" "^data set: test, major 0..1000 (1001 rows)" "$EB" load --datadir "$D" --rows 1000
st() { "$EB" server status --datadir "$D" --json | jq -r '"\(.running) \(.pid)"'; }
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)

# stale PID: kill the cluster's postmaster outright and wait for its
# processes to go; its lock files (postmaster.pid, the socket's .lock) stay,
# and are made to name PID, as when the pid has been reused
stale() {
	pm=$(head -n 1 "$D/postmaster.pid")
	kill -KILL "$pm"
	i=0
	while [ -n "$(ps -o pid= --ppid "$pm" 2>/dev/null)" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	while [ -n "$(pgrep -f "postgres -D $D" 2>/dev/null)" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
	for f in "$D/postmaster.pid" "$D/.s.PGSQL.$P.lock"; do
		sed -i "1s/.*/$1/" "$f"
	done
}

# survives NAME PID: the checks of one stale pid file naming PID
survives() {
	stale "$2"
	same "status: stopped" "$(st)" "false 0"
	says "stop: not running, nothing signalled" "^not running$" "$EB" server stop --datadir "$D"
	same "$1 still runs" "$(ps -o stat= -p "$2" | cut -c1 | tr -d 'ZX')" S
	says "cold starts the cluster" "^ready " "$EB" server cold --datadir "$D"
	same "status: running, its own postmaster" "$(st | awk -v o="$2" '{ print $1, ($2 != o && $2 > 0) }')" "true 1"
	same "$1 still runs" "$(ps -o stat= -p "$2" | cut -c1 | tr -d 'ZX')" S
	stale "$2"
	says "start starts the cluster" "^running: pid" "$EB" server start --datadir "$D"
	same "status: running, its own postmaster" "$(st | awk -v o="$2" '{ print $1, ($2 != o && $2 > 0) }')" "true 1"
	same "$1 still runs" "$(ps -o stat= -p "$2" | cut -c1 | tr -d 'ZX')" S
	same "the cluster answers" "$(q 'select 1')" 1
	unchanged "$D" $P "$settings" "$data"
}

fault "a stale postmaster.pid naming a live process of another program"
# the server's own user: postgres itself takes such a pid for a live postmaster
if [ "$(id -u)" = 0 ]; then
	setpriv --reuid postgres --regid postgres --clear-groups sleep 300 &
else
	sleep 300 &
fi
other=$!
survives "the other program" $other
kill $other 2>/dev/null
held

fault "a stale postmaster.pid naming the postmaster of another cluster"
opm=$(head -n 1 "$T/other/postmaster.pid")
survives "the other cluster's postmaster" "$opm"
same "the other cluster answers, its postmaster the same" \
	"$(psql -X -At -h "$T/other" -p $((P + 1)) -U postgres -d postgres -c 'select 1') $(head -n 1 "$T/other/postmaster.pid")" "1 $opm"
held

[ "$nfail" -eq 0 ]
