# The host's free page reporting paused for the trials of a cold sweep and
# put back after, on this machine's own balloon (every check skipped, with
# the reason, where there is none or it cannot be written): the pause and
# the memory given back recorded in meta.json; a sweep killed in its trials
# leaves the pause, and the next sweep puts the order back even when it
# keeps reporting on; a warm sweep leaves it alone. The probe's buffered
# cold points are paused for the same way, its O_DIRECT ones are not.
. tests/it/lib.sh
plan 18
unset EICBENCH_PAGE_REPORTING
ORDER=/sys/module/page_reporting/parameters/page_reporting_order
STATE=/run/eicbench/page-reporting

balloon=
for dev in /sys/bus/virtio/devices/*; do
	[ "$(cat "$dev/device" 2>/dev/null)" = 0x0005 ] && [ "$(cut -c6 "$dev/features" 2>/dev/null)" = 1 ] && balloon=$dev
done
if [ "$(id -u)" -ne 0 ]; then
	skip_rest "not root (the order is root's to write)"; exit 0
elif [ -z "$balloon" ]; then
	skip_rest "no virtio balloon reporting free pages on this machine"; exit 0
elif [ ! -w "$ORDER" ]; then
	skip_rest "$ORDER is not there to write"; exit 0
fi

D=$T/pg
P=54461
cluster pg $P
before=$(cat "$ORDER")
says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000

# A cold sweep: paused for its trials, memory given back, the order put back.
says_err "a cold sweep says it pauses reporting and gives memory back" "free page reporting paused for the trials" \
	"$EB" sweep --datadir "$D" --eic 0,16 --runs 1 --no-cache-check --out "$T/a"
same "meta.json: paused by this command, above the kernel's largest block, the order to put back" \
	"$(jq -r --argjson top "$(($(head -1 /proc/buddyinfo | wc -w) - 5))" '.host.free_page_reporting.pause | "\(.paused) \(.by) \(.order > $top) \(.order_put_back)"' "$T/a/meta.json")" \
	"true this command true $before"
same "meta.json: memory given back (at least the 1 GiB for the buffers), and how long it took" \
	"$(jq -r '.host.free_page_reporting.pause | (.memory_given_back_mib >= 1024) and (.memory_given_back_s > 0)' "$T/a/meta.json")" true
same "the order is put back after the sweep" "$(cat "$ORDER")" "$before"
same "and the state file is empty" "$(wc -c <"$STATE")" 0

# Killed in its trials: the pause stays; the next sweep, keeping reporting
# on, puts the order back first.
EICBENCH_FAULT=sweep:query@1 "$EB" sweep --datadir "$D" --eic 0 --runs 1 --no-cache-check --out "$T/b" >/dev/null 2>"$T/b.err" &
sp=$!
if stopped_at $sp; then
	same "paused while the killed sweep ran" "$(cat "$ORDER")" "$(jq -r .host.free_page_reporting.pause.order "$T/b/meta.json")"
else
	same "the sweep got to its first query" "$(cat "$T/b.err")" "(stopped there)"
fi
slay $sp
says_err "the next sweep, with --keep-page-reporting, puts back the order the killed one left" \
	"free page reporting put back as an earlier eicbench that died had left it" \
	"$EB" sweep --datadir "$D" --eic 0 --runs 1 --no-cache-check --keep-page-reporting --out "$T/c"
same "the order is the one before" "$(cat "$ORDER")" "$before"
same "meta.json: reporting kept on, a dead pause put back" \
	"$(jq -r '.host.free_page_reporting.pause | "\(.kept) \(.put_back_a_dead_pause)"' "$T/c/meta.json")" "true true"

# Warm: no cold cycle, nothing paused, nothing recorded about it.
ok "a warm sweep" "$EB" sweep --datadir "$D" --eic 0 --runs 1 --warm --out "$T/d"
same "a warm sweep records no pause" "$(jq -r '.host.free_page_reporting.pause // "none"' "$T/d/meta.json")" none

# The probe: buffered cold points paused for and put back; O_DIRECT points
# and --keep-page-reporting leave reporting alone.
dd if=/dev/urandom of="$T/pfile" bs=1M count=16 status=none
says_err "a buffered cold probe says it pauses reporting and gives memory back" \
	"free page reporting paused for the cold points" \
	"$EB" probe --file "$T/pfile" --engine psync --depth 1 --duration 1s --out "$T/p1"
same "probe meta.json: paused by this command, the order to put back" \
	"$(jq -r '.host.free_page_reporting.pause | "\(.paused) \(.by) \(.order_put_back)"' "$T/p1/meta.json")" \
	"true this command $before"
same "the order is put back after the probe" "$(cat "$ORDER")" "$before"
ok "an O_DIRECT probe" "$EB" probe --file "$T/pfile" --engine psync --depth 1 --duration 1s --direct --out "$T/p2"
same "an O_DIRECT probe records no pause" "$(jq -r '.host.free_page_reporting.pause // "none"' "$T/p2/meta.json")" none
"$EB" probe --file "$T/pfile" --engine psync --depth 1 --duration 1s --keep-page-reporting --out "$T/p3" >/dev/null 2>&1
same "a probe with --keep-page-reporting keeps it on" \
	"$(jq -r '.host.free_page_reporting.pause.kept' "$T/p3/meta.json") $(cat "$ORDER")" "true $before"
