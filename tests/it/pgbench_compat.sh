# pgbench's option compatibility: the option and script errors and the
# listings that pgbench's own no-server tests exercise (the cases of
# src/bin/pgbench/t/002_pgbench_no_server.pl, written here anew), each run
# through "eicbench tpcb" (exit 2 and its message) and through pgbench
# itself, the peer (exit 1, or 0 for a listing: proof that the case is
# pgbench's too); then, on a real cluster, the behaviours a pgbench user
# reads (log lines, aggregate lines, "processed: N/N", latency-limit counts,
# per-script and per-command reports, the same draws for the same seed),
# each compared with pgbench's on the same cluster. Without pgbench the
# peer's lines are skipped, named. The last line counts the cases.
. tests/it/lib.sh
plan 147
PGB=$(command -v pgbench || true)
S=$T/scripts
mkdir -p "$S"
cases=0
cpass=0
cfail=0
cskip=0

# pass | fail | skip: one case's outcome into the count
tally() {
	cases=$((cases + 1))
	case $1 in
	pass) cpass=$((cpass + 1)) ;;
	fail) cfail=$((cfail + 1)) ;;
	*) cskip=$((cskip + 1)) ;;
	esac
}

# refused DESC PATTERN PEER ARGS...: eicbench tpcb ARGS exits 2 saying
# PATTERN; with PEER "peer", pgbench ARGS exits 1 (PATTERN2 optional via
# PEER_PAT). No server is reachable: a case past the checks would exit 1.
refused() {
	desc=$1; pat=$2; peer=$3; shift 3
	before=$nfail
	(cd "$T" && PGHOST=$T/nowhere PGPORT=1 "$EB" tpcb "$@") >"$T/o" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$pat" "$T/o"; then
		pass "compat: $desc"
	else
		flunk "compat: $desc (exit $rc, wanted 2 and /$pat/)"
		sed 's/^/#   /' "$T/o" | head -5
	fi
	peer_check "$desc" "$peer" 1 "$@"
	[ "$nfail" -eq "$before" ] && tally pass || tally fail
}

# peer_check DESC PEER WANT ARGS...: pgbench ARGS exits WANT (when PEER is "peer")
peer_check() {
	desc=$1; peer=$2; want=$3; shift 3
	[ "$peer" = peer ] || return 0
	if [ -z "$PGB" ]; then
		skip "pgbench refuses it too: $desc" "pgbench is not installed"
		return 0
	fi
	(cd "$T" && PGHOST=$T/nowhere PGPORT=1 "$PGB" "$@") >"$T/p" 2>&1
	prc=$?
	if [ "$prc" -eq "$want" ]; then
		pass "pgbench does the same: $desc"
	else
		flunk "pgbench does the same: $desc (pgbench exit $prc, wanted $want)"
		sed 's/^/#   /' "$T/p" | head -5
	fi
}

# script NAME TEXT: a script file in $S (printf's escapes in TEXT)
script() {
	printf "$2" >"$S/$1"
}

# ---- options --------------------------------------------------------------------
refused "an unknown option" "unknown option '---verbose'" peer -h somehost -p 5433 -U someone ---verbose --no-such-option
refused "a script file that is not there" "could not open file \"$T/none.sql\"" peer -f "$T/none.sql"
refused "a builtin that is not there" "no builtin script found for name \"nonsense\"" peer -b nonsense
refused "a weight that is no number" "invalid weight specification: @two" peer --builtin=simple-update@two
refused "a negative weight" "weight specification out of range (0 .. 2147483647): -5" peer -b tpcb-like@-5
refused "129 scripts" "at most 128 SQL scripts are allowed" peer $(i=0; while [ $i -lt 129 ]; do printf '%s ' -S; i=$((i + 1)); done)
refused "-c not a number" "--client: 'many' is not allowed" peer -c many
refused "-j not a number" "--jobs: 'several' is not allowed" peer -j several
refused "-s not a number (init)" "--scale: 'huge' is not allowed" peer -i -s huge
refused "-t not a number" "--transactions: 'lots' is not allowed" peer -t lots
refused "-T not a number" "--time: 'long' is not allowed" peer -T long
refused "-t and -T (logging options between)" "specify either a number of transactions (-t) or a duration (-T), not both" peer \
	-N -l --aggregate-interval=2 --log-prefix=x -t 100 -T 2
refused "-T and -t (progress and sampling between)" "specify either a number of transactions (-t) or a duration (-T), not both" peer \
	-P 2 --progress-timestamp -l --sampling-rate=0.01 -T 20 -t 100
