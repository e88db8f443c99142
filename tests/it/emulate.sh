# The emulated device (eicbench device emulate) as ground truth: its curve
# against the model's figures, its counters against the probe's, a raid0 of
# four one-at-a-time members, the passthrough (O_DIRECT, writes, owners),
# bad input, SIGUSR1, --stop, a process keeping it busy, and SIGKILL.
#
# The backing files live in tmpfs, so the backing reads (which the model
# overlaps) never wait for this machine's disk, which other work shares.
# The curves run the probe and the emulator on one CPU at real-time
# priority: on this kind of virtual machine an idle CPU halts and a wake-up
# across CPUs costs tens of µs, and other jobs on the machine would delay
# the probe's next read; what is checked is the model's rate, not the
# machine's scheduling (docs/commands.md states the emulation's overhead).
. tests/it/lib.sh
plan 58

need_fuse || exit 0

B=/dev/shm/eicbench-emu.$$
mkdir -p "$B/back" "$B/back4" "$T/mnt" "$T/mnt4" "$T/full"
emus=""
emu_cleanup() {
	for m in $emus; do
		umount -l "$m" 2>/dev/null
	done
	rm -rf "$B"
}
# the mounts and the tmpfs folder first, then lib.sh's own end (plan, status)
trap 'rc=$?; emu_cleanup; (exit $rc); finish' EXIT
CPU=$(($(nproc) - 1))
PIN="taskset -c $CPU chrt -f 1"
dd if=/dev/urandom of="$B/back/f" bs=1M count=64 status=none
cp "$B/back/f" "$B/back4/f"

# emulate MOUNT BACKING ARGS...: a daemon pinned to $CPU
emulate() {
	m=$1; b=$2; shift 2
	emus="$emus $m"
	taskset -c "$CPU" "$EB" device emulate --backing "$b" --mount "$m" --daemon "$@"
}
# counter MOUNT PATH: a figure of the live counters
counter() {
	jq -r "$2" "$1/.eicbench/counters.json"
}
# point DIR DEPTH FIELD: a figure of the probe's point at that depth
point() {
	jq -r "select(.depth == $2) | $3" "$1/points.jsonl"
}
# within GOT WANT SHARE: GOT is within SHARE of WANT
within() {
	awk -v g="$1" -v w="$2" -v s="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= s * w) }'
}

