#!/bin/sh
# run-main.sh: the main job on the embedded default (make run).
# A private cluster in $DATADIR (default data/pg, on the device under test),
# the seed's data set ($ROWS, default 100000000: major 0..ROWS), then the cold
# effective_io_concurrency sweep for both query presets ($RUNS rounds each,
# default 3; $EIC values, default 0,1,2,4,8,16,32,64,128,256,1000).
set -eu
datadir=${DATADIR:-data/pg}
rows=${ROWS:-100000000}
runs=${RUNS:-3}
eic=${EIC:-0,1,2,4,8,16,32,64,128,256,1000}
eb=./eicbench

if [ ! -f "$datadir/eicbench.json" ]; then
	echo "== creating the managed cluster in $datadir"
	$eb server init --datadir "$datadir"
fi
echo "== starting it"
$eb server start --datadir "$datadir"
echo "== the data set (major 0..$rows)"
$eb load --datadir "$datadir" --rows "$rows"
for query in blog sparse; do
	echo "== the cold sweep, query $query"
	$eb sweep --datadir "$datadir" --query "$query" --eic "$eic" --runs "$runs"
done
