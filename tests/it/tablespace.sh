# The data set on a tablespace on an emulated 2 ms device, beside the plain
# disk in the same cluster: the sparse query's heap phase at 16 at least 3x
# faster than at 1, the report saying the device's latency was hidden by
# reads in flight with the queue depth it measured, each storage its own
# ALTER TABLESPACE line, compare showing both; probe --relation, the cache
# check and the replay trials reading the tablespace's files through the
# emulated device; --tablespace-dir refused where
# the server's user cannot reach; a cluster using the mount keeps it from
# being stopped; SIGKILL of the emulator said by the next command, nothing
# of the data set lost.
. tests/it/lib.sh
plan 47

need_fuse || exit 0

D=$T/pg
P=54412
emulated ts
cluster pg $P
q() { sql "$D" $P "$1"; }
ROWS=300000
RUN="--quick --no-probe --rows $ROWS --query sparse --eic 0,1,16 --runs 3"

# The backing files in tmpfs: the backing reads, which the model overlaps,
# never wait for this machine's disk.
ok "an emulated device of 2 ms, 32 at once" "$EB" device emulate --backing "$B" --mount "$M" --latency 2ms --parallel 32 --daemon

# Refused where the server's user cannot reach, nothing made.
mkdir -m 700 "$T/closed"
fails 2 "--tablespace-dir '$T/closed/ts': the server's user postgres cannot reach it" \
	"--tablespace-dir where the server's user cannot reach is refused, naming it" \
	"$EB" load --datadir "$D" --rows $ROWS --tablespace-dir "$T/closed/ts"
same "and nothing was made" "$(ls "$T/closed" | wc -l),$(q 'select count(*) from pg_tablespace')" "0,2"

# The whole suite (sweep and verdict) on the emulated device's tablespace.
ok "run on a tablespace on the emulated device" "$EB" run --datadir "$D" $RUN --tablespace-dir "$M/ts" --out "$T/run-emu"
same "the tablespace is the server's user's, in the backing folder" "$(stat -c %U "$B/ts")" postgres
same "the table and both indexes live there" "$(q "select string_agg(coalesce(t.spcname, 'default'), ',' order by c.relname) from pg_class c left join pg_tablespace t on t.oid = c.reltablespace where c.relname in ('test', 'test_pkey', 'minor_idx')")" "eicbench_ts,eicbench_ts,eicbench_ts"
S=$T/run-emu/sweep-sparse
same "the data set's record names its tablespace and the emulated device" "$(jq -r '.dataset.tablespace | [.name, .location, .device.name, .device.emulated.latency_ms] | @tsv' "$S/meta.json")" "$(printf 'eicbench_ts\t%s\temulated\t2' "$M/ts")"
same "the sweep watched the emulated device" "$(jq -r '[.device.name, .device.emulated.parallel, .plan.tablespace.name] | @tsv' "$S/meta.json")" "$(printf 'emulated\t32\teicbench_ts')"
same "its trials read the emulated device's counters" "$(jq -r '.disk.device == "emulated" and .disk.reads > 0' "$S/trials.jsonl" | sort -u)" true
heap() { awk -F, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $2 == v && $c["measure"] == "heap_phase" { print $c["median_ms"] }' "$1/summary.csv"; }
h1=$(heap "$S" 1)
h16=$(heap "$S" 16)
if awk -v a="$h1" -v b="$h16" 'BEGIN { exit !(a >= 3 * b && b > 0) }'; then
	pass "the heap phase at 16 ($h16 ms) at least 3x faster than at 1 ($h1 ms)"
else
	flunk "the heap phase at 16 ($h16 ms) not 3x faster than at 1 ($h1 ms)"
fi
# joined FILE PATTERN: FILE's text, its lines joined, matches PATTERN
joined() {
	tr '\n' ' ' <"$1" | grep -q -- "$2"
}
ok "the report says the latency was hidden by reads in flight, citing the queue depth" \
	joined "$S/report.md" "The device's latency was hidden by reads in flight: at 16 it held [0-9.]* reads at once on average (its queue depth"
# apply_line RUN: the verdict's line for the tablespace it measured (under
# "Applying it"); a provisional verdict gives none, and then the line is
# made from its JSON's tablespace and leading value
apply_line() {
	grep -m 1 '^ALTER TABLESPACE [a-z_]' "$1/report.md" || {
		rm -rf "$T/apply.copy" && cp -r "$1" "$T/apply.copy" &&
		"$EB" report "$T/apply.copy" --no-plot --format json 2>/dev/null |
		jq -r 'select(.state == "provisional") | "ALTER TABLESPACE \(.tablespace) SET (effective_io_concurrency = \(.recommendation));"'
	}
}
emu_line=$(apply_line "$T/run-emu")
case $emu_line in
"ALTER TABLESPACE eicbench_ts SET (effective_io_concurrency = "*) pass "the verdict's first line is for that tablespace: $emu_line" ;;
*) flunk "the verdict's first line is for that tablespace: got '$emu_line', wanted ALTER TABLESPACE eicbench_ts SET (...)" ;;
esac
ok "the verdict names the device as emulated, with its model" sh -c "grep -Eq '^\\| +device +\\| +emulated +\\|' '$T/run-emu/report.md' &&
	grep -Eq '^\\| model +\\| eicbench emulated device: latency 2 ms' '$T/run-emu/report.md' &&
	grep -Eq '^\\| emulated model +\\| \\{' '$T/run-emu/report.md'"