refused "-D without a value" "invalid variable definition: \"novalue\"" peer -D novalue
refused "a fillfactor below 10" "--fillfactor: '5' is not allowed; give a whole number from 10 to 100" peer -F 5
refused "an unknown query mode" "invalid query mode (-M) 'turbo'" peer -M turbo
refused "-P 0" "--progress: '0' is not allowed" peer --progress=0
refused "-R 0" "-R '0.0' is not allowed" peer --rate=0.0
refused "-L 0" "-L '0.0' is not allowed" peer --latency-limit=0.0
refused "--sampling-rate 0" "invalid sampling rate '0'" peer --sampling-rate=0
refused "a negative --aggregate-interval" "--aggregate-interval: '-2' is not allowed" peer --aggregate-interval=-2
refused "a weight of 0 on every script" "total script weight must not be zero" peer -b sel@0 -b sim@0 -b tpcb@0
refused "a run option in init mode" "cannot be used in initialization (-i, init) mode" peer -i -N
refused "an init option in run mode" "cannot be used in benchmarking (run) mode" peer -N -F 80
refused "an ambiguous builtin prefix" "ambiguous builtin name: 2 builtin scripts found for prefix \"s\"" peer -b s
refused "--progress-timestamp without -P" "--progress-timestamp is allowed only under --progress" peer --progress-timestamp
refused "-I without -i" "cannot be used in benchmarking (run) mode: -I/--init-steps" peer -I dt
refused "an unknown init step" "unrecognized initialization step \"z\"; allowed step characters are: \"dtgGvpf\"" peer -i -I dtz
refused "a random seed that is no number" "unrecognized random seed option \"two\": expecting an unsigned integer, \"time\" or \"rand\"" peer --random-seed=two
refused "an unknown partition method" "expecting \"range\" or \"hash\", got: \"list\"" peer -i --partition-method=list
refused "a negative partition count" "--partitions: '-2' is not allowed" peer -i --partitions -2
refused "a partition method without partitions" "--partition-method requires greater than zero --partitions" peer -i --partition-method=range
refused "a negative --max-tries" "--max-tries: '-3' is not allowed" peer --max-tries -3
refused "--max-tries 0 without -L or -T" "an unlimited number of transaction tries (--max-tries 0) can only be used with --latency-limit or a duration (-T)" peer --max-tries 0
refused "--sampling-rate without -l" "log sampling (--sampling-rate) is allowed only when logging transactions (-l)" peer --sampling-rate=0.5
refused "--sampling-rate with --aggregate-interval" "cannot be used at the same time" peer -l --sampling-rate=0.2 --aggregate-interval=2
refused "--aggregate-interval without -l" "log aggregation (--aggregate-interval) is allowed only when logging transactions (-l)" peer --aggregate-interval=2
refused "--log-prefix without -l" "log file prefix (--log-prefix) is allowed only when logging transactions (-l)" peer --log-prefix=foo
refused "an aggregation longer than -T" "number of seconds for aggregation (4) must not be higher than test duration (-T 2)" peer -l -T 2 --aggregate-interval=4
refused "-T not a multiple of the aggregation" "duration (-T 7) must be a multiple of aggregation interval (2)" peer -l -T 7 --aggregate-interval=2
refused "two databases" "too many command-line arguments" peer -S db1 db2

