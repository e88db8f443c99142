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

#include "bench/report.h"

#define FIXTURES "tests/fixtures/sweep/"
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

static void load(const char *name, struct report *r)
{
	char dir[PATH_MAX], err[1024] = "";
	int ret;

	snprintf(dir, sizeof(dir), FIXTURES "%s", name);
	ret = report_load(dir, r, err, sizeof(err));
	if (ret != 0)
		fail_msg("%s: %d %s", name, ret, err);
}

static void check_group(const struct report *r, const struct report_group *g,
			const struct group_case *c)
{
	for (size_t s = 0; s < r->nsettings; s++)
		assert_string_equal(report_value(r, g, s), c->values[s]);
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
		struct report r;

		load(c->dir, &r);
		assert_int_equal(r.nsettings, c->nsettings);
		assert_string_equal(r.settings[r.swept].name, "effective_io_concurrency");
		assert_int_equal(r.ngroups, c->ngroups);
		assert_int_equal(r.nseries, c->nseries);
		assert_int_equal(r.torn, c->torn);
		for (size_t g = 0; g < r.ngroups; g++)
			check_group(&r, &r.groups[g], &c->g[g]);
		for (size_t s = 0; s < r.nseries; s++) {
			assert_string_equal(report_value(&r, &r.groups[r.series[s].fastest], r.swept),
					    c->fastest[s]);
			assert_string_equal(report_value(&r, &r.groups[r.series[s].recommended], r.swept),
					    c->recommended[s]);
		}
		report_free(&r);
	}
}

static void test_dense_figures(void **state)
{
	struct report r;

	(void)state;
	load("dense", &r);
	assert_float_equal(r.groups[0].read_mib, 6100, 1e-6);
	assert_float_equal(r.groups[0].exact_blocks, 47585, 0);
	assert_float_equal(r.groups[0].lossy_blocks, 394893, 0);
	assert_float_equal(r.groups[0].rows, 10101941, 0);
	assert_float_equal(r.groups[0].io_read_ms, 9100, 0);
	assert_int_equal(r.version_num, 150018);
	assert_int_equal(r.skipped, 0);
	report_free(&r);
}

static const struct { int old; long now; } convert_cases[] = {
	{ 0, 0 }, { 1, 1 }, { 2, 3 }, { 4, 8 }, { 8, 22 }, { 10, 29 }, { 16, 54 }, { 20, 72 },
	{ 32, 130 }, { 100, 519 }, { 200, 1176 }, { 1000, 7485 }, { -1, -1 }, { 1001, -1 },
};

static void test_convert_pre13(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(convert_cases) / sizeof(convert_cases[0]); i++)
		assert_int_equal(report_convert_pre13(convert_cases[i].old), convert_cases[i].now);
	assert_true(report_convert_pre13(174) <= 1000);      /* FACTS: >= 175 exceeds 1000 */
	assert_true(report_convert_pre13(175) > 1000);
}

/* The explanation joined into one string (caller frees). */
static char *explanation(const struct report *r)
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
	{ "dense", "fastest median was 16.3 s at effective_io_concurrency = 0 (3 runs)" },
	{ "dense", "No prefetching (0) was fastest: 1.85x as fast as 1 (30.1 s) and 1.40x as fast as the best prefetching value, 2 (22.9 s)" },
	{ "dense", "Recommended: effective_io_concurrency = 0, the fastest and the smallest value tried" },
	{ "dense", "runs were bound by CPU" },
	{ "dense", "barely used concurrently" },
	{ "dense", "3.5 MiB on average at 0 and 14-18 KiB with prefetching" },
	{ "dense", "posix_fadvise(WILLNEED) advice that prefetching gives defeated that readahead" },
	{ "dense", "mostly lossy (47585 exact and 394893 lossy heap blocks): work_mem (4MB)" },
	{ "dense", "the value is the prefetch distance in pages" },
	{ "dense", "20, 100 and 1000 on 9.6 are distances of about 72, 519 and 7485 pages" },
	{ "sparse", "That is 1.67x as fast as 0, no prefetching (6.55 s) and 2.71x as fast as 1" },
	{ "sparse", "Recommended: effective_io_concurrency = 4, the smallest value whose median (4.08 s) is within 5% of the fastest (3.8% slower)" },
	{ "sparse", "No other value's runs overlap those at 16 (3.90-3.95 s)" },
	{ "sparse", "runs were bound by the device" },
	{ "sparse", "went from 1.00 at 0 to 6.50 at 64" },
	{ "sparse", "kept more of them in flight, and that paid off" },
	{ "grid2", "Query sparse with io_method=sync: the fastest median was 4.50 s" },
	{ "grid2", "The runs at 64 overlap those at 16 (4.40-4.60 s), so the differences between them are not significant" },
	{ "grid2", "Recommended: effective_io_concurrency = 16, the smallest value whose median (5.10 s) is within 5%" },
	{ "grid2", "io_method, varied in this sweep (sync, worker)" },
	{ "torn", "With one run at 0 there is no spread" },
	{ "torn", "ignored a partial last line" },
};

