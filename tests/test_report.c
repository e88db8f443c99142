/*
 * test_report: report over hand-written sweep folders in tests/fixtures/sweep
 * (run from the repository root): dense (0 fastest, requests shrink, CPU-
 * bound), sparse (16 fastest, 4 within 5%), grid2 (io_method x value on 18),
 * torn (a torn last line), notsweep and empty (refused); dense lacks
 * plan.grid_order and grid2 lists its grid in another order than it. Checks
 * grouping, medians, speedups, the recommendation, the pre-13 conversion, the
 * words of the explanation, summary.csv, report.md, JSON and plot.dat.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/report/report.h"
#include "bench/record/semantics.h"

#define FIXTURES "tests/fixtures/sweep/"

static int setup(void **state);
static char *explanation(const struct sweep_result *r);
static int teardown(void **state);
#define EPS 1e-9

struct group_case {
	const char *values[2];                /* grid order of the settings */
	size_t runs;
	double median, min, max, vs0, vs1, queue, kib, cpu;
};

static const struct load_case {
	const char *dir;
	size_t nsettings, ngroups, nseries;
	const char *fastest[2], *recommended[2];
	int torn;
	struct group_case g[8];
} load_cases[] = {
	{ "dense", 1, 4, 1, { "0" }, { "0" }, 0, {
		{ { "0" },  3, 16300, 16100, 16500, 1, 30100.0 / 16300, 1.05, 3620, 0.93 },
		{ { "1" },  3, 30100, 29800, 30500, 16300.0 / 30100, 1, 1.02, 14.5, 0.99 },
		{ { "2" },  3, 22900, 22700, 23300, 16300.0 / 22900, 30100.0 / 22900, 1.05, 16, 0.98 },
		{ { "16" }, 3, 23900, 23600, 24000, 16300.0 / 23900, 30100.0 / 23900, 1.08, 17.5, 0.99 } } },
	{ "sparse", 1, 5, 1, { "16" }, { "4" }, 0, {
		{ { "0" },  2, 6550, 6500, 6600, 1, 10650.0 / 6550, 1.0, 64, 0.42 },
		{ { "1" },  2, 10650, 10600, 10700, 6550.0 / 10650, 1, 1.1, 8.5, 0.35 },
		{ { "4" },  2, 4075, 4050, 4100, 6550.0 / 4075, 10650.0 / 4075, 1.9, 8.5, 0.55 },
		{ { "16" }, 2, 3925, 3900, 3950, 6550.0 / 3925, 10650.0 / 3925, 2.6, 8.5, 0.58 },
		{ { "64" }, 2, 4010, 4000, 4020, 6550.0 / 4010, 10650.0 / 4010, 6.5, 8.5, 0.57 } } },
	{ "grid2", 2, 8, 2, { "16", "64" }, { "16", "16" }, 0, {
		{ { "sync", "0" },    2, 8200, 8000, 8400, 1, 7100.0 / 8200, 1.0, 128, 0.4 },
		{ { "sync", "1" },    2, 7100, 7000, 7200, 8200.0 / 7100, 1, 1.0, 128, 0.4 },
		{ { "sync", "16" },   2, 4500, 4400, 4600, 8200.0 / 4500, 7100.0 / 4500, 2.4, 20, 0.6 },
		{ { "sync", "64" },   2, 4600, 4500, 4700, 8200.0 / 4600, 7100.0 / 4600, 5.0, 20, 0.6 },
		{ { "worker", "0" },  2, 8900, 8800, 9000, 1, 9000.0 / 8900, 1.0, 128, 0.3 },
		{ { "worker", "1" },  2, 9000, 8900, 9100, 8900.0 / 9000, 1, 1.0, 128, 0.3 },
		{ { "worker", "16" }, 2, 5100, 5000, 5200, 8900.0 / 5100, 9000.0 / 5100, 1.2, 20, 0.5 },
		{ { "worker", "64" }, 2, 4980, 4950, 5010, 8900.0 / 4980, 9000.0 / 4980, 1.3, 20, 0.5 } } },
	{ "torn", 1, 2, 1, { "0" }, { "0" }, 1, {
		{ { "0" }, 1, 16300, 16300, 16300, 1, 30100.0 / 16300, 1.05, 3620, 0.93 },
		{ { "1" }, 1, 30100, 30100, 30100, 16300.0 / 30100, 1, 1.02, 14.5, 0.99 } } },
};

