/*
 * test_verdict: the verdict of run folders in tests/fixtures/run (run from
 * the repository root). "disagree": a dense query bound by readahead and CPU
 * where 0 wins and a sparse one bound by concurrency where 32 wins, with
 * the replays an older run made after its sweeps (not used), the device's
 * curve and the cache check; "noisy": a query whose values cannot be told
 * apart; "flagged-out": flagged runs in every round; "flagged-value": every run of one value flagged. Checks the storage-wide pick and the sentences made from the
 * figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/curve.h"
#include "bench/report/verdict.h"
#include "bench/report/verdict_box.h"
#include "bench/report/verdict_classes.h"
#include "bench/report/verdict_doc.h"
#include "bench/report/verdict_time.h"

#define F "tests/fixtures/run/"

/* V judged and rendered as text; V keeps what the judge added to it. */
static char *text_of(struct run_result *v)
{
	struct judgement *j = calloc(1, sizeof(*j));
	struct doc d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(j);
	j->run = *v;
	assert_int_equal(judge_loaded(j), 0);
	verdict_document(j, &d);
	assert_int_equal(doc_text_out(&d, f), 0);
	fclose(f);
	doc_free(&d);
	*v = j->run;
	regret_free(&j->storage);
	free(j);
	/* join the wrapped lines, so phrases can be looked for whole */
	for (char *p = buf; *p; p++)
		if (*p == '\n' && p[1] && p[1] != '\n')
			*p = ' ';
	return buf;
}

static void expect(const char *text, const char *phrase)
{
	if (!strstr(text, phrase))
		fail_msg("missing \"%s\" in:\n%s", phrase, text);
}

/* The decision of V: its answer, regime and whether it is made. */
static void decide(const struct run_result *v, const char *answer, enum decision_regime regime, int decided)
{
	struct regret g;
	char err[512];

	assert_int_equal(judge_storage(v, &g, NULL, err, sizeof(err)), 0);
	assert_non_null(judge_answer(&g));
	assert_string_equal(judge_answer(&g), answer);
	assert_int_equal(g.d.regime, regime);
	assert_int_equal(g.d.decided, decided);
	regret_free(&g);
}

static void disagree(void **state)
{
	struct run_result v;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "disagree", &v, err, sizeof(err)), 0);
	/* presets that disagree: no value within in both, the worst-case regret stated */
	decide(&v, "4", DECISION_PRICE, 1);
	text = text_of(&v);
	expect(text, "Set effective_io_concurrency = 4 for the tablespace on vda, down from 200, what the server ran; PostgreSQL 15's default is 1.");
	expect(text, "Risk: blog takes 22.8s at 4, 8.81s (63%) more than at 0; sparse 2.91s at 4, 1.01s (54%) more than at 32.");
	expect(text, "Decided after 6 rounds, at a price: no value is shown within 10% of the fastest in every query, and none can cost less at worst than 4 by more than the margin");
	expect(text, "4 costs blog 1.64x its best, sparse 1.53x its best.");
	expect(text, "Per query, for reference (the one value for the storage is the answer above): blog's own fastest was 0; sparse's own fastest was 32.");
	expect(text, "This query's own best (for it alone; the run's answer is the verdict's): effective_io_concurrency = 0");
	assert_null(strstr(text, "indistinguishable"));
	assert_null(strstr(text, "Recommended"));
	expect(text, "ALTER TABLESPACE pg_default SET (effective_io_concurrency = 4);");
	expect(text, "ALTER SYSTEM SET effective_io_concurrency = 4;");
	/* replays of an older run, after the sweeps: not used */
	expect(text, "This run's replays ran after its sweeps, outside their rounds and cold state: they are not used.");
	expect(text, "no sign of a cache below this machine");
	free(text);
	run_result_free(&v);
}

/*
 * The knee the sentence names is the rule's on the device's own points
 * (found here by curve_find_knee): 76000 IOPS at 64 is the first to reach
 * 90% of the 78000 peak, 68000 at 32 (87%) is not; the share is the rule's.
 */
static void knee_by_the_rule(void **state)
{
	struct run_result v;
	struct curve_knee k;
	unsigned depths[32];
	double iops[32];
	size_t n = 0, i;
	const json_t *p;
	char err[1024], want[256], *text;

	(void)state;
	assert_int_equal(run_result_load(F "disagree", &v, err, sizeof(err)), 0);
	assert_non_null(v.device_points);
	json_array_foreach(v.device_points, i, p) {
		assert_true(n < 32);
		depths[n] = (unsigned)json_integer_value(json_object_get(p, "depth"));
		iops[n++] = json_number_value(json_object_get(p, "iops"));
	}
	assert_int_equal(curve_find_knee(depths, iops, n, CURVE_KNEE_SHARE, &k), 0);
	assert_int_equal(depths[k.knee], 64);
	assert_int_equal(depths[k.peak], 128);
	snprintf(want, sizeof(want), "reached its peak of %.0f IOPS at depth %u and %.0f%% of it at depth %u, the knee",
		 iops[k.peak], depths[k.peak], CURVE_KNEE_SHARE * 100, depths[k.knee]);
	text = text_of(&v);
	expect(text, want);
	free(text);
	run_result_free(&v);
}

