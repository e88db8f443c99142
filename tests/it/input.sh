# Input checked strictly, on the real binary: numbers written plainly, lists
# without repeats, durations, depths and buffers bounded, no control
# characters in paths and strings. Every refusal exits 2 with a message
# naming the option, the value (control characters escaped) and what is
# allowed, and writes nothing: no result folder, no data directory. No
# cluster is needed: every refusal comes before a server is touched.
. tests/it/lib.sh
plan 151
SRC=$(pwd)     # the checkout: its test fixtures
cd "$T" || exit 1
F=$T/file
head -c 1048576 /dev/zero >"$F"
mkdir "$T/a" "$T/b"
NL='
'
TAB='	'

# nothing DESCRIPTION: no result folder (results/ here, or $T/out) was made
nothing() {
	absent "$1: nothing written" "$T/results" "$T/out"
	rm -rf "$T/results" "$T/out"
}

# refused PATTERN DESCRIPTION COMMAND...: exit 2, the message, nothing written
refused() {
	pat=$1; desc=$2; shift 2
	fails 2 "$pat" "$desc" "$@"
	nothing "$desc"
}

# Numbers written one way only; lists without repeats.
refused "--depth: '04' is not written plainly; give 4" "probe --depth 4,04" \
	"$EB" probe --file "$F" --depth 4,04 --count 8 --out "$T/out"
refused "--depth: 4 is given twice; give each value once" "probe --depth 4,4" \
	"$EB" probe --file "$F" --depth 4,4 --count 8 --out "$T/out"
refused "--engine: 'psync' is given twice; give each engine once" "probe --engine psync,psync" \
	"$EB" probe --file "$F" --engine psync,psync --count 8 --out "$T/out"
refused "--engine: an empty item" "probe --engine psync,,io_uring" \
	"$EB" probe --file "$F" --engine psync,,io_uring --count 8 --out "$T/out"
refused "--seed: '01' is not written plainly; give 1" "probe --seed 01" \
	"$EB" probe --file "$F" --seed 01 --count 8
refused "--count: '+8' is not written plainly; give 8" "probe --count +8" \
	"$EB" probe --file "$F" --count +8
refused "--eic 1,01: '01' is not written plainly; give 1" "sweep --eic 1,01" \
	"$EB" sweep --datadir "$T/pg" --eic 1,01 --out "$T/out"
refused "--set work_mem=4MB,4096kB: '4MB' and '4096kB' are the same value" "sweep --set with one value twice" \
	"$EB" sweep --datadir "$T/pg" --set work_mem=4MB,4096kB --out "$T/out"
refused "--runs: '03' is not written plainly; give 3" "sweep --runs 03" \
	"$EB" sweep --datadir "$T/pg" --runs 03 --out "$T/out"
refused "--depth: '04' is not written plainly; give 4" "run --depths 1,04" \
	"$EB" run --datadir "$T/pg" --depths 1,04 --out "$T/out"
refused "--depth: 2 is given twice" "run --depths 1,2,2" \
	"$EB" run --datadir "$T/pg" --depths 1,2,2 --out "$T/out"
refused "--depth: '4097' is not allowed; give a whole number from 1 to 4096" "run --depths past io_uring's ring" \
	"$EB" run --datadir "$T/pg" --depths 1,4097 --out "$T/out"
refused "--eic 0,1,+1: '+1' is not written plainly; give 1" "run --eic 0,1,+1" \
	"$EB" run --datadir "$T/pg" --eic 0,1,+1 --out "$T/out"
refused "--rows: '010000' is not written plainly; give 10000" "run --rows 010000" \
	"$EB" run --datadir "$T/pg" --rows 010000 --out "$T/out"
refused "EICBENCH_PAGE_REPORTING 'kep' is neither 'keep'" "run with EICBENCH_PAGE_REPORTING=kep" \
	env EICBENCH_PAGE_REPORTING=kep "$EB" run --datadir "$T/pg" --quick --out "$T/out"
