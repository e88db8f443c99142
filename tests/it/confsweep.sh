# Whole-configuration sweeps on a real throwaway cluster: a sweep file whose
# steps change a restart setting, a reload one and a session one; every run
# saw its step's settings; the server's own settings back at the end, also
# after Ctrl-C and after the sweep is killed; resume; a --set grid; the cold
# bitmap workload from the shipped file; bad input refused before anything
# changes.
. tests/it/lib.sh
plan 85
D=$T/pg
P=54440
cluster pg $P
q() { sql "$D" $P "$1"; }
show() { q "select current_setting('shared_buffers') || ' ' || current_setting('checkpoint_completion_target') || ' ' || current_setting('commit_delay')"; }
auto() { grep -v '^#' "$D/postgresql.auto.conf" | sort | tr '\n' ';'; }
# cell FILE STEP COLUMN: in the steps table of a report's text (FILE), the
# cell of STEP's row under the heading COLUMN
cell() {
	awk -v step="$2" -v col="$3" '
		function cells(s, a) { sub(/^ +/, "", s); sub(/ +$/, "", s); return split(s, a, /  +/) }
		/what it set/ && /x previous/ { nh = cells($0, h); for (i = 1; i <= nh; i++) if (h[i] == col) c = i; on = 1; next }
		on && NF == 0 { on = 0 }
		on && c { cells($0, r); if (r[1] == step) print r[c] }' "$1"
}

# pgbench's tables, and the server's own settings that the sweeps must put back.
says_err "pgbench's tables at scale 1" "^scale 1: pgbench_accounts" "$EB" tpcb init --datadir "$D" -s 1
q "alter system set checkpoint_completion_target = 0.8" >/dev/null
q "select pg_reload_conf()" >/dev/null
sleep 0.3
before_show=$(show)
before_auto=$(auto)
same "the server starts with its own settings" "$before_show" "128MB 0.8 0"

cat >"$T/two.ini" <<'EOF'
; two steps after the server's own settings
[sweep]
mode = cumulative
scale = 1
clients = 2
jobs = 1
duration = 1s
warmup = 0
runs = 2

[defaults]

[shared_buffers 64MB]
shared_buffers = 64MB

[commit_delay 10]
commit_delay = 10
checkpoint_completion_target = 0.5
work_mem = 8MB
EOF

says "a two-step sweep" "^Written to $T/c1: report.md" "$EB" confsweep "$T/two.ini" --datadir "$D" --order-seed 7 --out "$T/c1"
R=$T/c1/trials.jsonl
same "two runs of each of three steps" "$(jq -r .step "$R" | sort | uniq -c | awk '{print $1}' | tr '\n' ,)" "2,2,2,"
same "each round runs every step once" "$(jq -r 'select(.round == 1) | .step' "$R" | sort | tr '\n' ,)" "commit_delay 10,defaults,shared_buffers 64MB,"
same "the defaults step ran with the server's own settings" \
	"$(jq -r 'select(.step == "defaults") | .in_force | [.shared_buffers, .checkpoint_completion_target, .commit_delay, .work_mem] | @tsv' "$R" | sort -u)" \
	"$(printf '128MB\t0.8\t0\t4MB')"
same "the restart step ran with shared_buffers 64MB" \
	"$(jq -r 'select(.step == "shared_buffers 64MB") | .in_force | [.shared_buffers, .checkpoint_completion_target, .work_mem] | @tsv' "$R" | sort -u)" \
	"$(printf '64MB\t0.8\t4MB')"
same "the last step kept 64MB and ran with its reload and session settings" \
	"$(jq -r 'select(.step == "commit_delay 10") | .in_force | [.shared_buffers, .checkpoint_completion_target, .commit_delay, .work_mem] | @tsv' "$R" | sort -u)" \
	"$(printf '64MB\t0.5\t10\t8MB')"