static void noisy(void **state)
{
	struct run_result v;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "noisy", &v, err, sizeof(err)), 0);
	/* noisy: undecided, and why */
	decide(&v, "0", DECISION_OPEN, 0);
	text = text_of(&v);
	expect(text, "Provisional after 6 rounds: 0's upper bound in sparse is 1.28x, above the 1.10x the margin allows; more rounds narrow the bounds.");
	expect(text, "No value is shown slower than the fastest by more than 10%");
	free(text);
	run_result_free(&v);
}

/* A host that takes free memory back is a caveat unless reporting was
 * paused for the trials; the records without the field (an older run,
 * another machine) have none. */
static void page_reporting(void **state)
{
	const char *said = "This machine's host takes its free memory back (a virtio balloon with free page reporting)";
	struct run_result v;
	char err[1024], *text;
	json_t *host;

	(void)state;
	assert_int_equal(run_result_load(F "noisy", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	assert_null(strstr(text, said));
	free(text);
	for (int i = 0; i < v.nq; i++)
		if (v.q[i].have_rep) {
			host = json_object_get(v.q[i].rep.meta, "host");
			assert_non_null(host);
			json_object_set_new(host, "free_page_reporting",
					    json_pack("{s:b, s:i, s:n}", "on", 1, "order", 9, "reported_kib"));
		}
	text = text_of(&v);
	expect(text, said);
	expect(text, "not paused for the trials (a run made before the pause existed)");
	expect(text, "The cold figures include it at every value");
	free(text);
	/* paused for the trials: no caveat; kept on, or not pausable: one, saying why */
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < v.nq; i++)
			if (v.q[i].have_rep)
				json_object_set_new(json_object_get(json_object_get(v.q[i].rep.meta, "host"), "free_page_reporting"), "pause",
						    k == 0 ? json_pack("{s:b, s:i}", "paused", 1, "order", 11) :
						    k == 1 ? json_pack("{s:b}", "kept", 1) :
						    json_pack("{s:b, s:s}", "paused", 0, "why", "the kernel refuses page_reporting_order 11 (Invalid argument)"));
		text = text_of(&v);
		if (k == 0)
			assert_null(strstr(text, said));
		else
			expect(text, k == 1 ? "not paused for the trials (--keep-page-reporting)" :
				     "not paused for the trials (the kernel refuses page_reporting_order 11 (Invalid argument))");
		free(text);
	}
	run_result_free(&v);
}

/* On an emulated device the caveat names the model in the emulator's own
 * words (its recorded "summary"), never the record itself. */
static void emulated(void **state)
{
	const char *said = "An emulated device (latency 0.1 ms, 8 at once per member, no bandwidth limit, read-ahead 128 KiB): the answer holds for the model, not for the disk under it.";
	struct run_result v;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "noisy", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	assert_null(strstr(text, "An emulated device"));
	free(text);
	for (int i = 0; i < v.nq; i++)
		if (v.q[i].have_rep) {
			json_t *dev = json_object_get(v.q[i].rep.meta, "device");

			assert_non_null(dev);
			json_object_set_new(dev, "emulated",
					    json_pack("{s:s, s:f, s:i, s:s}", "kind", "emulated", "latency_ms", 0.1,
						      "parallel", 8, "summary",
						      "latency 0.1 ms, 8 at once per member, no bandwidth limit, read-ahead 128 KiB"));
		}
	text = text_of(&v);
	expect(text, said);
	free(text);
	run_result_free(&v);
}

/* readahead-bound: 0 wins; concurrency-bound (partial): 32 wins */
static void bound(void **state)
{
	struct run_result v;
	char err[1024];

	(void)state;
	assert_int_equal(run_result_load(F "readahead", &v, err, sizeof(err)), 0);
	decide(&v, "0", DECISION_WITHIN, 1);
	run_result_free(&v);
	assert_int_equal(run_result_load(F "partial", &v, err, sizeof(err)), 0);
	decide(&v, "32", DECISION_WITHIN, 1);
	run_result_free(&v);
}

/* One disturbed run: flagged by its index phase, replaced by round 7, the
 * answer the same as the undisturbed sweep's; with it, another: both said. */
static void disturbed(void **state)
{
	struct run_result v;
	struct regret g;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "disturbed", &v, err, sizeof(err)), 0);
	decide(&v, "32", DECISION_WITHIN, 1);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(g.nflags, 1);
	assert_int_equal(g.flags[0].round, 3);
	assert_string_equal(g.values[g.flags[0].v], "32");
	assert_int_equal(g.rounds, 7);
	assert_int_equal(g.differ, 1);
	regret_free(&g);
	text = text_of(&v);
	expect(text, "Flagged: sparse round 3 at 32: its index phase took");
	expect(text, "With the flagged runs the answer would be 64 (provisional");
	free(text);
	run_result_free(&v);
}

