#!/bin/sh
# bench-tpcb.sh: pgbench and eicbench's TPC-B driver side by side on the same
# freshly initialised managed cluster, same options: select-only
# -M prepared -c 8 -j 2, TPC-B-like -c 4 -j 2, and a custom script heavy in
# \set (scripts/bench-tpcb-set.sql: every random function, hashes, a
# permutation, arithmetic and a branch before one read; -M prepared -c 8
# -j 2, the same file for both tools), BENCH_TPCB_SECONDS each,
# in rounds: each round runs the three clients back to back (pgbench,
# eicbench, eicbench with --pipeline 8), the order rotated every round. Both
# tools' client CPU is measured the same way: the process's user + system
# time as wait4 reports it (GNU time), over the transactions the tool
# reports. The ratios ours / pgbench are taken within each round, so that
# the machine's drift between rounds cancels; per row the table gives the
# medians of tps and of CPU µs per transaction, the median of the round
# ratios and an order-statistic interval for it (scripts/ratios.awk), and a
# line per row says from the intervals whether ours is behind, level or
# ahead (targets on every row without a pipeline: median tps ratio >= 1.0,
# median CPU ratio <= 1.0). A workload runs BENCH_TPCB_ROUNDS rounds, then
# more while eicbench's tps or CPU interval holds 1 but reaches further than
# BENCH_TPCB_MARGIN from it, up to BENCH_TPCB_MAX_ROUNDS. First eicbench
# tpcb init is compared with pgbench -i at the same scale. Raw outputs go to
# results/<UTC>-bench-tpcb/.
#
# Environment: BENCH_TPCB_SCALE (20), BENCH_TPCB_SECONDS (10),
# BENCH_TPCB_ROUNDS (6), BENCH_TPCB_MAX_ROUNDS (12), BENCH_TPCB_MARGIN
# (0.03), BENCH_TPCB_INIT_ROUNDS (3), BENCH_DATADIR (data/bench-tpcb),
# PGBENCH (the cluster's pgbench).
set -eu

SCALE=${BENCH_TPCB_SCALE:-20}
SECS=${BENCH_TPCB_SECONDS:-10}
ROUNDS=${BENCH_TPCB_ROUNDS:-6}
MAX_ROUNDS=${BENCH_TPCB_MAX_ROUNDS:-12}
MARGIN=${BENCH_TPCB_MARGIN:-0.03}
INIT_ROUNDS=${BENCH_TPCB_INIT_ROUNDS:-3}
DIR=${BENCH_DATADIR:-data/bench-tpcb}
EIC=${EICBENCH:-./eicbench}
TIME=/usr/bin/time
SETSQL=$(pwd)/scripts/bench-tpcb-set.sql

for tool in jq awk; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-tpcb: $tool is needed (make deps)" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "bench-tpcb: GNU time ($TIME) is needed (make deps)" >&2; exit 2; }
[ -x "$EIC" ] || { echo "bench-tpcb: build eicbench first (make)" >&2; exit 2; }
case $ROUNDS in
''|*[!0-9]*|0|1) echo "bench-tpcb: BENCH_TPCB_ROUNDS '$ROUNDS' is not a whole number of at least 2" >&2; exit 2 ;;
esac
case $MAX_ROUNDS in
''|*[!0-9]*) echo "bench-tpcb: BENCH_TPCB_MAX_ROUNDS '$MAX_ROUNDS' is not a whole number" >&2; exit 2 ;;
esac

[ -f "$DIR/eicbench.json" ] || "$EIC" server init --datadir "$DIR" >/dev/null
# A fresh start. The server must not keep the benchmark lock's descriptor
# (flock hands it down), or the lock would outlive this script: close 3-9.
"$EIC" server restart --datadir "$DIR" >/dev/null 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
trap '"$EIC" server stop --datadir "$DIR" >/dev/null' EXIT
trap 'exit 1' INT TERM
PORT=$(jq -r .port "$DIR/eicbench.json")
BINDIR=$(jq -r .bindir "$DIR/eicbench.json")
PGB=${PGBENCH:-$BINDIR/pgbench}
[ -x "$PGB" ] || { echo "bench-tpcb: no pgbench at $PGB; set PGBENCH" >&2; exit 2; }
HOST=$(cd "$DIR" && pwd)

OUT=results/$(date -u +%Y%m%dT%H%M%SZ)-bench-tpcb
mkdir -p "$OUT"

# timed TAG CMD...: run CMD with its output in $OUT/TAG.out and
# "wall user sys" of the process in $OUT/TAG.time
timed() {
	tag=$1
	shift
	"$TIME" -f '%e %U %S' -o "$OUT/$tag.time" "$@" >"$OUT/$tag.out" 2>&1 ||
		{ echo "bench-tpcb: '$*' failed, see $OUT/$tag.out" >&2; exit 1; }
}

# pgbench's connection: the cluster's socket directory, port, user, database
export PGHOST="$HOST" PGPORT="$PORT" PGUSER=postgres PGDATABASE=eicbench
"$BINDIR/psql" -X -At -d postgres -c "select 1 from pg_database where datname = 'eicbench'" | grep -q 1 ||
	"$BINDIR/createdb" eicbench

