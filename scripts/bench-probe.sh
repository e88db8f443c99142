#!/bin/sh
# bench-probe.sh: eicbench's io_uring probe against fio's io_uring engine on
# the same file, O_DIRECT random reads of 8 KiB, at each depth; then psync
# against fio's psync at depth 1. Each round runs both tools back to back,
# the order swapped every round (ours first in odd rounds), since the virtio
# disk's host favours whichever runs second; a new seed each round, the same
# for both. Per round: the ratio ours / fio of IOPS and of CPU time per I/O.
# Per point: the median of the round ratios and an order-statistic interval
# for it (the k-th smallest to the k-th largest ratio, k the largest giving at
# least 95% coverage; with 8 rounds or fewer that is min..max, its coverage
# printed), the medians of both tools' IOPS and CPU, and each tool's reads in
# flight at the device (aqu-sz: /proc/diskstats for ours, fio's disk_util
# in_queue over its run time for fio; ours also by Little's law at the
# probe). Each row's CPU per read is also split, in cpu-split.txt, into user
# time (the tool's own work) and system time (the kernel's for its system
# calls): both tools make one pread64 per read at psync, so there the system
# part is the same work, and its swings are the kernel's and the host's.
#
# A point runs BENCH_PROBE_ROUNDS rounds, then two more at a time while it is
# not settled, up to BENCH_PROBE_MAX_ROUNDS: unsettled is an IOPS or CPU
# interval that holds 1 but reaches further than BENCH_PROBE_MARGIN from it
# (the tools may still differ by more than that), or a CPU interval that
# straddles the row's CPU target. Then a line per row says from the intervals
# whether ours is behind, level or ahead of fio in IOPS and in CPU per read
# (level: the interval holds 1), and whether the targets are met: median IOPS
# ratio >= BENCH_PROBE_IOPS_TARGET with the interval reaching 1, median CPU
# ratio <= the row's CPU target (BENCH_PROBE_CPU_TARGET, or
# BENCH_PROBE_CPU_TARGET_DEEP for io_uring at depths of 4 and more).
# Both tools run on the same CPU (taskset): by default the one that takes
# the device's completion interrupts, found by a 1 s probe before the rows
# (a disk with one queue completes every read on one CPU, and a reader
# elsewhere is woken from there: on the project's VM fio's psync reads ran
# at about half the rate on the other CPU), so neither pays for a place the
# other does not. BENCH_PROBE_CPU=N pins both to CPU N, none leaves them to
# the scheduler.
# Both draw blocks uniformly with replacement (fio --norandommap). Raw
# outputs, the table and the load average at the start and the end go to
# results/<UTC>-bench-probe/.
#
# Environment: BENCH_PROBE_SIZE (4G), BENCH_PROBE_SECONDS (5),
# BENCH_PROBE_DEPTHS ("1 4 16 64 128"), BENCH_PROBE_FILE (data/probe-file),
# BENCH_PROBE_PSYNC (1; 0 skips the psync row), BENCH_PROBE_ROUNDS (6: even,
# so each tool goes first equally often), BENCH_PROBE_MAX_ROUNDS (16),
# BENCH_PROBE_MARGIN (0.02), BENCH_PROBE_IOPS_TARGET (0.99),
# BENCH_PROBE_CPU_TARGET (1.00), BENCH_PROBE_CPU_TARGET_DEEP (0.85),
# BENCH_PROBE_CPU (irq: the interrupts' CPU; none; or a CPU number).
set -eu

SIZE=${BENCH_PROBE_SIZE:-4G}
SECS=${BENCH_PROBE_SECONDS:-5}
DEPTHS=${BENCH_PROBE_DEPTHS:-"1 4 16 64 128"}
FILE=${BENCH_PROBE_FILE:-data/probe-file}
PSYNC=${BENCH_PROBE_PSYNC:-1}
ROUNDS=${BENCH_PROBE_ROUNDS:-6}
MAX_ROUNDS=${BENCH_PROBE_MAX_ROUNDS:-16}
MARGIN=${BENCH_PROBE_MARGIN:-0.02}
IOPS_TARGET=${BENCH_PROBE_IOPS_TARGET:-0.99}
CPU_TARGET=${BENCH_PROBE_CPU_TARGET:-1.00}
CPU_TARGET_DEEP=${BENCH_PROBE_CPU_TARGET_DEEP:-0.85}
PIN=${BENCH_PROBE_CPU:-irq}
BS=8k
EIC=${EICBENCH:-./eicbench}