/* "flagged-out": the disturbed sweep with the host taking its CPUs in every
 * round but for one value, so that leaving the flagged runs out leaves no
 * round with two values to compare: the answer is made with them, and the
 * verdict says they were kept (it said no value was swept in every query). */
static void flagged_out(void **state)
{
	struct run_result v;
	struct regret g;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "flagged-out", &v, err, sizeof(err)), 0);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(g.nflags, 35);
	assert_int_equal(g.kept_flagged, 1);
	assert_int_equal(g.differ, 0);
	assert_non_null(judge_answer(&g));
	assert_string_equal(judge_answer(&g), g.values[g.d_all.answer]);
	regret_free(&g);
	text = text_of(&v);
	expect(text, "No decision yet: leading 64; run longer (--max-runs 14).");
	expect(text, "35 runs were flagged as disturbed by the rule fixed in advance (listed under the rounds) and kept");
	free(text);
	run_result_free(&v);
}

/* "flagged-value": the disturbed sweep with every run of 32, the value
 * that wins there, flagged: left out, 32 would silently lose the race it
 * had no run in; the runs are kept and the verdict says so. */
static void flagged_value(void **state)
{
	struct run_result v;
	struct regret g;
	char err[1024], *text;

	(void)state;
	assert_int_equal(run_result_load(F "flagged-value", &v, err, sizeof(err)), 0);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(g.nflags, 7);
	assert_int_equal(g.kept_flagged, 1);
	assert_true(g.d.complete[4]);	/* 32 is compared, with its flagged runs */
	assert_string_equal(g.values[4], "32");
	assert_string_equal(judge_answer(&g), g.values[g.d_all.answer]);
	regret_free(&g);
	text = text_of(&v);
	expect(text, "7 runs were flagged as disturbed by the rule fixed in advance (listed under the rounds) and kept");
	free(text);
	run_result_free(&v);
}

/* The quick run where 64 was once called as good as blog's fastest at
 * 2.54x: 0's disturbed run is flagged, and 64 is not within the margin. */
static void quick_issue(void **state)
{
	struct run_result v;
	struct regret g;
	char err[1024], *text;
	size_t v64 = 4;

	(void)state;
	assert_int_equal(run_result_load(F "quick-issue", &v, err, sizeof(err)), 0);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_string_equal(g.values[v64], "64");
	assert_false(g.d.good[v64]);
	assert_false(g.d.decided);
	assert_true(g.d.cell[0][v64].lo > 2.0);         /* blog: surely over twice its best */
	assert_int_equal(g.nflags, 1);
	assert_string_equal(g.values[g.flags[0].v], "0");
	regret_free(&g);
	text = text_of(&v);
	expect(text, "64 costs blog 2.87x its best, sparse 1.00x its best.");
	expect(text, "Provisional after 3 rounds");
	assert_null(strstr(text, "indistinguishable"));
	free(text);
	run_result_free(&v);
}

/* Racing on the records: what leaves, and why. */
static void racing(void **state)
{
	struct run_result v;
	struct regret g;
	enum decision_drop why[DECISION_MAX_VALUES];
	size_t by[DECISION_MAX_VALUES];
	char err[1024];

	(void)state;
	/* concurrency-bound: 32 decided; 64 above it, the smaller ones out */
	assert_int_equal(run_result_load(F "partial", &v, err, sizeof(err)), 0);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(decision_race(&g.in, &g.d, why, by), 5);
	assert_int_equal(why[5], DECISION_ABOVE);               /* 64 */
	for (int k = 0; k < 4; k++)
		assert_int_equal(why[k], DECISION_OUT);         /* 0, 1, 4, 16 */
	assert_int_equal(why[4], DECISION_KEEP);                /* 32, the answer */
	assert_string_equal(g.values[by[0]], "32");
	regret_free(&g);
	run_result_free(&v);
	/* presets that disagree, decided at a price on 4: 1 costs more at
	 * worst than 4 can and is nobody's reference, so it leaves; 0, blog's
	 * fastest, stays; 16, 32 and 64 are above the decided answer */
	assert_int_equal(run_result_load(F "disagree", &v, err, sizeof(err)), 0);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(decision_race(&g.in, &g.d, why, by), 4);
	assert_int_equal(why[1], DECISION_OUT);
	assert_string_equal(g.values[by[1]], "4");
	assert_int_equal(why[0], DECISION_KEEP);
	assert_int_equal(why[2], DECISION_KEEP);
	for (int k = 3; k < 6; k++)
		assert_int_equal(why[k], DECISION_ABOVE);
	regret_free(&g);
	run_result_free(&v);
}

/* A value that joined the race (a refined grid): said under the rounds and
 * in the JSON, and decided on with the rounds it ran. */
