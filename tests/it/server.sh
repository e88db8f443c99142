# The managed cluster: init, start, status, cold, stop; external mode; bad input.
. tests/it/lib.sh
plan 60
D=$T/pg
P=54391

fails 2 "not a PostgreSQL cluster" "start on a missing cluster is refused" "$EB" server start --datadir "$T/none"
mkdir "$T/junk" && touch "$T/junk/file"
fails 2 "not empty, and is not a PostgreSQL cluster" "init on a non-empty non-cluster is refused" "$EB" server init --datadir "$T/junk"
fails 2 "is not a PostgreSQL cluster" "cold on a non-cluster is refused" "$EB" server cold --datadir "$T/junk"
fails 2 "holds no PostgreSQL server binaries" "a --pgbin without binaries is refused" "$EB" server init --datadir "$T/x" --pgbin /nonexistent
fails 2 "port.*70000" "an out-of-range port is refused" "$EB" server init --datadir "$T/x" --port 70000
fails 2 "unknown action 'frobnicate'" "an unknown action is refused" "$EB" server frobnicate
fails 2 "unknown option '--nope'" "an unknown option is refused" "$EB" server status --nope
long=$T/$(printf 'd%.0s' $(seq 1 120))
fails 2 "must be at most" "a data directory too long for the socket is refused" "$EB" server init --datadir "$long"
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 700 "$T/private"
	fails 2 "cannot write it" "a data directory the server's user cannot reach is refused" "$EB" server init --datadir "$T/private/pg"
	absent "nothing half-made is left there" "$T/private/pg/PG_VERSION"
else
	skip "a data directory the server's user cannot reach is refused" "not root: the server runs as this user"
	skip "nothing half-made is left there" "not root: the server runs as this user"
fi

says "init" "^initialized $D (PostgreSQL" "$EB" server init --datadir "$D" --port $P
fails 2 "already holds a cluster made by eicbench" "a second init is refused" "$EB" server init --datadir "$D"
cleanup_dirs="$D"
says "start" "^running: pid" "$EB" server start --datadir "$D"
says "start again is harmless" "^running: pid" "$EB" server start --datadir "$D"
same "socket is in the data directory" "$(test -S "$D/.s.PGSQL.$P" && echo yes)" yes
same "no TCP listener on the port" "$(grep -ci ":$(printf '%04X' $P) .* 0A " /proc/net/tcp /proc/net/tcp6 | awk -F: '{s+=$2} END {print s}')" 0
same "status says running" "$("$EB" server status --datadir "$D" --json | jq -r .running)" true
same "server answers" "$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c 'select 1')" 1
same "status carries the server's version number" "$("$EB" server status --datadir "$D" --json | jq -r .server.server_version_num)" "$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c 'show server_version_num')"
same "the recorded data checksums match the server's" "$("$EB" server status --datadir "$D" --json | jq -r '[.data_checksums, .server.data_checksums] | map(tostring) | join(" ")')" "$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c "select case when current_setting('data_checksums') = 'on' then 'true true' else 'false false' end")"
fails 2 "chosen at init" "--checksums outside init is refused" "$EB" server start --datadir "$D" --checksums on
fails 2 "give one of them" "--pg with --pgbin is refused" "$EB" server status --datadir "$D" --pg 15 --pgbin /usr/lib/postgresql/15/bin
fails 2 "no PostgreSQL 97 binaries found.*scripts/build-pg.sh 97" "--pg of a version not here says how to build it" "$EB" server init --datadir "$T/v97" --pg 97
fails 2 "give on or off" "a bad --checksums is refused" "$EB" server init --datadir "$T/sums" --checksums maybe
absent "nothing was made for it" "$T/sums"
says "init with --checksums on" "data checksums on" "$EB" server init --datadir "$T/sums" --port 54396 --checksums on
same "checksums on is recorded" "$(jq -r .data_checksums "$T/sums/eicbench.json")" true

psql -X -q -h "$D" -p $P -U postgres -d postgres -c "create table warm as select g from generate_series(1, 200000) g; select count(*) from warm" >/dev/null
f=$D/$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c "select pg_relation_filepath('warm')")
resident() { fincore --noheadings --output PAGES "$1" | tr -d ' '; }
same "a table just read is in the page cache" "$( [ "$(resident "$f")" -gt 0 ] && echo yes)" yes
pid0=$(head -1 "$D/postmaster.pid")
j=$("$EB" server cold --datadir "$D" --json)
same "cold cycle reports its method" "$(echo "$j" | jq -r .method)" "$([ "$(id -u)" -eq 0 ] && echo drop_caches || echo fadvise)"
same "cold cycle times every step" "$(echo "$j" | jq '.stop_ms > 0 and .start_ms > 0 and .ready_ms > 0 and .total_ms >= .stop_ms + .sync_ms + .drop_ms + .start_ms + .ready_ms - 1')" true
same "after cold the table is out of the page cache" "$(resident "$f")" 0
same "cold restarted the server (new postmaster)" "$( [ "$pid0" != "$(head -1 "$D/postmaster.pid")" ] && echo yes)" yes
same "server answers after cold" "$(psql -X -At -h "$D" -p $P -U postgres -d postgres -c 'select 2')" 2