same "and it is 16, where this device hides its 2 ms (1 and 0 wait on each read)" "$(echo "$emu_line" | sed -n 's/.*effective_io_concurrency = \([0-9]*\)).*/\1/p')" 16
# The cache check followed the relations to their tablespace: its reads took
# the emulated device's 2 ms, every one of them.
same "the cache check read the tablespace's files on the emulated device (no read under 1.9 ms)" \
	"$(jq -r '.plan.cache_check | .ran and .passes.first.min_ns >= 1900000 and .passes.fresh.min_ns >= 1900000' "$S/meta.json")" true

# probe --relation reads the table's files where its tablespace puts them,
# through the emulated device: its counters moved by the probe's own count.
c0=$(jq .device.reads "$M/.eicbench/counters.json")
ok "probe --relation on the tablespace's table" "$EB" probe --datadir "$D" --relation test --pattern random --depth 4 --count 400 --direct --out "$T/p-emu"
c1=$(jq .device.reads "$M/.eicbench/counters.json")
tsoid=$(q "select oid from pg_tablespace where spcname = 'eicbench_ts'")
same "its files are the tablespace's, on the emulated device" \
	"$(jq -r '[(.relation.segment_base | test("/pg_tblspc/'"$tsoid"'/")), .device.name] | @tsv' "$T/p-emu/meta.json")" "$(printf 'true\temulated')"
same "the emulated device served what the probe counted (within 1%)" \
	"$(jq -s 'map(.disk.reads) | add' "$T/p-emu/points.jsonl" | awk -v e=$((c1 - c0)) '{ d = e - $1; if (d < 0) d = -d; print (d <= 0.01 * $1 && $1 > 0) ? "yes" : "no: device " e ", probe " $1 }')" yes
same "one read at a time took the device's 2 ms" "$(jq -r 'select(.engine == "psync") | .lat_ns.p50 >= 1900000' "$T/p-emu/points.jsonl")" true

# The replay trials read the tablespace's files too: at 1 each of their reads
# waits the device's 2 ms, at 16 they overlap.
ok "a sweep with replay trials on the tablespace" "$EB" sweep --datadir "$D" --query sparse --eic 1,16 --runs 1 --replay --no-cache-check --out "$T/s-replay"
rw() { jq -r --arg k "round=1 effective_io_concurrency=$1 replay" 'select(.trial_key == $k) | "\(.replay.wait_ms) \(.replay.reads)"' "$T/s-replay/trials.jsonl"; }
set -- $(rw 1) $(rw 16)
if [ $# -eq 4 ] && awk -v w1="$1" -v n1="$2" -v w16="$3" 'BEGIN { exit !(n1 > 0 && w1 >= 0.9 * n1 * 2 && w1 >= 3 * w16) }'; then
	pass "the replay at 1 waited the device's 2 ms per read ($1 ms for $2 reads), at 16 at least 3x less ($3 ms)"
else
	flunk "the replay's waits do not show the emulated device: at 1 '$1 ms for $2 reads', at 16 '$3 ms'"
fi
same "the replay trials read the emulated device's own counters, one request a read at 1" \
	"$(jq -r 'select(.workload == "replay" and .settings.effective_io_concurrency == "1") | (.disk.device == "emulated" and .disk.reads == .replay.reads)' "$T/s-replay/trials.jsonl")" true

# A cluster with a tablespace on the mount keeps it mounted.
fails 2 "the PostgreSQL cluster in $D (postmaster pid [0-9]*) is running with a tablespace at $M/ts" \
	"--stop is refused while a cluster uses the mount, naming the cluster" "$EB" device emulate --stop "$M"

# The same on the plain disk of the same cluster.
ok "run on the plain disk in the same cluster" "$EB" run --datadir "$D" $RUN --out "$T/run-disk"
same "the data set moved back to the default tablespace" "$(q "select count(*) from pg_class where relname in ('test', 'test_pkey', 'minor_idx') and reltablespace = 0")" 3
disk_line=$(apply_line "$T/run-disk")
case $disk_line in
"ALTER TABLESPACE pg_default SET (effective_io_concurrency = "*) pass "the plain disk's own line: $disk_line" ;;
*) flunk "the plain disk's own line: got '$disk_line', wanted ALTER TABLESPACE pg_default SET (...)" ;;
esac
same "the two lines differ" "$([ "$emu_line" != "$disk_line" ] && echo yes)" yes
same "the plain disk's cache check read its own files, well under the emulated 2 ms" \
	"$(jq -r '.plan.cache_check | .ran and .passes.first.median_ns < 1000000' "$T/run-disk/sweep-sparse/meta.json")" true