static void joined(void **state)
{
	struct run_result v;
	struct regret g;
	char err[1024], *text;
	json_t *j, *a;

	(void)state;
	assert_int_equal(run_result_load(F "joined", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	expect(text, "32 joined the race after round 3: next to 16 on the ladder, the leading value after round 3; it ran from round 4 on.");
	expect(text, "every value ran every round from the one it joined in");
	expect(text, "The grid was refined on the ladder 0, 1, 4, 16, 32, 64:");
	free(text);
	assert_int_equal(judge_storage(&v, &g, NULL, err, sizeof(err)), 0);
	assert_int_equal(g.njoins, 1);
	j = verdict_box_json(&v, &g, NULL);
	a = json_object_get(j, "joined");
	assert_int_equal(json_array_size(a), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 0), "value")), 32);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 0), "after_round")), 3);
	json_decref(j);
	/* 32 ran rounds 4 to 6 only, and is compared with the others there */
	assert_int_equal(g.d.cell[0][4].runs, 3);
	regret_free(&g);
	run_result_free(&v);
}

static void refused_and_missing(void **state)
{
	struct run_result v;
	char err[1024], *text;

	(void)state;
	/* an interrupted run: what is there is reported, what is not is said */
	assert_int_equal(run_result_load(F "partial", &v, err, sizeof(err)), 0);
	assert_non_null(strstr(v.missing, "sweep-blog"));
	assert_non_null(strstr(v.missing, "device (no device curve recorded)"));
	text = text_of(&v);
	expect(text, "Set effective_io_concurrency = 32 for the tablespace on vda;");
	expect(text, "The sweep of blog has no finished trials");
	expect(text, "This run's replays ran after its sweeps");
	expect(text, "Not in the records");
	free(text);
	run_result_free(&v);
	assert_int_equal(run_result_load("tests/fixtures/sweep/clear", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not the folder of an eicbench run"));
	run_result_free(&v);
	assert_int_equal(run_result_load("tests/fixtures/nosuch", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no readable meta.json"));
	run_result_free(&v);
}

/* The renderers never decide: a judged run rendered to text, md, html and
 * JSON makes no decision; "eicbench report" in each format judges the
 * folder once, as many decisions as one judge_run makes, whatever the
 * format. */
static void decided_once(void **state)
{
	char dir[] = "/tmp/eicbench-test-verdict.XXXXXX", cmd[256], err[1024], note[1280];
	enum report_format fmts[] = { REPORT_TEXT, REPORT_MARKDOWN, REPORT_HTML, REPORT_JSON };
	struct judgement *j = calloc(1, sizeof(*j));
	struct doc d = { 0 };
	unsigned long before, per_judge;
	FILE *devnull = fopen("/dev/null", "w");
	json_t *o;
	(void)state;

	assert_non_null(j);
	assert_non_null(devnull);
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -a " F "disagree %s/run", dir);
	assert_int_equal(system(cmd), 0);
	strcat(dir, "/run");

	before = decision_count();
	assert_int_equal(judge_run(dir, j, err, sizeof(err)), 0);
	per_judge = decision_count() - before;
	assert_true(per_judge >= 1);
	assert_true(j->decided);

	before = decision_count();
	verdict_document(j, &d);
	assert_int_equal(doc_text_out(&d, devnull), 0);
	assert_int_equal(doc_md_out(&d, devnull), 0);
	assert_int_equal(doc_html_out(&d, "t", devnull), 0);
	o = verdict_box_json(&j->run, &j->storage, &j->stability);
	assert_non_null(o);
	json_decref(o);
	assert_int_equal(decision_count() - before, 0);
	doc_free(&d);
	judge_free(j);
	free(j);

	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		before = decision_count();
		assert_int_equal(verdict_render(dir, fmts[f], 0, devnull, note, sizeof(note), err, sizeof(err)), 0);
		assert_int_equal(decision_count() - before, per_judge);
	}
	fclose(devnull);
	dir[strlen(dir) - 4] = '\0';
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static char *box_of_judged(struct judgement *j, int *lines);
static char *flat(char *text);

/* Set PATH (dotted, objects made as needed) in sweep Q's meta of J to X (stolen). */
static void meta_set(struct judgement *j, const char *q, const char *path, json_t *x)
{
	json_t *o = NULL;
	char part[64];

	for (int i = 0; i < j->run.nq; i++)
		if (!strcmp(j->run.q[i].name, q))
			o = j->run.q[i].rep.meta;
	assert_non_null(o);
	for (;;) {
		size_t n = strcspn(path, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, path);
		if (!path[n]) {
			json_object_set_new(o, part, x);
			return;
		}
		if (!json_is_object(json_object_get(o, part)))
			json_object_set_new(o, part, json_object());
		o = json_object_get(o, part);
		path += n + 1;
	}
}

static int q_of(const struct judgement *j, const char *q)
{
	for (int i = 0; i < j->run.nq; i++)
		if (!strcmp(j->run.q[i].name, q))
			return i;
	return -1;
}

/* The classes the answer stands on: on the disagree fixture (blog fastest
 * at 0, sparse at 32, 4 the least worst case), each class gets the
 * override that serves it; a class whose plan was forced is left out and
 * the answer is the other's own, said in the box, unless forced plans are
 * asked for; a weight of 0 leaves a class out, and unequal weights move the
 * answer at a price toward the heavier class. */
static void classes_counted(void **state)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024], *box;
	const char *a;
	int lines;
	json_t *o, *c;
	(void)state;

	assert_non_null(j);
	assert_int_equal(judge_run(F "disagree", j, err, sizeof(err)), 0);
	assert_string_equal(judge_answer(&j->storage), "4");
	assert_int_equal(j->nover, 2);
	assert_string_equal(j->over[0].value, "0");
	assert_int_equal(j->over[0].q, q_of(j, "blog"));
	assert_string_equal(j->over[1].value, "32");
	assert_true(j->over[1].cost_at_answer > 1.1);
	o = verdict_classes_json(j);
	c = json_array_get(o, (size_t)q_of(j, "sparse"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(c, "override"), "value")), "32");
	assert_true(json_is_true(json_object_get(c, "counted")));
	json_decref(o);

	/* blog's bitmap plan forced: sparse alone decides, no override */
	meta_set(j, "blog", "plan.forced", json_true());
	meta_set(j, "blog", "plan.planner_plan", json_string("Seq Scan"));
	assert_int_equal(judge_loaded(j), 0);
	assert_false(j->counted[q_of(j, "blog")]);
	assert_true(j->counted[q_of(j, "sparse")]);
	assert_int_equal((int)j->storage.in.nqueries, 1);
	a = judge_answer(&j->storage);
	assert_non_null(a);
	assert_string_equal(a, judge_answer(&j->own[q_of(j, "sparse")]));
	assert_int_equal(j->nover, 0);
	box = box_of_judged(j, &lines);
	expect(flat(box), "Not counted: blog: the planner runs a Seq Scan for it, so its bitmap plan was forced (--include-forced counts it).");
	free(box);

	/* ... unless forced plans count */
	meta_set(j, "blog", "plan.racing.include_forced", json_true());
	meta_set(j, "sparse", "plan.racing.include_forced", json_true());
	assert_int_equal(judge_loaded(j), 0);
	assert_true(j->counted[q_of(j, "blog")]);
	assert_string_equal(judge_answer(&j->storage), "4");

	/* a weight of 0 leaves sparse out: blog's own answer */
	meta_set(j, "blog", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 1.0, "sparse", 0.0));
	meta_set(j, "sparse", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 1.0, "sparse", 0.0));
	assert_int_equal(judge_loaded(j), 0);
	assert_false(j->counted[q_of(j, "sparse")]);
	assert_string_equal(judge_answer(&j->storage), judge_answer(&j->own[q_of(j, "blog")]));

	/* blog weighs 4 times sparse: the least worst case moves below 4 */
	meta_set(j, "blog", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 4.0, "sparse", 1.0));
	meta_set(j, "sparse", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 4.0, "sparse", 1.0));
	assert_int_equal(judge_loaded(j), 0);
	assert_true(j->counted[q_of(j, "sparse")] && j->counted[q_of(j, "blog")]);
	assert_true(strtol(judge_answer(&j->storage), NULL, 10) < 4);
	/* and sparse weighing 4 times blog moves it above */
	meta_set(j, "blog", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 1.0, "sparse", 4.0));
	meta_set(j, "sparse", "plan.racing.weights", json_pack("{s:f, s:f}", "blog", 1.0, "sparse", 4.0));
	assert_int_equal(judge_loaded(j), 0);
	assert_true(strtol(judge_answer(&j->storage), NULL, 10) > 4);
	judge_free(j);
	free(j);
}