same "every run did transactions" "$(jq -r '.tpcb.transactions > 0 and .tps > 0' "$R" | sort -u)" true
same "latency percentiles kept" "$(jq -r '.tpcb.latency_ms.p99 >= .tpcb.latency_ms.p50' "$R" | sort -u)" true
same "WAL and checkpointer statistics kept per run" "$(jq -r '(.stats.wal.wal_bytes > 0) and (.stats.bgwriter | has("checkpoints_req"))' "$R" | sort -u)" true
same "a CHECKPOINT before every run" "$(jq -r '.plan.tpcb.checkpoint_before_run' "$T/c1/meta.json")" true
same "the server log of each run kept" "$(jq -r '.log | type' "$R" | sort -u)" array
same "CPU and device sampled" "$(jq -r '(.cpu | type) + " " + (.disk | type)' "$R" | sort -u)" "object object"
same "the server's settings are back" "$(show)" "$before_show"
same "postgresql.auto.conf as it was" "$(auto)" "$before_auto"
same "steps in order in the report" "$(grep -oE '^\| (defaults|shared_buffers 64MB|commit_delay 10) ' "$T/c1/report.md" | tr -d '|' | sed 's/ *$//;s/^ //' | tr '\n' ,)" \
	"defaults,shared_buffers 64MB,commit_delay 10,"
"$EB" report "$T/c1" >"$T/c1.txt" 2>"$T/c1.err"
same "report rebuilds the table: exit 0, each step's median tps its runs' (computed here)" \
	"$?:$(for st in defaults "shared_buffers 64MB" "commit_delay 10"; do echo "$st:$(cell "$T/c1.txt" "$st" tps)"; done | sort | tr '\n' ,)" \
	"0:$(medians "$R" .step .tps | sort | tr '\n' ,)"
same "each step's x previous is its median over the step before's" \
	"$(cell "$T/c1.txt" "shared_buffers 64MB" "x previous") $(cell "$T/c1.txt" "commit_delay 10" "x previous")" \
	"$(medians "$R" .step .tps %.17g | awk -F: '{ m[$1] = $2 } END { printf "%.2f %.2f", m["shared_buffers 64MB"] / m["defaults"], m["commit_delay 10"] / m["shared_buffers 64MB"] }')"
ok "report.html written, a page" grep -q '</html>' "$T/c1/report.html"
if command -v gnuplot >/dev/null; then
	ok "a plot of tps per step" grep -q '</svg>' "$T/c1/steps.svg"
else
	skip "a plot of tps per step" "gnuplot is not installed"
fi

# A warning the server logs during a run is kept with that run.
cat >"$T/warn.ini" <<'EOF'
[sweep]
scale = 1
clients = 2
jobs = 1
duration = 6s
warmup = 0
runs = 1
[one]
work_mem = 8MB
EOF
q 'truncate pgbench_history' >/dev/null   # rows appear again once the measured run is under way
"$EB" confsweep "$T/warn.ini" --datadir "$D" --out "$T/cw" >/dev/null 2>&1 &
cp=$!
i=0
while [ "$(q 'select count(*) > 0 from pgbench_history' 2>/dev/null)" != t ] && [ $i -lt 1200 ]; do
	sleep 0.05; i=$((i + 1))
done
q "do \$\$ begin raise warning 'eicbench-it marker'; end \$\$" >/dev/null 2>&1
wait $cp
same "the sweep with a warning finished" "$?" 0
same "the warning is in its run's record" "$(jq -r '[.warnings, (.log | map(select(test("WARNING:  eicbench-it marker"))) | length)] | @tsv' "$T/cw/trials.jsonl")" \
	"$(printf '1\t1')"
ok "the report lists it" grep -q "eicbench-it marker" "$T/cw/report.md"

# ---- interrupted ----------------------------------------------------------
# Ctrl-C as the fourth run's settings are written (EICBENCH_FAULT stops the
# sweep there): the first round, every step once, is done and taken down
# before the signal.
EICBENCH_FAULT=runner:settings@4 "$EB" confsweep "$T/two.ini" --datadir "$D" --runs 3 -T 2s --out "$T/c2" >/dev/null 2>"$T/c2.err" &
cp=$!
if stopped_at $cp; then
	same "a round finished when the sweep is stopped" "$(jq -r .step "$T/c2/trials.jsonl" | sort | tr '\n' ,)" "commit_delay 10,defaults,shared_buffers 64MB,"
else
	same "the sweep got to its fourth run" "$(cat "$T/c2.err")" "(stopped there)"
