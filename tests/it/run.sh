# The whole suite in one command: eicbench run --quick on a throwaway
# cluster that listens on TCP as asked, its log whole and in order, the
# verdict's files, its numbers against the records, a render from the
# records alone, the HTML page, compare of two runs, Ctrl-C and --resume,
# bad input refused before anything is written.
. tests/it/lib.sh
D=$T/pg
R=$T/r1
P=54397
cleanup_dirs="$D"

ok "run --quick, every step, stdout and stderr into one log" sh -c "'$EB' run --quick --rows 300000 \
	--datadir '$D' --port $P --listen 127.0.0.1 --eic 0,16 --runs 2 --depths 1,4 --out '$R' >'$T/run.log' 2>&1"
same "every step done" "$(jq -r '[.steps[].state] | unique | join(",")' "$R/meta.json")" done
same "the cluster listens where --listen and --port said" "$(sql "$D" $P "select current_setting('listen_addresses') || ':' || current_setting('port')")" "127.0.0.1:$P"
if command -v pg_isready >/dev/null 2>&1; then
	ok "and takes TCP connections there" pg_isready -q -h 127.0.0.1 -p $P
else
	n=$((n + 1)); echo "ok $n - and takes TCP connections there # SKIP no pg_isready (postgresql-client)"
fi

# The log: step headers in order, each step's lines under its header, and
# every paragraph of what was printed (each sweep's report, the verdict)
# whole, never cut by a progress line.
same "the step headers in order" "$(sed -n 's/^== eicbench run \[\([0-9]*\)\/[0-9]*\].*/\1/p' "$T/run.log" | tr '\n' ' ')" "1 2 3 4 5 6 7 8 9 "
line_of() { grep -n -m 1 -- "$1" "$T/run.log" | cut -d: -f1; }
same "init's line under step 1, before step 2" "$(l=$(line_of '^initialized '); [ "$l" -gt "$(line_of '^== eicbench run \[1/')" ] && [ "$l" -lt "$(line_of '^== eicbench run \[2/')" ] && echo yes)" yes
same "the data set's lines under step 3, before step 4" "$(l=$(line_of '^data set: test'); [ "$l" -gt "$(line_of '^== eicbench run \[3/')" ] && [ "$l" -lt "$(line_of '^== eicbench run \[4/')" ] && echo yes)" yes
same "the sweep's report before the next step" "$(l=$(line_of "^Written to $R/sweep-blog: "); [ "$l" -lt "$(line_of '^== eicbench run \[6/')" ] && echo yes)" yes
# whole_paragraphs LOG TEXT: every paragraph of TEXT stands in LOG as
# consecutive lines (but the "Written to" line, which says what this render wrote)
whole_paragraphs() {
	awk 'NR == FNR { all = all $0 "\n"; next }
	     /^Written to / { next }
	     /^$/ { if (p != "" && !index(all, p)) { printf "cut: %s", p; bad = 1 } p = ""; next }
	     { p = p $0 "\n" }
	     END { if (p != "" && !index(all, p)) { printf "cut: %s", p; bad = 1 } exit bad }' "$1" "$2"
}
"$EB" report "$R" --no-plot --format text >"$T/verdict.txt" 2>/dev/null
ok "the verdict's every paragraph whole in the log" whole_paragraphs "$T/run.log" "$T/verdict.txt"
"$EB" report "$R/sweep-sparse" --no-plot --format text >"$T/sweep.txt" 2>/dev/null
ok "a sweep's every paragraph whole in the log" whole_paragraphs "$T/run.log" "$T/sweep.txt"
ok "the log is long enough for a 4 KiB buffer to have cut it" test "$(wc -c <"$T/run.log")" -gt 8192
same "one folder per step" "$(cd "$R" && ls -d cache-check sweep-blog sweep-sparse replay-blog replay-sparse device | wc -l)" 6
ok "report.md and report.html written" test -s "$R/report.md" -a -s "$R/report.html"
ok "the answer is given" grep -q "^Set effective_io_concurrency = [0-9]* for the tablespace measured" "$R/report.md"
ok "with the lines that apply it" grep -q "ALTER SYSTEM SET effective_io_concurrency = " "$R/report.md"
same "the verdict box comes first" "$(grep -m1 -n '^## ' "$R/report.md")" "3:## The verdict"
ok "it says decided or provisional" grep -Eq "^(Decided|Provisional) after [0-9]+ rounds?" "$R/report.md"
ok "it holds the regret table" grep -Eq "^\| +value +\| +blog +\| +sparse +\| +worst +\| +state +\|" "$R/report.md"
fails_not() { ! grep -q "$@"; }
ok "no value is called indistinguishable" fails_not -i "indistinguishable" "$R/report.md"
same "one priming trial per sweep, never counted" \
	"$(jq -s '[.[] | select(.priming == true)] | length' "$R/sweep-blog/trials.jsonl" "$R/sweep-sparse/trials.jsonl")" 2