static void test_explanation(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++) {
		struct report r;
		char *text;

		load(phrases[i].dir, &r);
		text = explanation(&r);
		if (!strstr(text, phrases[i].phrase))
			fail_msg("%s: missing \"%s\" in:\n%s", phrases[i].dir, phrases[i].phrase, text);
		free(text);
		report_free(&r);
	}
}

static void test_pre13_semantics(void **state)
{
	struct report r;
	char *text;

	(void)state;
	load("dense", &r);
	r.version_num = 90624;
	text = explanation(&r);
	assert_non_null(strstr(text, "counts \"spindles\""));
	assert_non_null(strstr(text, "0 -> 0, 1 -> 1, 2 -> 3, 16 -> 54 pages"));
	free(text);
	report_free(&r);
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
		struct report r;

		snprintf(dir, sizeof(dir), FIXTURES "%s", refused[i].dir);
		assert_int_equal(report_load(dir, &r, err, sizeof(err)), refused[i].ret);
		for (int w = 0; w < 2; w++)
			if (!strstr(err, refused[i].words[w]))
				fail_msg("%s: \"%s\" not in \"%s\"", refused[i].dir, refused[i].words[w], err);
		report_free(&r);
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
	{ REPORT_SUMMARY_CSV, "query,io_method,effective_io_concurrency,runs,median_ms,min_ms,max_ms,"
	  "speedup_vs_0,speedup_vs_1,io_read_ms,avg_queue_depth,avg_read_kib,backend_cpu_pct,"
	  "read_mib,exact_heap_blocks,lossy_heap_blocks,rows,fastest,recommended\n" },
	{ REPORT_SUMMARY_CSV, "\nsparse,sync,0,2,8200,8000,8400,1,0.8658536585365854,7000,1,128,40," },
	{ REPORT_SUMMARY_CSV, "\nsparse,sync,16,2,4500,4400,4600," },
	{ REPORT_SUMMARY_CSV, ",20,60,720,90112,0,100213,true,true\n" },
	{ REPORT_SUMMARY_CSV, "\nsparse,worker,64,2,4980,4950,5010," },
	{ REPORT_MD, "| io_method | effective_io_concurrency | runs |" },
	{ REPORT_MD, "|    worker |                       64 |    2 |    4980.0 |" },
	{ REPORT_MD, "- Device: vda, not rotational, scheduler mq-deadline" },
	{ REPORT_MD, "## What it means" },
	{ REPORT_PLOT_DAT, "\n0 \"0\"\n1 \"1\"\n2 \"16\"\n3 \"64\"\n" },
	{ REPORT_PLOT_DAT, "\n\n\nposition value \"io_method=sync\" min_s max_s\n0 \"0\" 8.200000 8.000000 8.400000\n" },
	{ REPORT_PLOT_DAT, "\"io_method=worker\" min_s max_s\n0 \"0\" 8.900000" },
	{ REPORT_PLOT_DAT, "3 \"64\" 4.980000 4.950000 5.010000\n" },
};

static void test_files(void **state)
{
	const char *dir = *state;
	char err[1024] = "", msg[1024] = "", path[PATH_MAX];
	struct report r;
	struct stat st;
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
	snprintf(path, sizeof(path), "%s/sweep.png", dir);
	if (ret == 0)
		assert_true(stat(path, &st) == 0 && st.st_size > 1000);
	report_free(&r);
}

static void test_json(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report r;
	json_t *j, *g;

	(void)state;
	load("sparse", &r);
	assert_int_equal(report_render(&r, REPORT_JSON, f), 0);
	fclose(f);
	j = json_loads(buf, 0, NULL);
	assert_non_null(j);
	g = json_array_get(json_object_get(j, "groups"), 2);
	assert_string_equal(json_string_value(json_object_get(g, "effective_io_concurrency")), "4");
	assert_true(json_is_true(json_object_get(g, "recommended")));
	assert_float_equal(json_real_value(json_object_get(g, "median_ms")), 4075, 0);
	assert_int_equal(json_array_size(json_object_get(j, "explanation")), 3);
	assert_int_equal(report_render(&r, REPORT_CSV, stdout), -EINVAL);
	json_decref(j);
	free(buf);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_groups),
		cmocka_unit_test(test_dense_figures),
		cmocka_unit_test(test_convert_pre13),
		cmocka_unit_test(test_explanation),
		cmocka_unit_test(test_pre13_semantics),
		cmocka_unit_test(test_refused),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
