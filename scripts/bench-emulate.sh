#!/bin/sh
# bench-emulate.sh: the seed post's experiment where it should reproduce,
# on an emulated device shaped like the post's SSD RAID 10, and what the
# emulation itself costs.
#
# Part 1: the post's dense query (the blog preset), cold, on a tablespace
# on an emulated RAID 10 of four SATA SSDs: latency 100 us per read (a SATA
# SSD's random 8 KiB read at queue depth 1, 2019), 32 at once per member
# (SATA's NCQ depth), raid10 over 4 members in 64 KiB stripes (a hardware
# controller's usual default; reads go to the less busy drive of each
# pair), 500 MB/s per member (SATA 6 Gb/s), read-ahead 128 KiB (Linux's
# default). The post's 9.6 values 1, 20, 100 and 1000 are the prefetch
# distances 1, 72, 519 and 7485 pages of 13 and later (FACTS.md); 7485 is
# above today's maximum, so 1000 stands for it; 0 is added. The backing
# files live in tmpfs, so the device's timing is the model's alone. The
# post's mean execution times are printed beside our medians, each with its
# ratio against 1, then the suite's own explanation. The post's 100M rows
# are the default: the 4x lives in the heap's later 1 GB segment files. In
# the first, the scan's own first read starts the kernel's readahead before
# any advice; in each later one the advice for its first block comes first,
# reads that block alone without starting readahead, and from then on every
# block of the segment is read by its advice, one at a time (at 10M rows the
# heap is one segment, and value 1 keeps its readahead). With
# BENCH_EMULATE_READAHEAD="128k 0" the device is also swept with read-ahead
# off, where every read waits its turn from the first block.
#
# Part 2: the emulator at --latency 0 against its backing disk read
# directly: O_DIRECT random 8 KiB reads with io_uring at depths 1 and 16 of
# a file on this machine's disk, through the mount and straight, the order
# swapped every round, the page cache dropped before every point (root;
# the emulator reads its backing files through the cache). Per depth: the
# median IOPS ratio (emulated / direct) and CPU per read (the probe's, plus
# the emulator's through it) with min..max over the rounds.
#
# Run it alone, with nothing else busy on the machine: make bench-emulate.
# Environment: BENCH_EMULATE_DIR (data/bench-emulate), BENCH_EMULATE_ROWS
# (100000000; 10000000 at least; the backing files take about 80 bytes a
# row of memory in tmpfs), BENCH_EMULATE_RUNS (3), BENCH_EMULATE_READAHEAD
# ("128k": the device's read-ahead in each sweep), BENCH_EMULATE_ROUNDS (4),
# BENCH_EMULATE_COUNT (20000 reads a point), BENCH_EMULATE_SIZE (4G).
set -eu

DIR=${BENCH_EMULATE_DIR:-data/bench-emulate}
ROWS=${BENCH_EMULATE_ROWS:-100000000}
RUNS=${BENCH_EMULATE_RUNS:-3}
ROUNDS=${BENCH_EMULATE_ROUNDS:-4}
READAHEADS=${BENCH_EMULATE_READAHEAD:-128k}
COUNT=${BENCH_EMULATE_COUNT:-20000}
SIZE=${BENCH_EMULATE_SIZE:-4G}
EIC=${EICBENCH:-./eicbench}
DEVICE="--latency 100us --parallel 32 --members 4 --layout raid10 --stripe 64k --bandwidth 500MB/s"

fail() { echo "bench-emulate: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || fail "run as root: the emulator mounts for the server's user, and part 2 drops the page cache"
[ -c /dev/fuse ] || fail "no /dev/fuse here: the emulated device needs FUSE"
[ -x "$EIC" ] || fail "build eicbench first (make)"
for tool in jq numfmt awk; do
	command -v "$tool" >/dev/null 2>&1 || fail "$tool is needed (make deps)"
done
for v in "$ROWS" "$RUNS" "$ROUNDS" "$COUNT"; do
	case $v in ''|*[!0-9]*|0) fail "'$v' is not a whole number above 0 (BENCH_EMULATE_ROWS, _RUNS, _ROUNDS, _COUNT)" ;; esac
done
[ "$ROWS" -ge 10000000 ] || fail "BENCH_EMULATE_ROWS $ROWS: the post's experiment wants 10000000 rows or more"
bytes=$(numfmt --from=iec "$SIZE") || fail "BENCH_EMULATE_SIZE '$SIZE' is not a size (e.g. 4G)"
# the data set in tmpfs: 7.7 GB at 100M rows; leave a quarter of memory besides
need_kb=$((ROWS * 80 / 1024))
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
total_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
[ $((need_kb + total_kb / 4)) -le "$avail_kb" ] ||
	fail "$ROWS rows need about $((need_kb / 1048576)) GiB of memory for the backing files in tmpfs, and a quarter of memory left besides; $((avail_kb / 1048576)) GiB is available: give fewer rows (BENCH_EMULATE_ROWS)"

mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
PG=$DIR/pg
MNT=$DIR/mnt
MNT0=$DIR/mnt0
SHM=/dev/shm/eicbench-bench-emulate
OUT=results/$(date -u +%Y%m%dT%H%M%SZ)-bench-emulate
mkdir -p "$OUT" "$MNT" "$MNT0" "$SHM"

cleanup() {
	"$EIC" server stop --datadir "$PG" >/dev/null 2>&1 || true
	for m in "$MNT" "$MNT0"; do
		"$EIC" device emulate --stop "$m" >/dev/null 2>&1 || umount -l "$m" 2>/dev/null || true
	done
	rm -rf "$SHM"
}
trap cleanup EXIT

# ---- part 1: the post's query on its device, emulated ----

# A new cluster every time: its tablespace's files live in tmpfs and went
# with the last run.
"$EIC" server stop --datadir "$PG" >/dev/null 2>&1 || true
rm -rf "$PG"
"$EIC" server init --datadir "$PG" >"$OUT/init.log" 2>&1 || { cat "$OUT/init.log" >&2; exit 1; }
"$EIC" server stop --datadir "$PG" >/dev/null 2>&1 || true
# emulate RA: the device with read-ahead RA on $MNT
emulate() {
	# shellcheck disable=SC2086
	"$EIC" device emulate --backing "$SHM" --mount "$MNT" $DEVICE --read-ahead "$1" --daemon >"$OUT/emulate-$1.log" 2>&1 ||
		{ cat "$OUT/emulate-$1.log" >&2; exit 1; }
}

# table DIR RA: the post's mean times (PostgreSQL 9.6, 100M rows, 10 runs) beside ours
table() {
	awk -F, -v rows="$ROWS" -v runs="$RUNS" -v ra="$2" '
	BEGIN {
		post["1"] = 65604; post["72"] = 17807; post["519"] = 16776; post["1000"] = 16713
		old["0"] = "0"; old["1"] = "1"; old["72"] = "20"; old["519"] = "100"; old["1000"] = "1000"
	}
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ v[++n] = $2; ex[$2] = $c["exec_ms"]; hp[$2] = $c["median_ms"] }
	END {
		printf "The post (9.6, SSD RAID 10, 100M rows, mean of 10) beside the emulated RAID 10 with read-ahead %s (PostgreSQL 15, %d rows, median of %d), cold:\n\n", ra, rows, runs
		printf "%-9s %-9s | %11s %8s | %11s %8s %11s %8s\n", "9.6 value", "distance", "post ms", "x vs 1", "our exec ms", "x vs 1", "our heap ms", "x vs 1"
		for (i = 1; i <= n; i++) {
			d = v[i]
			printf "%-9s %-9s | %11s %8s | %11.1f %8.2f %11.1f %8.2f\n", old[d], d == "1000" ? "7485>1000" : d,
				(d in post) ? post[d] : "-", (d in post) ? sprintf("%.2f", post["1"] / post[d]) : "-",
				ex[d], ex["1"] / ex[d], hp[d], hp["1"] / hp[d]
		}
	}' "$1/summary.csv"
}

emulate 128k
echo "bench-emulate: the device: $(head -n 1 "$MNT/.eicbench/model")" >&2
echo "bench-emulate: loading $ROWS rows into a tablespace on it" >&2
"$EIC" load --datadir "$PG" --rows "$ROWS" --tablespace-dir "$MNT/ts" >"$OUT/load.log" 2>&1 ||
	{ cat "$OUT/load.log" >&2; exit 1; }
"$EIC" server stop --datadir "$PG" >/dev/null
"$EIC" device emulate --stop "$MNT" >/dev/null
for ra in $READAHEADS; do
	emulate "$ra"
	echo "bench-emulate: read-ahead $ra: the blog query, cold, values 0,1,72,519,1000, $RUNS runs each" >&2
	"$EIC" sweep --datadir "$PG" --query blog --eic 0,1,72,519,1000 --runs "$RUNS" --order-seed 2019 \
		--out "$OUT/sweep-ra$ra" >"$OUT/sweep-ra$ra.log" 2>&1 || { tail -n 20 "$OUT/sweep-ra$ra.log" >&2; exit 1; }
	"$EIC" server stop --datadir "$PG" >/dev/null
	"$EIC" device emulate --stop "$MNT" >"$OUT/device-served-ra$ra.txt"
	table "$OUT/sweep-ra$ra" "$ra" | tee "$OUT/table-ra$ra.txt"
	echo
	echo "The suite's explanation (eicbench report $OUT/sweep-ra$ra):"
	echo
	"$EIC" report "$OUT/sweep-ra$ra" --no-plot 2>&1 |
		awk '/^Before the first trial/ { exit } found || /^Query blog:/ { found = 1; print }' | tee "$OUT/explanation-ra$ra.txt"