ok "the racing is recorded" jq -e '.plan.racing.margin == 0.1 and (.plan.racing.stopped | type == "string")' "$R/sweep-sparse/meta.json"
ok "a sweep of the run points to the run's cache check" grep -q "ran once for the whole run" "$R/sweep-sparse/report.md"
ok "and none says it did not run" fails_not "check for caches below this machine did not run" "$R/report.md"

# Every number of the paired table equals the records'.
for q in blog sparse; do
	for v in 0 16; do
		want=$(awk -F, -v v=$v 'NR > 1 && $2 == v { printf "%.1f", $5 }' "$R/sweep-$q/summary.csv")
		got=$(awk -v q="## Query $q" -v v=$v '$0 == q { on = 1 } on && $1 == "|" && $2 == v { print $6; exit }' "$R/report.md")
		same "$q at $v: the heap-phase median is the sweep's" "$got" "$want"
	done
	want=$(jq -r 'select(.engine == "psync") | .elapsed_s * 1000 | . * 10 | round / 10' "$R/replay-$q/points.jsonl")
	got=$(awk -v q="## Query $q" '$0 == q { on = 1 } on && $1 == "|" && $2 == "0" { print $10; exit }' "$R/report.md")
	same "$q: the replay at 0 is the psync point's time" "$(printf %.1f "$got")" "$(printf %.1f "$want")"
	want=$(jq -r 'select(.engine == "fadvise" and .depth == 16) | .elapsed_s * 1000' "$R/replay-$q/points.jsonl")
	got=$(awk -v q="## Query $q" '$0 == q { on = 1 } on && $1 == "|" && $2 == "16" { print $10; exit }' "$R/report.md")
	same "$q: the replay at 16 is the fadvise point's time" "$(printf %.1f "$got")" "$(printf %.1f "$want")"
done
iops=$(jq -r 'select(.depth == 4) | .iops | round' "$R/device/points.jsonl")
ok "the device's IOPS at depth 4 as recorded" grep -q "|     4 | *$iops |" "$R/report.md"

# The report renders again from the records alone, to the same files.
md=$(md5sum <"$R/report.md")
html=$(md5sum <"$R/report.html")
rm "$R/report.md" "$R/report.html"
ok "report re-renders the run" "$EB" report "$R" --no-plot
same "the same report.md" "$(md5sum <"$R/report.md")" "$md"
same "the same report.html" "$(md5sum <"$R/report.html")" "$html"
ok "--format json" sh -c "'$EB' report '$R' --no-plot --format json >'$T/verdict.json'"
ok "schema 1, the recommendation a number" jq -e '.schema == 1 and (.recommendation | type == "number") and (.queries | length == 2)' "$T/verdict.json"
if command -v jsonschema >/dev/null 2>&1; then
	ok "the JSON validates against docs/verdict.schema.json" jsonschema -i "$T/verdict.json" docs/verdict.schema.json
	jq '.schema = 2 | .recommendation = 1.5' "$T/verdict.json" >"$T/wrong.json"
	fails 1 "" "and a wrong one does not" jsonschema -i "$T/wrong.json" docs/verdict.schema.json
else
	n=$((n + 1)); echo "ok $n - the JSON validates against docs/verdict.schema.json # SKIP jsonschema not installed (python3-jsonschema)"
	n=$((n + 1)); echo "ok $n - and a wrong one does not # SKIP jsonschema not installed (python3-jsonschema)"
fi
same "numbers printed as the figures they are" "$(grep -cE '[0-9]\.[0-9]*(0000000|9999999)' "$T/verdict.json")" 0
ok "run --json prints the same verdict" sh -c "'$EB' run --resume '$R' --json >'$T/again.json' 2>/dev/null && cmp '$T/again.json' '$T/verdict.json'"

