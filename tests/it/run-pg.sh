# eicbench run --pg 18: the version asked for reaches every step. The
# cluster it makes, the sweeps' meta.json and every one of their records,
# the probes' records and the verdict are all PostgreSQL 18. Runs when a
# built 18 is in the build cache (scripts/build-pg.sh 18); otherwise each
# check is reported as skipped, never as passed.
. tests/it/lib.sh
plan 7
D=$T/pg18
R=$T/r18
cache=$(scripts/build-pg.sh --cache-dir)
bindir=$(scripts/build-pg.sh --cached 18)

checks="run --quick --pg 18, every step|the cluster it made is 18|the running server is 18|every sweep's meta.json says 18|every trial of every sweep ran on 18|the replay trials model 18|the verdict names 18"
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