/* The answer's stability in the box and the JSON: a real quick run whose
 * rounds answer 64 or 0 is a close call naming both; a clear one is said
 * to hold on a second run. */
static void stability_said(void **state)
{
	struct run_result v;
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024], *text;
	json_t *o;
	(void)state;

	assert_int_equal(run_result_load(F "quick-issue", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	expect(text, "A close call: in 200 re-draws of these rounds only");
	expect(text, "gave 64 71% of the time and 0 29% of the time");
	free(text);
	run_result_free(&v);

	assert_int_equal(run_result_load(F "disagree", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	expect(text, "A second run should agree: in 200 re-draws of these rounds, 100% gave 4");
	free(text);
	run_result_free(&v);

	assert_non_null(j);
	assert_int_equal(judge_run(F "quick-issue", j, err, sizeof(err)), 0);
	o = verdict_box_json(&j->run, &j->storage, &j->stability);
	assert_false(json_is_true(json_object_get(json_object_get(o, "stability"), "stable")));
	assert_true(json_number_value(json_object_get(json_object_get(o, "stability"), "share")) < 0.8);
	assert_non_null(json_object_get(json_object_get(json_object_get(o, "stability"), "answers"), "0"));
	json_decref(o);
	judge_free(j);
	free(j);
}

/* The unit of the decision is the whole query in records that say so
 * (plan.decision_unit, as sweeps write now): the disagree fixture's
 * answer, 4 on its heap phases, is 0 on its execution times (the index
 * phase, alike at every value, dilutes the sparse query's gain); its
 * records as committed, without the field, keep their verdict. */
/* Real records (tests/fixtures/run/real-quick: make bench-repeat's first
 * run --quick on the project's test machine, 2026-12-07, records only):
 * anyone can recompute the verdict, and a change to the judge shows its
 * effect on them here. */
static void real_quick(void **state)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024];
	(void)state;

	assert_non_null(j);
	assert_int_equal(judge_run(F "real-quick", j, err, sizeof(err)), 0);
	assert_true(j->decided);
	assert_string_equal(judge_answer(&j->storage), "0");
	assert_true(j->storage.d.decided);
	assert_int_equal(j->storage.rounds, 3);
	assert_true(j->stability.stable);
	assert_int_equal(j->storage.nflags, 0);
	judge_free(j);
	free(j);
}

/* Real records of the classes (tests/fixtures/run/real-classes: a run
 * --quick of four classes on the project's test machine, 10M rows,
 * PostgreSQL 15): the planner runs Seq Scans for sparse and blog, which
 * are left out; the answer stands on scattered-1 and runs-16, provisional
 * after 4 rounds and a close call (58% of re-draws agree), so no
 * override is given; each class read the share of the pages it is named
 * for. */
static void real_classes(void **state)
{
	static const char *const name[] = { "scattered-1", "sparse", "runs-16", "blog" };
	static const double share[] = { 0.01, 0.20, 0.01, 1.0 };
	static const int counted[] = { 1, 0, 1, 0 };
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024];
	(void)state;

	assert_non_null(j);
	assert_int_equal(judge_run(F "real-classes", j, err, sizeof(err)), 0);
	assert_int_equal(j->run.nq, 4);
	for (int i = 0; i < 4; i++) {
		double got = class_page_share(&j->run.q[i].rep);

		assert_string_equal(j->run.q[i].name, name[i]);
		assert_int_equal(j->counted[i], counted[i]);
		assert_int_equal(class_forced(&j->run.q[i].rep), !counted[i]);
		if (!(got >= share[i] / 2 && got <= share[i] * 2))
			fail_msg("%s read %.4f of the pages, not within 2x of %.2f", name[i], got, share[i]);
	}
	assert_string_equal(class_planner_scan(&j->run.q[1].rep), "Seq Scan");
	assert_string_equal(class_planner_scan(&j->run.q[0].rep), "Bitmap Heap Scan");
	assert_int_equal((int)j->storage.in.nqueries, 2);
	assert_true(j->decided);
	assert_false(j->storage.d.decided);
	assert_string_equal(judge_answer(&j->storage), "16");
	assert_false(j->stability.stable);
	assert_int_equal(j->nover, 0);
	judge_free(j);
	free(j);
}

