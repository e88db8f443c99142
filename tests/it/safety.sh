# Safe as root on the server's side: a folder given as --tablespace-dir is
# checked before anything is changed in it (a refused folder keeps its
# owner and mode); server init takes the cluster's lock, and a command
# refused because another holds it exits 3 (busy); the postmaster takes
# none of eicbench's secrets or client variables from its environment.
. tests/it/lib.sh
plan 16
D=$T/pg
P=54470
cluster pg $P
q() { sql "$D" $P "$1"; }

# A folder that is not empty, root's, given as --tablespace-dir: refused,
# and left as it was (not given to the server's user first).
if [ "$(id -u)" -eq 0 ]; then
	mkdir -m 750 "$T/full"
	echo keep >"$T/full/keep"
	before=$(stat -c '%U:%G %a' "$T/full")
	fails 2 "--tablespace-dir '$T/full': the folder is not empty" \
		"a non-empty folder as --tablespace-dir is refused (exit 2)" \
		"$EB" load --datadir "$D" --rows 1000 --tablespace-dir "$T/full"
	same "its owner and mode are unchanged" "$(stat -c '%U:%G %a' "$T/full")" "$before"
	same "and nothing was made in it or in the catalog" "$(ls -A "$T/full" | tr '\n' ' ')$(q 'select count(*) from pg_tablespace')" "keep 2"
else
	skip_n 3 "a root folder given as --tablespace-dir" "not root"
fi
# Where the server's user cannot pass: refused, nothing made.
mkdir -m 700 "$T/closed"
fails 2 "--tablespace-dir '$T/closed/ts': the server's user postgres cannot reach it" \
	"a folder the server's user cannot reach is refused" \
	"$EB" load --datadir "$D" --rows 1000 --tablespace-dir "$T/closed/ts"
same "and nothing was made there" "$(ls -A "$T/closed" | wc -l)" 0
# A missing folder in one that is there: made, the server's, a tablespace.
says "a missing folder is made and the data set put there" "^data set: test" \
	"$EB" load --datadir "$D" --rows 1000 --tablespace-dir "$T/ts"
same "it is the server's user's and holds the data set" \
	"$(stat -c %U "$T/ts"),$(q "select t.spcname from pg_class c join pg_tablespace t on t.oid = c.reltablespace where c.relname = 'test'")" "postgres,eicbench_ts"

# The cluster held by a cold restart stopped with the server down: server
# init and server stop are refused as busy (exit 3), naming the holder,
# which then finishes.
EICBENCH_FAULT=server:cold "$EB" server cold --datadir "$D" >/dev/null 2>"$T/cold.err" &
cp=$!
if stopped_at $cp; then
	fails 3 "the cluster in $D is in use: held by pid $cp, .*eicbench server cold" \
		"server init on a held cluster is refused as busy (exit 3), naming the holder" \
		"$EB" server init --datadir "$D" --port $P
	fails 3 "is in use: held by pid $cp" "so is server stop" "$EB" server stop --datadir "$D"
	kill -CONT $cp
	wait $cp
	same "the holder finishes" "$?" 0
	same "the cluster is its own: running, the data set there" "$(q 'select count(*) from public.test')" 1001
else
	same "the cold restart got to its stop" "$(cat "$T/cold.err")" "(stopped there)"
	skip_n 3 "a held cluster" "the holder did not get there"
fi

# Started with secrets and libpq's client variables in the environment: the
# postmaster has PATH and the locale, none of those.
ok "the server restarted with secrets in the environment" env EICBENCH_SECRET_MARKER=x1 SSH_AUTH_SOCK=/tmp/agent.x1 \
	PGPASSWORD=x1 PGHOST=/nowhere AWS_SECRET_ACCESS_KEY=x1 LANG=C.UTF-8 "$EB" server restart --datadir "$D"
pm=$(head -n 1 "$D/postmaster.pid")
tr '\0' '\n' <"/proc/$pm/environ" >"$T/pm.env"
same "the postmaster's environment: PATH and LANG kept, no secret, no PG* variable" \
	"$(grep -c -e '^PATH=' -e '^LANG=C.UTF-8$' "$T/pm.env"),$(grep -c -e EICBENCH_SECRET_MARKER -e SSH_AUTH_SOCK -e '^PG' -e '^AWS_' "$T/pm.env")" "2,0"

# A value of a restart setting the server rejects: refused (exit 2) before
# anything runs, and the server not restarted to put it back.
started=$(q 'select pg_postmaster_start_time()')
cp "$D/postgresql.auto.conf" "$T/auto.before"
for v in bogus 1; do
	fails 2 "shared_buffers: the server rejects '$v'" "sweep --set shared_buffers=$v is refused (exit 2)" \
		"$EB" sweep --datadir "$D" --eic 1 --set shared_buffers=$v --runs 1 --no-cache-check --out "$T/bad-$v"
done
same "the server was not restarted, postgresql.auto.conf as it was, no journal" \
	"$(q 'select pg_postmaster_start_time()'),$(cmp -s "$D/postgresql.auto.conf" "$T/auto.before" && echo same),$(ls "$D" | grep -c journal)" \
	"$started,same,0"
