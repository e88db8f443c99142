/*
 * test_cachecheck: the check for caches below this machine. Its parts with
 * values worked out by hand (distinct sampling, exact summaries, the ratio of
 * medians and its bootstrap interval), then whole runs on a real file with
 * O_DIRECT: pass sizes, the verdict agreeing with the interval and the
 * threshold, the sentence, a file too small, the time bound, a stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "io/cachecheck.h"
#include "io/rng.h"
#include "tests/fixture.h"

#define BS 8192

struct fx {
	char *dir, *file, *small;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || !(f->dir = fixture_dir()))
		return -1;
	f->file = fixture_path(f->dir, "data");
	f->small = fixture_path(f->dir, "small");
	if (fixture_write_blocks(f->file, 0, 1000, BS, 0) < 0 ||
	    fixture_write_blocks(f->small, 0, 60, BS, 0) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	fixture_remove(f->dir);
	free(f->dir);
	free(f->file);
	free(f->small);
	free(f);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void check_draw(uint64_t n, size_t k, uint64_t seed)
{
	uint64_t *v = malloc(k * sizeof(*v));

	assert_int_equal(cachecheck_draw(n, k, seed, v), 0);
	qsort(v, k, sizeof(*v), cmp);
	for (size_t i = 0; i < k; i++) {
		assert_true(v[i] < n);
		if (i)
			assert_true(v[i] > v[i - 1]);      /* distinct */
	}
	free(v);
}

static void test_draw_distinct(void **state)
{
	uint64_t a[100], b[100], c[100];
	int same = 0, ascending = 1;
	(void)state;

	check_draw(10, 10, 1);                        /* all of them: a permutation */
	check_draw(1000, 999, 2);
	check_draw(1ull << 40, 8000, 3);
	check_draw(200, 1, 4);
	assert_int_equal(cachecheck_draw(10, 11, 1, a), -EINVAL);
	assert_int_equal(cachecheck_draw(1000, 100, 7, a), 0);
	assert_int_equal(cachecheck_draw(1000, 100, 7, b), 0);
	assert_int_equal(cachecheck_draw(1000, 100, 8, c), 0);
	assert_memory_equal(a, b, sizeof(a));         /* the seed decides */
	for (int i = 0; i < 100; i++) {
		same += a[i] == c[i];
		ascending &= i == 0 || a[i] > a[i - 1];
	}
	assert_true(same < 10);
	assert_false(ascending);                      /* shuffled, not in Floyd's order */
}

static void test_summarize(void **state)
{
	uint64_t v[] = { 5, 1, 3, 2, 4 };
	uint64_t w[1000];
	struct hist_summary s;
	(void)state;

	cachecheck_summarize(v, 5, &s);
	assert_int_equal(s.count, 5);
	assert_int_equal(s.min_ns, 1);
	assert_int_equal(s.max_ns, 5);
	assert_true(fabs(s.mean_ns - 3) < 1e-12);
	assert_true(fabs(s.stddev_ns - sqrt(2.5)) < 1e-12);
	assert_int_equal(s.p50_ns, 3);
	assert_int_equal(s.p90_ns, 5);
	for (int i = 0; i < 1000; i++)
		w[i] = 1000 - i;                       /* 1..1000 */
	cachecheck_summarize(w, 1000, &s);
	assert_int_equal(s.p50_ns, 500);
	assert_int_equal(s.p90_ns, 900);
	assert_int_equal(s.p99_ns, 990);
	assert_int_equal(s.p999_ns, 999);
}

static void test_ratio_by_hand(void **state)
{
	static const uint64_t reread[] = { 4, 1, 3, 2 };      /* median 2.5 */
	static const uint64_t fresh[] = { 7, 5, 6 };           /* median 6 */
	static const uint64_t flat_r[] = { 100, 100, 100 }, flat_f[] = { 300, 300 };
	static const uint64_t zero[] = { 0, 0, 1 };
	double r, lo, hi;
	(void)state;

	assert_int_equal(cachecheck_ratio(reread, 4, fresh, 3, 1, 200, &r, &lo, &hi), 0);
	assert_true(fabs(r - 2.4) < 1e-12);
	assert_true(lo <= r && r <= hi);
	assert_true(lo >= 5.0 / 4 && hi <= 7.0 / 1);          /* any resample's medians lie in range */
	assert_int_equal(cachecheck_ratio(flat_r, 3, flat_f, 2, 1, 200, &r, &lo, &hi), 0);
	assert_true(r == 3 && lo == 3 && hi == 3);
	assert_int_equal(cachecheck_ratio(zero, 3, fresh, 3, 1, 200, &r, &lo, &hi), -EINVAL);
	assert_int_equal(cachecheck_ratio(reread, 0, fresh, 3, 1, 200, &r, &lo, &hi), -EINVAL);
}