static void load(const char *name, struct sweep_result *r)
{
	char dir[PATH_MAX], err[1024] = "";
	int ret;

	snprintf(dir, sizeof(dir), FIXTURES "%s", name);
	ret = result_load(dir, r, err, sizeof(err));
	if (ret != 0)
		fail_msg("%s: %d %s", name, ret, err);
}

static void check_group(const struct sweep_result *r, const struct result_group *g,
			const struct group_case *c)
{
	for (size_t s = 0; s < r->nsettings; s++)
		assert_string_equal(result_value(r, g, s), c->values[s]);
	assert_int_equal(g->runs, c->runs);
	assert_float_equal(g->median_ms, c->median, EPS);
	assert_float_equal(g->min_ms, c->min, EPS);
	assert_float_equal(g->max_ms, c->max, EPS);
	assert_float_equal(g->speedup_vs_0, c->vs0, EPS);
	assert_float_equal(g->speedup_vs_1, c->vs1, EPS);
	assert_float_equal(g->queue_depth, c->queue, EPS);
	assert_float_equal(g->avg_req_kib, c->kib, EPS);
	assert_float_equal(g->cpu_share, c->cpu, EPS);
}

static void test_load_groups(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(load_cases) / sizeof(load_cases[0]); i++) {
		const struct load_case *c = &load_cases[i];
		struct sweep_result r;

		load(c->dir, &r);
		assert_int_equal(r.nsettings, c->nsettings);
		assert_string_equal(r.settings[r.swept].name, "effective_io_concurrency");
		assert_int_equal(r.ngroups, c->ngroups);
		assert_int_equal(r.nseries, c->nseries);
		assert_int_equal(r.torn, c->torn);
		for (size_t g = 0; g < r.ngroups; g++)
			check_group(&r, &r.groups[g], &c->g[g]);
		for (size_t s = 0; s < r.nseries; s++) {
			assert_string_equal(result_value(&r, &r.groups[r.series[s].fastest], r.swept),
					    c->fastest[s]);
			assert_string_equal(result_value(&r, &r.groups[r.series[s].recommended], r.swept),
					    c->recommended[s]);
		}
		result_free(&r);
	}
}

/* The heap phase, the rule and "separated" on fixtures made for them. */
static const struct {
	const char *dir, *fastest, *recommended;
	int recommends, separated, all_overlap;
	size_t nindist;
} rule_cases[] = {
	{ "clear", "16", "16", 1, 1, 0, 0 },     /* one value clearly best */
	{ "indist", "16", "4", 1, 1, 0, 2 },     /* 4, 16 and 64 alike; 0 and 1 slower */
	{ "noisy", "4", "4", 0, 0, 1, 0 },       /* nothing told apart: no value out */
	{ "alike", "4", "0", 1, 1, 0, 4 },       /* every value within 1%: 0 shown within the margin, decided */
	{ "sparse", "16", "4", 1, 1, 0, 2 },     /* 2 tight runs: 4 is within 10% of 16, 0 and 1 out */
	{ "torn", "0", "0", 0, 0, 1, 0 },        /* 1 run: no recommendation */
};

static void test_rule(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rule_cases) / sizeof(rule_cases[0]); i++) {
		struct sweep_result r;
		const struct result_series *se;

		load(rule_cases[i].dir, &r);
		se = &r.series[0];
		assert_string_equal(result_value(&r, &r.groups[se->fastest], r.swept), rule_cases[i].fastest);
		assert_string_equal(result_value(&r, &r.groups[se->recommended], r.swept),
				    rule_cases[i].recommended);
		assert_int_equal(se->recommends, rule_cases[i].recommends);
		assert_int_equal(se->separated, rule_cases[i].separated);
		assert_int_equal(result_separated(&r), rule_cases[i].separated);
		assert_int_equal(se->all_overlap, rule_cases[i].all_overlap);
		assert_int_equal(se->nindist, rule_cases[i].nindist);
		result_free(&r);
	}
}