/* Real records on an emulated device (tests/fixtures/run/real-emulated:
 * a run --quick of three classes on a FUSE device of 2 ms a read, 32 at
 * once, 10M rows in a tablespace there, PostgreSQL 15): the device's
 * latency is the whole story, so prefetching must win by far: scattered-0.1
 * at least 4x faster at 16 than at 0, every class's own answer 16 or more,
 * the answer decided and stable, and the box names the emulated device. */
static char *box_of(const char *dir, int *lines);
static void real_emulated(void **state)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024];
	int lines;
	char *box;
	(void)state;

	assert_non_null(j);
	assert_int_equal(judge_run(F "real-emulated", j, err, sizeof(err)), 0);
	assert_int_equal(j->run.nq, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(j->counted[i]);
		assert_true(atoi(judge_answer(&j->own[i])) >= 16);
	}
	{
		const struct regret *g = &j->own[q_of(j, "scattered-0.1")];
		double at0 = verdict_median_ms(g, 0, regret_value_index(g, "0"));
		double at16 = verdict_median_ms(g, 0, regret_value_index(g, "16"));

		if (!(at0 >= 4 * at16))
			fail_msg("scattered-0.1: %.1f ms at 0, %.1f ms at 16: not 4x", at0, at16);
	}
	assert_true(j->storage.d.decided);
	assert_true(atoi(judge_answer(&j->storage)) >= 16);
	assert_true(j->stability.stable);
	judge_free(j);
	free(j);
	box = box_of(F "real-emulated", &lines);
	expect(flat(box), "Set effective_io_concurrency = 64 for the tablespace on emulated");
	free(box);
}

/* PostgreSQL 18's worker method and an answer of 0: the caveat names the
 * workers, the CPUs and the sweep that measures io_uring beside it; on 15
 * (no io_method) none, nor with an answer above 0. From real-quick
 * (answer 0) and real-emulated (64), the first class's server settings
 * set as 18's. */
