# bench-probe-stats.awk (with ratios.awk): bench-probe.sh's figures of one
# point from its rounds file, a line a round: "ours_iops ours_cpu ours_aqu
# ours_inflight ours_user ours_sys fio_iops fio_cpu fio_aqu fio_user
# fio_sys ours_switches ours_idle ours_steal fio_switches fio_idle
# fio_steal" (the last six per read: context switches, and the pinned
# CPU's idle and stolen µs, nan when not pinned). Variables: mode ("settled" prints yes or no; "row" prints the
# table line and appends the verdict, the per-round ratios and the CPU split
# to vout, rout and sout), l (label), d (depth), ct (the CPU target), m (the
# margin), it (the IOPS target).
{ n++; oi[n] = $1; oc[n] = $2; oa[n] = $3; of[n] = $4; fi[n] = $7; fc[n] = $8; fa[n] = $9
  ou[n] = $5; os[n] = $6; fu[n] = $10; fs[n] = $11
  ow[n] = $12; oid[n] = $13; ost[n] = $14; fw[n] = $15; fid[n] = $16; fst[n] = $17
  ur[n] = $10 > 0 ? $5 / $10 : 0; sr[n] = $11 > 0 ? $6 / $11 : 0
  ir[n] = $1 / $7; cr[n] = $2 / $8; irs = irs sprintf(" %.3f", ir[n]) }
END {
	k = kth(n); cov = coverage(n, k)
	mi = med(ir, n); ilo = ir[k]; ihi = ir[n + 1 - k]
	mc = med(cr, n); clo = cr[k]; chi = cr[n + 1 - k]
	if (mode == "settled") {
		print (loose(ilo, ihi, m) || loose(clo, chi, m) || (clo < ct && chi > ct)) ? "no" : "yes"
		exit
	}
	iok = mi >= it && ihi >= 1; cok = mc <= ct
	printf "%-9s %5d %9.0f %9.0f %6.3f %5.3f-%5.3f %s %7.2f %7.2f %6.3f %5.3f-%5.3f %s %6.2f %6.2f %6.2f %6d\n",
		l, d, med(oi, n), med(fi, n), mi, ilo, ihi, (iok ? "ok " : "LOW"),
		med(oc, n), med(fc, n), mc, clo, chi, (cok ? "ok  " : "HIGH"),
		med(oa, n), med(fa, n), med(of, n), n
	unsettled = loose(ilo, ihi, m) || loose(clo, chi, m) || (clo < ct && chi > ct)
	printf "%-8s %4d: IOPS %s; CPU per read %s; targets: IOPS %s, CPU <= %.2f %s; %d rounds%s\n",
		l, d, side(ilo, ihi, 1, m), side(clo, chi, 0, m),
		(iok ? "met" : "missed"), ct, (cok ? "met" : "missed"), n,
		(unsettled ? ", not settled" : "") >> vout
	printf "%s %d: IOPS ratio per round%s (ours first in odd rounds); interval covers the median ratio with %.1f%%\n",
		l, d, irs, 100 * cov >> rout
	mou = med(ou, n); mfu = med(fu, n); mos = med(os, n); mfs = med(fs, n)
	mur = med(ur, n); ulo = ur[k]; uhi = ur[n + 1 - k]
	msr = med(sr, n); slo = sr[k]; shi = sr[n + 1 - k]
	printf "%s %d: CPU per read in user time (the tool's own work) %.2f µs ours, %.2f fio, ratio %.3f (%.3f-%.3f); in system time (the kernel's) %.2f µs ours, %.2f fio, ratio %.3f (%.3f-%.3f)\n",
		l, d, mou, mfu, mur, ulo, uhi, mos, mfs, msr, slo, shi >> sout
	if (ow[1] == "")
		exit
	printf "%s %d: per read, context switches %.2f ours, %.2f fio", l, d, med(ow, n), med(fw, n) >> sout
	if (oid[1] != "nan")
		printf "; the CPU idle %.1f µs ours, %.1f fio; stolen by the host %.1f µs ours, %.1f fio",
			med(oid, n), med(fid, n), med(ost, n), med(fst, n) >> sout
	printf "\n" >> sout
}