refused "EICBENCH_PAGE_REPORTING 'pausee' is neither 'keep'" "sweep with EICBENCH_PAGE_REPORTING=pausee" \
	env EICBENCH_PAGE_REPORTING=pausee "$EB" sweep --datadir "$T/pg" --eic 0 --out "$T/out"
refused "--set work_mem=1MB,1024kB: '1MB' and '1024kB' are the same value" "confsweep --set with one value twice" \
	"$EB" confsweep --datadir "$T/pg" --set work_mem=1MB,1024kB --out "$T/out"
refused "--client: '04' is not written plainly; give 4" "confsweep -c 04" \
	"$EB" confsweep --datadir "$T/pg" --set work_mem=1MB -c 04 --out "$T/out"
refused "--rows: '0100' is not written plainly; give 100" "load --rows 0100" \
	"$EB" load --datadir "$T/pg" --rows 0100
refused "--client: '01' is not written plainly; give 1" "tpcb run -c 01" \
	"$EB" tpcb run --datadir "$T/pg" -c 01 -t 1 --out "$T/out"
refused "--scale: '0010' is not written plainly; give 10" "tpcb init -s 0010" \
	"$EB" tpcb init --datadir "$T/pg" -s 0010
refused "--port: '054450' is not written plainly; give 54450" "server init --port 054450" \
	"$EB" server init --datadir "$T/pg" --port 054450
absent "server init made no data directory" "$T/pg"

# Values read as the server reads them: a leading 0 is octal to an integer
# setting (010MB is 8MB), and every effective_io_concurrency value, from
# --eic, --set or a sweep file, is checked alike.
refused "--set work_mem=8MB,010MB: '8MB' and '010MB' are the same value" "sweep --set with 8MB and 010MB" \
	"$EB" sweep --datadir "$T/pg" --set work_mem=8MB,010MB --out "$T/out"
refused "--eic 4,010: '010' is not written plainly; the server reads it as 8 (a leading 0 is octal): give 8" "sweep --eic 4,010" \
	"$EB" sweep --datadir "$T/pg" --eic 4,010 --out "$T/out"
printf '[a]\neffective_io_concurrency = 16\n[b]\neffective_io_concurrency = 010\n' >"$T/eic.ini"
refused "$T/eic.ini line 4: effective_io_concurrency: '010' is not written plainly; the server reads it as 8" "confsweep: a sweep file's effective_io_concurrency checked as --eic's" \
	"$EB" confsweep "$T/eic.ini" --datadir "$T/pg" --out "$T/out"

# Durations bounded, the bound named; no NaN, infinity or exponent.
refused "--duration: '1e306h' is not allowed; give a duration from 1ms to 24h" "probe --duration 1e306h" \
	"$EB" probe --file "$F" --duration 1e306h --out "$T/out"
refused "--duration: '25h' is not allowed; give a duration from 1ms to 24h" "probe --duration 25h" \
	"$EB" probe --file "$F" --duration 25h --out "$T/out"
refused "--duration: 'nan' is not allowed" "probe --duration nan" \
	"$EB" probe --file "$F" --duration nan --out "$T/out"
refused "--budget: '200h' is not allowed; give a duration from 1ms to 168h (7 days)" "sweep --budget 200h" \
	"$EB" sweep --datadir "$T/pg" --until-separated --budget 200h --out "$T/out"
refused "--budget: '1e306h' is not allowed; give a duration from 1ms to 168h (7 days)" "run --budget 1e306h" \
	"$EB" run --datadir "$T/pg" --budget 1e306h --out "$T/out"
refused "--time: '1e306h' is not allowed; give a duration from 1ms to 24h" "confsweep -T 1e306h" \
	"$EB" confsweep --datadir "$T/pg" --set work_mem=1MB -T 1e306h --out "$T/out"