for tool in fio jq numfmt taskset; do
	command -v "$tool" >/dev/null 2>&1 || { echo "bench-probe: $tool is needed (make deps)" >&2; exit 2; }
done
[ -x "$EIC" ] || { echo "bench-probe: build eicbench first (make)" >&2; exit 2; }
case $ROUNDS in
''|*[!0-9]*|0|1) echo "bench-probe: BENCH_PROBE_ROUNDS '$ROUNDS' is not a whole number of at least 2" >&2; exit 2 ;;
esac
case $MAX_ROUNDS in
''|*[!0-9]*) echo "bench-probe: BENCH_PROBE_MAX_ROUNDS '$MAX_ROUNDS' is not a whole number" >&2; exit 2 ;;
esac
[ "$MAX_ROUNDS" -ge "$ROUNDS" ] ||
	{ echo "bench-probe: BENCH_PROBE_MAX_ROUNDS $MAX_ROUNDS is below BENCH_PROBE_ROUNDS $ROUNDS" >&2; exit 2; }
for v in "MARGIN=$MARGIN" "IOPS_TARGET=$IOPS_TARGET" "CPU_TARGET=$CPU_TARGET" "CPU_TARGET_DEEP=$CPU_TARGET_DEEP"; do
	case ${v#*=} in
	''|*[!0-9.]*|*.*.*|.) echo "bench-probe: BENCH_PROBE_${v%%=*} '${v#*=}' is not a positive decimal number (e.g. 0.85)" >&2; exit 2 ;;
	esac
done

case $PIN in
irq|none) ;;
''|*[!0-9]*) echo "bench-probe: BENCH_PROBE_CPU '$PIN' is not irq, none or a CPU number" >&2; exit 2 ;;
*) [ "$PIN" -lt "$(nproc --all)" ] ||
	{ echo "bench-probe: BENCH_PROBE_CPU $PIN is not a CPU of this machine (0 to $(($(nproc --all) - 1)))" >&2; exit 2; } ;;
esac

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

# The CPU both tools run on: the one that took most of the device's
# interrupts in a short probe, or the one asked for; PINNED says which.
ON= CPU=
case $PIN in
none) PINNED="not pinned (BENCH_PROBE_CPU=none)" ;;
irq)
	cpu=$("$EIC" probe --file "$FILE" --engine psync --depth 1 --bs "$BS" --direct --duration 1s --json --no-cold \
		--out "$OUT/find-cpu" 2>"$OUT/find-cpu.log" |
		jq -r '.interrupts.per_cpu // empty | to_entries | max_by(.value) | select(.value > 0) | .key')
	if [ -n "$cpu" ]; then
		ON="taskset -c $cpu"; CPU=$cpu
		PINNED="both on CPU $cpu, which took the device's interrupts"
	else
		PINNED="not pinned: the device's interrupts are not followed here (see $OUT/find-cpu.log)"
	fi ;;
*) ON="taskset -c $PIN"; CPU=$PIN; PINNED="both on CPU $PIN (BENCH_PROBE_CPU)" ;;
esac

# fio runs its reads in a job process forked from a main one that wakes
# about every 10 ms to watch it. Pinned with taskset both share the CPU, and
# on the project's VM a reader whose CPU has such a timer pays less for each
# read it sleeps on (the host wakes a halted CPU faster when a timer is near:
# a process waking every 1 ms on the reader's CPU took its CPU time per read
# from 41-49 µs to 24-31, see docs/measured.md). So only fio's job is pinned
# (--cpus_allowed) and its main process runs on another CPU: each tool's
# reader is then alone on the pinned CPU. FIO_ON is how fio is started.
FIO_ON=$ON FIO_JOB=
if [ -n "$CPU" ]; then
	other=$(awk -v c="$CPU" '/^processor/ && $3 != c { print $3; exit }' /proc/cpuinfo)
	if [ -n "$other" ]; then
		FIO_ON="taskset -c $other" FIO_JOB="--cpus_allowed=$CPU"
		PINNED="$PINNED (fio's job there, its main process on CPU $other)"
	fi
