# Replay trials in a real sweep: on 15, and on 18 under each io_method when a
# built 18 is in the build cache (else its checks are skipped, never passed).
# Every query trial has its replay trial at the same value and round, each
# after its own cold cycle; up to 17 the replay reads every page once, one
# block a read, and advises every page but the first when prefetching; on 18
# it reads what its read stream started under the io_method in force; the
# sweep's report puts the replay's device requests beside the query's heap
# phase's, with the difference it computes from the records.
. tests/it/lib.sh
plan 50

# checks DIR: what every replay sweep must hold
checks() {
	R=$1/trials.jsonl
	same "$2: a replay trial beside every query trial, same keys" \
		"$(jq -r 'select(.workload == "replay") | .trial_key | sub(" replay$"; "")' "$R" | sort | tr '\n' ,)" \
		"$(jq -r 'select(.workload == null) | .trial_key' "$R" | sort | tr '\n' ,)"
	same "$2: each replay trial after its own cold cycle" \
		"$(jq -r 'select(.workload == "replay") | (.cold and (.cold_times.total_ms > 0))' "$R" | sort -u)" true
	same "$2: the replay read every page of the plan, each once" \
		"$(jq -r --argjson n "$(jq .plan.replay.pages "$1/meta.json")" 'select(.workload == "replay") | .replay.read_blocks == $n' "$R" | sort -u)" true
	same "$2: the replay read the tuples of every page it read (each row of the query once when no page is lossy)" \
		"$(jq -r --argjson rows "$(jq .plan.replay.rows "$1/meta.json")" --argjson lossy "$(jq .plan.replay.lossy_pages "$1/meta.json")" \
			'select(.workload == "replay") | .replay.walk.tuples >= $rows and ($lossy > 0 or .replay.walk.tuples == $rows) and .replay.walk.bytes > 24 * .replay.read_blocks' "$R" | sort -u)" true
	same "$2: the device's requests recorded for both kinds" \
		"$(jq -r 'if .workload == "replay" then (.disk.reads | type) else (.phases.heap.disk.reads // .disk.reads | type) end' "$R" | sort -u)" number
	# where each reader ran (a window too short for two samples has no
	# placement): its shares of time by CPU sum to 1, and the share on the
	# interrupts' CPU is known exactly when meta.json names the interrupts
	PL='[.[] | (if .workload == "replay" then .replay.placement else .phases.heap.placement end) | select(. != null)]'
	same "$2: each reader's time by CPU sums to 1, query and replay" \
		"$(jq -rs "$PL"' | map((.reader_share | add) - 1 | fabs < 0.01) | if length > 0 then unique else ["none recorded"] end | tostring' "$R")" "[true]"
	same "$2: the share on the interrupts' CPU where meta.json names the interrupts, else none" \
		"$(jq -rs --argjson irqs "$(jq '.device.interrupts.irqs != null' "$1/meta.json")" "$PL"' | map(.on_irq_cpu | if $irqs then (type == "number" and . >= 0 and . <= 1) else . == null end) | if length > 0 then unique else ["none recorded"] end | tostring' "$R")" "[true]"
	ok "$2: the report renders the replay section" sh -c "'$EB' report '$1' --no-plot | grep -q 'The replay trials'"
	"$EB" report "$1" --no-plot --format json >"$1/report.json" 2>/dev/null
	same "$2: the report's request difference is the records' (replay / query - 1)" \
		"$(jq -r '[.replay[] | select(.requests_diff != null) | ((.replay_requests / .query_requests - 1) - .requests_diff | fabs < 1e-9)] | unique | tostring' "$1/report.json")" "[true]"
	same "$2: every change against 0 is the sum of its parts" \
		"$(jq -r '[.replay[] | select(.change_ms != null and .change_wait_ms != null) | ((.change_wait_ms + .change_cpu_ms + .change_runqueue_ms) - .change_ms | fabs < 1e-6)] | unique | tostring' "$1/report.json")" "[true]"
	same "$2: the error's parts (requests, the device's pace and busy share, the rest) are known and add up to it" \
		"$(jq -r '[.replay[] | select(.error_parts.rest != null) | ((.error_parts.requests + .error_parts.pace + .error_parts.busy + .error_parts.rest) - .error | fabs < 1e-9) and ((.error_parts.pace + ((.replay_reads_per_s_busy / .query_reads_per_s_busy) | log)) | fabs < 1e-9)] | if length > 0 then unique else ["none known"] end | tostring' "$1/report.json")" "[true]"
}