/* Heap-phase records: the measure is the heap phase, split figures are used. */
static void test_heap_measure(void **state)
{
	struct sweep_result r;
	const struct result_group *g;

	(void)state;
	load("clear", &r);
	assert_int_equal(r.heap_phase, 1);
	assert_int_equal(r.split, 1);
	g = &r.groups[3];                      /* 16 */
	assert_string_equal(result_value(&r, g, r.swept), "16");
	assert_int_equal(g->runs, 6);
	assert_true(g->median_ms > 1980 && g->median_ms < 2020);
	assert_true(g->exec_ms > g->median_ms + 3000);      /* index phase added */
	assert_float_equal(g->heap_queue_depth, 2.6, EPS);
	assert_float_equal(g->heap_cpu_share, 0.7, EPS);
	assert_float_equal(g->queue_depth, 1.5, EPS);       /* the whole query's, apart */
	assert_float_equal(g->ci.coverage, 0.96875, 1e-12);
	assert_true(g->ci.lo <= g->median_ms && g->median_ms <= g->ci.hi);
	assert_true(g->ci_vs_0.lo > 2.0 && g->ci_vs_0.hi < 2.3);
	/* old records: the execution time, not split */
	result_free(&r);
	load("dense", &r);
	assert_int_equal(r.heap_phase, 0);
	assert_int_equal(r.split, 0);
	result_free(&r);
}

/* A record whose plan differed from its reference is left out, and said so. */
static void test_mismatch_left_out(void **state)
{
	const char *dir = *state;
	char src[PATH_MAX], dst[PATH_MAX], err[1024], cmd[3 * PATH_MAX];
	struct sweep_result r;
	json_t *rec;
	FILE *f;

	snprintf(src, sizeof(src), FIXTURES "clear");
	snprintf(cmd, sizeof(cmd), "cp %s/meta.json %s/trials.jsonl %s/", src, src, dir);
	assert_int_equal(system(cmd), 0);
	rec = json_pack("{s:s, s:i, s:{s:s}, s:s, s:{s:f}, s:{s:b}}", "trial_key", "round=7 x",
			"round", 7, "settings", "effective_io_concurrency", "16", "query", "sparse",
			"explain", "execution_ms", 1.0, "plan_check", "ok", 0);
	snprintf(dst, sizeof(dst), "%s/trials.jsonl", dir);
	f = fopen(dst, "a");
	assert_non_null(f);
	assert_int_equal(json_dumpf(rec, f, JSON_COMPACT), 0);
	fputc('\n', f);
	fclose(f);
	json_decref(rec);
	assert_int_equal(result_load(dir, &r, err, sizeof(err)), 0);
	assert_int_equal(r.mismatched, 1);
	assert_int_equal(r.groups[3].runs, 6);
	assert_non_null(strstr(r.note, "1 trial(s) left out: their plan read other blocks"));
	result_free(&r);
}