fi

# cpu_at FILE: appends the pinned CPU's idle (idle and iowait) and stolen
# time, in USER_HZ ticks, from /proc/stat; "nan nan" when not pinned. Read
# before and after each tool's run.
cpu_at() {
	if [ -n "$CPU" ]; then
		awk -v c="cpu$CPU" '$1 == c { print $5 + $6, $9 }' /proc/stat >>"$1"
	else
		echo "nan nan" >>"$1"
	fi
}

# ours ENGINE DEPTH TAG SEED: one point as a JSON line in $OUT/TAG.json
ours() {
	cpu_at "$OUT/$3.cpu"
	$ON "$EIC" probe --file "$FILE" --engine "$1" --depth "$2" --bs "$BS" --direct \
		--duration "${SECS}s" --seed "$4" --json --no-cold --out "$OUT/$3" >"$OUT/$3.json" 2>"$OUT/$3.log" ||
		{ echo "bench-probe: eicbench failed, see $OUT/$3.log" >&2; exit 1; }
	cpu_at "$OUT/$3.cpu"
}

# theirs ENGINE DEPTH TAG SEED: fio's JSON in $OUT/TAG.json
theirs() {
	cpu_at "$OUT/$3.cpu"
	$FIO_ON fio $FIO_JOB --name=probe --filename="$FILE" --ioengine="$1" --iodepth="$2" --rw=randread \
		--bs="$BS" --direct=1 --norandommap --randseed="$4" --runtime="$SECS" --time_based \
		--output-format=json >"$OUT/$3.json" 2>"$OUT/$3.log" ||
		{ echo "bench-probe: fio failed, see $OUT/$3.log" >&2; exit 1; }
	cpu_at "$OUT/$3.cpu"
}

# One round's figures: "iops cpu_us_per_io aqu [inflight] user_us sys_us"
# of each tool (ours has inflight, fio not). The CPU per read is split in
# user time (the tool's own work) and system time (the kernel's, for the
# same system calls in both tools at psync).
ours_figures() {
	jq -r '"\(.iops) \(.cpu_us_per_io.user + .cpu_us_per_io.sys) \(.disk.avg_queue_depth // "nan") \(.inflight) \(.cpu_us_per_io.user) \(.cpu_us_per_io.sys)"' "$1"
}
fio_figures() {
	jq -r '.jobs[0] as $j | ($j.read.runtime * 1000 / $j.read.total_ios / 100) as $k | "\($j.read.iops) \(($j.usr_cpu + $j.sys_cpu) * $k) \(if (.disk_util | length) > 0 then .disk_util[0].in_queue / $j.read.runtime else "nan" end) \($j.usr_cpu * $k) \($j.sys_cpu * $k)"' "$1"
}
# host_figures JSON CPUFILE KIND: "switches idle_us steal_us" per read: the
# tool's context switches (ours: sleeps and preemptions; fio: its job's
# ctx), and the pinned CPU's idle and stolen time over the run (nan when
# not pinned). On a VM a read's CPU time is its wall time less the CPU's
# idle time, so the host's share of it (a notify that exits to the host,
# time stolen) shows here and not in the tool's own work.
host_figures() {
	if [ "$3" = ours ]; then
		n=$(jq -r '"\(.ios) \(.switches_per_io.sleeps + .switches_per_io.preemptions)"' "$1")
	else
		n=$(jq -r '.jobs[0] | "\(.read.total_ios) \(.ctx / .read.total_ios)"' "$1")
	fi
	awk -v n="$n" -v hz="$(getconf CLK_TCK)" 'NR == 1 { i = $1; s = $2 } NR == 2 {
		split(n, a, " ")
		if (i == "nan") printf "%s nan nan\n", a[2]
		else printf "%s %s %s\n", a[2], ($1 - i) * 1e6 / hz / a[1], ($2 - s) * 1e6 / hz / a[1] }' "$2"
}

