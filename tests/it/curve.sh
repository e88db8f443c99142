# The device's curves on a real file: sequential reads in several request
# sizes (--sizes), each a single pass (--one-pass); a steadiness rule with
# short windows (--window); depths that stop once IOPS stop rising
# (--until-plateau), with a knee only where a deeper point shows the
# plateau; and the option checks, which refuse before anything is written.
. tests/it/lib.sh
plan 18
F=$T/data
dd if=/dev/urandom of="$F" bs=1M count=48 status=none

ok "sequential reads in three request sizes, one pass each" "$EB" probe --file "$F" --pattern seq \
	--engine psync --sizes 128k,1m,4m --one-pass --out "$T/seq"
same "one point per size" "$(jq -r .block_bytes "$T/seq/points.jsonl" | tr '\n' ,)" "131072,1048576,4194304,"
same "each point read the file once" "$(jq -r '.bytes' "$T/seq/points.jsonl" | sort -u)" $((48 << 20))
same "meta.json records the sizes and the single pass" \
	"$(jq -r '.options | [(.sizes | map(tostring) | join(" ")), .one_pass] | join(",")' "$T/seq/meta.json")" \
	"131072 1048576 4194304,true"
same "no knee across sizes" "$(jq -r '.engines | length' "$T/seq/curve.json")" 0

ok "a steady rule with 0.2 s windows" "$EB" probe --file "$F" --engine psync,io_uring --depth 1,2 \
	--steady --window 0.2s --duration 1.2s --out "$T/steady"
same "every point says its window" "$(jq -r .steady.window_s "$T/steady/points.jsonl" | sort -u)" 0.2
same "and whether it was steady" "$(jq -r '.steady.reached | type' "$T/steady/points.jsonl" | sort -u)" boolean

ok "depths until IOPS stop rising" "$EB" probe --file "$F" --engine io_uring --depth 1,2,4,8,16,32,64 \
	--until-plateau --duration 1s --out "$T/plateau"
C=$T/plateau/curve.json
same "a knee only with a deeper point, and then one" \
	"$(jq -r '.engines[0] | (if .plateau then (.knee_depth < (.depths | max)) else (.knee_depth == null) end)' "$C")" true
same "stopping early only when the last two points added under 5%" \
	"$(jq -r '.engines[0] | if .stopped_rising then ([.iops[-2], .iops[-1]] as $l | (.iops[:-2] | max) as $b1 | (.iops[:-1] | max) as $b2 | ($l[0] < $b1 * 1.05) and ($l[1] < $b2 * 1.05)) else ((.depths | length) == 7) end' "$C")" true

fails 2 "--sizes and --bs both given" "--sizes excludes --bs" "$EB" probe --file "$F" --sizes 128k --bs 8k --out "$T/x1"
fails 2 "'5' is not allowed" "a size not a multiple of 512 is refused" "$EB" probe --file "$F" --sizes 128k,5 --out "$T/x2"
fails 2 "random has no such pass" "--one-pass with the random pattern is refused" "$EB" probe --file "$F" --one-pass --out "$T/x3"
fails 2 "needs --depth in ascending order" "--until-plateau needs ascending depths" "$EB" probe --file "$F" \
	--until-plateau --depth 4,2 --out "$T/x4"
fails 2 "--window belongs to --steady" "--window without --steady is refused" "$EB" probe --file "$F" --window 0.5s --out "$T/x5"
fails 2 "with --steady is outside" "a duration shorter than five windows is refused" "$EB" probe --file "$F" \
	--steady --window 1s --duration 3s --out "$T/x6"
same "nothing was written for a refused probe" "$(ls -d "$T"/x* 2>/dev/null | wc -l | tr -d ' ')" 0