# ---- 15 (the system's PostgreSQL) ----
P=54431
cluster pg15 $P
ok "15: load 1M rows" "$EB" load --datadir "$T/pg15" --rows 1000000
ok "15: a sweep with replay trials" "$EB" sweep --datadir "$T/pg15" --query sparse --eic 0,16 --runs 2 \
	--replay --no-cache-check --out "$T/s15"
checks "$T/s15" 15
R=$T/s15/trials.jsonl
same "15: the replay models 13-17" "$(jq -r 'select(.workload == "replay") | .replay.model' "$R" | sort -u)" 13-17
same "15: one read of one block per page" \
	"$(jq -r 'select(.workload == "replay") | (.replay.reads == .replay.read_blocks)' "$R" | sort -u)" true
same "15: no advice at 0, every page but the first advised at 16" \
	"$(jq -r 'select(.workload == "replay") | "\(.settings.effective_io_concurrency):\(.replay.advices == (if .settings.effective_io_concurrency == "0" then 0 else .replay.pages - 1 end))"' "$R" | sort -u | tr '\n' ,)" \
	"0:true,16:true,"
same "15: the query's heap phase read as many blocks as the replay" \
	"$(jq -r --argjson n "$(jq .plan.replay.pages "$T/s15/meta.json")" 'select(.workload == null) | .explain.bitmap.heap_phase.shared_read_blocks == $n' "$R" | sort -u)" true
same "15: every replay trial did the query's index phase first, on the server" \
	"$(jq -r 'select(.workload == "replay") | .replay.index_phase.ms > 0' "$R" | sort -u)" true
same "15: and then advised the whole heap out of the page cache" \
	"$(jq -r 'select(.workload == "replay") | .replay.index_phase.heap_evicted_bytes' "$R" | sort -u)" \
	"$(sql "$T/pg15" $P "select pg_relation_size('test')")"
same "15: the work per page is the median of three warm runs' (heap less its reads, over its pages)" \
	"$(jq -r '.plan.replay | (.exact_pages + .lossy_pages) as $n | ([.calibration.runs[] | (.heap_ms - .heap_read_ms) * 1e6 / $n] | sort) as $w | ($w | length) == 3 and ((.work_ns_per_page - $w[1]) | fabs) < 1e-6 * $w[1]' "$T/s15/meta.json")" true
same "15: the calibration's index blocks are the query's index phase's" \
	"$(jq -r '.plan.replay.calibration.index_blocks' "$T/s15/meta.json")" \
	"$(jq -r 'select(.workload == null) | .explain.bitmap.index_phase | .shared_hit_blocks + .shared_read_blocks' "$R" | sort -u)"
same "15: cold, the replay's pool holds the index phase's blocks first (as many as fit)" \
	"$(jq -r --argjson n "$(jq .plan.replay.calibration.index_blocks "$T/s15/meta.json")" 'select(.workload == "replay") | .replay | .pool_touched_blocks == ([$n, .pool_blocks] | min) and .pool_touched_blocks > 0' "$R" | sort -u)" true
same "15: the calibration's pages are EXPLAIN's" \
	"$(jq -r '.plan.replay | (.exact_pages + .lossy_pages == .pages)' "$T/s15/meta.json")" true
# the calibration's own session, set as the trials' (the page lookup's
# work_mem once leaked into it: an exact bitmap where the trials' was lossy)
same "15: the calibration ran with the settings of the query's trials at 0" \
	"$(jq -cS '.plan.replay.calibration.settings' "$T/s15/meta.json")" \
	"$(jq -cS 'select(.workload == null and .settings.effective_io_concurrency == "0") | .explain.settings' "$R" | sort -u)"
same "15: the calibration's exact and lossy pages are the query's at 0" \
	"$(jq -r '.plan.replay | "\(.exact_pages) \(.lossy_pages)"' "$T/s15/meta.json")" \
	"$(jq -r 'select(.workload == null and .settings.effective_io_concurrency == "0") | "\(.explain.bitmap.exact_heap_blocks) \(.explain.bitmap.lossy_heap_blocks)"' "$R" | sort -u)"
# A bitmap too large for work_mem: the lossy pages simulated as tidbitmap
# makes them, their count EXPLAIN's, and the work split between the page
# and the tuples it examines (a lossy page's every tuple costs the backend).
ok "15: a sweep whose bitmap goes lossy (work_mem 64kB)" "$EB" sweep --datadir "$T/pg15" --query blog \
	--eic 16 --set work_mem=64kB --runs 1 --replay --no-cache-check --out "$T/l15"