# ---- the device's curve: --latency 1ms --parallel 8 ----
ok "an emulated device of 1 ms and 8 at once mounts" emulate "$T/mnt" "$B/back" --latency 1ms --parallel 8
same "it is a fuse.eicbench mount" "$(findmnt -n -o FSTYPE "$T/mnt")" fuse.eicbench
same "it publishes itself" "$(head -n 1 "$T/mnt/.eicbench/model")" "eicbench emulated device: latency 1 ms, 8 at once per member, no bandwidth limit, read-ahead 128 KiB"
same "in a folder found by name, listing its files" "$(ls "$T/mnt/.eicbench" | tr '\n' ' ')$(ls -A "$T/mnt" | grep -c eicbench)" "counters.json diskstats model model.json queue 0"
# cpu_ticks: the steal and the total of /proc/stat's cpu line
cpu_ticks() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t; exit }' /proc/stat
}
# The timing checks hold on an idle host: the host's steal time, or another
# job on the CPU, only ever slows the probe, never speeds it. So the curve
# runs up to three times and the first that meets the model counts; when
# none does and the host took more than 5% of the CPUs as steal in any of
# them, the timing checks are skipped, naming the highest figure (a host
# that busy comes and goes within seconds: once, all three missed with
# 8.8% and 7.8% stolen in the first two and less in the third).
attempt=0
steal_max=0
while :; do
	attempt=$((attempt + 1))
	rm -rf "$T/curve"
	s0=$(cpu_ticks)
	before=$(counter "$T/mnt" .device.reads)
	late0=$(counter "$T/mnt" '"\(.timing.answer_late_mean_us * .timing.answered) \(.timing.answered)"')
	$PIN "$EB" probe --file "$T/mnt/f" --engine io_uring --direct \
		--depth 1,2,4,8,16,32 --duration 1 --out "$T/curve" >"$T/curve.out" 2>&1
	curve_rc=$?
	after=$(counter "$T/mnt" .device.reads)
	late1=$(counter "$T/mnt" '"\(.timing.answer_late_mean_us * .timing.answered) \(.timing.answered)"')
	s1=$(cpu_ticks)
	steal=$(printf '%s\n%s\n' "$s0" "$s1" | awk 'NR == 1 { s = $1; t = $2 } NR == 2 { if ($2 > t) printf "%.1f", ($1 - s) / ($2 - t) * 100; else print 0 }')
	steal_max=$(awk -v a="$steal" -v b="$steal_max" 'BEGIN { print (a > b) ? a : b }')
	: >"$T/timing"
	for d in 1 2 4 8 16 32; do
		model=$(( (d < 8 ? d : 8) * 1000 ))
		got=$(point "$T/curve" $d .iops)
		if within "$got" "$model" 0.10; then
			echo "pass depth $d: $got IOPS, within 10% of the model's $model" >>"$T/timing"
		else
			echo "flunk depth $d: $got IOPS, not within 10% of the model's $model" >>"$T/timing"
		fi
	done
	for d in 1 2 4 8; do
		p50=$(point "$T/curve" $d '.lat_ns.p50 / 1000')
		if within "$p50" 1000 0.10; then
			echo "pass depth $d: p50 $p50 µs, within 10% of 1 ms" >>"$T/timing"
		else
			echo "flunk depth $d: p50 $p50 µs, not within 10% of 1 ms" >>"$T/timing"
		fi
	done
	knee=$(jq -r '.engines[0].knee_depth' "$T/curve/curve.json" 2>/dev/null)
	if [ "$knee" = 8 ]; then
		echo "pass the knee at 8" >>"$T/timing"
	else
		echo "flunk the knee at 8: got '$knee'" >>"$T/timing"
	fi
	# the emulator's answers over this curve, late by under 100 µs on average
	late=$(printf '%s\n%s\n' "$late0" "$late1" | awk 'NR == 1 { a = $1; n = $2 } NR == 2 { if ($2 > n) printf "%.1f", ($1 - a) / ($2 - n); else print "none" }')
	if awk -v l="$late" 'BEGIN { exit !(l != "none" && l < 100) }'; then
		echo "pass the emulator answered on time: $late µs late on average" >>"$T/timing"
	else
		echo "flunk the emulator answered on time: $late µs late on average" >>"$T/timing"
	fi
	grep -q '^flunk' "$T/timing" || break
	[ "$attempt" -lt 3 ] || break
	echo "# curve $attempt missed the model (steal $steal%), once more:" && grep '^flunk' "$T/timing" | sed 's/^/#   /'
done
if [ "$curve_rc" = 0 ]; then
	pass "the curve at depths 1 to 32 (O_DIRECT, io_uring), attempt $attempt"
else
	flunk "the curve at depths 1 to 32 (O_DIRECT, io_uring)" "$(tail -n 5 "$T/curve.out")"
fi
stolen=$(awk -v s="$steal_max" 'BEGIN { exit !(s > 5) }' && echo yes)
while read -r verdict desc; do
	if [ "$verdict" = pass ]; then
		pass "$desc"
	elif [ "$stolen" = yes ]; then
		skip "$desc" "the host took up to $steal_max% of the CPUs as steal time over the curve's $attempt attempts"
	else
		flunk "$desc"
	fi
done <"$T/timing"
probe_reads=$(jq -s 'map(.ios) | add' "$T/curve/points.jsonl")
if [ "$probe_reads" -gt 0 ] 2>/dev/null && within "$((after - before))" "$probe_reads" 0.01; then
	pass "the emulator counted $((after - before)) reads, the probe $probe_reads (within 1%)"