done
rm -rf "$SHM"

# ---- part 2: the emulator's own cost at --latency 0 ----

FILE=$DIR/backing/file
if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" -ne "$bytes" ]; then
	echo "bench-emulate: writing $SIZE of random data to $FILE (once)" >&2
	mkdir -p "$DIR/backing"
	dd if=/dev/urandom of="$FILE.tmp" bs=1M count=$((bytes / 1048576)) conv=fsync status=none
	mv "$FILE.tmp" "$FILE"
fi
"$EIC" device emulate --backing "$DIR/backing" --mount "$MNT0" --latency 0ms --parallel 4096 --daemon >"$OUT/emulate0.log" 2>&1 ||
	{ cat "$OUT/emulate0.log" >&2; exit 1; }
EPID=$(jq -r .pid "$MNT0.emulate.json")

# cpu_ns PID: the on-CPU time of all of PID's threads, in ns (schedstat)
cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ s += $1 } END { printf "%.0f\n", s }'; }

# point PATH DEPTH TAG SEED: one cold point; prints "iops cpu_us_per_read"
point() {
	sync; echo 3 >/proc/sys/vm/drop_caches
	t0=$(cpu_ns "$EPID")
	"$EIC" probe --file "$1" --engine io_uring --direct --depth "$2" --count "$COUNT" --seed "$4" \
		--no-cold --json --out "$OUT/$3" >"$OUT/$3.json" 2>"$OUT/$3.log" || { cat "$OUT/$3.log" >&2; exit 1; }
	t1=$(cpu_ns "$EPID")
	jq -r --argjson emu "$(( t1 - t0 ))" --arg tag "$3" \
		'"\(.iops) \(.cpu_us_per_io.user + .cpu_us_per_io.sys + (if ($tag | test("emu")) then $emu / 1000 / .ios else 0 end))"' "$OUT/$3.json"
}

echo "bench-emulate: the emulator at --latency 0 against $FILE read directly, $ROUNDS rounds" >&2
: >"$OUT/overhead.txt"
for d in 1 16; do
	for r in $(seq 1 "$ROUNDS"); do
		seed=$((1000 * d + r))
		if [ $((r % 2)) -eq 1 ]; then
			e=$(point "$MNT0/file" $d "emu-d$d-r$r" $seed); b=$(point "$FILE" $d "disk-d$d-r$r" $seed)
		else
			b=$(point "$FILE" $d "disk-d$d-r$r" $seed); e=$(point "$MNT0/file" $d "emu-d$d-r$r" $seed)
		fi
		echo "$d $e $b" >>"$OUT/overhead.txt"
	done
done
"$EIC" device emulate --stop "$MNT0" >/dev/null

echo
echo "The emulator at --latency 0 against the backing disk directly (O_DIRECT random 8 KiB, io_uring, $COUNT reads a point, cold, $ROUNDS rounds; medians, min..max):"
echo
awk '
	function med(a, n,   i, j, t) {
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function lo(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]; return m }
	function hi(a, n,   i, m) { m = a[1]; for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]; return m }
	{ d = $1; k = ++n[d]; ei[d, k] = $2; ec[d, k] = $3; bi[d, k] = $4; bc[d, k] = $5; ri[d, k] = $2 / $4; rc[d, k] = $3 / $5 }
	END {
		printf "%5s | %10s %10s %18s | %12s %12s %18s\n", "depth", "emu IOPS", "disk IOPS", "IOPS ratio", "emu CPU/read", "disk CPU/read", "CPU ratio"
		for (d = 1; d <= 16; d += 15) {
			m = n[d]
			for (k = 1; k <= m; k++) { a1[k] = ei[d, k]; a2[k] = bi[d, k]; a3[k] = ri[d, k]; a4[k] = ec[d, k]; a5[k] = bc[d, k]; a6[k] = rc[d, k] }
			printf "%5d | %10.0f %10.0f %6.2f (%.2f-%.2f) | %9.1f us %9.1f us %6.2f (%.2f-%.2f)\n", d,
				med(a1, m), med(a2, m), med(a3, m), lo(a3, m), hi(a3, m), med(a4, m), med(a5, m), med(a6, m), lo(a6, m), hi(a6, m)
		}
	}' "$OUT/overhead.txt" | tee "$OUT/overhead-table.txt"
echo
echo "bench-emulate: everything is in $OUT" >&2
