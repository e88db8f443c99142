# The command line as getopt_long users expect it, on the real binary: -h
# and --help on every command and verb (tpcb's -h is pgbench's host, so
# there --help and -?), each help within 80 columns when not on a terminal
# and within the terminal's width on one; options and positional arguments
# in any order where the help shows them; "--" ends the options; one name
# for one thing across commands, the other spelling taken as an alias
# (--depth and --depths, --json and --format json). No cluster is needed:
# nothing here reaches a server.
. tests/it/lib.sh
plan 28
top=$(pwd)

# helps HOW: every command and verb whose help HOW (-h or --help) does not
# print a usage on stdout with exit 0, a line each
forms="compare confsweep device export load probe report run server sweep tpcb
device_emulate server_init server_start server_stop server_restart server_status server_cold
tpcb_init tpcb_run"
helps() {
	for f in $forms; do
		# shellcheck disable=SC2046
		out=$("$EB" $(echo "$f" | tr _ ' ') "$1" 2>/dev/null) && echo "$out" | grep -q '^usage: eicbench' ||
			echo "$f"
	done
}
same "--help on every command and verb" "$(helps --help | tr '\n' ' ')|$(echo $forms | wc -w)" "|20"
same "-h on every one but tpcb's, where -h is the host" "$(helps -h | tr '\n' ' ')" "tpcb tpcb_init tpcb_run "
same "-? on tpcb's" "$(forms='tpcb tpcb_init tpcb_run' helps '-?' | tr '\n' ' ')|" "|"
says "eicbench server -h" "^usage: eicbench server init|start" "$EB" server -h
says "eicbench -h" "^commands:" "$EB" -h
fails 2 "--host needs a value" "eicbench tpcb run -h: -h is the host" "$EB" tpcb run -h
says "device --help is the device's whole help, its options with it" "^  --latency TIME" "$EB" device --help
same "device --help and device emulate --help agree" "$("$EB" device --help | md5sum)" "$("$EB" device emulate --help | md5sum)"

# widths: the longest line of every help, piped (80) and on a terminal
widest() {
	for f in "" $forms; do
		# shellcheck disable=SC2046
		"$EB" $(echo "$f" | tr _ ' ') --help 2>/dev/null
	done | awk 'length > m { m = length } END { print m + 0 }'
}
w=$(widest)
same "every help within 80 columns when piped" "$([ "$w" -le 80 ] && [ "$w" -ge 70 ] && echo yes || echo "no: $w")" yes
if command -v script >/dev/null 2>&1; then
	tty_width() { # COLS CMD...: the longest line CMD prints on a terminal COLS wide
		_c=$1; shift
		script -qc "stty cols $_c rows 50; $*" /dev/null | tr -d '\r' | awk 'length > m { m = length } END { print m + 0 }'
	}
	same "on a terminal 120 columns wide, the help of run takes them" "$(tty_width 120 "$EB" run --help)" 120
	same "and on one 70 wide, 70" "$(tty_width 70 "$EB" sweep --help)" 70
	same "eicbench --help too" "$(tty_width 60 "$EB" --help | awk '{ print ($1 <= 60) }')" 1
else
	skip_n 3 "help at the terminal's width" "no script(1)"
fi

# Options before, between and after the positional arguments.
: >"$T/empty.ini"
fails 2 "empty.ini: no step" "confsweep --datadir D FILE takes FILE as the sweep file" \
	"$EB" confsweep --datadir "$T/nopg" "$T/empty.ini"
fails 2 "empty.ini: no step" "confsweep FILE --datadir D as before" \
	"$EB" confsweep "$T/empty.ini" --datadir "$T/nopg"
fails 2 "too many command-line arguments (first is '$T/empty.ini'); give one FILE.ini" "confsweep with two sweep files" \
	"$EB" confsweep "$T/empty.ini" --datadir "$T/nopg" "$T/empty.ini"
cp -r "$top/tests/fixtures/sweep/clear" "$T/clear"
cp -r "$top/tests/fixtures/sweep/dense" "$T/dense"
says "report --format csv --no-plot DIR" "^query,effective_io_concurrency," "$EB" report --format csv --no-plot "$T/clear"
says "report DIR --format csv" "^query,effective_io_concurrency," "$EB" report "$T/clear" --format csv --no-plot
cp -r "$T/clear" "$T/-odd"
(cd "$T" && "$EB" report --no-plot -- -odd >"$T/odd.out" 2>&1)
same "report -- -odd: after --, a folder named like an option" "$(grep -c "^Written to -odd: " "$T/odd.out")" 1
fails 2 "unknown option '--odd'" "without --, the same name is an option" "$EB" report --no-plot --odd
says "compare --format json --out O A B, the folders last" '"folders"' \
	"$EB" compare --format json --no-plot --out "$T/cmp" "$T/clear" "$T/dense"
fails 2 "give 2 to 8 result folders to compare (1 given)" "compare with one folder" \
	"$EB" compare --no-plot --out "$T/cmp1" "$T/clear"
fails 1 "cannot connect" "export --dsn D DIR: the folder after the option" \
	"$EB" export --dsn "host=$T/nosocket dbname=x connect_timeout=2" "$T/clear"
fails 2 "unexpected argument 'stray'; options start with --" "sweep -- stray: no positional there" \
	"$EB" sweep --datadir "$T/nopg" -- stray

# One name, the other spelling taken too and said in the help.
head -c 65536 /dev/zero >"$T/file"
fails 2 "^eicbench probe: --depth: '04' is not written plainly; give 4" "probe --depths is --depth" \
	"$EB" probe --file "$T/file" --depths 4,04 --count 8 --out "$T/p"
same "run and probe name --depth, and say --depths is taken" \
	"$("$EB" run --help | tr -s ' \n' '  ' | grep -c -- '--depth LIST reads in flight.*(also --depths)')$("$EB" probe --help | tr -s ' \n' '  ' | grep -c -- '--depth LIST reads in flight.*(also --depths)')" 11
says "report --json DIR is --format json" '^  "settings": ' "$EB" report --json --no-plot "$T/clear"
says "compare --json is --format json" '^  "folders": ' "$EB" compare --json --no-plot --out "$T/cmp2" "$T/clear" "$T/dense"

# The man page of tpcb names its help --help and -?, never -h (the host).
if command -v man >/dev/null 2>&1; then
	same "eicbench-tpcb.1: -h only as the host" \
		"$(MANWIDTH=250 man -l "$top/man/eicbench-tpcb.1" 2>/dev/null | col -b | grep -E '^ +-h, ' | sort -u | tr -s ' ' | tr '\n' '/')" " -h, --host HOSTNAME/"
else
	skip "eicbench-tpcb.1: -h only as the host" "man not installed (man-db)"
fi