else
	flunk "the emulator counted $((after - before)) reads, the probe '$probe_reads'"
fi
same "the probe saw the emulated device's own counters" "$(jq -s 'map(.disk.reads) | add' "$T/curve/points.jsonl" | awk -v p="$probe_reads" '{ d = $1 - p; if (d < 0) d = -d; print (d <= 0.01 * p) ? "yes" : "no: " $1 }')" yes
same "meta.json names the device as emulated, with its model" "$(jq -r '[.device.name, .device.emulated.latency_ms, .device.emulated.parallel] | @tsv' "$T/curve/meta.json")" "$(printf 'emulated\t1\t8')"

# ---- the passthrough ----
ok "O_DIRECT reads through it" dd if="$T/mnt/f" of="$T/direct" bs=1M iflag=direct status=none
ok "and return the backing file's bytes" cmp "$T/direct" "$B/back/f"
ok "writes and fsync pass through" dd if=/dev/urandom of="$T/mnt/w" bs=64k count=16 conv=fsync status=none
ok "the backing file holds what was written" cmp "$T/mnt/w" "$B/back/w"
ok "a folder given to the server's user through the mount" sh -c "mkdir '$T/mnt/ts' && chown postgres:postgres '$T/mnt/ts'"
ok "where that user makes a file" su postgres -s /bin/sh -c "touch '$T/mnt/ts/x' && mkdir '$T/mnt/ts/d'"
same "both are the server's user's in the backing folder" "$(stat -c %U:%G "$B/back/ts" "$B/back/ts/x" "$B/back/ts/d" | sort -u)" postgres:postgres
fails 1 "Permission denied" "the kernel checks permissions: that user cannot write the root's folder" su postgres -s /bin/sh -c "touch '$T/mnt/y'"
same "writes were counted, not modelled" "$(counter "$T/mnt" '.device.writes > 0')" true

# ---- signals and --stop ----
pid=$(jq -r .pid "$T/mnt.emulate.json")
kill -USR1 "$pid"
sleep 0.5
same "SIGUSR1 writes the counters beside the mount" "$(jq -r '.counters.device.reads >= '"$after"'' "$T/mnt.emulate.json")" true
(cd "$T/mnt" && sleep 3) &
busy=$!
sleep 0.3
fails 2 "process $busy (sleep) is using $T/mnt" "--stop is refused while a process uses the mount, naming it" \
	"$EB" device emulate --stop "$T/mnt"
wait $busy
ok "--stop stops it" "$EB" device emulate --stop "$T/mnt"
same "and it is unmounted" "$(findmnt -n "$T/mnt" | wc -l)" 0
same "the state file says stopped, with the counters" "$(jq -r '[.state, (.counters.device.reads >= '"$after"')] | @tsv' "$T/mnt.emulate.json")" "$(printf 'stopped\ttrue')"
fails 2 "no emulator runs there" "--stop of a stopped device is refused" "$EB" device emulate --stop "$T/mnt"

# ---- raid0 of 4 members, 1 at a time each, 8 KiB stripes ----
ok "a raid0 of 4 members, 1 at a time each" emulate "$T/mnt4" "$B/back4" --latency 1ms --parallel 1 --members 4 --layout raid0 --stripe 8k
same "its members publish their counters" "$(awk '{ print $3 }' "$T/mnt4/.eicbench/diskstats" | tr '\n' ,)" "emulated,emulated.m0,emulated.m1,emulated.m2,emulated.m3,"
for d in 1 2 4 8 16; do
	c0=$(cat "$T/mnt4/.eicbench/counters.json")
	$PIN "$EB" probe --file "$T/mnt4/f" --engine io_uring --direct --pattern seq --depth $d --duration 1 --out "$T/r0-$d" >/dev/null 2>&1
	c1=$(cat "$T/mnt4/.eicbench/counters.json")
	got=$(jq -r .iops "$T/r0-$d/points.jsonl")
	el=$(jq -r .elapsed_s "$T/r0-$d/points.jsonl")
	# the model allows each member one read per ms while it is busy
	allowed=$(printf '%s\n%s\n' "$c0" "$c1" | jq -s --argjson el "$el" \
		'[range(4) as $i | .[1].members[$i].busy_s - .[0].members[$i].busy_s] | add / $el * 1000')
	if within "$got" "$allowed" 0.15; then
		pass "raid0 depth $d: $got IOPS, within 15% of the $allowed the model allowed"
	else
		flunk "raid0 depth $d: $got IOPS, not within 15% of the $allowed the model allowed"
	fi
	echo "$d $got" >>"$T/r0.curve"