/* A copy of fixture NAME in DIR, each record passed through EDIT first. */
static void copy_fixture(const char *dir, const char *name, void (*edit)(json_t *rec))
{
	char src[PATH_MAX], dst[PATH_MAX], line[1 << 16], cmd[3 * PATH_MAX];
	FILE *in, *out;

	snprintf(cmd, sizeof(cmd), "cp " FIXTURES "%s/meta.json %s/", name, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(src, sizeof(src), FIXTURES "%s/trials.jsonl", name);
	snprintf(dst, sizeof(dst), "%s/trials.jsonl", dir);
	assert_non_null(in = fopen(src, "r"));
	assert_non_null(out = fopen(dst, "w"));
	while (fgets(line, sizeof(line), in)) {
		json_t *rec = json_loads(line, 0, NULL);

		assert_non_null(rec);
		edit(rec);
		assert_int_equal(json_dumpf(rec, out, JSON_COMPACT), 0);
		fputc('\n', out);
		json_decref(rec);
	}
	fclose(in);
	fclose(out);
}

static void scale_number(json_t *obj, const char *key, double by)
{
	json_t *v = json_object_get(obj, key);

	if (v)
		json_object_set_new(obj, key, json_real(json_number_value(v) * by));
}

static void tenth_in_flight(json_t *rec)
{
	json_t *heap = json_object_get(json_object_get(rec, "phases"), "heap");

	scale_number(json_object_get(heap, "aios"), "in_flight_mean", 0.1);
	scale_number(json_object_get(heap, "disk"), "avg_queue_depth", 0.1);
}

/* Under io_uring only reads past the first 4 in flight go to the kernel's
 * io-wq threads: uringaio's records with a tenth of the reads in flight and
 * of the device's queue (3.9 against 0.51 at 64, still more than twice
 * it) say nothing of those threads. */
static void test_uring_few_in_flight(void **state)
{
	const char *dir = *state;
	char err[1024];
	struct sweep_result r;
	char *text;

	copy_fixture(dir, "uringaio", tenth_in_flight);
	assert_int_equal(result_load(dir, &r, err, sizeof(err)), 0);
	text = explanation(&r);
	assert_null(strstr(text, "were in flight inside PostgreSQL but"));
	assert_null(strstr(text, "io-wq"));
	assert_non_null(strstr(text, "it was bound by the device"));
	free(text);
	result_free(&r);
}

/* sparse's reads at 64 each ten times as long at the device (1.2 ms against
 * 0.12 at 0): still more in flight and faster, but not "about as long". */
static void slow_reads_at_64(json_t *rec)
{
	json_t *set = json_object_get(rec, "settings");

	if (!strcmp(json_string_value(json_object_get(set, "effective_io_concurrency")), "64"))
		scale_number(json_object_get(rec, "disk"), "read_await_ms", 10);
}

static void test_hidden_slower_reads(void **state)
{
	const char *dir = *state;
	char err[1024];
	struct sweep_result r;
	char *text;

	copy_fixture(dir, "sparse", slow_reads_at_64);
	assert_int_equal(result_load(dir, &r, err, sizeof(err)), 0);
	text = explanation(&r);
	assert_null(strstr(text, "about as long"));
	if (!strstr(text, "against 1.00 at 0, and though each read took longer there (1.20 ms against 0.12 ms, waiting in the device's queue), the heap phase took 1.63x less time."))
		fail_msg("no slower reads said in:\n%s", text);
	free(text);
	result_free(&r);
}

static void test_dense_figures(void **state)
{
	struct sweep_result r;

	(void)state;
	load("dense", &r);
	assert_float_equal(r.groups[0].read_mib, 6100, 1e-6);
	assert_float_equal(r.groups[0].exact_blocks, 47585, 0);
	assert_float_equal(r.groups[0].lossy_blocks, 394893, 0);
	assert_float_equal(r.groups[0].rows, 10101941, 0);
	assert_float_equal(r.groups[0].io_read_ms, 9100, 0);
	assert_int_equal(r.version_num, 150018);
	assert_int_equal(r.skipped, 0);
	result_free(&r);
}

static const struct { int old; long now; } convert_cases[] = {
	{ 0, 0 }, { 1, 1 }, { 2, 3 }, { 4, 8 }, { 8, 22 }, { 10, 29 }, { 16, 54 }, { 20, 72 },
	{ 32, 130 }, { 100, 519 }, { 200, 1176 }, { 1000, 7485 }, { -1, -1 }, { 1001, -1 },
};

static void test_convert_pre13(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(convert_cases) / sizeof(convert_cases[0]); i++)
		assert_int_equal(semantics_convert_pre13(convert_cases[i].old), convert_cases[i].now);
	assert_true(semantics_convert_pre13(174) <= 1000);      /* an old value >= 175 exceeds 1000 */
	assert_true(semantics_convert_pre13(175) > 1000);
}

/* The explanation joined into one string (caller frees). */
static char *explanation(const struct sweep_result *r)
{
	json_t *p = report_explain(r), *v;
	char *all = strdup("");
	size_t i;

	assert_non_null(p);
	json_array_foreach(p, i, v) {
		char *next;

		assert_true(asprintf(&next, "%s%s\n", all, json_string_value(v)) > 0);
		free(all);
		all = next;
	}
	json_decref(p);
	return all;
}

