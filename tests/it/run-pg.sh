# eicbench run --pg 18: the version asked for reaches every step. The
# cluster it makes, the sweeps' meta.json and every one of their records,
# the probes' records and the verdict are all PostgreSQL 18. run --pg
# 15,18: a run per version, each in a cluster of that version and a folder
# of its own, and a verdict per version saying what the value does there. Runs when a
# built 18 is in the build cache (scripts/build-pg.sh 18); otherwise each
# check is reported as skipped, never as passed.
. tests/it/lib.sh
plan 11
D=$T/pg18
R=$T/r18
cache=$(scripts/build-pg.sh --cache-dir)
bindir=$(scripts/build-pg.sh --cached 18)

checks="run --quick --pg 18, every step|the cluster it made is 18|the running server is 18|every sweep's meta.json says 18|every trial of every sweep ran on 18|the replay trials model 18|the verdict names 18|run --pg 15,18|a folder per version, each measured on its version|a cluster per version|a verdict per version, with what the value does there"
if [ -z "$bindir" ]; then
	IFS='|'
	for d in $checks; do
		skip "$d" "no PostgreSQL 18 build in $cache; scripts/build-pg.sh 18 makes one"
	done
	exit 0
fi

cleanup_dirs="$D"
ok "run --quick --pg 18, every step" "$EB" run --quick --pg 18 --rows 200000 --query blog,sparse --datadir "$D" --port 54419 \
	--eic 0,16 --runs 2 --depths 1 --out "$R"
same "the cluster it made is 18" "$(jq -r '.version | split(".")[0]' "$D/eicbench.json")" 18
same "the running server is 18" "$(sql "$D" 54419 "select current_setting('server_version_num')::int / 10000")" 18
same "every sweep's meta.json says 18" "$(for q in blog sparse; do jq -r '.server.version_num / 10000 | floor' "$R/sweep-$q/meta.json"; done | sort -u)" 18
# 8 query trials at least (2 values, 2 rounds, 2 queries); a round with a
# run flagged as disturbed adds one, so the count is not fixed
same "every trial of every sweep ran on 18" "$(cat "$R"/sweep-*/trials.jsonl | jq -r 'select(.priming != true and .workload == null) | .pg_stat_io.server_version_num / 10000 | floor' | sort | uniq -c | awk '{ print $2 ":" ($1 >= 8 ? "8 or more" : $1) }')" "18:8 or more"
same "the replay trials model 18" "$(cat "$R"/sweep-*/trials.jsonl | jq -r 'select(.workload == "replay") | .replay.model' | sort -u)" 18
ok "the verdict names 18" grep -q "Server: PostgreSQL 18\." "$R/report.md"

# Both versions in one command: 15 from Debian, 18 from the build cache.
cleanup_dirs="$cleanup_dirs $T/v-pg15 $T/v-pg18"
ok "run --pg 15,18" sh -c "'$EB' run --pg 15,18 --quick --rows 200000 --query sparse --datadir '$T/v' --port 54420 \
	--eic 0,16 --runs 2 --no-probe --out '$T/rv' >'$T/rv.out' 2>'$T/rv.err'"
same "a folder per version, each measured on its version" \
	"$(for v in 15 18; do jq -r '.server.version_num / 10000 | floor' "$T/rv/pg$v/sweep-sparse/meta.json"; done | tr '\n' ' ')" "15 18 "
same "a cluster per version" "$(for v in 15 18; do jq -r '.version | split(".")[0]' "$T/v-pg$v/eicbench.json"; done | tr '\n' ' ')" "15 18 "
same "a verdict per version, with what the value does there" \
	"$(grep -c '^- PostgreSQL 15: \|^  PostgreSQL 13 to 16: \|^- PostgreSQL 18: \|^  PostgreSQL 18 and later: .*0 makes their reads synchronous' "$T/rv/versions.md")" 4