static void worker_caveat(void **state)
{
	static const char *const phrase = "PostgreSQL ran with io_method = worker: above 0 its reads were issued by 3 I/O worker processes, on a machine with";
	for (int with = 0; with < 3; with++) {
		struct judgement *j = calloc(1, sizeof(*j));
		struct doc d = { 0 };
		char err[1024], *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		(void)state;

		assert_non_null(j);
		assert_non_null(f);
		assert_int_equal(judge_run(with == 2 ? F "real-emulated" : F "real-quick", j, err, sizeof(err)), 0);
		assert_string_equal(judge_answer(&j->storage), with == 2 ? "64" : "0");
		if (with) {
			meta_set(j, j->run.q[0].name, "server.settings.io_method", json_string("worker"));
			meta_set(j, j->run.q[0].name, "server.settings.io_workers", json_string("3"));
		}
		verdict_document(j, &d);
		assert_int_equal(doc_text_out(&d, f), 0);
		fclose(f);
		doc_free(&d);
		if (with == 2) {	/* an answer other than 0: no caveat */
			if (strstr(flat(buf), "io_method = worker"))
				fail_msg("the worker caveat with an answer of %s", judge_answer(&j->storage));
		} else if (with) {
			expect(flat(buf), phrase);
			expect(flat(buf), "--set io_method=worker,io_uring measures both here (it restarts the server).");
		} else if (strstr(flat(buf), "io_method = worker"))
			fail_msg("the worker caveat without io_method");
		free(buf);
		judge_free(j);
		free(j);
	}
}

/* A tie said as one, with the rule that chose among the values. */
static void tie_said(void **state)
{
	struct run_result v;
	char err[1024], *text;
	(void)state;

	assert_int_equal(run_result_load(F "partial", &v, err, sizeof(err)), 0);
	text = text_of(&v);
	expect(text, "a tie: 32 and 64 are each within 10% of the fastest there, and 32 is the smallest (neither what the server ran nor the default is among them).");
	free(text);
	run_result_free(&v);
}

static void whole_query_unit(void **state)
{
	struct run_result v;
	struct regret heap, whole;
	char err[1024];
	(void)state;

	assert_int_equal(run_result_load(F "disagree", &v, err, sizeof(err)), 0);
	assert_false(regret_whole_query(&v.q[0].rep));
	assert_int_equal(judge_storage(&v, &heap, NULL, err, sizeof(err)), 0);
	assert_string_equal(judge_answer(&heap), "4");
	for (int i = 0; i < v.nq; i++)
		json_object_set_new(json_object_get(v.q[i].rep.meta, "plan"), "decision_unit", json_string("execution"));
	assert_true(regret_whole_query(&v.q[0].rep));
	assert_int_equal(judge_storage(&v, &whole, NULL, err, sizeof(err)), 0);
	assert_string_equal(judge_answer(&whole), "0");
	/* 0's regret in sparse: 1.46x of the whole query where its heap phase
	 * was over 2x */
	assert_true(whole.d.cell[1][0].est > 1.4 && whole.d.cell[1][0].est < 1.5);
	assert_true(heap.d.cell[1][0].est > 2.0);
	regret_free(&heap);
	regret_free(&whole);
	run_result_free(&v);
}

/* The text of J's box: the lines between "== The verdict" and the rule
 * that closes it, wrapped as printed (78 columns), and their count in
 * *LINES. */
static char *box_of_judged(struct judgement *j, int *lines)
{
	struct doc d = { 0 };
	char *buf = NULL, *start, *end;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_true(j->decided);
	verdict_document(j, &d);
	assert_int_equal(doc_text_out(&d, f), 0);
	fclose(f);
	doc_free(&d);
	start = strstr(buf, "\n== The verdict ==");
	assert_non_null(start);
	start = strchr(start + 1, '\n') + 1;
	end = strstr(start, "\n=====");
	assert_non_null(end);
	end[1] = '\0';
	memmove(buf, start, strlen(start) + 1);
	*lines = 0;
	for (char *p = buf; *p; p++)
		*lines += *p == '\n';
	for (char *p = buf, *nl; *p; p = nl + 1) {	/* every line within 80 columns */
		nl = strchr(p, '\n');
		if (nl - p > 80)
			fail_msg("%s: a box line of %d columns: %.*s", j->run.dir, (int)(nl - p), (int)(nl - p), p);
	}
	return buf;
}

/* The same of run folder DIR. */
static char *box_of(const char *dir, int *lines)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024], *box;

	assert_non_null(j);
	assert_int_equal(judge_run(dir, j, err, sizeof(err)), 0);
	box = box_of_judged(j, lines);
	judge_free(j);
	free(j);
	return box;
}

/* TEXT with its lines joined (a copy, kept to the next call), for phrases that may wrap. */
static char *flat(char *text)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return buf;
}

/* The box is a DBA's: at most 12 lines on every run fixture, no
 * statistical term (they are defined below it), the value against the
 * setting the server ran and the version's default, and while the answer
 * is provisional no order to set it and no ALTER line. */