static const struct { const char *dir, *phrase; } phrases[] = {
	/* records without per-phase times: the execution time, said so */
	{ "dense", "the execution time (the records hold no per-phase times) was shortest at effective_io_concurrency = 0: 16.3 s (75% interval 16.1-16.5 s, 3 runs)" },
	{ "dense", "Against 1, the default before 18 (30.1 s), 1.85x." },
	{ "dense", "Recommended: effective_io_concurrency = 0, the smallest value within 10% of the fastest" },
	{ "dense", "1, 2 and 16 are slower by more than the margin" },
	{ "dense", "hold the median with 75% confidence only, not 95%: take this as provisional" },
	{ "dense", "could not be split by phase (the records have no samples taken during the query)" },
	{ "dense", "Over the whole query the backend used 93-99% of a core at every value: it was bound by CPU" },
	{ "dense", "barely had two reads in flight at once" },
	{ "dense", "3.5 MiB on average at 0 and 14-18 KiB with prefetching" },
	{ "dense", "one posix_fadvise(WILLNEED) per block broke it up into small requests" },
	{ "dense", "mostly lossy (47585 exact and 394893 lossy heap blocks): work_mem (4MB)" },
	{ "dense", "read_ahead_kb is 8192, far above the usual default of 128" },
	{ "dense", "the value is the prefetch distance in pages" },
	{ "dense", "20, 100 and 1000 on 9.6 are distances of about 72, 519 and 7485 pages" },
	{ "sparse", "Against 0, no prefetching (6.55 s), that is 1.67x. Against 1, the default before 18 (10.7 s), 2.71x." },
	{ "sparse", "went from 1.00 at 0 to 6.50 at 64" },
	{ "sparse", "it was bound by the device" },
	{ "sparse", "kept more of them in flight, and here that was faster" },
	{ "grid2", "Query sparse with io_method=sync: the execution time" },
	{ "grid2", "64 is within the margin of 16; 0 and 1 are slower by more than the margin" },
	{ "grid2", "Recommended: effective_io_concurrency = 16, the smallest value within 10% of the fastest, 64 (regret 1.02x, its upper bound 1.07x" },
	{ "grid2", "io_method, varied in this sweep (sync, worker)" },
	{ "grid2", "At 0 the requests were no larger than io_combine_limit (128kB): the read stream's combined reads of up to 128 KiB, with no sign of the kernel's readahead (read_ahead_kb 8192)" },
	{ "grid2", "Across io_method: the fastest was io_method=sync with effective_io_concurrency = 16, 4.50 s." },
	{ "grid2", "io_method=worker's fastest, 4.98 s at 64, took 1.11x as long (95% interval 1.08-1.14x): slower." },
	{ "grid2", "Recommended: io_method=sync, with effective_io_concurrency = 16." },
	{ "clearaio", "Inside PostgreSQL, pg_aios counted 0.0 I/Os in flight on average at 0 and 38.5 at 64 (the device's queue 5.10 there)." },
	{ "clearaio", "(at 64) and waited for reads the rest of the time: it was bound by the device." },
	{ "workeraio", "At 64, 38.5 reads were in flight inside PostgreSQL but 5.10 at the device: most waited inside the server for one of its 3 I/O workers (io_workers), each of which performs one read at a time, not for the device." },
	{ "workeraio", "(at 64) and waited for reads the rest of the time. Its wait" },
	{ "uringaio", "(at 64) and waited for reads the rest of the time. Its wait" },
	{ "uringaio", "At 64, 38.5 reads were in flight inside PostgreSQL but 5.10 at the device: past the first 4 in flight PostgreSQL 18 hands each buffered read to the kernel's io-wq threads (IOSQE_ASYNC), which perform one read at a time each, blocking, at most 8 of them here (the ring's 64 entries, io_max_concurrency 64 rounded up to a power of two, or 4 per CPU, whichever is smaller); the others waited for one of those threads, or had finished and waited for the backend to reap them, not for the device." },
	{ "stall", "One run at 4 took 21.0 s, 8.0x the median of its value (2.61 s), and the device's average wait per read in it was 9.5 ms against 0.20 ms in the value's other runs: that run's time went at the device, not in PostgreSQL." },
	{ "stallfirst", "It was the sweep's first trial: if something below this machine kept what that trial read (the check for caches below found such a cache), every later trial read faster than the device alone would" },
	{ "grid2own", "io_method=worker's fastest, 4.55 s at 16, took 1.01x as long (95% interval 0.97-1.06x): indistinguishable." },
	{ "grid2own", "Recommended: io_method=worker, with effective_io_concurrency = 16: the server's own setting (or the default), indistinguishable from the fastest" },
	{ "torn", "With one run per value there is no spread to judge the differences by: this is no recommendation" },
	{ "torn", "ignored a partial last line" },
	/* heap phase and split samples; 6 runs, so 95% intervals */
	{ "clear", "the heap phase, the part of the bitmap heap scan effective_io_concurrency acts on, was fastest at effective_io_concurrency = 16: 2.01 s (97% interval 2.00-2.02 s, 6 runs)" },
	{ "clear", "Against 0, no prefetching (4.29 s), that is 2.13x (95% interval" },
	{ "clear", "The index phase before it (the bitmap index scans) took 3.24-3.39 s" },
	{ "clear", "Recommended: effective_io_concurrency = 16, the smallest value within 10% of the fastest (regret 1.00x, its upper bound 1.00x, paired within rounds). 0, 1, 4 and 64 are slower by more than the margin (the lower bound of the regret is above 1.10x)." },
	{ "clear", "In the heap phase the backend used at most 72% of a core (at 64)" },
	{ "clear", "The device's average queue depth went from 0.80 at 1 to 5.10 at 64." },
	{ "clear", "At 0 the device read 5531 MiB, against at most 696 MiB with prefetching" },
	{ "clear", "In the index phase the device read 2141-2141 MiB in requests of 512 KiB" },
	{ "indist", "Recommended: effective_io_concurrency = 4, the smallest value within 10% of the fastest, 16 (regret 1.04x, its upper bound 1.07x, paired within rounds). 4 and 64 are within the margin of 16; 0 and 1 are slower by more than the margin" },
	{ "indist", "0 and 1 are slower by more than the margin (the lower bound of the regret is above 1.10x)." },
	{ "noisy", "No value is shown slower than the fastest by more than 10%: paired within rounds, every value's regret has a lower bound within the margin" },
	{ "alike", "Recommended: effective_io_concurrency = 0, the smallest value within 10% of the fastest, 4 (regret 1.01x, its upper bound 1.01x, paired within rounds). 0, 1, 16 and 64 are within the margin of 4." },
	{ "noisy", "In the heap phase the backend used 95-95% of a core at every value: it was bound by CPU" },
};