# ---- scripts ---------------------------------------------------------------------
script if-open.sql '\\if 2 > 1\n'
refused "\\if without \\endif" "\\\\if without matching \\\\endif" peer -f "$S/if-open.sql"
script elif-alone.sql '\\elif true\n'
refused "\\elif without \\if" "\\\\elif without matching \\\\if" peer -f "$S/elif-alone.sql"
script else-alone.sql '\\else\n'
refused "\\else without \\if" "\\\\else without matching \\\\if" peer -f "$S/else-alone.sql"
script endif-alone.sql 'SELECT 1;\n\\endif\n'
refused "\\endif without \\if" "endif-alone.sql:2: \\\\endif without matching \\\\if" peer -f "$S/endif-alone.sql"
script else-elif.sql '\\if false\n\\else\n\\elif true\n\\endif\n'
refused "\\elif after \\else" "\\\\elif after \\\\else" peer -f "$S/else-elif.sql"
script else-else.sql '\\if false\n\\else\n\\else\n\\endif\n'
refused "\\else after \\else" "\\\\else after \\\\else" peer -f "$S/else-else.sql"
script if-empty.sql '\\if\n\\endif\n'
refused "\\if without a condition" "if-empty.sql:1:4: syntax error in command \"if\"" peer -f "$S/if-empty.sql"
script elif-bad.sql '\\if false\n\\elif *\n\\endif\n'
refused "\\elif with a syntax error" "elif-bad.sql:2:7: syntax error in command \"elif\"" peer -f "$S/elif-bad.sql"
script else-arg.sql '\\if false\n\\else never\n\\endif\n'
refused "\\else with an argument" "unexpected argument in command \"else\"" peer -f "$S/else-arg.sql"
script endif-arg.sql '\\if false\n\\endif never\n'
refused "\\endif with an argument" "unexpected argument in command \"endif\"" peer -f "$S/endif-arg.sql"
script least.sql '\\set m least()\n'
refused "least() of nothing" "at least one argument expected (least)" peer -f "$S/least.sql"
script greatest.sql '\\set m greatest()\n'
refused "greatest() of nothing" "at least one argument expected (greatest)" peer -f "$S/greatest.sql"
script hash0.sql '\\set h hash()\n'
refused "hash() of nothing" "unexpected number of arguments (hash)" peer -f "$S/hash0.sql"
script hash3.sql '\\set h hash(7, 8, 9)\n'
refused "hash() of three" "unexpected number of arguments (hash)" peer -f "$S/hash3.sql"
script big.sql '\\set b 99999999999999999999\n'
refused "an integer too big" "bigint constant overflow" peer -f "$S/big.sql"
script dbig.sql '\\set d 2.0E400\n'
refused "a double too big" "double constant overflow" peer -f "$S/dbig.sql"
script dbig2.sql '\\set d .5E320\n'
refused "a double too big, no integer part" "double constant overflow" peer -f "$S/dbig2.sql"
script caret.sql '\\set x 2 *\n'
refused "a syntax error shown with a caret" "^\\\\set x 2 \\*$" peer -f "$S/caret.sql"
refused "... the caret under its place" "^          ^ error found here$" no -f "$S/caret.sql"
script perm1.sql '\\set p permute(3)\n'
refused "permute() of one" "unexpected number of arguments (permute)" peer -f "$S/perm1.sql"
script perm4.sql '\\set p permute(1, 2, 3, 4)\n'
refused "permute() of four" "unexpected number of arguments (permute)" peer -f "$S/perm4.sql"
script unknown.sql '\\set y 1 + :not_set_anywhere\n'
refused "a variable nothing sets (pgbench: at run time)" "unknown.sql:1:12: undefined variable \"not_set_anywhere\"" no -f "$S/unknown.sql"

# ---- listings --------------------------------------------------------------------
out=$("$EB" tpcb --help 2>"$T/e")
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q 'usage: eicbench tpcb' && printf '%s\n' "$out" | grep -q 'PGHOST' && [ ! -s "$T/e" ]; then
	pass "compat: --help on stdout, exit 0"; tally pass
else
	flunk "compat: --help on stdout, exit 0"; tally fail
