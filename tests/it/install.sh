# make install into a temporary DESTDIR: the program, the man pages, the
# data files and the documents where PREFIX says; the installed program
# finds its data files there (not in this checkout), renders a run's report
# from a fixture folder with its plots, and cannot plot without them; make
# uninstall takes away what install put there. Then the Makefile's flags:
# CPPFLAGS and LDFLAGS reach the compile and link lines, -Werror is on
# unless WERROR=0, and nothing is forced with override.
. tests/it/lib.sh
plan 33
top=$(pwd)
R=$T/root
P=/usr/local
B=$R$P/bin/eicbench
mk() { make --no-print-directory -s -C "$top" "$@"; }

ok "make install DESTDIR=$R" mk install DESTDIR="$R"
ok "the program" test -x "$B"
same "a man page per page make wrote" \
	"$(cd "$top/man" && ls *.1 | while read -r p; do test -s "$R$P/share/man/man1/$p" && echo "$p"; done | wc -l)" \
	"$(ls "$top"/man/*.1 | wc -l)"
ok "eicbench-sweep(1) reads through man's own search path" \
	sh -c "MANPATH='$R$P/share/man' man -w eicbench-sweep | grep -qx '$R$P/share/man/man1/eicbench-sweep.1'"
ok "the gnuplot scripts" test -s "$R$P/share/eicbench/scripts/plot-sweep.gp" -a -s "$R$P/share/eicbench/scripts/plot-device.gp"
same "the sweep files" "$(ls "$R$P/share/eicbench/sweeps")" "$(ls "$top/sweeps")"
ok "the README, the licence and the documents" test -s "$R$P/share/doc/eicbench/README.md" -a -s "$R$P/share/doc/eicbench/LICENSE" -a -s "$R$P/share/doc/eicbench/docs/commands.md"

# From outside the checkout, with nothing pointing at it.
cd "$T" || exit 1
same "the installed program finds its data files in PREFIX/share/eicbench" \
	"$(env -u EICBENCH_SCRIPTS "$B" --version | sed -n 's/^data files: //p')" "$R$P/share/eicbench"
cp -r "$top/tests/fixtures/run/disagree" "$T/run"
cp -r "$top/tests/fixtures/sweep/clear" "$T/sweep"
rm -f "$T/run"/*.svg "$T/sweep"/*.svg
says "the installed program renders a run's report" "^Written to $T/run: report.md, report.html" env -u EICBENCH_SCRIPTS "$B" report "$T/run"
same "with its plots (the device's, a speedup per query), from the installed scripts" \
	"$(for f in device.svg speedup-blog.svg speedup-sparse.svg; do grep -q '</svg>' "$T/run/$f" && echo "$f"; done | tr '\n' ' ')" \
	"device.svg speedup-blog.svg speedup-sparse.svg "
same "inline in report.html" "$(grep -o '<figure><svg' "$T/run/report.html" | wc -l)" 3
says "and a sweep's, with its plot" "^Written to $T/sweep: summary.csv" env -u EICBENCH_SCRIPTS "$B" report "$T/sweep"
ok "sweep.svg" grep -q '</svg>' "$T/sweep/sweep.svg"

# Without the installed scripts it has none to find (unless another
# installation sits in the folder the program was built for).
built_for=$(sed -n 's/^\([^ ]*\) .*/\1/p' "$top/.sharedir")
if [ -e "$built_for" ]; then
	skip "without its scripts the installed program says so" "an installation is in $built_for"
else
	mv "$R$P/share/eicbench/scripts" "$T/scripts.away"
	cp -r "$top/tests/fixtures/run/disagree" "$T/run2"
	env -u EICBENCH_SCRIPTS "$B" report "$T/run2" >"$T/run2.out" 2>&1
	ok "without its scripts the installed program says so" grep -q "plot-sweep.gp not found" "$T/run2.out"
	mv "$T/scripts.away" "$R$P/share/eicbench/scripts"
fi

# The test hooks act only in the build tree: the installed program refuses
# them before anything (a cold cycle used to write "3" into whatever file
# EICBENCH_DROP_CACHES named); the build tree's takes them.
cluster pg 54397
echo untouched >"$T/dc"
EICBENCH_DROP_CACHES=$T/dc fails 2 "EICBENCH_DROP_CACHES is set, but it is a test hook that only a build of eicbench run from its source tree takes" \
	"the installed program refuses EICBENCH_DROP_CACHES" "$B" server cold --datadir "$T/pg"
same "... the file it names untouched" "$(cat "$T/dc")" untouched
EICBENCH_FAULT=x fails 2 "EICBENCH_FAULT is set, but it is a test hook" "... and EICBENCH_FAULT" "$B" report "$T/sweep"
EICBENCH_SCRIPTS=$T fails 2 "EICBENCH_SCRIPTS is set, but it is a test hook" "... and EICBENCH_SCRIPTS (root would run gnuplot scripts from any folder)" "$B" report "$T/sweep"
EICBENCH_DROP_CACHES=$T/dc ok "the build tree's program takes it" "$top/eicbench" server cold --datadir "$T/pg"
same "... and writes there instead of /proc/sys/vm/drop_caches" "$(head -n 1 "$T/dc")" 3
cd "$top" || exit 1

ok "make uninstall DESTDIR=$R" mk uninstall DESTDIR="$R"
same "nothing of it left" "$(find "$R" ! -type d | wc -l)" 0

# Another PREFIX: everything goes under it.
ok "make install PREFIX=/opt/eb DESTDIR=$R" mk install PREFIX=/opt/eb DESTDIR="$R"
same "all of it under /opt/eb" "$(find "$R" ! -type d | grep -vc "^$R/opt/eb/"),$(find "$R/opt/eb" ! -type d | wc -l | awk '$1 > 0 { print "some" }')" 0,some
ok "the man pages in /opt/eb/share/man/man1" test -s "$R/opt/eb/share/man/man1/eicbench.1"
ok "make uninstall PREFIX=/opt/eb" mk uninstall PREFIX=/opt/eb DESTDIR="$R"
same "nothing left under /opt/eb" "$(find "$R/opt" ! -type d | wc -l)" 0
# the program was built for the first PREFIX: build it back
mk all >/dev/null

# The flags a distribution build gives, as make would use them.
cc=$(make --no-print-directory -n -B -C "$top" bench/cli/opts.o CPPFLAGS=-DEB_CPPFLAGS_SEEN CFLAGS='-O2 -DEB_CFLAGS_SEEN')
same "CPPFLAGS reach the compile line" "$(echo "$cc" | grep -c -- '-DEB_CPPFLAGS_SEEN')" 1
same "CFLAGS reach it too" "$(echo "$cc" | grep -c -- '-DEB_CFLAGS_SEEN')" 1
same "-Werror is on by default" "$(echo "$cc" | grep -c -- '-Werror')" 1
cc=$(make --no-print-directory -n -B -C "$top" bench/cli/opts.o WERROR=0)
same "WERROR=0 turns it off" "$(echo "$cc" | grep -c -- '-Werror'),$(echo "$cc" | grep -c -- '-c -o bench/cli/opts.o')" 0,1
same "LDFLAGS reach the link line" \
	"$(make --no-print-directory -n -B -C "$top" eicbench LDFLAGS=-Wl,--eb-ldflags-seen | grep -- '-o eicbench' | grep -c -- '-Wl,--eb-ldflags-seen')" 1
same "no override in the Makefile" "$(grep -c '^[[:space:]]*override\|: *override ' "$top/Makefile")" 0