same "15: the lossy pages simulated, as many as EXPLAIN counts" \
	"$(jq -r '.plan.replay | (.lossy_pages > 0 and .lossy_simulated == .lossy_pages and (.lossy_model | startswith("simulated")))' "$T/l15/meta.json")" true
same "15: the work per page split, a part per page and one per tuple, both in the replay trial" \
	"$(jq -r --argjson m "$(jq -c '.plan.replay.work_model' "$T/l15/meta.json")" 'select(.workload == "replay") | ($m.split and $m.ns_per_page > 0 and $m.ns_per_tuple > 0 and (.replay.work_ns_per_tuple - $m.ns_per_tuple | fabs) < 1e-6 and (.replay.work_ns_per_page - ($m.ns_per_page | round) | fabs) < 1)' "$T/l15/trials.jsonl")" true
ok "15: resume finds nothing left" "$EB" sweep --resume "$T/s15"
same "15: a resume ran no trial again" "$(wc -l <"$R" | tr -d ' ')" 8
ok "15: a warm sweep with replay trials" "$EB" sweep --datadir "$T/pg15" --query sparse --eic 0 --runs 1 \
	--warm --replay --no-cache-check --out "$T/w15"
same "15: warm, the replay leaves the heap cached as its query finds it" \
	"$(jq -r 'select(.workload == "replay") | .replay.index_phase.heap_evicted_bytes' "$T/w15/trials.jsonl" | sort -u)" 0
same "15: warm, the replay's pool is in use throughout, as a warm server's buffers are" \
	"$(jq -r 'select(.workload == "replay") | .replay | .pool_touched_blocks == .pool_blocks' "$T/w15/trials.jsonl" | sort -u)" true

# ---- 18 under each io_method ----
bindir=$(scripts/build-pg.sh --cached 18)
if [ -z "$bindir" ]; then
	for d in "load 1M rows" "a sweep with replay trials under sync, io_uring and worker" "replay trials beside the query's" \
		"cold cycles" "every page read once" "device requests recorded" "report section" \
		"request differences" "parts add up" "the replay's method is the trial's io_method" \
		"the read stream's reads" "tuples read" "a replay table for each io_method" \
		"io_uring's ring and its IOSQE_ASYNC reads"; do
		skip "18: $d" "no PostgreSQL 18 build; scripts/build-pg.sh 18 makes one"
	done
	exit 0
fi
P=54432
"$EB" server init --datadir "$T/pg18" --pg 18 --port $P >/dev/null && "$EB" server start --datadir "$T/pg18" >/dev/null
cleanup_dirs="$cleanup_dirs $T/pg18"
ok "18: load 1M rows" "$EB" load --datadir "$T/pg18" --rows 1000000
ok "18: a sweep with replay trials under sync, io_uring and worker" "$EB" sweep --datadir "$T/pg18" \
	--query sparse --eic 0,16 --set io_method=sync,io_uring,worker --runs 1 --replay --no-cache-check --out "$T/s18"
checks "$T/s18" 18
R=$T/s18/trials.jsonl
"$EB" report "$T/s18" --no-plot --format json >"$T/s18/report.json" 2>/dev/null
same "18: the report has a replay table for each io_method" \
	"$(jq -r '[.replay[].series] | unique | join(",")' "$T/s18/report.json")" "io_method=io_uring,io_method=sync,io_method=worker"
same "18: the replay's method is the trial's io_method" \
	"$(jq -r 'select(.workload == "replay") | (.replay.model == "18" and .replay.method == .settings.io_method)' "$R" | sort -u)" true
same "18: the replay read what its read stream started, no more than 16 at a time" \
	"$(jq -r 'select(.workload == "replay") | (.replay.stream.max_ios_in_flight <= ((.settings.effective_io_concurrency | tonumber) | if . == 0 then 1 else . end))' "$R" | sort -u)" true
same "18: io_uring's ring as large as the server's io_max_concurrency, never more reads unreaped, the first 5 never marked IOSQE_ASYNC" \
	"$(jq -r --arg c "$(jq -r '.server.settings.io_max_concurrency' "$T/s18/meta.json")" \
		'select(.workload == "replay" and .replay.method == "io_uring" and .replay.eic > 0) | .replay |
		 (.stream.ring_entries == ($c | tonumber) and .stream.ring_max_unreaped <= .stream.ring_entries
		  and .stream.async_reads + 5 <= .reads)' "$R" | sort -u)" true
