# The fixtures' committed reports are golden files: each report.md and
# report.html under tests/fixtures/run/* and tests/fixtures/sweep/* is byte
# for byte what `eicbench report` writes from that folder's records
# (scripts/golden.sh --check renders each copy by a relative name, so the
# paths it prints are stable). A change to the words shows here until
# scripts/golden.sh renders them again and the diff is committed. The check
# itself must fail on a report changed by one byte, and on one left out.
. tests/it/lib.sh
plan 36

sh scripts/golden.sh --check >"$T/check.out" 2>&1
for f in $(ls tests/fixtures/run/*/report.md tests/fixtures/run/*/report.html \
	tests/fixtures/sweep/*/report.md tests/fixtures/sweep/*/report.html); do
	if grep -qx "golden: $f same" "$T/check.out"; then
		pass "$f is what the renderer writes"
	else
		flunk "$f is what the renderer writes" "$(grep -A 20 "golden: $f " "$T/check.out" || cat "$T/check.out")"
	fi
done

# A report one byte off, and a folder whose report is gone: both said.
mkdir -p "$T/off" && cp -a tests/fixtures/run/noisy "$T/off/noisy"
printf ' ' >>"$T/off/noisy/report.md"
rc=0
sh scripts/golden.sh --check "$T/off/noisy" >"$T/off.out" 2>&1 || rc=$?
same "a report one byte off is said to differ" "$rc:$(grep -c "golden: $T/off/noisy/report.md differs" "$T/off.out")" 1:1
rm "$T/off/noisy/report.html"
rc=0
sh scripts/golden.sh --check "$T/off/noisy" >"$T/gone.out" 2>&1 || rc=$?
same "a report gone is said to differ" "$rc:$(grep -c "golden: $T/off/noisy/report.html differs" "$T/gone.out")" 1:1
