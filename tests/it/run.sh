# The whole suite in one command: eicbench run --quick on a throwaway
# cluster that listens on TCP as asked, its log whole and in order, the
# verdict's files, its numbers against the records, a render from the
# records alone, the HTML page, compare of two runs, Ctrl-C and --resume,
# bad input refused before anything is written.
. tests/it/lib.sh
plan 96
D=$T/pg
R=$T/r1
P=54397
cleanup_dirs="$D"

# regrets DIR: each value's regret in each query, computed here from the
# sweeps' records (priming trials and the runs the verdict flagged left
# out, unless the verdict kept them because without them no value could be
# answered): its time over the best other value's, the mean log ratio over the
# rounds both ran; "query value regret" a line, with three decimals
regrets() {
	for q in blog sparse; do
		jq -r --arg q "$q" --slurpfile v "$T/$(basename "$1").json" '
			(if ($v[0].caveats | any(test("flagged as disturbed .* and kept"))) then [] else
			 ($v[0].flagged | map(select(.query == $q) | "\(.value) \(.round)")) end) as $out |
			select(.priming != true and .workload == null) | "\(.settings.effective_io_concurrency) \(.round)" as $k |
			select(($out | index($k)) | not) | [.settings.effective_io_concurrency, .round, (.explain | getpath($unit))] | @tsv' \
			--argjson unit "$(jq -c 'if .plan.decision_unit == "execution" then ["execution_ms"] else ["bitmap", "heap_phase", "total_ms"] end' "$1/sweep-$q/meta.json")" \
			"$1/sweep-$q/trials.jsonl" | awk -v q="$q" '
			{ t[$1, $2] = log($3); if (!($1 in seen)) { seen[$1] = 1; vals[++nv] = $1 } }
			END { for (i = 1; i <= nv; i++) { v = vals[i]; est = 0
				for (j = 1; j <= nv; j++) { u = vals[j]; if (u == v) continue; s = 0; n = 0
					for (key in t) { split(key, kk, SUBSEP); if (kk[1] == v && ((u, kk[2]) in t)) { s += t[key] - t[u, kk[2]]; n++ } }
					if (n && s / n > est) est = s / n }
				printf "%s %s %.3f\n", q, v, exp(est) } }'
	done | sort -k1,1 -k2n
}