# The page stands alone: every plot inline, each a whole SVG document.
same "no image left out of the page" "$(grep -c 'class="missing"' "$R/report.html")" 0
same "five plots inline (two per query, the device)" "$(grep -o '<figure><svg' "$R/report.html" | wc -l)" 5
same "no file the page refers to" "$(grep -Eo '(src|href)="[^"#][^"]*"' "$R/report.html" | grep -v '^href="http://www.w3.org' | wc -l)" 0
awk '/<figure><svg/ { n++; f = sprintf("%s/svg%d.svg", T, n) } f { print > f } /<\/svg>/ { f = "" }' T="$T" \
	"$(sed 's/<figure>/\n<figure>/g; s/<\/svg>/<\/svg>\n/g' "$R/report.html" >"$T/page.html"; echo "$T/page.html")"
if command -v xmllint >/dev/null 2>&1; then
	for f in "$T"/svg*.svg; do sed -i 's/^<figure>//' "$f"; done
	ok "each inline plot is well-formed XML" sh -c "for f in '$T'/svg*.svg; do xmllint --noout \"\$f\" || exit 1; done"
else
	echo "ok $((n + 1)) - each inline plot is well-formed XML # SKIP xmllint not installed (libxml2-utils)"
	n=$((n + 1))
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	ok "a browser loads the page and draws it" "$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --no-first-run --user-data-dir="$T/chrome" \
		--screenshot="$T/page.png" --window-size=1200,3000 "file://$R/report.html"
	same "the browser's DOM holds the five plots" "$("$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --no-first-run --user-data-dir="$T/chrome" \
		--dump-dom "file://$R/report.html" 2>/dev/null | grep -o '<svg' | wc -l)" 5
	# At 1280 and 390 px: the verdict box in the first screenful, no table
	# past the page's edge. A copy of the page gets a probe script; the
	# narrow width is an iframe's (headless windows are 500 px at least).
	sed 's#</body>#'"$(tr -d '\n' <tests/it/page-probe.html | sed 's/[&#]/\\&/g')"'</body>#' "$R/report.html" >"$T/probe.html"
	printf '<!DOCTYPE html><html><body style="margin:0"><iframe src="probe.html" width="%s" height="%s" style="border:0"></iframe></body></html>' \
		390 844 >"$T/frame390.html"
	printf '<!DOCTYPE html><html><body style="margin:0"><iframe src="probe.html" width="%s" height="%s" style="border:0"></iframe></body></html>' \
		1280 800 >"$T/frame1280.html"
	for w in 1280 390; do
		got=$("$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
			--allow-file-access-from-files --user-data-dir="$T/chrome$w" --window-size=1300,900 \
			--virtual-time-budget=5000 --dump-dom "file://$T/frame$w.html" 2>/dev/null |
			grep -o 'data-probe="[^"]*"' | sed 's/^data-probe="//; s/"$//; s/&quot;/"/g')
		same "at $w px the page is $w wide" "$(printf %s "$got" | jq -r .width)" "$w"
		same "at $w px the verdict box is in the first screenful" "$(printf %s "$got" | jq -r .verdict_in_first_screen)" true
		same "at $w px no table overflows the page" "$(printf %s "$got" | jq -r '.page_scroll_width <= .client_width and (.tables_past_edge | length == 0)')" true
	done
else
	for d in "a browser loads the page and draws it" "the browser's DOM holds the five plots" \
		"at 1280 px the page is 1280 wide" "at 1280 px the verdict box is in the first screenful" \
		"at 1280 px no table overflows the page" "at 390 px the page is 390 wide" \
		"at 390 px the verdict box is in the first screenful" "at 390 px no table overflows the page"; do
		n=$((n + 1)); echo "ok $n - $d # SKIP no chromium installed"
	done
fi

# A second run (sweeps only) and the two side by side.
ok "a second run, sweeps only" "$EB" run --quick --rows 300000 --datadir "$D" --eic 0,16 --runs 2 --no-probe --out "$T/r2"
ok "compare the two runs" "$EB" compare "$R" "$T/r2" --no-plot --out "$T/c"
same "one table per query" "$(grep -c '^## Query' "$T/c/compare.md")" 2
ok "each line's recommendation" grep -q "B: recommends\|B: no recommendation" "$T/c/compare.md"