static void test_explanation(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++) {
		struct sweep_result r;
		char *text;

		load(phrases[i].dir, &r);
		text = explanation(&r);
		if (!strstr(text, phrases[i].phrase))
			fail_msg("%s: missing \"%s\" in:\n%s", phrases[i].dir, phrases[i].phrase, text);
		free(text);
		result_free(&r);
	}
}

/* What must not be said: on 18 with combined reads at 0, readahead did not
 * read ahead; a single series has nothing to compare across. */
static void test_not_said(void **state)
{
	static const struct { const char *dir, *phrase; } absent[] = {
		{ "grid2", "At 0 only the kernel's readahead reads ahead" },
		{ "sparse", "Across " },
		{ "dense", "no larger than io_combine_limit" },
		{ "clear", "went at the device" },
		{ "alike", "No value is shown slower" },
		{ "stall", "It was the sweep's first trial" },
		{ "clearaio", "inside the server" },
		{ "uringaio", "inside the server" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		struct sweep_result r;
		char *text;

		load(absent[i].dir, &r);
		text = explanation(&r);
		if (strstr(text, absent[i].phrase))
			fail_msg("%s: \"%s\" should not be said in:\n%s", absent[i].dir, absent[i].phrase, text);
		free(text);
		result_free(&r);
	}
}

/* The pg_aios column is there when the records hold it (18), not else. */
static void test_aio_column(void **state)
{
	static const struct { const char *dir; int has; } cases[] = { { "clearaio", 1 }, { "clear", 0 } };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct sweep_result r;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		load(cases[i].dir, &r);
		assert_int_equal(report_render(&r, REPORT_TEXT, f), 0);
		fclose(f);
		assert_int_equal(strstr(buf, "pg in flight") != NULL, cases[i].has);
		free(buf);
		result_free(&r);
	}
}