fi
peer_check "--help" peer 0 --help
out=$("$EB" tpcb -V 2>&1)
if [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^eicbench tpcb (eicbench '; then
	pass "compat: -V prints the version"; tally pass
else
	flunk "compat: -V prints the version: $out"; tally fail
fi
peer_check "-V" peer 0 -V
for listing in "-b list" "--show-script se" "--show-script tpcb" "--show-script si"; do
	# shellcheck disable=SC2086
	"$EB" tpcb $listing >"$T/ours" 2>&1
	rc=$?
	if [ -n "$PGB" ]; then
		"$PGB" $listing >"$T/theirs" 2>&1
		if [ "$rc" -eq 0 ] && cmp -s "$T/ours" "$T/theirs"; then
			pass "compat: $listing prints what pgbench prints"; tally pass
		else
			flunk "compat: $listing prints what pgbench prints"
			diff "$T/ours" "$T/theirs" | sed 's/^/#   /' | head -5
			tally fail
		fi
	else
		skip "compat: $listing prints what pgbench prints" "pgbench is not installed"; tally skip
	fi
done

# ---- on a server, against pgbench on the same cluster --------------------------------
D=$T/pg
P=54397
cluster pg $P
"$EB" tpcb init --datadir "$D" -s 1 >/dev/null 2>&1
# both: run TAG ARGS... with eicbench in $T/TAG.eb (logs in its folder),
# pgbench in $T/TAG.pg (logs in $T/TAG.pgd)
both() {
	tag=$1; shift
	(cd "$T" && "$EB" tpcb run -h "$D" -p $P -U postgres -d eicbench "$@" --out "$T/$tag.ebd") >"$T/$tag.eb" 2>&1
	if [ -n "$PGB" ]; then
		mkdir -p "$T/$tag.pgd"
		(cd "$T/$tag.pgd" && "$PGB" -h "$D" -p $P -U postgres "$@" eicbench) >"$T/$tag.pg" 2>&1
	fi
}

# alike DESC TAG CMD: CMD (reading $1, a tool's output or folder) says the same for both
alike() {
	desc=$1; tag=$2; cmd=$3
	if [ -z "$PGB" ]; then
		skip "compat: $desc" "pgbench is not installed"; tally skip
		return
	fi
	a=$(eval "$cmd" "$T/$tag.eb" "$T/$tag.ebd")
	b=$(eval "$cmd" "$T/$tag.pg" "$T/$tag.pgd")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		pass "compat: $desc"; tally pass
	else
		flunk "compat: $desc: eicbench '$a', pgbench '$b'"; tally fail
	fi
}

both tx -c 3 -j 2 -t 17 -S -n -l
alike "processed: 51/51 with -t" tx 'f() { grep "^number of transactions actually processed" "$1"; }; f'
alike "-l: a line per transaction, six fields" tx 'f() { cat "$2"/pgbench_log.* | awk "{ print NF }" | sort | uniq -c | tr -s " "; }; f'
alike "-l: client_id tx_no latency 0 epoch_s epoch_us" tx \
	'f() { cat "$2"/pgbench_log.* | grep -cE "^[0-2] [0-9]+ [0-9]+ 0 1[0-9]{9} [0-9]{1,6}$"; }; f'
both lag -c 2 -t 20 -S -n -l -R 500 --max-tries 3
alike "-l with -R and --max-tries: lag and retries, eight fields" lag 'f() { cat "$2"/pgbench_log.* | awk "{ print NF }" | sort -u; }; f'
alike "... rate limit schedule lag reported" lag 'f() { grep -c "^rate limit schedule lag: avg " "$1"; }; f'
both agg -c 2 -T 2 -S -n -l --aggregate-interval 1
alike "--aggregate-interval: fifteen fields a line" agg 'f() { cat "$2"/pgbench_log.* | awk "{ print NF }" | sort -u; }; f'
# (pgbench leaves its last, partial interval out; eicbench writes it, so every transaction is in a line)
same "... their counts add up to the transactions processed (eicbench)" \
	"$(cat "$T"/agg.ebd/pgbench_log.* | awk '{ s += $2 } END { print s }')" \
	"$(sed -n 's/^number of transactions actually processed: //p' "$T/agg.eb")"
both late -t 10 -S -n -L 0.001
alike "-L: the transactions above the limit counted" late 'f() { grep "latency limit" "$1"; }; f'
both det -t 5 -S -n --failures-detailed --max-tries 2
alike "--failures-detailed: failures by kind" det 'f() { grep -c -e "^number of serialization failures: 0 (0.000%)$" -e "^number of deadlock failures: 0 (0.000%)$" "$1"; }; f'
alike "--max-tries: the retry lines" det 'f() { grep -c -e "^number of transactions retried: 0 (0.000%)$" -e "^total number of retries: 0$" "$1"; }; f'
script mix.sql '\\set a random(1, 100000 * :scale)\n\\if :a > 0\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n\\endif\n\\sleep 0 us\n'
both per -t 8 -n -r -f "$S/mix.sql" -D aid=3 -b se@2
alike "several scripts: each with its weight and share" per 'f() { grep -E "^(SQL script [12]: | - weight: )" "$1"; }; f'
alike "-r: the same commands, in order, under each script" per 'f() { grep -E "^ +[0-9]+\.[0-9]{3} +[0-9]+  " "$1" | sed "s/^ *[0-9.]* *[0-9]*  //"; }; f'
both prog -T 3 -S -n -P 1
alike "-P: pgbench's progress line" prog \
	'f() { grep -cE "^progress: [0-9]+\.[0-9] s, [0-9]+\.[0-9] tps, lat [0-9]+\.[0-9]{3} ms stddev [0-9]+\.[0-9]{3}, 0 failed$" "$1" | sed "s/^[1-9][0-9]*$/yes/"; }; f'
both pfx -t 3 -S -n -l --log-prefix mylog
alike "--log-prefix: the log's name" pfx 'f() { ls "$2" | grep -cE "^mylog\.[0-9]+$"; }; f'
script draws.sql '\\set u random(1, 1000000)\n\\set e random_exponential(1, 1000, 3.5)\n\\set g random_gaussian(1, 1000, 2.5)\n\\set z random_zipfian(1, 1000, 1.1)\n\\set p permute(:u, 10000)\n\\set v debug(:u) + debug(:e) + debug(:g) + debug(:z) + debug(:p) + debug(hash(:u)) + debug(hash_fnv1a(:u, 5)) + debug(:default_seed)\n'
both seed -t 200 -n -f "$S/draws.sql" --random-seed 20261201
alike "the same --random-seed: pgbench's very values" seed 'f() { grep "^debug(" "$1" | md5sum; }; f'

echo "# pgbench compatibility: $cases cases, $cpass passed, $cfail failed, $cskip skipped"
