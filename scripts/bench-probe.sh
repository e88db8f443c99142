#!/bin/sh
# bench-probe.sh: eicbench's io_uring probe against fio's io_uring engine on
# the same file, O_DIRECT random reads of 8 KiB, at each depth; then psync
# against fio's psync at depth 1. Each point runs BENCH_PROBE_ROUNDS times
# per tool, the order swapped every round (ours first, then fio first, ...),
# since the virtio disk's host favours whichever runs second; the table shows
# the medians of IOPS and CPU per I/O of both and their ratios (target: IOPS
# ratio >= 0.97, CPU ratio <= 1.00). Both draw blocks uniformly with replacement
# (fio --norandommap). Raw outputs go to results/<UTC>-bench-probe/.
#
# Environment: BENCH_PROBE_SIZE (4G), BENCH_PROBE_SECONDS (5),
# BENCH_PROBE_DEPTHS ("1 4 16 64 128"), BENCH_PROBE_FILE (data/probe-file),
# BENCH_PROBE_PSYNC (1; 0 skips the psync row), BENCH_PROBE_ROUNDS (5).
set -eu

SIZE=${BENCH_PROBE_SIZE:-4G}
SECS=${BENCH_PROBE_SECONDS:-5}
DEPTHS=${BENCH_PROBE_DEPTHS:-"1 4 16 64 128"}
FILE=${BENCH_PROBE_FILE:-data/probe-file}
PSYNC=${BENCH_PROBE_PSYNC:-1}
ROUNDS=${BENCH_PROBE_ROUNDS:-5}
BS=8k
EIC=${EICBENCH:-./eicbench}

for tool in fio jq numfmt; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-probe: $tool is needed (make deps)" >&2; exit 2; }
done
[ -x "$EIC" ] || { echo "bench-probe: build eicbench first (make)" >&2; exit 2; }

bytes=$(numfmt --from=iec "$SIZE") || { echo "bench-probe: BENCH_PROBE_SIZE '$SIZE' is not a size (e.g. 512M, 4G)" >&2; exit 2; }

# The test file: made once with random bytes (real extents, not holes), reused.
if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" -ne "$bytes" ]; then
	echo "bench-probe: writing $SIZE of random data to $FILE (once)" >&2
	mkdir -p "$(dirname "$FILE")"
	dd if=/dev/urandom of="$FILE.tmp" bs=1M count=$((bytes / 1048576)) conv=fsync status=none
	mv "$FILE.tmp" "$FILE"
fi

OUT=results/$(date -u +%Y%m%dT%H%M%SZ)-bench-probe
mkdir -p "$OUT"

# ours ENGINE DEPTH TAG SEED: one point as a JSON line in $OUT/TAG.json
ours() {
	"$EIC" probe --file "$FILE" --engine "$1" --depth "$2" --bs "$BS" --direct \
		--duration "${SECS}s" --seed "$4" --json --no-cold --out "$OUT/$3" >"$OUT/$3.json" 2>"$OUT/$3.log" ||
		{ echo "bench-probe: eicbench failed, see $OUT/$3.log" >&2; exit 1; }
}

# theirs ENGINE DEPTH TAG SEED: fio's JSON in $OUT/TAG.json
theirs() {
	fio --name=probe --filename="$FILE" --ioengine="$1" --iodepth="$2" --rw=randread \
		--bs="$BS" --direct=1 --norandommap --randseed="$4" --runtime="$SECS" --time_based \
		--output-format=json >"$OUT/$3.json" 2>"$OUT/$3.log" ||
		{ echo "bench-probe: fio failed, see $OUT/$3.log" >&2; exit 1; }
}

# median of the numbers on stdin
median() {
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# point LABEL ENGINE DEPTH: ROUNDS runs of each tool, order swapped per round;
# prints one line of the table from the medians.
point() {
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		# a new seed each round, the same for both: neither re-reads blocks
		# the host may still cache from its own previous run
		if [ $((r % 2)) -eq 1 ]; then
			ours "$2" "$3" "ours-$1-$3-$r" "$r$3"
			theirs "$2" "$3" "fio-$1-$3-$r" "$r$3"
		else
			theirs "$2" "$3" "fio-$1-$3-$r" "$r$3"
			ours "$2" "$3" "ours-$1-$3-$r" "$r$3"
		fi
		r=$((r + 1))
	done
	o_iops=$(for f in "$OUT"/ours-"$1"-"$3"-*.json; do jq -r '.iops' "$f"; done | median)
	o_cpu=$(for f in "$OUT"/ours-"$1"-"$3"-*.json; do jq -r '.cpu_us_per_io.user + .cpu_us_per_io.sys' "$f"; done | median)
	f_iops=$(for f in "$OUT"/fio-"$1"-"$3"-*.json; do jq -r '.jobs[0].read.iops' "$f"; done | median)
	f_cpu=$(for f in "$OUT"/fio-"$1"-"$3"-*.json; do
		jq -r '.jobs[0] | (.usr_cpu + .sys_cpu) / 100 * .read.runtime * 1000 / .read.total_ios' "$f"; done | median)
	awk -v l="$1" -v d="$3" -v oi="$o_iops" -v fi="$f_iops" -v oc="$o_cpu" -v fc="$f_cpu" 'BEGIN {
		ir = oi / fi; cr = oc / fc
		printf "%-9s %5d %10.0f %10.0f %6.3f %s %9.2f %9.2f %6.3f %s\n", l, d, oi, fi, ir,
			(ir >= 0.97 ? "ok " : "LOW"), oc, fc, cr, (cr <= 1.0 ? "ok" : "HIGH") }' | tee -a "$OUT/table.txt"
}

echo "bench-probe: $FILE, bs $BS, O_DIRECT random reads, ${SECS}s per run, $ROUNDS rounds (medians); raw output in $OUT" >&2
printf "%-9s %5s %10s %10s %10s %9s %9s %10s\n" engine depth "ours IOPS" "fio IOPS" "ratio" \
	"ours µs/IO" "fio µs/IO" "ratio" | tee "$OUT/table.txt"
for d in $DEPTHS; do
	point io_uring io_uring "$d"
done
if [ "$PSYNC" = 1 ]; then
	point psync psync 1
fi
if grep -qE 'LOW|HIGH' "$OUT/table.txt"; then
	echo "bench-probe: some rows miss the target (IOPS ratio >= 0.97, CPU ratio <= 1); runs are noisy: rerun before concluding" >&2
else
	echo "bench-probe: every row meets the target" >&2
fi