# An external server: never restarted without a restart command.
DSN="host=$D port=$P user=postgres dbname=postgres"
fails 2 "cannot be made cold without --restart-cmd" "cold of a --dsn server without a restart command is refused" "$EB" server cold --dsn "$DSN"
fails 2 "is for a server given with --dsn" "--restart-cmd without --dsn is refused" "$EB" server cold --datadir "$D" --restart-cmd /bin/true
fails 2 "not managed by eicbench" "stop of a --dsn server is refused" "$EB" server stop --dsn "$DSN"
says "status of a --dsn server" "^external server: accepting connections, version" "$EB" server status --dsn "$DSN"
pid1=$(head -1 "$D/postmaster.pid")
says "cold of a --dsn server through its restart command" "^total " "$EB" server cold --dsn "$DSN" --restart-cmd "$EB server restart --datadir '$D'"
pid2=$(head -1 "$D/postmaster.pid")
same "the restart command ran (new postmaster)" "$( [ "$pid1" != "$pid2" ] && echo yes)" yes
fails 1 "restart-cmd failed" "a failing restart command is reported" "$EB" server cold --dsn "$DSN" --restart-cmd /bin/false
mkdir "$T/bin" && printf '#!/bin/sh\nexec "%s" server restart --datadir "%s"\n' "$EB" "$D" >"$T/bin/restart-it" && chmod +x "$T/bin/restart-it"
pid1=$(head -1 "$D/postmaster.pid")
says "a restart command found on PATH" "^total " env PATH="$T/bin:$PATH" "$EB" server cold --dsn "$DSN" --restart-cmd "restart-it"
same "it ran (new postmaster)" "$( [ "$pid1" != "$(head -1 "$D/postmaster.pid")" ] && echo yes)" yes
fails 2 "not an executable program" "a restart command that does not exist is refused up front" "$EB" server cold --dsn "$DSN" --restart-cmd "no-such-restart-prog now"
fails 2 "not a valid connection string" "a malformed --dsn is refused without quoting it" "$EB" server status --dsn "postgresql://u:s3cret%zz@h/db"
out=$("$EB" server status --dsn "postgresql://u:s3cret%zz@h/db" 2>&1)
same "the password is not echoed (the refusal is)" "$(echo "$out" | grep -c s3cret),$(echo "$out" | grep -c 'not a valid connection string')" 0,1

# A port in use: a second TCP cluster on the same port is refused.
says "init with TCP" "^initialized $T/tcp1" "$EB" server init --datadir "$T/tcp1" --port 54392 --listen 127.0.0.1
cleanup_dirs="$cleanup_dirs $T/tcp1"
says "start with TCP" "^running: pid" "$EB" server start --datadir "$T/tcp1"
fails 2 "in use" "a port in use is refused" "$EB" server init --datadir "$T/tcp2" --port 54392 --listen 127.0.0.1

fails 2 "--timeout: .100000. is not allowed; give a duration from 1ms to 24h" "an unbounded timeout is refused" "$EB" server status --datadir "$D" --timeout 100000
fails 2 "quotes, commas and backslashes" "a data directory with a quote is refused" "$EB" server init --datadir "$T/it's"

says "stop" "^stopped (pid" "$EB" server stop --datadir "$D"
sleep 300 &
other=$!
echo "$other" >"$D/postmaster.pid"
same "a stale pid file naming another program: stopped" "$("$EB" server status --datadir "$D" --json | jq -r .running)" false
says "stop leaves the other program alone" "^not running$" "$EB" server stop --datadir "$D"
same "the other program still runs" "$(kill -0 $other 2>/dev/null && echo alive)" alive
kill $other
rm -f "$D/postmaster.pid"
same "status says stopped" "$("$EB" server status --datadir "$D" --json | jq -r .running)" false
printf 'bogus_setting_xyz = 1\n' >>"$D/postgresql.conf"
fails 1 "bogus_setting_xyz" "a failed start shows the server log" "$EB" server start --datadir "$D" --timeout 20

# As root, the data directory is the server user's: what that user writes
# there must not make eicbench run anything as root or as another user.
if [ "$(id -u)" -eq 0 ]; then
	sed -i '/bogus_setting_xyz/d' "$D/postgresql.conf"
	mkdir -p "$T/evil" && chmod 755 "$T/evil"
	printf '#!/bin/sh\nid -u >>"%s/evil/ran"\nexit 1\n' "$T" >"$T/evil/postgres"
	cp "$T/evil/postgres" "$T/evil/initdb" && chmod 755 "$T/evil/postgres" "$T/evil/initdb"
	: >"$T/evil/ran" && chmod 666 "$T/evil/ran"
	m=$D/eicbench.json
	su postgres -s /bin/sh -c "jq '.user = \"daemon\" | .bindir = \"$T/evil\"' '$m' >'$D/m.new' && cat '$D/m.new' >'$m' && rm '$D/m.new'"
	"$EB" server status --datadir "$D" >/dev/null 2>&1
	same "a marker the server's user rewrote never runs its programs as root" "$(grep -c '^0$' "$T/evil/ran")" 0
	same "nor as the user it names" "$(grep -c "^$(id -u daemon)\$" "$T/evil/ran")" 0
	before=$(md5sum </etc/hostname)
	su postgres -s /bin/sh -c "rm -f '$D/eicbench.lock' && ln -s /etc/hostname '$D/eicbench.lock'"
	fails 2 "is a symbolic link; it is not followed" "a lock file the server's user made a link is refused" \
		"$EB" server start --datadir "$D" --timeout 20
	same "what it pointed at is untouched" "$(md5sum </etc/hostname)" "$before"
	rm -f "$D/eicbench.lock"
else
	for d in "a marker the server's user rewrote never runs its programs as root" "nor as the user it names" \
		"a lock file the server's user made a link is refused" "what it pointed at is untouched"; do
		skip "$d" "not root: there is no other user to steer"
	done
fi