ok "compare of the two runs" "$EB" compare "$T/run-emu" "$T/run-disk" --no-plot --out "$T/cmp"
# per_ts LINE TABLESPACE: compare's own rule for LINE (A or B) on its
# tablespace, and the statement it prints for it: "V" when it recommends V
# and prints ALTER TABLESPACE ... = V for that line; "none" when it says no
# recommendation and prints no statement for it; else what it printed. (The
# compare rule is the sweep report's, line by line; a run's verdict rule may
# give another value, so the runs' own lines are not what is matched here.)
per_ts() {
	_said=$(tr '\n' ' ' <"$T/cmp/compare.md" | grep -o "[;:] $1: [^;.]*" | head -n 1)
	_stmt=$(grep -E "^  ALTER TABLESPACE [a-z_]+ SET \(effective_io_concurrency = [0-9]+\);   -- $1\$" "$T/cmp/compare.md")
	case $_said in
	*"recommends "*" for tablespace $2 "*)
		_v=$(printf '%s\n' "$_said" | sed 's/.*recommends \([0-9]*\) for.*/\1/')
		[ "$_stmt" = "  ALTER TABLESPACE $2 SET (effective_io_concurrency = $_v);   -- $1" ] && echo "$_v" ||
			echo "said '$_said', printed '$_stmt'" ;;
	*"no recommendation"*) [ -z "$_stmt" ] && echo none || echo "said '$_said', printed '$_stmt'" ;;
	*) echo "said '$_said', printed '$_stmt'" ;;
	esac
}
got=$(per_ts A eicbench_ts)
case $got in
[0-9]*|none) pass "compare gives the emulated tablespace (A) its statement as its own rule says ($got)" ;;
*) flunk "compare gives the emulated tablespace (A) its statement as its own rule says: $got" ;;
esac
got=$(per_ts B pg_default)
case $got in
[0-9]*|none) pass "and the plain disk (B) on pg_default ($got)" ;;
*) flunk "and the plain disk (B) on pg_default: $got" ;;
esac

# SIGKILL of the emulator with the data set on it: the next command on that
# tablespace says the mount is gone and how to clean it; nothing is lost.
ok "the data set back on the emulated device" "$EB" load --datadir "$D" --rows $ROWS --tablespace-dir "$M/ts"
before=$(dataset_of "$D" $P)
kill -KILL "$(jq -r .pid "$M.emulate.json")"
sleep 0.3
fails 2 "is gone.*fusermount3 -u $M" "a sweep says the mount is gone and how to clean it" \
	"$EB" sweep --datadir "$D" --query sparse --eic 16 --runs 1 --out "$T/s-gone"
absent "and wrote no result folder" "$T/s-gone"
fails 2 "is gone.*fusermount3 -u $M" "so does load --tablespace-dir on it" "$EB" load --datadir "$D" --rows $ROWS --tablespace-dir "$M/ts"
fails 2 "is gone.*fusermount3 -u $M" "and load elsewhere, which would drop the set there" "$EB" load --datadir "$D" --rows $ROWS
fails 2 "is gone.*fusermount3 -u $M" "and probe --relation" "$EB" probe --datadir "$D" --relation test --pattern random --depth 1 --count 10 --out "$T/p-gone"
ok "fusermount3 -u cleans the mount" fusermount3 -u "$M"
ok "the emulator starts again on the same backing folder" "$EB" device emulate --backing "$B" --mount "$M" --latency 2ms --parallel 32 --daemon
ok "load finds the data set whole and reuses it" sh -c "'$EB' load --datadir '$D' --rows $ROWS --tablespace-dir '$M/ts' | grep -q 'already loaded; reused'"
same "the same data set, whole" "$(dataset_of "$D" $P)" "$before"
ok "a sweep runs on it again" "$EB" sweep --datadir "$D" --query sparse --eic 16 --runs 1 --no-cache-check --out "$T/s-again"
ok "the server stops cleanly" "$EB" server stop --datadir "$D"
ok "--stop then stops the emulated device" "$EB" device emulate --stop "$M"

# The same mount over an empty backing folder: the tablespace's files are
# gone, and load says so rather than fail inside the server.
mkdir -p "$B.empty"
ok "an emulated device over an empty folder" "$EB" device emulate --backing "$B.empty" --mount "$M" --latency 2ms --daemon
fails 2 "tablespace eicbench_ts is there in the catalog but its folder is empty" \
	"load on a tablespace whose folder lost its files is refused" "$EB" load --datadir "$D" --rows $ROWS --tablespace-dir "$M/ts"
"$EB" server stop --datadir "$D" >/dev/null
ok "and the emulated device stops" "$EB" device emulate --stop "$M"
rm -rf "$B.empty"
