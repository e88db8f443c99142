# plot-device.gp: the device's own curve from eicbench's device.dat (depth,
# IOPS, p99 latency in µs), IOPS on the left axis and p99 on the right, the
# depth on a log2 axis, the knee (the smallest depth reaching 90% of the
# peak IOPS) marked.
# Usage: gnuplot -c plot-device.gp DATA OUTBASE KNEE_DEPTH
#   writes OUTBASE.svg and OUTBASE.png; eicbench run and report run it.
data = ARG1
base = ARG2
knee = ARG3 + 0

set title "the device alone: random reads, O_DIRECT, io_uring" noenhanced
set xlabel "reads in flight (depth)"
set ylabel "IOPS"
set y2label "p99 latency, µs"
set logscale x 2
set key top left box opaque noenhanced
set grid ytics
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set border 11
if (knee > 0) set arrow 1 from knee, graph 0 to knee, graph 1 nohead dt 2 lc rgb "#666666"; \
	set label 1 sprintf("knee: %d", knee) at knee, graph 0.95 offset 0.5, 0

plotall = "plot data using 1:2 with linespoints lw 2 pt 7 lc rgb '#1b6ca8' title 'IOPS', \
	data using 1:3 axes x1y2 with linespoints lw 2 pt 5 lc rgb '#d1495b' title 'p99 latency'"

set terminal svg size 900,560 dynamic font "sans,13" background rgb "white"
set output base.".svg"
eval plotall

set terminal pngcairo size 900,560 font "sans,11" background rgb "white"
set output base.".png"
eval plotall
set output