refused "--warmup 1e306h: give a time from 0 to 24h" "confsweep --warmup 1e306h" \
	"$EB" confsweep --datadir "$T/pg" --set work_mem=1MB --warmup 1e306h --out "$T/out"
refused "--time: '1e306h' is not allowed; give a duration from 1ms to 168h (7 days)" "tpcb run -T 1e306h" \
	"$EB" tpcb run --datadir "$T/pg" -T 1e306h --out "$T/out"
refused "--progress: 'inf' is not allowed; give a duration from 1ms to 24h" "tpcb run -P inf" \
	"$EB" tpcb run --datadir "$T/pg" -T 1 -P inf --out "$T/out"
refused "-R '1e-300' is not allowed; give a rate in transactions per second from 0.001 to 10000000" "tpcb run -R 1e-300" \
	"$EB" tpcb run --datadir "$T/pg" -T 1 -R 1e-300 --out "$T/out"
refused "-L '1e306' is not allowed; give a latency limit in milliseconds (24h at most) from 0.001 to 86400000" "tpcb run -L 1e306" \
	"$EB" tpcb run --datadir "$T/pg" -T 1 -L 1e306 --out "$T/out"
refused "--timeout: '25h' is not allowed; give a duration from 1ms to 24h" "server status --timeout 25h" \
	"$EB" server status --datadir "$T/pg" --timeout 25h

# Depths and buffers bounded, the bound named.
refused "--depth: '4097' is not allowed; give a whole number from 1 to 4096" "probe --depth 4097" \
	"$EB" probe --file "$F" --depth 4097 --count 8 --out "$T/out"
refused "--depth 4096 with blocks of 1048576 bytes: 4096 reads of 1048576 bytes in flight need 4096 MiB, more than the 256 MiB of buffers allowed" \
	"probe --depth 4096 --bs 1m" "$EB" probe --file "$F" --depth 4096 --bs 1m --count 8 --out "$T/out"
refused "need 512 MiB, more than the 256 MiB of buffers allowed (depth x --combine x block size" "probe readstream --depth 4096" \
	"$EB" probe --file "$F" --engine readstream --depth 4096 --count 8 --out "$T/out"

# Control characters refused, shown escaped.
refused "--datadir: '/tmp/a\\\\nb' holds a control character; give printable characters only" "sweep --datadir with a newline" \
	"$EB" sweep --datadir "/tmp/a${NL}b" --eic 1 --out "$T/out"
refused "--listen: '\\*\\\\nport = 1' holds a control character" "server init --listen with a newline" \
	"$EB" server init --datadir "$T/pg" --listen "*${NL}port = 1"
refused "port = 1': ''' is not allowed; give host names or addresses" "server init --listen with a quote" \
	"$EB" server init --datadir "$T/pg" --port 54450 --listen "*' port = 1"
absent "server init made no data directory" "$T/pg"
refused "--out: 'o\\\\tut' holds a control character" "probe --out with a tab" \
	"$EB" probe --file "$F" --count 8 --out "o${TAB}ut"
absent "no folder of that name" "$T/o${TAB}ut"
refused "--file: '$F\\\\n' holds a control character" "probe --file with a newline" \
	"$EB" probe --file "$F$NL" --count 8
refused "--resume: 'x\\\\ny' holds a control character" "sweep --resume with a newline" \
	"$EB" sweep --datadir "$T/pg" --resume "x${NL}y"
refused "--query: 'q\\\\n.sql' holds a control character" "sweep --query with a newline" \
	"$EB" sweep --datadir "$T/pg" --query "q${NL}.sql" --out "$T/out"
refused "--pgbin: '/usr\\\\nbin' holds a control character" "load --pgbin with a newline" \
	"$EB" load --datadir "$T/pg" --pgbin "/usr${NL}bin"
refused "--user: 'post\\\\x01gres' holds a control character" "tpcb init --user with a control character" \
	"$EB" tpcb init --datadir "$T/pg" --user "$(printf 'post\001gres')"
