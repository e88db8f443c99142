# The layer check (scripts/check-layers.sh) on the real tree, and on copies
# of it with a deliberately wrong include, a call across the table with no
# include to show it, and a two-file loop planted: it must pass the first
# and fail the others, naming the file and the line or the call.
. tests/it/lib.sh
plan 8
top=$(pwd)

says "the tree follows the layer table, with no two-file loops" "^check-layers: [0-9]* includes in [0-9]* files follow the layer table; the calls of [0-9]* objects follow it too; no two-file loops" sh scripts/check-layers.sh "$top"

# copy: the sources and objects of bench/ and io/, and the script, into $T/NAME
copy() {
	mkdir -p "$T/$1"
	(cd "$top" && tar cf - bench io scripts/check-layers.sh) | (cd "$T/$1" && tar xf -)
}

# The statistics (io/) including the server layer.
copy up
line=$(grep -n '^#include "' "$T/up/io/stats.c" | tail -n 1 | cut -d: -f1)
sed -i "${line}a #include \"bench/pg/server.h\"" "$T/up/io/stats.c"
fails 1 "io/stats.c:$((line + 1)): .*may not use bench/pg" \
	"io/stats.c including bench/pg/server.h fails, naming the file and line" \
	sh "$T/up/scripts/check-layers.sh" "$T/up"

# io including bench.
copy io
sed -i '1i #include "bench/record/record.h"' "$T/io/io/hist.c"
fails 1 "io/hist.c:1: .*the layer io may not use bench/record" \
	"io including bench/record fails" sh "$T/io/scripts/check-layers.sh" "$T/io"

# A library layer including the commands.
copy cmd
sed -i '1i #include "bench/cmd/cmd.h"' "$T/cmd/bench/sweep/runner.c"
fails 1 "bench/sweep/runner.c:1: .*may not use bench/cmd" \
	"the runner including the command layer fails" sh "$T/cmd/scripts/check-layers.sh" "$T/cmd"

# A folder the table does not know.
copy new
mkdir "$T/new/bench/misc"
printf '#include "bench/misc/misc.h"\n' >"$T/new/bench/misc/misc.c"
fails 1 "bench/misc/misc.c:1: folder bench/misc is not in the layer table" \
	"a folder missing from the table fails" sh "$T/new/scripts/check-layers.sh" "$T/new"

# A call with no include to show it: the runner calling the words (a
# report function declared by hand), and the judge calling the runner.
copy call
printf 'const char *report_fmt_ms(char *buf, unsigned long len, double ms);\nconst char *planted_call(char *b) { return report_fmt_ms(b, 16, 1.0); }\n' >"$T/call/bench/sweep/planted.c"
(cd "$T/call" && cc -c -o bench/sweep/planted.o bench/sweep/planted.c)
fails 1 "bench/sweep/planted.c calls report_fmt_ms of bench/report/report_words.c: the layer bench/sweep may not use bench/report" \
	"a call from the runner to the words fails, naming both files" sh "$T/call/scripts/check-layers.sh" "$T/call"
copy call2
printf 'int race_after_round(void);\nint planted_judge(void) { return race_after_round(); }\n' >"$T/call2/bench/judge/planted.c"
(cd "$T/call2" && cc -c -o bench/judge/planted.o bench/judge/planted.c)
fails 1 "bench/judge/planted.c calls race_after_round of bench/sweep/race.c: the layer bench/judge may not use bench/sweep" \
	"a call from the judge to the runner fails" sh "$T/call2/scripts/check-layers.sh" "$T/call2"

# Two files that use each other.
copy loop
printf 'int loop_b(int);\nint loop_a(int n) { return n ? loop_b(n - 1) : 0; }\n' >"$T/loop/bench/report/loop_a.c"
printf 'int loop_a(int);\nint loop_b(int n) { return n ? loop_a(n - 1) : 1; }\n' >"$T/loop/bench/report/loop_b.c"
(cd "$T/loop" && cc -c -o bench/report/loop_a.o bench/report/loop_a.c && cc -c -o bench/report/loop_b.o bench/report/loop_b.c)
fails 1 "bench/report/loop_a.c <-> bench/report/loop_b.c: a two-file loop" \
	"two files calling each other fail as a loop" sh "$T/loop/scripts/check-layers.sh" "$T/loop"