/* Two spreads drawn from one seeded generator: fresh = FACTOR x re-read. */
static void spread(uint64_t *v, size_t n, double factor, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (uint64_t)(factor * (20000 + (double)(rng_mix64(seed + i) % 20000)));
}

static void test_ratio_verdicts(void **state)
{
	uint64_t a[2000], b[2000];
	double r, lo, hi;
	(void)state;

	spread(a, 2000, 1.0, 11);
	spread(b, 2000, 3.0, 12);
	assert_int_equal(cachecheck_ratio(a, 2000, b, 2000, 5, 1000, &r, &lo, &hi), 0);
	assert_true(r > 2.7 && r < 3.3);
	assert_true(lo < r && r < hi && lo > CACHECHECK_THRESHOLD);
	spread(b, 2000, 1.0, 13);                             /* no difference */
	assert_int_equal(cachecheck_ratio(a, 2000, b, 2000, 5, 1000, &r, &lo, &hi), 0);
	assert_true(lo < 1 && hi > 1 && hi < CACHECHECK_THRESHOLD);
}

static void test_run_on_a_file(void **state)
{
	const struct fx *f = *state;
	const char *paths[] = { f->file };
	struct cachecheck_config cfg = {
		.paths = paths, .npaths = 1, .block_bytes = BS, .sample = 200, .seed = 3,
	};
	struct cachecheck_result res;
	char err[256], text[512];

	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), 0);
	assert_int_equal(res.file_blocks, 1000);
	assert_int_equal(res.sample, 200);
	for (int p = 0; p < CACHECHECK_PASSES; p++) {
		assert_int_equal(res.pass[p].count, 200);
		assert_true(res.pass[p].p50_ns > 0 && res.pass[p].min_ns <= res.pass[p].p50_ns &&
			    res.pass[p].p50_ns <= res.pass[p].p99_ns && res.pass[p].p99_ns <= res.pass[p].max_ns);
		assert_true(res.median_ns[p] >= res.pass[p].min_ns);
	}
	assert_true(fabs(res.ratio - res.median_ns[CACHECHECK_FRESH] / res.median_ns[CACHECHECK_REREAD]) < 1e-9);
	assert_true(res.ratio_lo <= res.ratio && res.ratio <= res.ratio_hi);
	assert_true(res.threshold == CACHECHECK_THRESHOLD);
	assert_int_equal(res.cache_below, res.ratio_lo > CACHECHECK_THRESHOLD);
	assert_false(res.cut_short);
	cachecheck_describe(&res, text, sizeof(text));
	assert_non_null(strstr(text, "re-reads took a median of"));
	assert_non_null(strstr(text, res.cache_below ? "a cache below this machine holds" : "sign of"));
	cfg.sample = 0;                                /* the default, cut to half the file */
	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), 0);
	assert_int_equal(res.sample, 500);
}

static void test_run_refusals(void **state)
{
	const struct fx *f = *state;
	const char *small[] = { f->small }, *paths[] = { f->file }, *none[] = { "/nonexistent/x" };
	volatile sig_atomic_t stop = 1;
	struct cachecheck_config cfg = { .paths = small, .npaths = 1, .block_bytes = BS, .seed = 1 };
	struct cachecheck_result res;
	char err[256];

	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "needs at least 100"));
	cfg.paths = none;
	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), -ENOENT);
	cfg.paths = paths;
	cfg.max_s = 1e-9;                              /* one read per pass */
	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), -ETIMEDOUT);
	assert_non_null(strstr(err, "only 1 re-reads and 1 fresh reads"));
	cfg.max_s = 0;
	cfg.stop = &stop;
	assert_int_equal(cachecheck_run(&cfg, &res, err, sizeof(err)), -EINTR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draw_distinct),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_ratio_by_hand),
		cmocka_unit_test(test_ratio_verdicts),
		cmocka_unit_test(test_run_on_a_file),
		cmocka_unit_test(test_run_refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
