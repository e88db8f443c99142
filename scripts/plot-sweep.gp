# plot-sweep.gp: time against the swept setting from eicbench's plot.dat
# (block 0: x positions and labels; then one block per series with its title
# in the header, position, value, median and the ends of its interval in s).
# The x axis is evenly spaced by value (0 has no place on a log axis).
# Usage: gnuplot -c plot-sweep.gp DATA OUTBASE TITLE XLABEL YLABEL [rotate]
#   (rotate: x labels slanted, for long names such as a sweep's steps)
#   writes OUTBASE.svg and OUTBASE.png; eicbench report runs it.
data = ARG1
base = ARG2

stats data index 0 using 1 nooutput
nvalues = STATS_records
stats data using 1 nooutput
nseries = STATS_blocks - 1

set title ARG3 noenhanced
set xlabel ARG4 noenhanced
set ylabel ARG5 noenhanced
set key top right noenhanced box opaque
set grid ytics
set yrange [0:*]
set xrange [-0.5:nvalues - 0.5]
set border 3
set xtics nomirror
if (ARGC >= 6 && ARG6 eq "rotate") set xtics rotate by -30 noenhanced; set bmargin 8
set ytics nomirror
set style line 1 lc rgb "#1b6ca8" lw 2 pt 7 ps 1.1
set style line 2 lc rgb "#d1495b" lw 2 pt 5 ps 1.1
set style line 3 lc rgb "#66a182" lw 2 pt 9 ps 1.3
set style line 4 lc rgb "#edae49" lw 2 pt 11 ps 1.3
set style line 5 lc rgb "#5c4d7d" lw 2 pt 13 ps 1.3
set style line 6 lc rgb "#2e4057" lw 2 pt 15 ps 1.3
set style increment user

# Series side by side around each position so their error bars do not hide each other.
shift(i) = nseries > 1 ? (i - 1 - (nseries - 1) / 2.0) * 0.08 : 0

plotall = "plot data index 0 using 1:(NaN):xticlabels(2) notitle, \
	for [i=1:nseries] data index i using ($1 + shift(i)):3:4:5 \
	with yerrorlines ls i title columnheader(3)"

set terminal svg size 900,560 dynamic font "sans,13" background rgb "white"
set output base.".svg"
eval plotall

set terminal pngcairo size 900,560 font "sans,11" background rgb "white"
set output base.".png"
eval plotall
set output
