#!/bin/sh
# run-main.sh: the main job on the embedded default (make run): eicbench run
# on a private cluster in $DATADIR (default data/pg, on the device under
# test) with the seed's data set ($ROWS, default 100000000: major 0..ROWS).
# $RUNS (default 3) rounds per sweep before racing decides whether more are
# needed; $EIC values (default run's: 0,1,16,256, refined on 0,1,4,16,64,256,1000); QUICK=1 for a
# first look.
set -eu
datadir=${DATADIR:-data/pg}
set -- --datadir "$datadir"
[ -n "${ROWS:-}" ] && set -- "$@" --rows "$ROWS"
[ -n "${RUNS:-}" ] && set -- "$@" --runs "$RUNS"
[ -n "${EIC:-}" ] && set -- "$@" --eic "$EIC"
[ -n "${QUICK:-}" ] && set -- "$@" --quick
exec ./eicbench run "$@"