# rule FILE: the value the rule takes on a verdict's regret table (FILE, its
# JSON), computed here: the smallest value whose upper bounds are within the
# margin in every query; when every value is out somewhere, the smallest
# whose worst upper bound is within the margin of the least worst lower
# bound, else the least worst; otherwise the smallest whose worst regret is
# within the margin, else the least worst. At a price (regime "price") a
# value may also be shown as cheap at worst by its times paired within a
# query's rounds, which the table does not hold: there the verdict's answer
# is checked against what the table does say (price_check).
rule() {
	if [ "$(jq -r .regime "$1")" = price ]; then
		price_check "$1"
		return
	fi
	jq -r '.margin as $m | (.queries | length) as $nq | .regret[] | select((.queries | length) == $nq and ([.queries[] | .runs > 0] | all)) |
		[.value, ([.queries[].regret] + [1] | max), ([.queries[].lo] + [1] | max), ([.queries[] | .hi // 1e300] + [1] | max), $m] | @tsv' "$1" |
		sort -n | awk -v cur="$(jq -r '.current_setting // ""' "$1")" -v def="$(jq -r '.default // ""' "$1")" '
		{ v[NR] = $1; w[NR] = $2; lo[NR] = $3; hi[NR] = $4; lim = 1 + $5
		  if (hi[NR] <= lim && good == "") good = $1; if (lo[NR] <= lim) allbad = 0
		  if (hi[NR] <= lim && $1 == cur) gcur = $1; if (hi[NR] <= lim && $1 == def) gdef = $1
		  if (best == "" || $2 < w[bi]) { best = $1; bi = NR }
		  if (blo == "" || $3 < blo) blo = $3 }
		BEGIN { allbad = 1 }
		END { if (gcur != "") { print gcur; exit }	# a tie: what the server ran, the default, the smallest
		      if (gdef != "") { print gdef; exit }
		      if (good != "") { print good; exit }
		      for (i = 1; i <= NR; i++) if (allbad ? hi[i] <= lim * blo : w[i] <= lim) { print v[i]; exit }
		      print best }'
}
# price_check FILE: the verdict's answer when the table bears it out at a
# price, else why not. No smaller value is shown as cheap at worst by the
# bounds (in every query its upper bound at most 1 + margin times each
# other value's worst lower bound); the answer is so shown, or its worst
# regret is within the margin of every other's (as pairing would need), or
# it is the least worst; decided, every smaller value is out in some query.
price_check() {
	jq -r '(1 + .margin) as $lim | .recommendation as $a | .state as $st | (.queries | length) as $nq |
		[.regret[] | select((.queries | length) == $nq and ([.queries[] | .runs > 0] | all)) |
		 { v: .value, hi: [.queries[].hi], w: ([.queries[].regret] + [1] | max), lo: ([.queries[].lo] + [1] | max) }] as $t |
		def cheap($x): [$t[] | select(.v != $x.v) | .lo as $ulo | $x.hi | map(. <= $lim * $ulo) | all] | all;
		([$t[] | .w] | min) as $least | [$t[] | select(.v == $a)][0] as $ans |
		if $ans == null then "no row for \($a)"
		elif [$t[] | select(.v < $a and cheap(.))] | length > 0 then "a smaller value is cheap by the bounds"
		elif (cheap($ans) or ([$t[] | select(.v != $a) | $ans.w <= $lim * .w] | all) or $ans.w == $least) | not then "\($a) is not shown cheap at worst"
		elif $st == "decided" and ([$t[] | select(.v < $a and .lo <= $lim)] | length > 0) then "decided with a smaller value not out"
		else $a end' "$1"
}

ok "run --quick, every step, stdout and stderr into one log" sh -c "'$EB' run --quick --rows 300000 --query blog,sparse \
	--datadir '$D' --port $P --listen 127.0.0.1 --eic 0,16 --runs 2 --depths 1,4 --out '$R' >'$T/run.log' 2>&1"
ok "it gives the answer, or the leading value" grep -Eq "^(Set effective_io_concurrency = [0-9]+ for the tablespace on |No decision yet: leading [0-9]+; run longer)" "$T/run.log"
same "every step done" "$(jq -r '[.steps[].state] | unique | join(",")' "$R/meta.json")" done
same "the cluster listens where --listen and --port said" "$(sql "$D" $P "select current_setting('listen_addresses') || ':' || current_setting('port')")" "127.0.0.1:$P"
if command -v pg_isready >/dev/null 2>&1; then
	ok "and takes TCP connections there" pg_isready -q -h 127.0.0.1 -p $P
else
	skip "and takes TCP connections there" "no pg_isready (postgresql-client)"
fi

# The log: step headers in order, each step's lines under its header, and
# every paragraph of what was printed (each sweep's report, the verdict)
# whole, never cut by a progress line.
same "the step headers in order" "$(sed -n 's/^== eicbench run \[\([0-9]*\)\/[0-9]*\].*/\1/p' "$T/run.log" | tr '\n' ' ')" "1 2 3 4 5 6 7 "
line_of() { grep -n -m 1 -- "$1" "$T/run.log" | cut -d: -f1; }
# The sweeps' step has an estimate of its own (per query 2 rounds of 2
# values, a replay beside each trial, a priming trial: 9 trials of a second
# at least), closed since --quick adds no rounds.
same "the sweeps' step says how long is left, all of it" \
	"$(sed -n 's/^== eicbench run \[5\/7\] sweeps blog, sparse, round by round (run [0-9ms]* so far, about \([0-9]*\)s left)$/\1/p' "$T/run.log" |
	   awk '{ print ($1 >= 2 * 9) ? "yes" : $1 }')" yes
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
same "one folder per step" "$(cd "$R" && ls -d cache-check sweep-blog sweep-sparse device | wc -l)" 4
absent "and no replays after the sweeps" "$R/replay-blog" "$R/replay-sparse"
for q in blog sparse; do
	same "$q: a replay trial for every query trial, each after a cold cycle" \
		"$(jq -r 'select(.workload == "replay") | "\(.trial_key | sub(" replay$"; "")):\(.cold)"' "$R/sweep-$q/trials.jsonl" | sort | tr '\n' ,)" \
		"$(jq -r 'select(.workload == null and .priming != true) | "\(.trial_key):true"' "$R/sweep-$q/trials.jsonl" | sort | tr '\n' ,)"
done
ok "report.html written, a page" grep -q '</html>' "$R/report.html"
cp -r "$R" "$T/r1.copy" && "$EB" report "$T/r1.copy" --no-plot --format json >"$T/r1.json" 2>/dev/null
same "the regret table's estimates are the records' (computed here)" \
	"$(jq -r '.regret[] | .value as $v | .queries | to_entries[] | [.key, $v, .value.regret] | @tsv' "$T/r1.json" | awk '{ printf "%s %s %.3f\n", $1, $2, $3 }' | sort -k1,1 -k2n | tr '\n' ,)" \
	"$(regrets "$R" | tr '\n' ,)"
want=$(rule "$T/r1.json")
same "the answer is the rule's on that table ($want)" "$(jq -r .recommendation "$T/r1.json")" "$want"
# when they differ, the verdict's own figures, for whoever reads the failure
[ "$(jq -r .recommendation "$T/r1.json")" = "$want" ] ||
	echo "# the verdict: $(jq -c '{recommendation, state, regime, regret, flagged, with_flagged, dropped, caveats}' "$T/r1.json")"
# decided, the box sets it and "Applying it" gives the lines; provisional,
# the box leads with it and no line applies it anywhere
if [ "$(jq -r .state "$T/r1.json")" = decided ]; then
	ok "the verdict says it" grep -q "^Set effective_io_concurrency = $want for the tablespace on " "$R/report.md"
	ok "with the lines that apply it, for that value" grep -q "^ALTER SYSTEM SET effective_io_concurrency = $want;" "$R/report.md"
	ok "and for the data set's tablespace" grep -q "^ALTER TABLESPACE pg_default SET (effective_io_concurrency = $want);" "$R/report.md"
else
	ok "the verdict says it leads" grep -q "^No decision yet: leading $want; run longer (--max-runs [0-9]*)" "$R/report.md"
	same "no line sets it while provisional" "$(grep -c '^ALTER \|^Set effective_io_concurrency' "$R/report.md")" 0
	same "and the JSON's alter is null" "$(jq -r .alter "$T/r1.json")" null
fi
same "the verdict box comes first" "$(grep -m1 -n '^## ' "$R/report.md")" "3:## The verdict"
ok "it says decided or provisional" grep -Eq "^(Decided|Provisional) after [0-9]+ rounds?" "$R/report.md"
ok "it holds the regret table" grep -Eq "^\| +value +\| +blog +\| +sparse +\| +worst +\| +state +\|" "$R/report.md"
same "no value is called indistinguishable (the verdict is there)" \
	"$(grep -ci indistinguishable "$R/report.md"),$(grep -c '^## The verdict' "$R/report.md")" 0,1
same "one priming trial per sweep, never counted" \
	"$(jq -s '[.[] | select(.priming == true)] | length' "$R/sweep-blog/trials.jsonl" "$R/sweep-sparse/trials.jsonl")" 2
ok "the racing is recorded" jq -e '.plan.racing.margin == 0.1 and (.plan.racing.stopped | type == "string")' "$R/sweep-sparse/meta.json"
# The two queries raced together, round by round: each the other's peer, the
# same rounds, the same values out after the same rounds, one reason to stop;
# and blog's round k ran before sparse's, which ran before blog's round k+1.
rj() { jq -c "$1" "$R/sweep-$2/meta.json"; }
same "each sweep races with the other as its peer" "$(rj .plan.racing.peers blog) $(rj .plan.racing.peers sparse)" "[\"$R/sweep-sparse\"] [\"$R/sweep-blog\"]"
same "the same rounds, values out and reason to stop in both" \
	"$(rj '[.plan.runs, (.plan.racing.dropped | map([.value, .after_round]) | sort), .plan.racing.stopped]' blog)" \
	"$(rj '[.plan.runs, (.plan.racing.dropped | map([.value, .after_round]) | sort), .plan.racing.stopped]' sparse)"
# in_turn: "q round first last" of every recorded query trial, in the order
# run; each query's rounds must come as blog 1, sparse 1, blog 2, sparse 2,
# ... (replay trials of rounds a value missed are caught up at the end)
in_turn() {
	for q in blog sparse; do
		jq -r --arg q $q 'select(.priming != true and .workload == null) | "\(.round) \($q) \(.started_unix_s)"' "$R/sweep-$q/trials.jsonl"
	done | sort -k3,3g | awk '{ k = $1 " " $2 } k != last { print k; last = k }' | tr '\n' ,
}
same "the sweeps' rounds taken in turn, blog then sparse" "$(in_turn)" \
	"$(for k in $(seq 1 "$(rj .plan.runs blog)"); do printf '%s blog,%s sparse,' $k $k; done)"
ok "a sweep of the run points to the run's cache check" grep -q "ran once for the whole run" "$R/sweep-sparse/report.md"
same "the report says what the cache check found, and never that it did not run" \
	"$(grep -c 'check for caches below this machine did not run' "$R/report.md"),$(grep -c 'blocks of the data set read with O_DIRECT, one at a time' "$R/report.md")" 0,1

# The summary table's medians are the records', computed here, in the
# decision's unit (the whole query's, as run records now);
# the replays run makes after its sweeps (outside their rounds) are said to
# be left unused.
for q in blog sparse; do
	col=$([ $q = blog ] && echo 4 || echo 8)
	for v in 0 16; do
		got=$(awk -v v=$v -v c=$col '/^\| value \| blog query ms / { on = 1; next } on && $1 == "|" && $2 == v { print $c; exit }' "$R/report.md")
		same "$q at $v: the whole query's median is the records'" "$got" \
			"$(medians "$R/sweep-$q/trials.jsonl" .settings.effective_io_concurrency .explain.execution_ms | sed -n "s/^$v://p")"
	done
done
same "each query's replay trials told in the verdict, none said unused" \
	"$(grep -c "replays ran after its sweeps" "$R/report.md"),$(grep -c "^Each value's replay trials issued the query's heap reads" "$R/report.md")" 0,2
iops=$(jq -r 'select(.depth == 4) | .iops | round' "$R/device/points.jsonl")
ok "the device's IOPS at depth 4 as recorded" grep -q "|     4 | *$iops |" "$R/report.md"

# The report renders again from the records alone, to the same files.
md=$(md5sum <"$R/report.md")
html=$(md5sum <"$R/report.html")
rm "$R/report.md" "$R/report.html"
says "report re-renders the run" "^Written to $R: report.md, report.html" "$EB" report "$R" --no-plot
same "the same report.md" "$(md5sum <"$R/report.md")" "$md"
same "the same report.html" "$(md5sum <"$R/report.html")" "$html"
"$EB" report "$R" --no-plot --format json >"$T/verdict.json" 2>"$T/verdict.err"
same "--format json: exit 0, schema 1, the rule's value as a number, both queries" \
	"$?:$(jq -r '"\(.schema) \(.recommendation | type) \(.recommendation) \(.queries | length)"' "$T/verdict.json")" "0:1 number $want 2"
if command -v jsonschema >/dev/null 2>&1; then
	ok "the JSON validates against docs/verdict.schema.json" jsonschema -i "$T/verdict.json" docs/verdict.schema.json
	jq '.schema = 2 | .recommendation = 1.5' "$T/verdict.json" >"$T/wrong.json"
	fails 1 "" "and a wrong one does not" jsonschema -i "$T/wrong.json" docs/verdict.schema.json
else
	skip "the JSON validates against docs/verdict.schema.json" "jsonschema not installed (python3-jsonschema)"
	skip "and a wrong one does not" "jsonschema not installed (python3-jsonschema)"
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
	same "each of the five inline plots is well-formed XML" \
		"$(for f in "$T"/svg*.svg; do xmllint --noout "$f" && echo "$f"; done | wc -l)" 5
else
	skip "each inline plot is well-formed XML" "xmllint not installed (libxml2-utils)"
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	"$browser" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --no-first-run --user-data-dir="$T/chrome" \
		--screenshot="$T/page.png" --window-size=1200,3000 "file://$R/report.html" >"$T/chrome.out" 2>&1
	same "a browser loads the page and draws it (a PNG screenshot)" "$?:$(dd bs=1 skip=1 count=3 <"$T/page.png" 2>/dev/null)" 0:PNG
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
		skip "$d" "no chromium installed"
	done
fi

# A second run (sweeps only) and the two side by side.
says "a second run, sweeps only" "^\(Set effective_io_concurrency = \|No decision yet: leading \)" "$EB" run --quick --rows 300000 --query blog,sparse --datadir "$D" --eic 0,16 --runs 2 --no-probe --out "$T/r2"
says_err "compare the two runs" "^Written to $T/c: compare.md" "$EB" compare "$R" "$T/r2" --no-plot --out "$T/c"
same "one table per query" "$(grep -c '^## Query' "$T/c/compare.md")" 2
# line Q: what the second line of the compare says for query Q, by the
# rule computed here on its sweep's regret bounds: no recommendation when
# no value is out, unless the smallest is within the margin (every value
# alike: decided on it); else the value the rule takes, beside the fastest
# median
line() {
	rm -rf "$T/line" && cp -r "$T/r2/sweep-$1" "$T/line" && "$EB" report "$T/line" --no-plot --format json 2>/dev/null |
		jq -r '.groups[] | [.effective_io_concurrency, .regret, .regret_lo, .regret_hi] | @tsv' | sort -n >"$T/line.txt"
	medians "$T/r2/sweep-$1/trials.jsonl" .settings.effective_io_concurrency .explain.bitmap.heap_phase.total_ms %.17g |
		tr ':' '\t' | awk -F '\t' 'NR == FNR { med[$1] = $2; next } ($1 in med) { print $1 "\t" med[$1] "\t" $2 "\t" $3 "\t" $4 }' - "$T/line.txt" |
		awk -F '\t' '
		{ v[NR] = $1; m[NR] = $2; w[NR] = $3; lo[NR] = $4; hi[NR] = $5; out += $4 > 1.1
		  if (f == "" || $2 < m[f]) f = NR; if (bw == "" || $3 < w[bw]) bw = NR }
		END { if (!out && hi[1] <= 1.1) { printf "recommends %s (fastest %s)\n", v[1], v[f]; exit }	# alike, the smallest within: decided
		      if (!out) { printf "no recommendation (fastest %s; no value told apart)\n", v[f]; exit }
		      for (i = 1; i <= NR; i++) if (hi[i] <= 1.1) { printf "recommends %s (fastest %s)\n", v[i], v[f]; exit }
		      for (i = 1; i <= NR; i++) if (w[i] <= 1.1) { printf "recommends %s (fastest %s)\n", v[i], v[f]; exit }
		      printf "recommends %s (fastest %s)\n", v[bw], v[f] }'
}
for q in blog sparse; do
	same "$q: the second line's recommendation is the rule's on its records" \
		"$(awk -v q="## Query $q" '$0 == q { on = 1; next } /^## / { on = 0 } on' "$T/c/compare.md" | tr '\n' ' ' | grep -o "; B: [^)]*)\.")" \
		"; B: $(line $q)."
done

# Bad input: exit 2, and the run's records stay whole.
sum=$(cat "$R"/sweep-*/trials.jsonl | md5sum)
fails 2 "'nosuch' is no class" "an unknown query" "$EB" run --quick --datadir "$D" --query blog,nosuch
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
	same "$desc: nothing written (files made)" "$( (ls -A "$T/cwd"; ls -d "$T/none" "$T/pgnone" 2>/dev/null) | wc -l)" 0
}
refused "--pg 99: no PostgreSQL 99 binaries.*scripts/build-pg.sh 99" "--pg with no such build" --quick --pg 99 --datadir "$T/pgnone"
refused "--datadir '': give the directory" "an empty --datadir" --quick --datadir ''
refused "--listen '::1': the cluster in $D was made listening on '127.0.0.1'" "--listen for a cluster made without it" --quick --datadir "$D" --listen ::1
refused "--port 5499: the cluster in $D was made with port $P" "--port for a cluster made with another" --quick --datadir "$D" --port 5499
refused "--pg does not apply" "--pg with --dsn" --quick --dsn "host=$D port=$P" --restart-cmd true --pg 18
refused "--max-runs does not apply" "--max-runs with --quick" --quick --datadir "$D" --max-runs 4
refused "--depth does not apply" "--depths with --no-probe" --no-probe --datadir "$D" --depths 1,2
fails 2 "--rows does not apply" "--resume with the run's own options" "$EB" run --resume "$R" --rows 5000
same "the resumed folder untouched" "$(jq -r '[.steps[].state] | unique | join(",")' "$R/meta.json")" done

# Ctrl-C in the middle of a sweep: the run stops after the trial, says how
# to go on, and --resume finishes every step, no trial run twice.
R3=$T/r3
EICBENCH_FAULT=sweep:query@2 "$EB" run --quick --rows 300000 --query blog,sparse --datadir "$D" --eic 0,16 --runs 2 \
	--no-probe --out "$R3" >/dev/null 2>"$R3.err" &
rp=$!
if stopped_at $rp; then
	interrupt $rp
	same "the interrupted run exits 130 (128 + SIGINT)" "$?" 130
	ok "it says how to go on" grep -q "go on with: eicbench run --resume $R3" "$R3.err"
	same "the sweeps' step is marked failed" "$(jq -r '.steps[] | select(.name == "sweeps blog, sparse, round by round") | .state' "$R3/meta.json")" failed
	ok "--resume finishes the run" "$EB" run --resume "$R3"
	same "every step done" "$(jq -r '[.steps[].state] | unique | join(",")' "$R3/meta.json")" done
	# 4 planned trials each, and a replacement round for a round with a run
	# flagged as disturbed (a loaded machine): every planned key once.
	same "each sweep holds its planned trials (4, or more for flagged rounds), none twice (its priming trial aside)" \
		"$(for q in blog sparse; do k=$(jq -r 'select(.priming != true and .workload == null) | .trial_key' "$R3/sweep-$q/trials.jsonl"); echo "$(printf '%s\n' "$k" | wc -l)/$(printf '%s\n' "$k" | sort -u | wc -l)"; done | tr '\n' ' ')" \
		"$(for q in blog sparse; do n=$(jq '.plan.trial_keys | length' "$R3/sweep-$q/meta.json"); [ "$n" -ge 4 ] && echo "$n/$n" || echo "$n<4"; done | tr '\n' ' ')"
else
	same "the run got to its second query" "$(cat "$R3.err")" "(stopped there)"
fi

# A run whose last record was torn, and one with no finished trial.
cp -r "$R" "$T/torn"
head -c -40 "$R/sweep-sparse/trials.jsonl" >"$T/torn/sweep-sparse/trials.jsonl"
says "a torn last record: still rendered" "^Written to $T/torn: report.md" "$EB" report "$T/torn" --no-plot
ok "and the torn line is said" grep -q "partial last line" "$T/torn/report.md"
mkdir -p "$T/empty" && jq '.sweeps = {"blog": "none"}' "$R/meta.json" >"$T/empty/meta.json"
fails 2 "no sweep with finished trials" "a run with nothing finished" "$EB" report "$T/empty" --no-plot
