/*
 * test_verdict: the verdict of run folders in tests/fixtures/run (run from
 * the repository root). "disagree": a dense query bound by readahead and CPU
 * where 0 wins and a sparse one bound by concurrency where 32 wins, with
 * the replays an older run made after its sweeps (not used), the device's
 * curve and the cache check; "noisy": a query whose values cannot be told
 * apart. Checks the storage-wide pick and the sentences made from the
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

#include "bench/report/verdict.h"
#include "bench/report/verdict_doc.h"

#define F "tests/fixtures/run/"

static char *text_of(const struct verdict *v)
{
	struct doc d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	verdict_document(v, &d);
	assert_int_equal(doc_text_out(&d, f), 0);
	fclose(f);
	doc_free(&d);
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

static void disagree(void **state)
{
	struct verdict v;
	struct verdict_pick pk;
	char err[1024], *text;

	(void)state;
	assert_int_equal(verdict_load(F "disagree", &v, err, sizeof(err)), 0);
	verdict_pick(&v, &pk);
	/* no value is best for both: the least worst ratio to a fastest wins */
	assert_non_null(pk.value);
	assert_string_equal(pk.value, "4");
	assert_int_equal(pk.in_all, 0);
	assert_true(pk.worst > 1.5 && pk.worst < 1.7);
	text = text_of(&v);
	expect(text, "Recommended for this storage: effective_io_concurrency = 4.");
	expect(text, "No value is indistinguishable from the fastest in every query; 4 costs the least at worst");
	expect(text, "blog was fastest at 0");
	expect(text, "sparse was fastest at 32");
	expect(text, "blog's own best, 0, would cost sparse");
	expect(text, "sparse's own best, 32, would cost blog");
	expect(text, "ALTER TABLESPACE pg_default SET (effective_io_concurrency = 4);");
	expect(text, "ALTER SYSTEM SET effective_io_concurrency = 4;");
	expect(text, "reached its peak of 78000 IOPS at depth 128 and 90% of it at depth 32, the knee");
	/* replays of an older run, after the sweeps: not used */
	expect(text, "This run's replays ran after its sweeps, outside their rounds and cold state (an older eicbench): they are not used.");
	expect(text, "no sign of a cache below this machine");
	free(text);
	verdict_free(&v);
}

static void noisy(void **state)
{
	struct verdict v;
	struct verdict_pick pk;
	char err[1024], *text;

	(void)state;
	assert_int_equal(verdict_load(F "noisy", &v, err, sizeof(err)), 0);
	verdict_pick(&v, &pk);
	assert_int_equal(pk.in_all, 1);          /* every value is alike: the smallest */
	assert_string_equal(pk.value, "0");
	text = text_of(&v);
	expect(text, "No value is clearly better");
	expect(text, "Provisional for sparse: no value was told apart from the fastest");
	free(text);
	verdict_free(&v);
}

static void refused_and_missing(void **state)
{
	struct verdict v;
	char err[1024], *text;

	(void)state;
	/* an interrupted run: what is there is reported, what is not is said */
	assert_int_equal(verdict_load(F "partial", &v, err, sizeof(err)), 0);
	assert_non_null(strstr(v.missing, "sweep-blog"));
	assert_non_null(strstr(v.missing, "device (no device curve recorded)"));
	text = text_of(&v);
	expect(text, "Recommended for this storage: effective_io_concurrency = 32.");
	expect(text, "The sweep of blog has no finished trials");
	expect(text, "This run's replays ran after its sweeps");
	expect(text, "Not in the records");
	free(text);
	verdict_free(&v);
	assert_int_equal(verdict_load("tests/fixtures/sweep/clear", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not the folder of an eicbench run"));
	verdict_free(&v);
	assert_int_equal(verdict_load("tests/fixtures/nosuch", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no readable meta.json"));
	verdict_free(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disagree),
		cmocka_unit_test(noisy),
		cmocka_unit_test(refused_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
