# The classes on PostgreSQL 18, where the setting governs sequential scans
# too: the seq class is the planner's own Seq Scan (never forced), reads
# every heap page, has no index phase and no replay trials, and counts in
# a run's answer. Replay trials in a run follow the race: beside every
# value's trial in round 1, then beside 0's, the leading value's and its
# nearest rival's (as recorded after each round), those of earlier rounds
# caught up; the final three have one in every round. Runs when a built 18
# is in the build cache (make check builds one first); otherwise every
# check is reported as skipped, never as passed.
. tests/it/lib.sh
plan 12
bindir=$(scripts/build-pg.sh --cached 18)
if [ -z "$bindir" ]; then
	skip_rest "no PostgreSQL 18 build in $(scripts/build-pg.sh --cache-dir); scripts/build-pg.sh 18 makes one"
	exit 0
fi

D=$T/pg18c
P=54432
ROWS=2000000
"$EB" server init --datadir "$D" --pg 18 --port $P >/dev/null && "$EB" server start --datadir "$D" >/dev/null
cleanup_dirs="$D"
ok "a data set of $ROWS rows on 18" "$EB" load --datadir "$D" --rows $ROWS

ok "seq swept at 0 and 16" "$EB" sweep --datadir "$D" --query seq --eic 0,16 --runs 1 --no-cache-check --out "$T/s-seq"
same "the planner's own plan, a Seq Scan, not forced" "$(jq -r '[.plan.planner_plan, .plan.forced] | join(" ")' "$T/s-seq/meta.json")" "Seq Scan false"
same "each trial measured the Seq Scan: every heap page, no index phase, the node its heap phase" \
	"$(jq -s -r --argjson pages "$(jq '.dataset.heap_bytes / 8192' "$T/s-seq/meta.json")" \
		'[.[] | select(.priming != true) | .explain.bitmap | [.scan, (.exact_heap_blocks / $pages > 0.95), .index_phase.total_ms, (.heap_phase.total_ms == .node.total_ms)]] | unique | .[] | map(tostring) | join(" ")' \
		"$T/s-seq/trials.jsonl")" "Seq Scan true 0 true"

# A run: the seq class and a bitmap class, six values, three rounds, replays on.
RUN="--rows $ROWS --quick --eic 0,1,4,16,64,256 --runs 3 --depth 1"
ok "a run of scattered-1 and seq with replay trials" "$EB" run --datadir "$D" $RUN --query scattered-1,seq --out "$T/r"
"$EB" report "$T/r" --json >"$T/r.json" 2>/dev/null
same "seq counts, the planner's Seq Scan, not forced" \
	"$(jq -c '[.classes[] | select(.class == "seq") | .counted, .planner_scan, .forced]' "$T/r.json")" '[true,"Seq Scan",false]'
same "seq has trials and no replay trials" \
	"$(cat "$T/r/sweep-seq/trials.jsonl" | jq -s -c '[length > 0, ([.[] | select(.workload != null)] | length)]')" '[true,0]'

S=$T/r/sweep-scattered-1
replays() { jq -s -r 'map(select(.workload != null and .priming != true)) | .[] | "\(.round) \(.settings.effective_io_concurrency)"' "$S/trials.jsonl" | sort -u; }
same "round 1: a replay beside every value's trial" "$(replays | awk '$1 == 1 { print $2 }' | sort -n | tr '\n' ' ')" "0 1 4 16 64 256 "
same "the follow sets recorded after each decision, 0 in each" \
	"$(jq -r '[.plan.racing.replay_history[] | (.values | index(0)) != null] | (length >= 1) and all' "$S/meta.json")" true
# a replay of round K ran because its value was followed after round K-1 or later
late=$(replays | while read -r k v; do
	[ "$k" -gt 1 ] || continue
	jq -e --argjson k "$k" --argjson v "$v" \
		'[.plan.racing.replay_history[] | select(.after_round >= $k - 1) | .values[]] | index($v) != null' "$S/meta.json" >/dev/null ||
		echo "round $k value $v"
done)
same "after round 1, only values followed then or later have replays" \
	"$(replays | awk '$1 > 1' | wc -l | awk '{ print ($1 > 0) ? "some" : "no" }') ${late:-none}" "some none"
missing=$(for v in $(jq -r '.plan.racing.replay_values[]' "$S/meta.json"); do
	for k in 1 2 3; do replays | grep -qx "$k $v" || echo "round $k value $v"; done
done)
same "the final three (0, the leader, its rival) have a replay in every round" \
	"$(jq -r '.plan.racing.replay_values | length >= 2' "$S/meta.json") ${missing:-none}" "true none"
same "--replay was not given: recorded as such" \
	"$(jq -r .options.replay_all "$T/r/meta.json") $(jq -r .plan.racing.replay_all "$S/meta.json")" "false false"
"$EB" server stop --datadir "$D" >/dev/null 2>&1
