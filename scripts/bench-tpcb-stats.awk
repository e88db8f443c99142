# bench-tpcb-stats.awk (with ratios.awk): bench-tpcb.sh's figures of one
# workload from its rounds file, a line a round: "pgbench_tps pgbench_us
# ours_tps ours_us pipe_tps pipe_us" (tps, and client CPU µs per
# transaction). Variables: mode ("settled" prints yes or no: no while ours's
# tps or CPU interval holds 1 but reaches past the margin; "row" prints the
# table's lines and appends the verdicts and the per-round ratios to vout
# and rout), w (the workload), pl (the pipelined client's label), m (the
# margin).
{ n++; pt[n] = $1; pc[n] = $2; ot[n] = $3; oc[n] = $4; qt[n] = $5; qc[n] = $6
  otr[n] = $3 / $1; ocr[n] = $4 / $2; qtr[n] = $5 / $1; qcr[n] = $6 / $2
  ots = ots sprintf(" %.3f", otr[n]); ocs = ocs sprintf(" %.3f", ocr[n]) }
function row(label, t, c, tr, cr, target,   mt, mc, tlo, thi, clo, chi, tk, ck) {
	mt = med(tr, n); tlo = tr[k]; thi = tr[n + 1 - k]
	mc = med(cr, n); clo = cr[k]; chi = cr[n + 1 - k]
	tk = target ? (mt >= 1.0 ? " ok " : " LOW") : "    "
	ck = target ? (mc <= 1.0 ? " ok  " : " HIGH") : "     "
	printf "%-12s %-34s %10.1f %9.2f %7.3f %11s%s %7.3f %11s%s %6d\n", w, label, med(t, n), med(c, n),
		mt, sprintf("%.3f-%.3f", tlo, thi), tk, mc, sprintf("%.3f-%.3f", clo, chi), ck, n
	printf "%-12s %s: tps %s; CPU per transaction %s%s\n", w, label, side(tlo, thi, 1, m), side(clo, chi, 0, m),
		target ? sprintf("; targets (tps ratio >= 1.0, CPU ratio <= 1.0): tps %s, CPU %s", mt >= 1.0 ? "met" : "missed", mc <= 1.0 ? "met" : "missed") : "" >> vout
}
END {
	k = kth(n)
	if (mode == "settled") {
		sortv(otr, n); sortv(ocr, n)
		print (loose(otr[k], otr[n + 1 - k], m) || loose(ocr[k], ocr[n + 1 - k], m)) ? "no" : "yes"
		exit
	}
	printf "%-12s %-34s %10.1f %9.2f\n", w, "pgbench", med(pt, n), med(pc, n)
	row("eicbench", ot, oc, otr, ocr, 1)
	row(pl, qt, qc, qtr, qcr, 0)
	printf "%s: eicbench / pgbench per round, tps%s; CPU%s; the interval covers the median ratio with %.1f%%\n",
		w, ots, ocs, 100 * coverage(n, k) >> rout
}
