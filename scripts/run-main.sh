#!/bin/sh
# run-main.sh: the main job on the embedded default (make run).
# A private cluster in $DATADIR (default data/pg, on the device under test),
# the seed's data set ($ROWS, default 100000000: major 0..ROWS), a cold cycle.
set -eu
datadir=${DATADIR:-data/pg}
rows=${ROWS:-100000000}
eb=./eicbench

if [ ! -f "$datadir/eicbench.json" ]; then
	echo "== creating the managed cluster in $datadir"
	$eb server init --datadir "$datadir"
fi
echo "== starting it"
$eb server start --datadir "$datadir"
echo "== the data set (major 0..$rows)"
$eb load --datadir "$datadir" --rows "$rows"
echo "== a cold cycle: stop, sync, drop caches, start"
$eb server cold --datadir "$datadir"
