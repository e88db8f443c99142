# report.html is a page a DBA forwards: its <title> and first heading say
# whose verdict it is (the device, the host, the run's start, the
# PostgreSQL version), the verdict box comes first, "Applying it" is open
# and the statistics sections are collapsed; a provisional verdict's box
# applies nothing. Then in headless Chromium, at 1280 and 390 px wide: a
# screenshot of each, the title as the browser reads it, and at 390 px no
# table nor the page past the viewport's edge (tables scroll inside their
# wrapper), the box in the first screenful. The browser's checks are
# skipped where there is no chromium. No cluster: fixtures rendered.
. tests/it/lib.sh
plan 13

# render NAME: a copy of tests/fixtures/run/NAME rendered in $T by its name
render() {
	cp -a "tests/fixtures/run/$1" "$T/$1" && (cd "$T" && "$EB" report "$1" --no-plot >/dev/null 2>&1)
}
ok "the decided fixture renders" render disagree
ok "the provisional fixture renders" render noisy
page=$T/disagree/report.html
flat=$(tr -d '\n' <"$page")
head="eicbench run: vda on bench1, 2026-12-01 10:00 UTC, PostgreSQL 15.18"
same "the title names the device, the host, the run's start and the version" \
	"$(printf %s "$flat" | grep -o '<title>[^<]*</title>')" "<title>$head</title>"
same "the first heading is the title, and the verdict box comes right after it" \
	"$(printf %s "$flat" | grep -o '<body><h1>[^<]*</h1><section class="verdict" id="verdict">')" \
	"<body><h1>$head</h1><section class=\"verdict\" id=\"verdict\">"
same "\"Applying it\" is open" "$(printf %s "$flat" | grep -o '<details open><summary>Applying it</summary>' | wc -l)" 1
same "the statistics sections are collapsed" \
	"$(printf %s "$flat" | grep -oE '<details><summary>(How sure, in figures|Rounds and racing)</summary>' | wc -l)" 2
box=$(tr -d '\n' <"$T/noisy/report.html" | sed 's|.*<section class="verdict" id="verdict">||; s|</section>.*||')
same "a provisional box leads with a value and applies nothing" \
	"$(printf %s "$box" | grep -c 'No decision yet: leading 0; run longer'):$(printf %s "$box" | grep -c 'ALTER\|Set ')" 1:0

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
	skip_rest "no chromium installed (scripts/install-deps.sh --test)"
	exit 0
fi
# chrome ARGS...: headless, alone, on its own profile
chrome() {
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d "$T/chrome.XXXXXX")" "$@" 2>/dev/null
}
# png_width FILE: a PNG's width from its header, or nothing
png_width() {
	[ "$(dd if="$1" bs=1 skip=1 count=3 2>/dev/null)" = PNG ] && od -An -tu1 -j16 -N4 "$1" |
		awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}
for w in 1280 390; do
	rm -f "$T/shot$w.png"
	chrome --window-size=$w,2000 --screenshot="$T/shot$w.png" "file://$page" >/dev/null
	same "a screenshot at $w px, made and not empty" "$([ -s "$T/shot$w.png" ] && png_width "$T/shot$w.png")" "$w"
done
same "the browser reads the title with the device and the version" \
	"$(chrome --dump-dom "file://$page" | grep -o '<title>[^<]*</title>' | grep -c 'vda.*PostgreSQL 15\.18')" 1
# The page's geometry, from a copy with tests/it/page-probe.html in it, in
# an iframe of each width (as tests/it/run.sh does).
sed 's#</body>#'"$(tr -d '\n' <tests/it/page-probe.html | sed 's/[&#]/\\&/g')"'</body>#' "$page" >"$T/disagree/probe.html"
for w in 1280 390; do
	printf '<!DOCTYPE html><html><body style="margin:0"><iframe src="probe.html" width="%s" height="844" style="border:0"></iframe></body></html>' \
		"$w" >"$T/disagree/frame$w.html"
	got=$(chrome --allow-file-access-from-files --window-size=1300,900 --virtual-time-budget=5000 \
		--dump-dom "file://$T/disagree/frame$w.html" | grep -o 'data-probe="[^"]*"' | sed 's/^data-probe="//; s/"$//; s/&quot;/"/g')
	if [ $w = 390 ]; then
		same "at 390 px the page is 390 wide and the box in its first screenful" \
			"$(printf %s "$got" | jq -r '"\(.width) \(.verdict_in_first_screen)"')" "390 true"
	fi
	same "at $w px nothing reaches past the page's edge (tables scroll in their wrapper)" \
		"$(printf %s "$got" | jq -r '.page_scroll_width <= .client_width and (.tables_past_edge | length == 0)')" true
done