# Bad input: exit 2, and the run's records stay whole.
sum=$(cat "$R"/sweep-*/trials.jsonl | md5sum)
fails 2 "no preset" "an unknown query" "$EB" run --quick --datadir "$D" --query blog,nosuch
fails 2 "given twice" "a query twice" "$EB" run --quick --datadir "$D" --query blog,blog
fails 2 "below --runs" "--max-runs below --runs" "$EB" run --datadir "$D" --runs 4 --max-runs 2
fails 2 "not the folder of an eicbench run" "--resume of a sweep's folder" "$EB" run --resume "$R/sweep-blog"
fails 2 "needs --restart-cmd" "--dsn without a restart command" "$EB" run --quick --dsn "host=$D port=54397"
same "records untouched" "$(cat "$R"/sweep-*/trials.jsonl | md5sum)" "$sum"

# Refused before anything is written: no result folder, no cluster.
mkdir "$T/cwd"
refused() { # PATTERN DESCRIPTION ARGS...: exit 2 naming PATTERN, and nothing made
	pat=$1; desc=$2; shift 2
	fails 2 "$pat" "$desc" sh -c 'cd "$0" && exec "$@"' "$T/cwd" "$EB" run "$@" --out "$T/none"
	same "$desc: nothing written" "$(ls -A "$T/cwd"; ls -d "$T/none" "$T/pgnone" 2>/dev/null)" ""
}
refused "--pg 99: no PostgreSQL 99 binaries.*scripts/build-pg.sh 99" "--pg with no such build" --quick --pg 99 --datadir "$T/pgnone"
refused "--datadir '': give the directory" "an empty --datadir" --quick --datadir ''
refused "--listen '::1': the cluster in $D was made listening on '127.0.0.1'" "--listen for a cluster made without it" --quick --datadir "$D" --listen ::1
refused "--port 5499: the cluster in $D was made with port $P" "--port for a cluster made with another" --quick --datadir "$D" --port 5499
refused "--pg does not apply" "--pg with --dsn" --quick --dsn "host=$D port=$P" --restart-cmd true --pg 18
refused "--max-runs does not apply" "--max-runs with --quick" --quick --datadir "$D" --max-runs 4
refused "--depths does not apply" "--depths with --no-probe" --no-probe --datadir "$D" --depths 1,2
fails 2 "--rows does not apply" "--resume with the run's own options" "$EB" run --resume "$R" --rows 5000
same "the resumed folder untouched" "$(jq -r '[.steps[].state] | unique | join(",")' "$R/meta.json")" done

# Ctrl-C in the middle of a sweep: the run stops after the trial, says how
# to go on, and --resume finishes every step, no trial run twice.
R3=$T/r3
EICBENCH_FAULT=sweep:query@2 "$EB" run --quick --rows 300000 --datadir "$D" --eic 0,16 --runs 2 \
	--no-probe --out "$R3" >/dev/null 2>"$R3.err" &
rp=$!
if stopped_at $rp; then
	interrupt $rp
	same "the interrupted run exits 1" "$?" 1
	ok "it says how to go on" grep -q "go on with: eicbench run --resume $R3" "$R3.err"
	same "the sweep's step is marked failed" "$(jq -r '.steps[] | select(.name == "sweep blog") | .state' "$R3/meta.json")" failed
	ok "--resume finishes the run" "$EB" run --resume "$R3"
	same "every step done" "$(jq -r '[.steps[].state] | unique | join(",")' "$R3/meta.json")" done
	same "each sweep holds its 4 trials, none twice (its priming trial aside)" "$(for q in blog sparse; do k=$(jq -r 'select(.priming != true) | .trial_key' "$R3/sweep-$q/trials.jsonl"); echo "$(printf '%s\n' "$k" | wc -l)/$(printf '%s\n' "$k" | sort -u | wc -l)"; done | tr '\n' ' ')" "4/4 4/4 "
else
	same "the run got to its second query" "$(cat "$R3.err")" "(stopped there)"
fi

# A run whose last record was torn, and one with no finished trial.
cp -r "$R" "$T/torn"
head -c -40 "$R/sweep-sparse/trials.jsonl" >"$T/torn/sweep-sparse/trials.jsonl"
ok "a torn last record: still rendered" "$EB" report "$T/torn" --no-plot
ok "and the torn line is said" grep -q "partial last line" "$T/torn/report.md"
mkdir -p "$T/empty" && jq '.sweeps = {"blog": "none"}' "$R/meta.json" >"$T/empty/meta.json"
fails 2 "no sweep with finished trials" "a run with nothing finished" "$EB" report "$T/empty" --no-plot