# stats MODE LABEL DEPTH CPU_TARGET: reads the rounds file "ours_iops
# ours_cpu ours_aqu ours_inflight ours_user ours_sys fio_iops fio_cpu fio_aqu
# fio_user fio_sys". MODE "settled"
# prints yes or no (see the top of this file); "row" prints the table line,
# and appends the verdict line to verdicts.txt and the per-round ratios to
# rounds.txt.
stats() {
	awk -v mode="$1" -v l="$2" -v d="$3" -v ct="$4" -v m="$MARGIN" -v it="$IOPS_TARGET" \
		-v vout="$OUT/verdicts.txt" -v rout="$OUT/rounds.txt" -v sout="$OUT/cpu-split.txt" \
		-f scripts/ratios.awk -f scripts/bench-probe-stats.awk
}

# round LABEL ENGINE DEPTH R: both tools back to back, ours first in odd
# rounds; a new seed each round, the same for both, so that neither re-reads
# blocks the host may still cache from its own previous run.
round() {
	if [ $(($4 % 2)) -eq 1 ]; then
		ours "$2" "$3" "ours-$1-$3-$4" "$4$3"
		theirs "$2" "$3" "fio-$1-$3-$4" "$4$3"
	else
		theirs "$2" "$3" "fio-$1-$3-$4" "$4$3"
		ours "$2" "$3" "ours-$1-$3-$4" "$4$3"
	fi
	echo "$(ours_figures "$OUT/ours-$1-$3-$4.json") $(fio_figures "$OUT/fio-$1-$3-$4.json")" \
		"$(host_figures "$OUT/ours-$1-$3-$4.json" "$OUT/ours-$1-$3-$4.cpu" ours)" \
		"$(host_figures "$OUT/fio-$1-$3-$4.json" "$OUT/fio-$1-$3-$4.cpu" fio)" >>"$OUT/round-$1-$3.txt"
}

# point LABEL ENGINE DEPTH CPU_TARGET: ROUNDS rounds, then pairs of rounds
# until settled or MAX_ROUNDS.
point() {
	r=1
	: >"$OUT/round-$1-$3.txt"
	while [ "$r" -le "$ROUNDS" ] ||
		{ [ "$r" -le "$MAX_ROUNDS" ] && [ $((r % 2)) -eq 0 ]; } ||
		{ [ "$r" -lt "$MAX_ROUNDS" ] &&
		  [ "$(stats settled "$1" "$3" "$4" <"$OUT/round-$1-$3.txt")" = no ]; }; do
		round "$1" "$2" "$3" "$r"
		r=$((r + 1))
	done
	stats row "$1" "$3" "$4" <"$OUT/round-$1-$3.txt" | tee -a "$OUT/table.txt"
}

echo "bench-probe: $FILE, bs $BS, O_DIRECT random reads, ${SECS}s per run, $ROUNDS to $MAX_ROUNDS rounds, $PINNED; raw output in $OUT" >&2
echo "$PINNED" >"$OUT/cpu.txt"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/load.txt"
{
	printf "%-9s %5s %9s %9s %6s %11s %3s %7s %7s %6s %11s %4s %6s %6s %6s %6s\n" "" "" "IOPS" "" "ratio" "" "" \
		"CPU" "µs/IO" "ratio" "" "" "aqu-sz" "" "in flt" ""
	printf "%-9s %5s %9s %9s %6s %11s %3s %7s %7s %6s %11s %4s %6s %6s %6s %6s\n" engine depth ours fio median \
		interval "" ours fio median interval "" ours fio ours rounds
} | tee "$OUT/table.txt"
: >"$OUT/rounds.txt"
: >"$OUT/cpu-split.txt"
: >"$OUT/verdicts.txt"
for d in $DEPTHS; do
	if [ "$d" -ge 4 ]; then ct=$CPU_TARGET_DEEP; else ct=$CPU_TARGET; fi
	point io_uring io_uring "$d" "$ct"
done
if [ "$PSYNC" = 1 ]; then
	point psync psync 1 "$CPU_TARGET"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/load.txt"
cat "$OUT/rounds.txt"
cat "$OUT/cpu-split.txt"
cat "$OUT/verdicts.txt"
cat "$OUT/load.txt"
if grep -qE 'LOW|HIGH' "$OUT/table.txt"; then
	echo "bench-probe: some rows miss a target (median IOPS ratio >= $IOPS_TARGET with its interval reaching 1; CPU ratio <= $CPU_TARGET, $CPU_TARGET_DEEP for io_uring at depth 4 and more)" >&2
else
	echo "bench-probe: every row meets the targets" >&2
fi
