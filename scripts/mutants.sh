#!/bin/sh
# mutants.sh [NAME...]: does the suite catch known bugs? It copies the
# checkout (its tracked and new files, as they are now) into a folder of its
# own, builds it, runs every test the mutations name and stops unless they
# all pass; then, one mutation at a time, it changes the copy's source as the
# table below says (each "from" must be on exactly one line of the file),
# rebuilds, runs that mutation's tests and lists the checks that failed.
# Each mutation must make at least one check fail; the file is put back
# before the next. The checkout itself is never written to. NAME... runs
# only those mutations; MUTANTS_KEEP=1 keeps the folder. Exit 0 when every
# mutation was caught. It runs the integration tests (real clusters), so
# run it as make check is run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

# The mutations: a block each, blank lines between. name, what it breaks,
# the file, one or more from/to pairs (text on one line of the file, and
# what it becomes), the tests that should catch it (tests/test_NAME, or
# it:NAME for tests/it/NAME.sh).
table() {
	cat <<'EOF'
name  heap-phase-is-node
what  the heap phase reported as the whole Bitmap Heap Scan node
file  bench/observe/explain.c
from  b->heap_phase.total_ms = minus(b->node.total_ms, idx.total_ms);
to    b->heap_phase.total_ms = b->node.total_ms;
tests tests/test_explain it:sweep

name  pick-one-step-up
what  the answer one value above the smallest the rule accepts
file  bench/judge/decision.c
from  return v;
to    return v + 1 < in->nvalues && d->complete[v + 1] ? v + 1 : v;
tests tests/test_decision tests/test_verdict it:run

name  series-pick-one-step-up
what  a sweep's own recommendation one value above its decision's answer
file  bench/judge/result_series.c
from  se->recommended = idx[d->answer];
to    se->recommended = idx[d->answer + 1 < n ? d->answer + 1 : d->answer];
tests tests/test_report it:run

name  torn-cut-drops-record
what  cutting a torn last line drops the whole record before it too
file  bench/record/record.c
from  keep = last_line_end(fd, size);
to    keep = last_line_end(fd, last_line_end(fd, size) - 1);
tests tests/test_record it:faults-sweep

name  resume-repeats-last
what  a resumed sweep runs its last finished trial again
file  bench/record/record.c
from  keys[n++] = k;
to    keys[n] = k, n += i + 1 < json_array_size(records);
tests tests/test_record it:sweep it:faults-confsweep

name  restore-skips-a-setting
what  the settings put back after a sweep but the last one changed, and the check of them ignored
file  bench/pg/settings.c
from  for (int i = 0; c && i < j->n; i++) {
to    for (int i = 0; c && i < j->n - 1; i++) {
from  if (!c || verify(j, s, bad, sizeof(bad)) > 0) {
to    if (!c || (verify(j, s, bad, sizeof(bad)) > 0 && 0)) {
tests tests/test_settings it:faults-sweep it:faults-confsweep

name  history-insert-removed
what  the TPC-B transaction no longer inserts its history row
file  sql/tpcb/tpcb-like.sql
from  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
to    SELECT :tid, :bid, :aid, :delta, CURRENT_TIMESTAMP;
tests tests/test_tpcb_script it:tpcb

name  branch-update-removed
what  the TPC-B transaction no longer updates its branch
file  sql/tpcb/tpcb-like.sql
from  UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
to    SELECT :delta, :bid;
tests tests/test_tpcb_script it:tpcb

name  median-off-centre
what  the median taken at the 55% quantile
file  io/stats.c
from  return stats_quantile(v, n, 0.5);
to    return stats_quantile(v, n, 0.55);
tests tests/test_stats it:sweep

name  knee-share-squared
what  the knee found at 81% of the peak instead of 90%
file  io/curve.c
from  if (iops[i] >= share * iops[peak] &&
to    if (iops[i] >= share * share * iops[peak] &&
tests tests/test_curve tests/test_verdict it:probe

name  cluster-lock-skipped
what  a managed cluster is never locked against a second command
file  bench/pg/lock.c
from  if (!s->external && access(version, F_OK) < 0)
to    if (!s->external || access(version, F_OK) < 0)
tests tests/test_lock it:faults

name  cold-keeps-cache
what  the cold cycle restarts the server without dropping the page cache
file  bench/pg/server_cold.c
from  ret = drop_caches(s, s->datadir, t, err, errlen);
to    ret = 0;
tests tests/test_server it:server

name  looks-uncorrected
what  racing's bounds at one look's level however many looks it makes
file  bench/judge/decision.c
from  return looks > 1 ? 1 - (1 - DECISION_LEVEL) / looks : DECISION_LEVEL;
to    return looks > 0 ? DECISION_LEVEL : DECISION_LEVEL;
tests tests/test_decision

name  tie-smallest-always
what  a tie broken by the smallest value, what the server ran and the default ignored
file  bench/judge/decision.c
from  if (cur < in->nvalues && d->good[cur]) {
to    if (0 && cur < in->nvalues && d->good[cur]) {
tests tests/test_decision tests/test_verdict

name  stability-always-agrees
what  every re-draw of the rounds counted as agreeing with the answer
file  bench/judge/stability.c
from  out->agree += stability_agrees(in, d, e->answer);
to    out->agree++;
tests tests/test_stability tests/test_verdict

name  forced-counts
what  a class whose bitmap plan was forced counts in the answer all the same
file  bench/judge/classes.c
from  (!json_is_true(record_at(meta, "plan.forced")) ||
to    (1 ||
tests tests/test_verdict it:classes

name  replays-everywhere
what  a run's replay trials beside every value's trial in every round, not only the leader's, its rival's and 0's
file  bench/sweep/runner.c
from  if (!r->cfg.race || r->cfg.companion_all || t->round <= 1)
to    if (1)
tests it:classes-pg18

name  seq-not-taken
what  the Seq Scan class measured without its Seq Scan taking the bitmap scan's place
file  bench/workloads/workload_bitmap.c
from  explain_take_seq(f);
to    (void)0;
tests it:classes-pg18

name  weights-ignored
what  the classes' weights left out of the least worst case
file  bench/judge/decision.c
from  return in->weight && in->weight[q] != 1 ? pow(x, in->weight[q]) : x;
to    return (void)in, (void)q, x;
tests tests/test_verdict

name  load-keeps-relaxed
what  a load leaves its relaxed durability (fsync off and the rest) in force
file  bench/dataset/dataset.c
from  ret = relax(l, false);
to    ret = 0;
tests tests/test_dataset it:load it:faults-load
EOF
}

work=$(mktemp -d /var/tmp/eicbench-mutants.XXXXXX)
src=$work/src
trap '[ -n "${MUTANTS_KEEP:-}" ] && echo "kept in $work" || rm -rf "$work"' EXIT
table | awk -v RS= -v ORS='\n\n' '1' >"$work/table"

# field BLOCK KEY: the values of KEY in BLOCK, one a line
field() {
	printf '%s\n' "$1" | sed -n "s/^$2  *//p"
}

# run_tests LOG TESTS...: run each test of the copy; the checks that failed
# go to LOG, one a line, named by test
run_tests() {
	log=$1; shift
	: >"$log"
	for t in "$@"; do
		case $t in
		it:*) name=tests/it/${t#it:}.sh
			(cd "$src" && IT_ONLY=${t#it:} scripts/run-tests.sh) >"$work/out" 2>&1 ;;
		*) name=$t
			(cd "$src" && UNIT_ONLY=1 scripts/run-tests.sh "$t") >"$work/out" 2>&1 ;;
		esac
		[ $? -eq 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed' "$work/out" && continue
		{ sed -n 's/^\(not ok [0-9]* - .*\)/\1/p' "$work/out"
		  sed -n 's/^\[  FAILED  \] \([A-Za-z0-9_]*\)$/\1 failed/p' "$work/out"
		  sed -n 's/^# [^ ]*: \(planned .*\)/\1/p; s/^# [^ ]*: \(no plan.*\)/\1/p' "$work/out"
		} | awk '!seen[$0]++' | sed "s|^|$name: |" >>"$log"
		grep -q "^$name: " "$log" || echo "$name: failed (see its output)" >>"$log"
	done
}

# apply FILE BLOCK DIRECTION: each from -> to of BLOCK on FILE (DIRECTION
# "on"); 1 when a "from" is not on exactly one line
apply() {
	froms=$(field "$2" from)
	tos=$(field "$2" to)
	i=1
	printf '%s\n' "$froms" | while IFS= read -r from; do
		to=$(printf '%s\n' "$tos" | sed -n "${i}p")
		i=$((i + 1))
		hits=$(grep -cF -- "$from" "$1")
		if [ "$hits" -ne 1 ]; then
			echo "  '$from' is on $hits lines of $1, not one" >&2
			return 1
		fi
		FROM=$from TO=$to awk '{ i = index($0, ENVIRON["FROM"]) }
			i { $0 = substr($0, 1, i - 1) ENVIRON["TO"] substr($0, i + length(ENVIRON["FROM"])) } 1' \
			"$1" >"$1.mut" && cat "$1.mut" >"$1" && rm -f "$1.mut" || return 1
	done
}

start=$(date +%s)
echo "copying the checkout to $src and building it"
mkdir -p "$src"
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	xargs -0 cp --parents -t "$src") || exit 2
if ! (cd "$src" && make -j2 all unit) >"$work/build.log" 2>&1; then
	tail -n 20 "$work/build.log"
	echo "mutants: the copy does not build" >&2
	exit 2
fi

# The blocks to run: all, or those named.
blocks=$(awk -v RS= -v want=" $* " 'want == "  " || index(want, " " $2 " ") { printf "%d ", NR }' "$work/table")
[ -n "$blocks" ] || { echo "mutants: no mutation named $*" >&2; exit 2; }
block() { awk -v RS= -v n="$1" 'NR == n' "$work/table"; }

alltests=$(for b in $blocks; do field "$(block "$b")" tests | tr ' ' '\n'; done | sort -u | tr '\n' ' ')
echo "the copy unmutated: $alltests"
run_tests "$work/base" $alltests
if [ -s "$work/base" ]; then
	sed 's/^/  /' "$work/base"
	echo "mutants: the unmutated copy fails these checks; nothing can be learnt from a mutation" >&2
	exit 2
fi

missed=0
for b in $blocks; do
	m=$(block "$b")
	name=$(field "$m" name); file=$(field "$m" file)
	echo "== $name: $(field "$m" what) ($file)"
	t0=$(date +%s)
	cp "$src/$file" "$work/pristine"
	if ! apply "$src/$file" "$m"; then
		echo "   NOT APPLIED: the table no longer matches $file"
		missed=$((missed + 1))
	elif ! (cd "$src" && make -j2 all unit) >"$work/build.log" 2>&1; then
		echo "   DID NOT BUILD:"; grep -m 5 'error' "$work/build.log" | sed 's/^/     /'
		missed=$((missed + 1))
	else
		run_tests "$work/caught" $(field "$m" tests)
		if [ -s "$work/caught" ]; then
			echo "   caught by $(wc -l <"$work/caught") check(s), in $(($(date +%s) - t0)) s:"
			sed 's/^/     /' "$work/caught"
		else
			echo "   NOT CAUGHT by $(field "$m" tests)"
			missed=$((missed + 1))
		fi
	fi
	cat "$work/pristine" >"$src/$file"
done
(cd "$src" && make -j2 all unit) >"$work/build.log" 2>&1
n=$(echo $blocks | wc -w)
echo "mutants: $((n - missed)) of $n caught, in $(($(date +%s) - start)) s"
[ "$missed" -eq 0 ]
