# The README a DBA reads in minutes: at most 150 lines, no dates (no run
# history: YYYY-MM-DD, YYYY/MM/DD, a month's name with a year; a link's
# address is not read, the post's carries its own date), no test counts,
# the two commands in a block of their own, the post and PostgreSQL's page
# on the setting linked, every local link a file of this checkout, and the
# licence. The checker is also run on a README with a date and on one a
# line too long, and must fail on each.
. tests/it/lib.sh
plan 9
top=$(pwd)

# faults FILE: what is wrong with FILE as the README, a line each
faults() {
	_lines=$(wc -l <"$1")
	[ "$_lines" -le 150 ] || echo "$_lines lines, more than 150"
	sed -e 's/\](\([^)]*\))/]()/g' -e 's|https\{0,1\}://[^ )>]*||g' "$1" |
		grep -nE '[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}/[0-9]{2}/[0-9]{2}|(Jan(uary)?|Feb(ruary)?|Mar(ch)?|Apr(il)?|May|June?|July?|Aug(ust)?|Sep(t|tember)?|Oct(ober)?|Nov(ember)?|Dec(ember)?)\.?( [0-9]{1,2}(st|nd|rd|th)?,?)? [0-9]{4}' |
		sed 's/^/a date: /'
	grep -nE '[0-9]+ passed' "$1" | sed 's/^/a test count: /'
}

problems=$(faults "$top/README.md")
if [ -z "$problems" ]; then
	pass "README.md: at most 150 lines, no date, no test count"
else
	flunk "README.md: at most 150 lines, no date, no test count" "$problems"
fi
echo "On 2026-12-04 it took 14 minutes." >"$T/dated.md"
echo "Measured in December 2026." >"$T/month.md"
seq 151 >"$T/long.md"
same "the checker finds a date" "$(faults "$T/dated.md" | cut -c1-9)" "a date: 1"
same "and a month with its year" "$(faults "$T/month.md" | cut -c1-9)" "a date: 1"
same "and a line too many" "$(faults "$T/long.md")" "151 lines, more than 150"

same "make run and make check, each at the start of a line of a code block" \
	"$(awk '/^```/ { code = !code; next } code && /^make (run|check) / { print $2 }' "$top/README.md" | sort -u | tr '\n' ' ')" "check run "
same "the post it reproduces and PostgreSQL's page on the setting are linked" \
	"$(grep -c 'https://portavita\.github\.io/2019-07-19-PostgreSQL_effective_io_concurrency_benchmarked/\|https://www\.postgresql\.org/docs/current/runtime-config-resource\.html#GUC-EFFECTIVE-IO-CONCURRENCY' "$top/README.md")" 2
same "every local link is a file here" \
	"$(grep -o '\]([^)#:]*)' "$top/README.md" | sed 's/^](\(.*\))$/\1/' | sort -u | while read -r f; do [ -e "$top/$f" ] || echo "$f"; done)|$(grep -c '\](docs/' "$top/README.md" | awk '$1 > 0 { print "some" }')" "|some"
ok "the licence: LICENSE is the PostgreSQL Licence, for the eicbench authors" \
	grep -q '^Copyright (c) 2026, The eicbench authors$' "$top/LICENSE"
ok "and the README links it" grep -q '\[LICENSE\](LICENSE)' "$top/README.md"