refused "--restart-cmd: 'true\\\\nx' holds a control character" "run --restart-cmd with a newline" \
	"$EB" run --dsn "host=/tmp" --restart-cmd "true${NL}x" --out "$T/out"
refused "--set: 'work_mem=1MB\\\\n' holds a control character" "confsweep --set with a newline" \
	"$EB" confsweep --datadir "$T/pg" --set "work_mem=1MB$NL" --out "$T/out"
refused "the sweep file: 'a\\\\nb.ini' holds a control character" "confsweep FILE with a newline" \
	"$EB" confsweep "a${NL}b.ini" --datadir "$T/pg" --out "$T/out"
refused "--dsn: 'host=x\\\\n' holds a control character" "export --dsn with a newline" \
	"$EB" export "$T/a" --dsn "host=x$NL"
refused "result folder: 'a\\\\nb' holds a control character" "report DIR with a newline" \
	"$EB" report "a${NL}b"
refused "unknown command 'x\\\\ty'" "an unknown command is shown escaped" "$EB" "x${TAB}y"

# Sweep files read whole: a comment longer than libinih's line (198 bytes
# a piece) is one comment, its tail never a setting (the old reader took
# the last piece, 'shared_buffers = 1GB', as one, then the next line as the
# same setting twice); a NUL byte is refused by its line, not taken as the
# end of the file.
awk 'BEGIN { printf "[a]\n; "; for (i = 0; i < 198 * 25 - 2; i++) printf "x";
	print "shared_buffers = 1GB"; print "shared_buffers = 2GB" }' >"$T/long.ini"
fails 2 "--datadir '$T/pg' is not a PostgreSQL cluster" "confsweep: a 4970-byte comment is one comment (the file read whole, then the missing cluster named)" \
	"$EB" confsweep "$T/long.ini" --datadir "$T/pg" --out "$T/out"
nothing "confsweep with a long comment"
printf '[a]\nfsync = off\n\000shared_buffers = 1GB\n' >"$T/nul.ini"
refused "$T/nul.ini line 3: a NUL byte" "confsweep: a NUL byte in the sweep file" \
	"$EB" confsweep "$T/nul.ini" --datadir "$T/pg" --out "$T/out"

# Files given as input that are no regular file (a FIFO here) are refused
# at once, named, never waited on (each used to wait for a writer for ever;
# timeout ends it). A record that cannot be read is bad input too (report
# exited 1, or waited).
mkfifo "$T/fifo"
refused "$T/fifo: cannot read it (not a regular file" "confsweep: a FIFO as the sweep file" \
	timeout 30 "$EB" confsweep "$T/fifo" --datadir "$T/pg" --out "$T/out"
refused "could not open file \"$T/fifo\": not a regular file" "tpcb run -f of a FIFO" \
	timeout 30 "$EB" tpcb run --datadir "$T/pg" -f "$T/fifo" -t 1 --out "$T/out"
refused "--query '$T/fifo': not a preset (scattered-0.1, scattered-1, scattered-5, sparse, runs-16, runs-128, blog, parallel, seq) and not a readable file of at most 1 MiB (not a regular file" "sweep --query of a FIFO" \
	timeout 30 "$EB" sweep --datadir "$T/pg" --query "$T/fifo" --out "$T/out"
refused "$T/fifo is not a regular file or block device" "probe --file of a FIFO" \
	timeout 30 "$EB" probe --file "$T/fifo" --count 8 --out "$T/out"
cp -r "$SRC/tests/fixtures/sweep/clear" "$T/rf" && rm "$T/rf/trials.jsonl" && mkfifo "$T/rf/trials.jsonl"
fails 2 "cannot read $T/rf/trials.jsonl: not a regular file" "report: records that are a FIFO, exit 2 at once" \
	timeout 30 "$EB" report "$T/rf" --no-plot
