# The man pages (man/, written by make from the option tables): a page per
# command that eicbench --help lists, every section a page must have, and on
# each page every option that command's --help prints (and each of its
# subcommands' --help: tpcb init, tpcb run, ...), as man -l renders it. The
# checker is also run on a page with one option taken out, and must fail.
. tests/it/lib.sh
M=${MAN_OUT:-man}
# 4 checks a command, 6 besides
plan $((6 + 4 * $("$EB" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/' | wc -l)))

if ! command -v man >/dev/null 2>&1; then
	skip_rest "man not installed (man-db)"
	exit 0
fi

# render PAGE: the page as man shows it, plain text, one option a line
render() {
	MANWIDTH=250 man -l "$1" 2>/dev/null | col -b
}

# commands: the names eicbench --help lists under "commands:"
commands() {
	"$EB" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }'
}

# forms CMD: "" for the command itself, and each subcommand its usage line
# names (the word after "eicbench CMD" when it reads like init|run)
forms() {
	echo ""
	"$EB" "$1" --help | sed -n '1s/^usage: eicbench [a-z]* \([a-z|]*\)\( .*\)*$/\1/p' | tr '|' '\n' | awk 'NF'
}

# options CMD: every option --help prints for CMD and its subcommands, as
# "-c, --clients" or "--datadir", one a line
options() {
	for f in $(forms "$1"); do "$EB" "$1" $f --help; done
	[ -n "$(forms "$1" | awk 'NF')" ] || "$EB" "$1" --help
} 2>/dev/null

option_names() {
	options "$1" | sed -n 's/^  \(-[A-Za-z], \)\{0,1\}\(--[a-z0-9-]*\).*/\1\2/p' | sort -u
}

# missing PAGE CMD: the options of CMD not in PAGE's OPTIONS section
missing() {
	render "$1" | sed -n '/^OPTIONS/,/^EXIT STATUS/p' >"$T/opts.txt"
	option_names "$2" | while read -r o; do
		grep -qE -- "^ +$o( |\$)" "$T/opts.txt" || echo "$o"
	done
}

cmds=$(commands)
same "eicbench --help lists the commands" "$(echo "$cmds" | wc -l | awk '$1 >= 10 { print "many" }')" many
same "eicbench.1 lists every command" \
	"$(for c in $cmds; do render "$M/eicbench.1" | grep -q "^ *eicbench $c\$" && echo "$c"; done | tr '\n' ' ')" "$(echo $cmds) "

for c in $cmds; do
	page=$M/eicbench-$c.1
	ok "eicbench-$c.1 exists and renders" sh -c "MANWIDTH=250 man -l '$page' >/dev/null && test -s '$page'"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
		render "$page" | grep -qx "$s" || echo "$s"
	done >"$T/sections"
	same "eicbench-$c.1 has every section" "missing: $(tr '\n' ' ' <"$T/sections")" "missing: "
	nopt=$(option_names "$c" | wc -l)
	same "eicbench-$c.1 holds every option of its --help ($nopt)" \
		"missing: $(missing "$page" "$c" | tr '\n' ' ')$( [ "$nopt" -gt 0 ] || echo "(its --help gave none)")" "missing: "
	same "eicbench-$c.1's synopsis is its --help usage" \
		"$("$EB" "$c" --help | sed -n '1s/^usage: \(eicbench [a-z]*\).*/\1/p')" \
		"$(render "$page" | sed -n '/^SYNOPSIS/{n;p;}' | awk '{ print $1, $2 }')"
done

# The subcommands with tables of their own are on their command's page.
same "tpcb run's options are on eicbench-tpcb.1" "$(missing "$M/eicbench-tpcb.1" tpcb | wc -l) of $(option_names tpcb | wc -l | awk '$1 > 0 { print "some" }')" "0 of some"
same "tpcb has its init and run forms" "$(forms tpcb | awk 'NF' | tr '\n' ' ')" "init run "

# The checker fails when a table's option is missing from its page.
awk '{ l[NR] = $0 }
	END { for (i = 1; i <= NR; i++) { if (l[i + 1] ~ /^\\fB\\-\\-runs\\fR/) { i += 2; continue } print l[i] } }' \
	"$M/eicbench-sweep.1" >"$T/eicbench-sweep.1"
same "the page without it still renders" "$(render "$T/eicbench-sweep.1" | grep -c '^OPTIONS')" 1
same "a page without --runs is caught" "$(missing "$T/eicbench-sweep.1" sweep)" "--runs"
