# ratios.awk: the statistics the bench targets share, for a tool against its
# peer from paired rounds (each round runs both back to back): the median of
# the per-round ratios, and an order-statistic interval for it (the k-th
# smallest to the k-th largest ratio, k the largest that keeps at least 95%
# coverage; with 8 rounds or fewer that is min..max). Used with another
# program file: awk -f scripts/ratios.awk -f PROGRAM.

# sort v[1..n] in place (few values: insertion sort)
function sortv(v, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
}
# the median of v[1..n]; v is left sorted
function med(v, n) { sortv(v, n); return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
# P(Binomial(n, 1/2) <= k)
function bcdf(n, k,   i, c, s) { c = 1; s = 0; for (i = 0; i <= k; i++) { s += c; c = c * (n - i) / (i + 1) } return s / 2 ^ n }
# the rank of the interval's ends for n rounds, and that interval's coverage
function kth(n,   k) { k = 1; while (k + 1 <= n / 2 && 1 - 2 * bcdf(n, k) >= 0.95) k++; return k }
function coverage(n, k) { return 1 - 2 * bcdf(n, k - 1) }
# an interval that holds 1 but reaches further than the margin m from it
function loose(lo, hi, m) { return lo <= 1 && hi >= 1 && (lo < 1 - m || hi > 1 + m) }
# the tool against its peer from the interval; more_is_better for rates
function side(lo, hi, more_is_better, m) {
	if (lo > 1) return sprintf("%s (%.3f-%.3f, above 1)", more_is_better ? "ahead" : "behind", lo, hi)
	if (hi < 1) return sprintf("%s (%.3f-%.3f, below 1)", more_is_better ? "behind" : "ahead", lo, hi)
	if (loose(lo, hi, m)) return sprintf("undecided (%.3f-%.3f holds 1 but reaches past %.3f-%.3f)", lo, hi, 1 - m, 1 + m)
	return sprintf("level (%.3f-%.3f holds 1)", lo, hi)
}