# ---- init: pgbench -i against eicbench tpcb init, alternating --------------
echo "bench-tpcb: cluster $DIR, scale $SCALE, ${SECS}s per run, $ROUNDS to $MAX_ROUNDS rounds; raw output in $OUT" >&2
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
while [ "$r" -le "$INIT_ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		timed "init-pgbench-$r" "$PGB" -i -q -s "$SCALE"
		timed "init-ours-$r" "$EIC" tpcb init --datadir "$DIR" -s "$SCALE" --force
	else
		timed "init-ours-$r" "$EIC" tpcb init --datadir "$DIR" -s "$SCALE" --force
		timed "init-pgbench-$r" "$PGB" -i -q -s "$SCALE"
	fi
	r=$((r + 1))
done
# the tables the runs use: a fresh init by each tool was just timed; end on ours
timed init-final "$EIC" tpcb init --datadir "$DIR" -s "$SCALE" --force

# ---- runs --------------------------------------------------------------------
# one TOOL WORKLOAD ROUND: a run, then "tps transactions cpu_s" in $OUT/TAG.fig
one() {
	tag=$2-$1-$3
	case $2 in
	select-only) opts="-S -M prepared -c 8 -j 2" ;;
	tpcb-like) opts="-c 4 -j 2" ;;
	custom) opts="-f $SETSQL -M prepared -c 8 -j 2" ;;
	esac
	case $1 in
	pgbench)
		# shellcheck disable=SC2086
		timed "$tag" "$PGB" $opts -T "$SECS"
		tps=$(awk '/^tps = / { print $3 }' "$OUT/$tag.out")
		n=$(awk -F': ' '/^number of transactions actually processed/ { split($2, a, "/"); print a[1] }' "$OUT/$tag.out") ;;
	ours | ours-pipe8)
		extra=""
		# a pipeline needs the extended protocol: -M prepared where the workload is simple
		[ "$1" = ours-pipe8 ] && extra="--pipeline 8" &&
			case $opts in *"-M prepared"*) ;; *) extra="-M prepared --pipeline 8" ;; esac
		# shellcheck disable=SC2086
		timed "$tag" "$EIC" tpcb run --datadir "$DIR" $opts $extra -T "$SECS" --json --out "$OUT/$tag.record"
		tps=$(jq -r '.tps' "$OUT/$tag.record/trials.jsonl")
		n=$(jq -r '.transactions' "$OUT/$tag.record/trials.jsonl") ;;
	esac
	awk -v tps="$tps" -v n="$n" '{ printf "%s %s %.6f\n", tps, n, $2 + $3 }' "$OUT/$tag.time" >"$OUT/$tag.fig"
}

# the figures of TAG's run: "tps µs_per_transaction"
figs() { awk '{ printf "%s %.3f", $1, $3 * 1e6 / $2 }' "$OUT/$1.fig"; }

TOOLS="pgbench ours ours-pipe8"
WORKLOADS="select-only tpcb-like custom"
settled() {
	awk -v mode=settled -v m="$MARGIN" -f scripts/ratios.awk -f scripts/bench-tpcb-stats.awk "$OUT/round-$1.txt"
}
for w in $WORKLOADS; do
	: >"$OUT/round-$w.txt"
	r=1
	# ROUNDS rounds, then more while ours's interval is loose, up to MAX_ROUNDS
	while [ "$r" -le "$ROUNDS" ] || { [ "$r" -le "$MAX_ROUNDS" ] && [ "$(settled "$w")" = no ]; }; do
		# rotate the order: pgbench first, then second, then third, ...
		set -- $TOOLS
		k=$(( (r - 1) % 3 ))
		while [ "$k" -gt 0 ]; do
			first=$1
			shift
			set -- "$@" "$first"
			k=$((k - 1))
		done
		for t in "$@"; do
			one "$t" "$w" "$r"
		done
		echo "$(figs "$w-pgbench-$r") $(figs "$w-ours-$r") $(figs "$w-ours-pipe8-$r")" >>"$OUT/round-$w.txt"
		r=$((r + 1))
	done
done

# ---- table -----------------------------------------------------------------------
# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
: >"$OUT/verdicts.txt"
: >"$OUT/rounds.txt"
{
	printf '%-12s %-34s %10s %9s %7s %11s %4s %7s %11s %5s %6s\n' "" "" "" "CPU" "tps" "" "" "CPU" "" "" ""
	printf '%-12s %-34s %10s %9s %7s %11s %4s %7s %11s %5s %6s\n' workload client "tps" "µs/tx" "ratio" "interval" "" "ratio" "interval" "" rounds
	for w in $WORKLOADS; do
		pl="eicbench --pipeline 8"
		[ "$w" = tpcb-like ] && pl="eicbench -M prepared --pipeline 8"
		awk -v mode=row -v w="$w" -v pl="$pl" -v m="$MARGIN" -v vout="$OUT/verdicts.txt" -v rout="$OUT/rounds.txt" \
			-f scripts/ratios.awk -f scripts/bench-tpcb-stats.awk "$OUT/round-$w.txt"
	done
	pi=$(for f in "$OUT"/init-pgbench-*.time; do awk '{ print $1 }' "$f"; done | median)
	oi=$(for f in "$OUT"/init-ours-*.time; do awk '{ print $1 }' "$f"; done | median)
	awk -v s="$SCALE" -v p="$pi" -v o="$oi" -v n="$INIT_ROUNDS" 'BEGIN {
		printf "init, scale %d (median of %d): pgbench -i %.2f s, eicbench tpcb init %.2f s, ours / pgbench %.3f\n", s, n, p, o, o / p }'
	echo "medians of ${SECS}s runs; ratios ours / pgbench within each round (the order rotated each round), their median and interval; CPU: user + system time of each client process (GNU time)"
	echo "targets: eicbench without a pipeline at tps ratio >= 1.0 and CPU ratio <= 1.0 (ok, LOW, HIGH); custom: $SETSQL"
} | tee "$OUT/table.txt"
cat "$OUT/rounds.txt" "$OUT/verdicts.txt"
echo "load average before: $LOAD0; after: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine makes the figures noisy)" | tee -a "$OUT/table.txt"
