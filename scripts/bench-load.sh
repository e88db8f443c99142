#!/bin/sh
# bench-load.sh: load the same rows with the fast recipe and with the seed's
# recipe, alternating, in one run on one cluster, and print both times, the
# ratio and the size differences.
#   BENCH_LOAD_ROWS    last value of major (default 10000000: 10M+1 rows)
#   BENCH_LOAD_ROUNDS  rounds of (fast, blog) (default 1)
#   BENCH_DATADIR      cluster to use (default data/bench; made if missing)
set -eu
rows=${BENCH_LOAD_ROWS:-10000000}
rounds=${BENCH_LOAD_ROUNDS:-1}
datadir=${BENCH_DATADIR:-data/bench}
eb=./eicbench
out=$(mktemp)
trap 'rm -f "$out"' EXIT

[ -f "$datadir/eicbench.json" ] || $eb server init --datadir "$datadir"
$eb server start --datadir "$datadir" >/dev/null

echo "bench-load: $((rows + 1)) rows, $rounds round(s), cluster $datadir"
r=1
while [ "$r" -le "$rounds" ]; do
	for recipe in fast blog; do
		$eb load --datadir "$datadir" --rows "$rows" --recipe "$recipe" --force --json 2>/dev/null |
			jq -c --arg r "$r" '. + {round: ($r | tonumber)}' >>"$out"
	done
	r=$((r + 1))
done

printf '%-6s %5s %9s %8s %9s %8s %12s %12s %12s\n' recipe round total_s data_s indexes_s vacuum_s table_bytes pkey_bytes minor_bytes
jq -r '[.recipe, .round, (.total_s*10|round/10), (.data_s*10|round/10), (.index_s*10|round/10), (.vacuum_s*10|round/10), .heap_bytes, .pkey_bytes, .minor_idx_bytes] | @tsv' "$out" |
	awk -F'\t' '{ printf "%-6s %5s %9s %8s %9s %8s %12s %12s %12s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }'

jq -s -r '
  def median: sort | if length % 2 == 1 then .[length/2|floor] else (.[length/2-1] + .[length/2]) / 2 end;
  def pct(a; b): ((a - b) / b * 100 * 1000 | round / 1000);
  (map(select(.recipe=="fast")) ) as $f | (map(select(.recipe=="blog"))) as $b |
  ($f | map(.total_s) | median) as $ft | ($b | map(.total_s) | median) as $bt |
  "median total: fast \($ft*10|round/10) s, blog \($bt*10|round/10) s; blog/fast = \($bt/$ft*100|round/100)x (target >= 3x)",
  "size difference fast vs blog: table \(pct($f[0].heap_bytes; $b[0].heap_bytes))%, test_pkey \(pct($f[0].pkey_bytes; $b[0].pkey_bytes))%, minor_idx \(pct($f[0].minor_idx_bytes; $b[0].minor_idx_bytes))% (target within 1%)"
' "$out"