fi
head=$(md5sum <"$T/c2/trials.jsonl")
interrupt $cp
same "an interrupted sweep exits 130 (128 + SIGINT)" "$?" 130
ok "it says how to resume" grep -q "eicbench confsweep --resume $T/c2" "$T/c2.err"
same "settings back after Ctrl-C" "$(show)" "$before_show"
same "postgresql.auto.conf as it was after Ctrl-C" "$(auto)" "$before_auto"
fails 2 "give only the server's options" "--resume with plan options is refused" \
	"$EB" confsweep --resume "$T/c2" --datadir "$D" -c 8
says "resume finishes the plan" "^Written to $T/c2: report.md" "$EB" confsweep --resume "$T/c2" --datadir "$D"
records_kept "$T/c2/trials.jsonl" 3 "$head" 9
same "settings back after the resumed sweep" "$(show)" "$before_show"

# Killed outright in a step with shared_buffers 64MB: the next command puts
# the server's settings back from the journal.
"$EB" confsweep "$T/two.ini" --datadir "$D" --runs 2 -T 3s --out "$T/c3" >/dev/null 2>&1 &
cp=$!
i=0
while [ "$(q "select current_setting('shared_buffers')" 2>/dev/null)" != 64MB ] && [ $i -lt 1200 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -KILL $cp
wait $cp 2>/dev/null
same "the killed sweep left shared_buffers 64MB in force" "$(q "select current_setting('shared_buffers')")" 64MB
says_err "the next command that restarts the server repairs the settings, and says so" "left settings changed; put back: shared_buffers" "$EB" server restart --datadir "$D"
same "settings back after the kill" "$(show)" "$before_show"
same "postgresql.auto.conf as it was after the kill" "$(auto)" "$before_auto"

# ---- a grid from --set -----------------------------------------------------
says "--set makes a grid" "^Written to $T/g: report.md" "$EB" confsweep --datadir "$D" --set work_mem=4MB,16MB --set commit_delay=0,5 \
	--runs 1 -T 1s --warmup 0 -c 2 -j 1 -s 1 --out "$T/g"
same "four combinations" "$(jq -r '.settings | "\(.work_mem)/\(.commit_delay)"' "$T/g/trials.jsonl" | sort | tr '\n' ,)" \
	"16MB/0,16MB/5,4MB/0,4MB/5,"
same "each in force" "$(jq -s 'map(select(.settings.work_mem == .in_force.work_mem and .settings.commit_delay == .in_force.commit_delay)) | length' "$T/g/trials.jsonl")" 4
same "settings back after the grid" "$(auto)" "$before_auto"

# ---- the cold bitmap workload from the shipped file ---------------------------
says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
says "sweeps/eic-cold.ini, one run a step" "^Written to $T/e: report.md" "$EB" confsweep sweeps/eic-cold.ini --datadir "$D" --runs 1 --out "$T/e"
same "five cold runs" "$(jq -r '.cold' "$T/e/trials.jsonl" | sort | uniq -c | awk '{print $1, $2}')" "5 true"
same "each with its effective_io_concurrency" \
	"$(jq -s 'map(select(.settings.effective_io_concurrency == .in_force.effective_io_concurrency)) | length' "$T/e/trials.jsonl")" 5
ok "the bitmap table names the heap phase" grep -q "heap phase" "$T/e/report.md"

# ---- the user's workload: scripts and defines in the sweep file -------------
mkdir -p "$T/w"
q 'create table seen (step text, n int)' >/dev/null
cat >"$T/w/mine.sql" <<'SQL'
\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO seen VALUES ('mine', :n);
SQL
cat >"$T/w/other.sql" <<'SQL'
INSERT INTO seen VALUES ('other', :n);
SQL
cat >"$T/w/load.ini" <<'EOF'
[sweep]
mode = independent
scale = 1
clients = 2
jobs = 1
duration = 1s
warmup = 0
runs = 1
script = mine.sql@3        ; relative to this file's folder
builtin = select-only@1
define = n=5

[defaults]

[work_mem 8MB, its own script]
work_mem = 8MB
script = other.sql
define = n=7
EOF
ok "a sweep whose load is the user's scripts" "$EB" confsweep "$T/w/load.ini" --datadir "$D" --out "$T/c-load"
same "the defaults step ran [sweep]'s scripts with n = 5" \
	"$(jq -r 'select(.step == "defaults") | .tpcb.options.builtin' "$T/c-load/trials.jsonl")/$(q "select count(*) > 0 from seen where step = 'mine' and n = 5")" \
	"$T/w/mine.sql@3 + select-only@1/t"
same "the step with a script of its own ran it alone, with its define" \
	"$(jq -r 'select(.step | startswith("work_mem")) | .tpcb.options.builtin' "$T/c-load/trials.jsonl")/$(q "select count(*) > 0 from seen where step = 'other' and n = 7")/$(q "select count(*) from seen where step = 'other' and n <> 7")" \
	"$T/w/other.sql/t/0"
same "meta.json keeps both loads' texts" "$(jq -r '.plan.tpcb.loads | length' "$T/c-load/meta.json")/$(jq -r '.plan.tpcb.loads[1].scripts[0].text' "$T/c-load/meta.json" | head -1)" \
	"2/INSERT INTO seen VALUES ('other', :n);"
ok "-f and -D on the command line instead" "$EB" confsweep --datadir "$D" --set work_mem=4MB -f "$T/w/other.sql" -D n=9 -c 1 -T 1s --warmup 0 --runs 1 -s 1 --out "$T/c-cli"
same "... ran with them" "$(q "select count(*) > 0 from seen where n = 9")" t
printf '[sweep]\nscript = nothere.sql\n[a]\nwork_mem = 8MB\n' >"$T/w/bad1.ini"
fails 2 "bad1.ini line 2: could not open file" "a script that is not there: the file and line named" \
	"$EB" confsweep "$T/w/bad1.ini" --datadir "$D" --out "$T/bad"
printf '\\set x 1 +\n' >"$T/w/syn.sql"
printf '[a]\nwork_mem = 8MB\nscript = syn.sql\n' >"$T/w/bad2.ini"
fails 2 "bad2.ini line 3: .*syn.sql:1:11: syntax error" "a step's script with a syntax error: both places named" \
	"$EB" confsweep "$T/w/bad2.ini" --datadir "$D" --out "$T/bad"
absent "no folder after the refusals" "$T/bad"

# ---- bad input: exit 2, nothing changed -------------------------------------
bad() {
	printf '%b' "$2" >"$T/bad.ini"
	fails 2 "$3" "$1" "$EB" confsweep "$T/bad.ini" --datadir "$D" --out "$T/bad"
	absent "$1: no folder" "$T/bad"
	same "$1: settings unchanged" "$(auto)" "$before_auto"
}
bad "an unknown setting" '[a]\nwork_mem = 8MB\n[b]\nshared_bufers = 1GB\n' "bad.ini line 4, \[b\]: shared_bufers: the server has no such setting"
bad "a value the server rejects" '[a]\nshared_buffers = 64MB\n[b]\nmax_wal_size = lots\n' "line 4, \[b\]: max_wal_size: the server rejects 'lots'"
bad "an empty file" '' "no step"
bad "a malformed line" '[a]\nwork_mem 8MB\n' "line 2"
bad "an unknown [sweep] option" '[sweep]\nclinets = 4\n[a]\nwork_mem = 8MB\n' "line 2: \[sweep\] has no option 'clinets'"
bad "a [sweep] number out of range" '[sweep]\nclients = 0\n[a]\nwork_mem = 8MB\n' "line 2: clients = 0: give a whole number from 1"
bad "an unknown workload" '[sweep]\nworkload = tpcc\n[a]\nwork_mem = 8MB\n' "workload tpcc"
bad "a read-only setting" '[a]\nblock_size = 16384\n' "block_size"
fails 2 "give one" "a file and --set both given is refused" "$EB" confsweep "$T/two.ini" --set work_mem=1MB --datadir "$D"
fails 2 "give a sweep file" "neither a file nor --set is refused" "$EB" confsweep --datadir "$D"
fails 2 "No such file" "a missing file is refused" "$EB" confsweep "$T/none.ini" --datadir "$D"
fails 2 "needs --restart-cmd" "a restart setting on a --dsn server without a restart command is refused" \
	"$EB" confsweep "$T/two.ini" --dsn "host=$D port=$P user=postgres dbname=eicbench"
same "settings unchanged after the refusals" "$(show)" "$before_show"

[ "$nfail" -eq 0 ]