rm "$T/rf/trials.jsonl" && mkdir "$T/rf/trials.jsonl"
fails 2 "cannot read $T/rf/trials.jsonl: not a regular file" "report: records that cannot be read (a folder in their place), exit 2 as its man page says" \
	"$EB" report "$T/rf" --no-plot

# --out checked before anything else (it was checked only after the server
# work, and '' meant the default folder): not empty, not a file, not too
# long; under sudo, only where the user who ran sudo could write.
refused "--out: '' is no folder; give a new or empty folder" "probe --out ''" \
	"$EB" probe --file "$F" --count 8 --no-cold --out ''
refused "--out: '$F' is a file, not a folder" "sweep --out of a file, before the cluster is looked for" \
	"$EB" sweep --datadir "$T/pg" --out "$F"
long=$T/$(printf 'x%.0s' $(seq 1 250))/$(printf 'y%.0s' $(seq 1 250))
while [ ${#long} -lt 4000 ]; do long=$long/$(printf 'z%.0s' $(seq 1 250)); done
refused "--out: a path of ${#long} bytes is too long; give one of at most 3840 bytes" "run --out too long" \
	"$EB" run --datadir "$T/pg" --out "$long"
mkdir "$T/rootonly" "$T/nobody" && chown 65534:65534 "$T/nobody"
SUDO_UID=65534 SUDO_GID=65534 fails 2 "--out: '$T/rootonly/r/s': the user who ran sudo (uid 65534) may not write in '$T/rootonly'" \
	"under sudo, --out where that user may not write is refused" "$EB" probe --file "$F" --count 8 --no-cold --out "$T/rootonly/r/s"
absent "... and nothing made there" "$T/rootonly/r"
SUDO_UID=65534 SUDO_GID=65534 ok "under sudo, --out in that user's own folder runs" \
	"$EB" probe --file "$F" --count 8 --no-cold --out "$T/nobody/r/s"
same "... the folders made are that user's" "$(stat -c %u "$T/nobody/r") $(stat -c %u "$T/nobody/r/s")" "65534 65534"

# Root never writes through a link it did not make: plot.log (it was opened
# with O_TRUNC, emptying the file the link named) and gnuplot's sweep.svg,
# planted in a result folder as links to files outside it.
cp -r "$SRC/tests/fixtures/sweep/clear" "$T/ln" && echo outside >"$T/outside" && ln -s "$T/outside" "$T/ln/plot.log"
says "report: plot.log a link to a file outside: the plots are refused, saying why" \
	"plots failed: cannot write $T/ln/plot.log: a symbolic link, never written through" "$EB" report "$T/ln"
same "... the file outside unchanged" "$(cat "$T/outside")" outside
rm "$T/ln/plot.log" && ln -s "$T/outside" "$T/ln/sweep.svg"
says "report: sweep.svg a link: refused, saying why" "$T/ln/sweep.svg is a symbolic link, never written through" "$EB" report "$T/ln"
same "... the file outside unchanged" "$(cat "$T/outside")" outside

# Positional folders: each once.
refused "result folder: '$T/a' is given twice; give each once" "compare A A" \
	"$EB" compare "$T/a" "$T/b" "$T/a" --out "$T/out"
refused "result folder: '$T/a' and '$T/a/.' are the same; give each once" "compare A A/." \
	"$EB" compare "$T/a" "$T/a/." --out "$T/out"
refused "result folder: 'a\\\\nb' holds a control character" "compare with a newline in a folder" \
	"$EB" compare "$T/a" "a${NL}b" --out "$T/out"
refused "result folder: 'a' and './a' are the same; give each once" "export A ./A" \
	"$EB" export a ./a --dsn "host=/nonexistent"

# What is written plainly still runs.
says "probe with plain values runs" "^io_uring  *4 " "$EB" probe --file "$F" --engine psync,io_uring --depth 1,4 --count 64 --no-cold --out "$T/ok"
same "one point per engine and depth (psync once)" "$(wc -l <"$T/ok/points.jsonl")" 3
[ "$nfail" -eq 0 ]