done
knee=$(awk '{ d[NR] = $1; v[NR] = $2; if ($2 > p) p = $2 } END { for (i = 1; i <= NR; i++) if (v[i] >= 0.9 * p) { print d[i]; exit } }' "$T/r0.curve")
case $knee in
2|4|8) pass "the raid0's knee at 4 (±1 step): $knee" ;;
*) flunk "the raid0's knee at 4 (±1 step): got '$knee'" ;;
esac
same "every member served reads" "$(counter "$T/mnt4" '[.members[].reads > 0] | all')" true
same "each member served one read at a time (at most 1 per ms while busy)" "$(counter "$T/mnt4" '[.members[] | .reads / .busy_s <= 1010] | all')" true

# ---- SIGKILL: the mount is left; the next command says so and how to clean it ----
pid=$(jq -r .pid "$T/mnt4.emulate.json")
kill -KILL "$pid"
sleep 0.3
fails 2 "fusermount3 -u $T/mnt4" "--stop after SIGKILL says the mount is gone and how to clean it" \
	"$EB" device emulate --stop "$T/mnt4"
fails 2 "is gone.*fusermount3 -u $T/mnt4" "a probe on it says the same" "$EB" probe --file "$T/mnt4/f" --depth 1 --count 10 --out "$T/gone"
ok "fusermount3 -u cleans it" fusermount3 -u "$T/mnt4"
ok "the backing files are whole" cmp "$B/back/f" "$B/back4/f"

# ---- bad input: exit 2, naming the value, nothing mounted ----
fails 2 "'-1ms' is not a service time" "--latency -1ms is refused" "$EB" device emulate --backing "$B/back" --mount "$T/mnt" --latency -1ms
fails 2 "parallel: '0'.*from 1 to 4096" "--parallel 0 is refused" "$EB" device emulate --backing "$B/back" --mount "$T/mnt" --latency 1ms --parallel 0
fails 2 "members: '0'.*from 1 to 64" "--members 0 is refused" "$EB" device emulate --backing "$B/back" --mount "$T/mnt" --latency 1ms --members 0
fails 2 "6144 bytes is not a multiple of 4 KiB" "a stripe not a multiple of 4 KiB is refused" "$EB" device emulate --backing "$B/back" --mount "$T/mnt" --latency 1ms --members 2 --stripe 6k
fails 2 "raid10 mirrors pairs" "raid10 of 3 members is refused" "$EB" device emulate --backing "$B/back" --mount "$T/mnt" --latency 1ms --members 3 --layout raid10
touch "$T/full/x"
fails 2 "'$T/full': the folder is not empty" "a mount point that is not an empty folder is refused" "$EB" device emulate --backing "$B/back" --mount "$T/full" --latency 1ms
fails 2 "'$T/none': No such file or directory" "a backing folder that does not exist is refused" "$EB" device emulate --backing "$T/none" --mount "$T/mnt" --latency 1ms
fails 2 "--latency is needed" "--latency is needed" "$EB" device emulate --backing "$B/back" --mount "$T/mnt"
same "nothing was mounted by bad input" "$(findmnt -n "$T/mnt" "$T/full" | wc -l)" 0
