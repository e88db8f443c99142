/*
 * test_relblocks: the block query rewriting, table-driven. Accepted texts
 * must become the block query with the query's own FROM part inside; rejected
 * ones must fail with -EINVAL and a message saying what is wrong. The presets
 * load by name; a missing file, a directory and an empty query are refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/dataset/query.h"
#include "bench/observe/relblocks.h"

struct accepted {
	const char *text, *relation;
	const char *inner;              /* what must follow "SELECT ctid " */
};

static const struct accepted accepted[] = {
	{ "SELECT * FROM test WHERE minor = 800", "test", "FROM test WHERE minor = 800\n" },
	{ "select * from test where minor = 800;", "test", "FROM test where minor = 800\n" },
	{ "  SeLeCt\n\t*\n  FrOm   TEST\nWHERE a = 1 ;  \n\n", "test", "FROM TEST\nWHERE a = 1\n" },
	{ "-- a comment line\n-- another\nSELECT * FROM test WHERE a = 1", "test", "FROM test WHERE a = 1\n" },
	{ "/* block\ncomment */ SELECT * FROM test", "test", "FROM test\n" },
	{ "SELECT *FROM test", "test", "FROM test\n" },
	{ "SELECT * FROM test WHERE a = 1;\n-- trailing comment\n", "test", "FROM test WHERE a = 1\n" },
	{ "SELECT * FROM public.test WHERE a = 1", "public.test", "FROM public.test WHERE a = 1\n" },
	{ "SELECT * FROM Public.Test t WHERE t.a = 1", "public.test", "FROM Public.Test t WHERE t.a = 1\n" },
	{ "SELECT * FROM \"Mixed\" WHERE a = 1", "\"Mixed\"", "FROM \"Mixed\" WHERE a = 1\n" },
	{ "SELECT * FROM \"a\"\"b\" WHERE a = 1", "\"a\"\"b\"", "FROM \"a\"\"b\" WHERE a = 1\n" },
	{ "SELECT * FROM \"test\" WHERE a = 1", "test", "FROM \"test\" WHERE a = 1\n" },
	{ "SELECT * FROM test WHERE a = 1 ORDER BY a LIMIT 5", "test", "FROM test WHERE a = 1 ORDER BY a LIMIT 5\n" },
	{ "SELECT * FROM test-- why\nWHERE a = 1", "test", "FROM test-- why\nWHERE a = 1\n" },
};

struct rejected {
	const char *text, *relation;
	const char *message;            /* a part of the error */
};

static const struct rejected rejected[] = {
	{ "", "test", "the query is empty" },
	{ "-- only a comment\n", "test", "the query is empty" },
	{ "SELECT major FROM test WHERE a = 1", "test", "does not start with SELECT * FROM" },
	{ "SELECT count(*) FROM test", "test", "does not start with SELECT * FROM" },
	{ "SELECT *, 1 FROM test", "test", "does not start with SELECT * FROM" },
	{ "SELECTED * FROM test", "test", "does not start with SELECT * FROM" },
	{ "SELECT * FROMtest", "test", "does not start with SELECT * FROM" },
	{ "EXPLAIN SELECT * FROM test", "test", "does not start with SELECT * FROM" },
	{ "WITH x AS (SELECT 1) SELECT * FROM test", "test", "does not start with SELECT * FROM" },
	{ "UPDATE test SET a = 1", "test", "does not start with SELECT * FROM" },
	{ "SELECT * FROM other WHERE a = 1", "test", "reads FROM other, but --relation is test" },
	{ "SELECT * FROM \"Test\" WHERE a = 1", "test", "reads FROM Test, but --relation is test" },
	{ "SELECT * FROM public.test", "test", "reads FROM public.test, but --relation is test" },
	{ "SELECT * FROM test, other", "test", "not followed by one relation name" },
	{ "SELECT * FROM (SELECT 1) s", "test", "not followed by one relation name" },
	{ "SELECT * FROM \"unterminated", "test", "not followed by one relation name" },
	{ "SELECT * FROM test", "", "not a relation name" },
	{ "SELECT * FROM test", "te st", "not a relation name" },
	{ "SELECT * FROM test", "a.b.c.d", "not a relation name" },
};

static void rewrite_accepts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		const struct accepted *a = &accepted[i];
		char err[1024] = "", *out = NULL, want[512];
		int rc = relblocks_rewrite(a->text, a->relation, &out, err, sizeof(err));

		if (rc != 0)
			fail_msg("case %zu (%s): rc %d: %s", i, a->text, rc, err);
		snprintf(want, sizeof(want), "SELECT ctid %s", a->inner);
		if (!strstr(out, want))
			fail_msg("case %zu: wanted '%s' in:\n%s", i, want, out);
		assert_non_null(strstr(out, "SELECT (ctid::text::point)[0]::bigint AS block, count(*) AS ntuples"));
		assert_non_null(strstr(out, "ORDER BY 1"));
		free(out);
	}
}

static void rewrite_rejects(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
		const struct rejected *r = &rejected[i];
		char err[1024] = "", *out = NULL;
		int rc = relblocks_rewrite(r->text, r->relation, &out, err, sizeof(err));

		if (rc != -EINVAL)
			fail_msg("case %zu (%s): wanted -EINVAL, got %d", i, r->text, rc);
		assert_null(out);
		if (!strstr(err, r->message))
			fail_msg("case %zu: wanted '%s' in: %s", i, r->message, err);
	}
}

static void presets_rewrite(void **state)
{
	const char *names[] = { "blog", "sparse" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char err[1024] = "", *out = NULL;
		struct query q;

		assert_int_equal(query_load(names[i], &q, err, sizeof(err)), 0);
		assert_int_equal(relblocks_rewrite(q.text, "test", &out, err, sizeof(err)), 0);
		assert_non_null(strstr(out, "SELECT ctid FROM test WHERE "));
		query_free(&q);
		free(out);
	}
}

static void query_files(void **state)
{
	char err[1024], path[] = "/tmp/test_relblocks.XXXXXX";
	struct query q;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "SELECT * FROM test WHERE minor = 5;\n", 36), 36);
	close(fd);
	assert_int_equal(query_load(path, &q, err, sizeof(err)), 0);
	assert_string_equal(q.text, "SELECT * FROM test WHERE minor = 5");
	assert_string_equal(q.name, "file");
	query_free(&q);
	unlink(path);
	assert_int_equal(query_load(path, &q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a preset (" QUERY_PRESETS ")"));
	assert_int_equal(query_load("/tmp", &q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "Is a directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rewrite_accepts),
		cmocka_unit_test(rewrite_rejects),
		cmocka_unit_test(presets_rewrite),
		cmocka_unit_test(query_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