static void test_pre13_semantics(void **state)
{
	struct sweep_result r;
	char *text;

	(void)state;
	load("dense", &r);
	r.version_num = 90624;
	text = explanation(&r);
	assert_non_null(strstr(text, "counts \"spindles\""));
	assert_non_null(strstr(text, "0 -> 0, 1 -> 1, 2 -> 3, 16 -> 54 pages"));
	free(text);
	result_free(&r);
}

static const struct { const char *dir; int ret; const char *words[2]; } refused[] = {
	{ "notsweep", -EINVAL, { "'probe', not of a sweep", "\"command\": \"sweep\"" } },
	{ "empty", -EINVAL, { "no finished trials", "0 record(s)" } },
	{ "missing", -ENOENT, { "no meta.json", "eicbench sweep" } },
};

static void test_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char dir[PATH_MAX], err[1024] = "";
		struct sweep_result r;

		snprintf(dir, sizeof(dir), FIXTURES "%s", refused[i].dir);
		assert_int_equal(result_load(dir, &r, err, sizeof(err)), refused[i].ret);
		for (int w = 0; w < 2; w++)
			if (!strstr(err, refused[i].words[w]))
				fail_msg("%s: \"%s\" not in \"%s\"", refused[i].dir, refused[i].words[w], err);
		result_free(&r);
	}
}

/* ---- files, in a temporary folder ---- */

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	char *dir = strdup("/tmp/test_report.XXXXXX");

	if (!dir || !mkdtemp(dir))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	nftw(*state, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(*state);
	return 0;
}

static char *slurp(const char *dir, const char *file)
{
	char path[PATH_MAX], *buf = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	if (getdelim(&buf, &cap, '\0', f) < 0)
		buf = strdup("");
	fclose(f);
	return buf;
}

/* What the files written for grid2 must hold. */
static const struct { const char *file, *text; } written[] = {
	{ REPORT_SUMMARY_CSV, "query,io_method,effective_io_concurrency,runs,measure,median_ms,ci_lo,ci_hi,min_ms,max_ms,"
	  "speedup_vs_0,speedup_vs_0_ci_lo,speedup_vs_0_ci_hi,speedup_vs_1,speedup_vs_1_ci_lo,speedup_vs_1_ci_hi,"
	  "vs_fastest,vs_fastest_ci_lo,vs_fastest_ci_hi,index_ms,exec_ms,exec_min_ms,exec_max_ms,index_share,other_ms,"
	  "heap_io_read_ms,heap_avg_queue_depth,heap_avg_read_kib,heap_backend_cpu_pct,heap_aio_in_flight,heap_read_mib,"
	  "index_read_mib,index_avg_read_kib,index_backend_cpu_pct,io_read_ms,avg_queue_depth,avg_read_kib,"
	  "backend_cpu_pct,read_mib,exact_heap_blocks,lossy_heap_blocks,rows,ci_coverage,fastest,recommended,"
	  "within_margin,regret,regret_lo,regret_hi\n" },
	{ REPORT_SUMMARY_CSV, "\nsparse,sync,0,2,execution,8200,8000,8400,8000,8400,1," },
	{ REPORT_SUMMARY_CSV, "\nsparse,sync,16,2,execution,4500,4400,4600,4400,4600," },
	{ REPORT_SUMMARY_CSV, ",90112,0,100213,0.5,true,true,true,1,1,1\n" },
	{ REPORT_SUMMARY_CSV, "\nsparse,worker,64,2,execution,4980,4950,5010," },
	{ REPORT_MD, "| io_method | effective_io_concurrency | runs | exec ms |" },
	{ REPORT_MD, "|    worker |                       64 |    2 |  4980.0 | 4950.0-5010.0 |" },
	{ REPORT_MD, "- Device: vda, not rotational, scheduler mq-deadline" },
	{ REPORT_MD, "exec ms: the median execution time" },
	{ REPORT_MD, "## What it means" },
	{ REPORT_PLOT_DAT, "\n0 \"0\"\n1 \"1\"\n2 \"16\"\n3 \"64\"\n" },
	{ REPORT_PLOT_DAT, "\n\n\nposition value \"io_method=sync\" lo_s hi_s\n0 \"0\" 8.200000 8.000000 8.400000\n" },
	{ REPORT_PLOT_DAT, "\"io_method=worker\" lo_s hi_s\n0 \"0\" 8.900000" },
	{ REPORT_PLOT_DAT, "3 \"64\" 4.980000 4.950000 5.010000\n" },
};

