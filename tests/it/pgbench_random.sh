# The scripts' random functions against pgbench's own draws, on a real
# cluster: for each function and parameters, 100,000 values from
# eicbench and 100,000 from pgbench (Debian's, the peer), each from a
# script of one \set with debug(). With different seeds the two histograms
# must be samples of one distribution (a chi-square test of homogeneity,
# bins with fewer than 10 values merged, at p = 0.001); with the same seed
# the values must be pgbench's own, one for one. Without pgbench every
# check is skipped, named.
. tests/it/lib.sh
plan 21
PGB=$(command -v pgbench || true)
N=100000
D=$T/pg
P=54398

if [ -z "$PGB" ]; then
	for d in uniform exponential gaussian zipfian "zipfian, steep" permute hash; do
		skip "$d: $N values each" "pgbench is not installed"
		skip "$d: histograms alike (chi-square, p = 0.001)" "pgbench is not installed"
		skip "$d: the same seed, the same values" "pgbench is not installed"
	done
	exit 0
fi
cluster pg $P

# draw TOOL SEED EXPR: N values of EXPR, one a line
k=0
draw() {
	k=$((k + 1))
	printf '\\set v debug(%s)\n' "$3" >"$T/draw.sql"
	if [ "$1" = eicbench ]; then
		(cd "$T" && "$EB" tpcb run --datadir "$D" -n -t $N -f "$T/draw.sql" --random-seed "$2" --out "$T/draw-$k") 2>&1
	else
		"$PGB" -h "$D" -p $P -U postgres -n -t $N -f "$T/draw.sql" --random-seed "$2" eicbench 2>&1
	fi | sed -n 's/^debug(script=0,command=1): int //p'
}

# homogeneous A B: "ok" when the value counts of files A and B (same size)
# pass the chi-square test at p = 0.001, else the statistic and the bound
homogeneous() {
	LC_ALL=C sort "$1" | uniq -c | awk '{ print $2, $1 }' >"$T/ha"
	LC_ALL=C sort "$2" | uniq -c | awk '{ print $2, $1 }' >"$T/hb"
	LC_ALL=C join -a1 -a2 -e 0 -o 0,1.2,2.2 "$T/ha" "$T/hb" | sort -n | awk '
		BEGIN { k = 0 }
		{ a += $2; b += $3; if (a + b >= 10) { x[k] = a; y[k] = b; k++; a = 0; b = 0 } }
		END {
			if (a + b > 0) { if (k > 0) { x[k - 1] += a; y[k - 1] += b } else { x[0] = a; y[0] = b; k = 1 } }
			for (i = 0; i < k; i++) chi += (x[i] - y[i]) ^ 2 / (x[i] + y[i])
			df = k - 1; if (df < 1) { print "ok"; exit }
			z = 3.090; h = 2 / (9 * df)
			crit = df * (1 - h + z * sqrt(h)) ^ 3	# Wilson-Hilferty, p = 0.001
			if (chi <= crit) print "ok"; else printf "chi2 %.1f over %d bins, bound %.1f\n", chi, k, crit
		}'
}

check() { # NAME EXPR
	draw eicbench 11 "$2" >"$T/ours"
	draw pgbench 12 "$2" >"$T/theirs"
	same "$1: $N values each" "$(wc -l <"$T/ours") $(wc -l <"$T/theirs")" "$N $N"
	same "$1: histograms alike (chi-square, p = 0.001)" "$(homogeneous "$T/ours" "$T/theirs")" ok
	draw pgbench 11 "$2" >"$T/theirs"
	same "$1: the same seed, the same values" "$(cmp -s "$T/ours" "$T/theirs" && echo same)" same
}

check uniform "random(1, 100)"
check exponential "random_exponential(1, 100, 3.0)"
check gaussian "random_gaussian(1, 100, 2.5)"
check zipfian "random_zipfian(1, 100, 1.07)"
check "zipfian, steep" "random_zipfian(1, 1000, 2.5)"
check permute "permute(random(1, 100), 100)"
check hash "abs(hash(random(1, 1000000))) % 50"