static void box_for_a_dba(void **state)
{
	static const char *const fixtures[] = { "disagree", "disturbed", "flagged-out", "flagged-value", "joined",
						"noisy", "partial", "quick-issue", "readahead", "real-classes" };
	static const char *const banned[] = { "regret", "interval", "bound", "Student", "degrees of freedom", "paired",
					      "regime", "(1.00-", "left blog", "left sparse", "one-sided" };
	char dir[256], *box;
	int lines;
	(void)state;

	for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		snprintf(dir, sizeof(dir), F "%s", fixtures[i]);
		box = box_of(dir, &lines);
		if (lines > 12)
			fail_msg("%s: the box has %d lines, more than 12:\n%s", dir, lines, box);
		for (size_t k = 0; k < sizeof(banned) / sizeof(banned[0]); k++)
			if (strcasestr(box, banned[k]))
				fail_msg("%s: the box says \"%s\":\n%s", dir, banned[k], box);
		expect(box, "How sure: ");
		expect(box, strcmp(fixtures[i], "real-classes") ? "Why (heap-phase medians, as in the table below): " :
			    "Why (whole-query medians, as in the table below): ");
		expect(flat(box), "PostgreSQL 15's default is 1");
		if (strstr(box, "No decision yet: leading ")) {
			assert_null(strstr(box, "Set "));
			assert_null(strstr(box, "ALTER"));
			expect(box, "; run longer (--max-runs ");
		} else {
			expect(box, "Set effective_io_concurrency = ");
			expect(box, "ALTER TABLESPACE <your tablespace on this device>\n  SET (effective_io_concurrency = ");
			expect(box, "Apply it to your tablespace on this device (here pg_default held everything):\n");
		}
		free(box);
	}
	/* provisional: the noisy sweep after 6 rounds */
	box = box_of(F "noisy", &lines);
	expect(flat(box), "No decision yet: leading 0; run longer (--max-runs 12).");
	expect(flat(box), "the records do not say what the server ran");
	expect(flat(box), "a second run should lead with it too");
	free(box);
	/* the classes not counted, said in a line */
	box = box_of(F "real-classes", &lines);
	expect(flat(box), "Not counted: sparse and blog: the planner runs a Seq Scan for each, so their bitmap plans were forced (--include-forced counts them).");
	free(box);
	box = box_of(F "quick-issue", &lines);
	expect(box, "No decision yet: leading 64;");
	expect(flat(box), "a close call, a second run may well answer otherwise (0 came next).");
	free(box);
	/* decided, with the setting the server ran (200) and the default (1) */
	box = box_of(F "disagree", &lines);
	expect(box, "Set effective_io_concurrency = 4 for the tablespace on vda, down from 200,\nwhat the server ran; PostgreSQL 15's default is 1.");
	expect(box, "ALTER TABLESPACE <your tablespace on this device>\n  SET (effective_io_concurrency = 4);");
	expect(box, "decided after 6 rounds;");
	free(box);
}

/* The JSON verdict says whose it is and what it replaces: the device, the
 * host, the server's version, the setting the server ran (null when the
 * records do not say) and the version's default; no ALTER line while the
 * answer is provisional. */
static void json_whose(void **state)
{
	struct judgement *j = calloc(1, sizeof(*j));
	char err[1024];
	json_t *o;
	(void)state;

	assert_non_null(j);
	assert_int_equal(judge_run(F "disagree", j, err, sizeof(err)), 0);
	o = verdict_box_json(&j->run, &j->storage, &j->stability);
	assert_string_equal(json_string_value(json_object_get(o, "device")), "vda");
	assert_string_equal(json_string_value(json_object_get(o, "host")), "bench1");
	assert_string_equal(json_string_value(json_object_get(o, "server_version")), "15.18 (Debian 15.18-0+deb12u1)");
	assert_int_equal(json_integer_value(json_object_get(o, "current_setting")), 200);
	assert_int_equal(json_integer_value(json_object_get(o, "default")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "alter")),
			    "ALTER TABLESPACE pg_default SET (effective_io_concurrency = 4);");
	json_decref(o);
	judge_free(j);
	memset(j, 0, sizeof(*j));
	assert_int_equal(judge_run(F "noisy", j, err, sizeof(err)), 0);
	o = verdict_box_json(&j->run, &j->storage, &j->stability);
	assert_string_equal(json_string_value(json_object_get(o, "state")), "provisional");
	assert_true(json_is_null(json_object_get(o, "alter")));
	assert_true(json_is_null(json_object_get(o, "current_setting")));
	assert_int_equal(json_integer_value(json_object_get(o, "default")), 1);
	json_decref(o);
	judge_free(j);
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disagree),
		cmocka_unit_test(knee_by_the_rule),
		cmocka_unit_test(noisy),
		cmocka_unit_test(page_reporting),
		cmocka_unit_test(emulated),
		cmocka_unit_test(bound),
		cmocka_unit_test(disturbed),
		cmocka_unit_test(flagged_out),
		cmocka_unit_test(flagged_value),
		cmocka_unit_test(quick_issue),
		cmocka_unit_test(racing),
		cmocka_unit_test(joined),
		cmocka_unit_test(refused_and_missing),
		cmocka_unit_test(decided_once),
		cmocka_unit_test(stability_said),
		cmocka_unit_test(whole_query_unit),
		cmocka_unit_test(tie_said),
		cmocka_unit_test(real_quick),
		cmocka_unit_test(real_classes),
		cmocka_unit_test(real_emulated),
		cmocka_unit_test(worker_caveat),
		cmocka_unit_test(box_for_a_dba),
		cmocka_unit_test(classes_counted),
		cmocka_unit_test(json_whose),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