static void test_files(void **state)
{
	const char *dir = *state;
	char err[1024] = "", msg[1024] = "";
	struct sweep_result r;
	int ret;

	setenv("EICBENCH_SCRIPTS", "scripts", 1);
	load("grid2", &r);
	assert_int_equal(report_write_files(&r, dir, err, sizeof(err)), 0);
	ret = report_plot(&r, dir, msg, sizeof(msg));
	if (ret != 0 && ret != 1)           /* 1: no gnuplot here, plot.dat still written */
		fail_msg("report_plot: %d %s", ret, msg);
	for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++) {
		char *text = slurp(dir, written[i].file);

		if (!strstr(text, written[i].text))
			fail_msg("%s: missing \"%s\" in:\n%s", written[i].file, written[i].text, text);
		if (i == 0)
			assert_memory_equal(text, written[i].text, strlen(written[i].text));
		free(text);
	}
	result_free(&r);
}

/* The plots gnuplot draws from plot.dat; skipped where gnuplot is missing. */
static void test_plots(void **state)
{
	const char *dir = *state;
	char msg[1024] = "", path[PATH_MAX];
	struct sweep_result r;
	struct stat st;
	int ret;

	setenv("EICBENCH_SCRIPTS", "scripts", 1);
	load("grid2", &r);
	ret = report_plot(&r, dir, msg, sizeof(msg));
	result_free(&r);
	if (ret == 1) {
		fprintf(stderr, "# %s\n", msg);
		skip();
	}
	assert_int_equal(ret, 0);
	snprintf(path, sizeof(path), "%s/sweep.png", dir);
	assert_true(stat(path, &st) == 0 && st.st_size > 1000);
	snprintf(path, sizeof(path), "%s/sweep.svg", dir);
	assert_true(stat(path, &st) == 0 && st.st_size > 1000);
}

static void test_json(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sweep_result r;
	json_t *j, *g;

	(void)state;
	load("sparse", &r);
	assert_int_equal(report_render(&r, REPORT_JSON, f), 0);
	fclose(f);
	j = json_loads(buf, 0, NULL);
	assert_non_null(j);
	g = json_array_get(json_object_get(j, "groups"), 2);
	assert_string_equal(json_string_value(json_object_get(g, "effective_io_concurrency")), "4");
	/* 2 tight runs: 4 (1.04x of 16) is within the margin, the smallest */
	assert_true(json_is_true(json_object_get(g, "recommended")));
	assert_true(json_is_true(json_object_get(g, "within_margin")));
	assert_float_equal(json_real_value(json_object_get(g, "median_ms")), 4075, 0);
	g = json_array_get(json_object_get(j, "groups"), 3);
	assert_true(json_is_false(json_object_get(g, "recommended")));
	assert_string_equal(json_string_value(json_object_get(g, "measure")), "execution");
	assert_int_equal(json_array_size(json_object_get(j, "explanation")), 3);
	assert_int_equal(report_render(&r, REPORT_CSV, stdout), -EINVAL);
	json_decref(j);
	free(buf);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_groups),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_heap_measure),
		cmocka_unit_test_setup_teardown(test_mismatch_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uring_few_in_flight, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hidden_slower_reads, setup, teardown),
		cmocka_unit_test(test_dense_figures),
		cmocka_unit_test(test_convert_pre13),
		cmocka_unit_test(test_explanation),
		cmocka_unit_test(test_not_said),
		cmocka_unit_test(test_aio_column),
		cmocka_unit_test(test_pre13_semantics),
		cmocka_unit_test(test_refused),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plots, setup, teardown),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
