/*
 * test_pgstats: pg_stat_io rows of 16/17 (op_bytes, reads in blocks) and of
 * 18 (read_bytes, reads in I/Os) parsed from fixture rows
 * (tests/fixtures/pgstats: 16's written by hand with 16's columns, 18's
 * taken from a real 18.6 server before and after a cold sparse query),
 * their differences checked against figures worked out by hand, a reset
 * between two snapshots, and the "not available" answer below 16. The
 * snapshot on a live server runs in tests/it/pgstats.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/observe/pgstats.h"
#include "bench/pg/sqltext.h"
#include "tests/pgresult.h"

static void load(const char *fixture, int version_num, uint64_t taken_ns, struct pgstats_io *s)
{
	PGresult *r = pgresult_from_fixture(fixture);
	char err[256] = "";

	assert_non_null(r);
	assert_int_equal(pgstats_io_parse(r, version_num, s, err, sizeof(err)), 0);
	s->taken_ns = taken_ns;
	PQclear(r);
}

static json_t *delta(const char *before, const char *after, int version_num)
{
	struct pgstats_io a, b;
	json_t *d;

	load(before, version_num, 1000000000u, &a);
	load(after, version_num, 1250000000u, &b);
	d = pgstats_io_delta_json(&a, &b);
	pgstats_io_free(&a);
	pgstats_io_free(&b);
	assert_non_null(d);
	return d;
}

static json_int_t int_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static double real_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

/* The row of the delta for BACKEND/OBJECT/CONTEXT, or NULL. */
static json_t *row_of(const json_t *d, const char *backend, const char *object, const char *context)
{
	size_t i;
	json_t *r;

	json_array_foreach(json_object_get(d, "rows"), i, r)
		if (!strcmp(json_string_value(json_object_get(r, "backend_type")), backend) &&
		    !strcmp(json_string_value(json_object_get(r, "object")), object) &&
		    !strcmp(json_string_value(json_object_get(r, "context")), context))
			return r;
	return NULL;
}

/* 16's columns: NULL cells absent, op_bytes there, no *_bytes columns. */
static void parse_16(void **state)
{
	struct pgstats_io s;
	const struct pgstats_io_row *ck;

	(void)state;
	load("pgstats/io16_before.txt", 160004, 0, &s);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.version_num, 160004);
	assert_false(s.bytes_columns);
	ck = &s.rows[1];
	assert_string_equal(ck->backend_type, "checkpointer");
	assert_string_equal(ck->object, "relation");
	assert_string_equal(ck->context, "normal");
	assert_string_equal(ck->stats_reset, "2025-03-01 10:00:00.5+00");
	assert_float_equal(ck->v[PGSTATS_WRITES], 1500, 0);
	assert_false(ck->present & (1u << PGSTATS_READS));       /* NULL for the checkpointer */
	assert_false(ck->present & (1u << PGSTATS_READ_BYTES));  /* no such column on 16 */
	assert_true(ck->present & (1u << PGSTATS_OP_BYTES));
	assert_float_equal(ck->v[PGSTATS_OP_BYTES], 8192, 0);
	assert_float_equal(s.rows[3].v[PGSTATS_READ_TIME], 120.5, 1e-12);  /* client backend */
	pgstats_io_free(&s);
}

/*
 * 16, by hand: the client backend read 15000 - 5000 = 10000 blocks of 8192
 * bytes (81,920,000 bytes) in 370.75 - 120.5 = 250.25 ms, hit 500 and
 * evicted 250; the checkpointer wrote 100 blocks (819,200 bytes), wrote
 * back 80 and synced once. The autovacuum worker and the other client rows
 * did not change.
 */
static void delta_16(void **state)
{
	json_t *d = delta("pgstats/io16_before.txt", "pgstats/io16_after.txt", 170002);
	json_t *cb = row_of(d, "client backend", "relation", "normal");
	json_t *ck = row_of(d, "checkpointer", "relation", "normal");
	json_t *tot = json_object_get(d, "totals"), *t;

	(void)state;
	assert_true(json_is_true(json_object_get(d, "available")));
	assert_int_equal(int_of(d, "server_version_num"), 170002);
	assert_string_equal(json_string_value(json_object_get(d, "reads_are")), "blocks");
	assert_string_equal(json_string_value(json_object_get(d, "bytes_from")), "op_bytes");
	assert_float_equal(real_of(d, "elapsed_ms"), 250.0, 1e-9);
	assert_true(json_is_false(json_object_get(d, "reset_between")));
	assert_int_equal(json_array_size(json_object_get(d, "rows")), 2);
	assert_non_null(cb);
	assert_int_equal(int_of(cb, "reads"), 10000);
	assert_int_equal(int_of(cb, "read_bytes"), 81920000);
	assert_float_equal(real_of(cb, "read_time_ms"), 250.25, 1e-9);
	assert_int_equal(int_of(cb, "hits"), 500);
	assert_int_equal(int_of(cb, "evictions"), 250);
	assert_int_equal(int_of(cb, "op_bytes"), 8192);
	assert_float_equal(real_of(cb, "avg_read_bytes"), 8192.0, 1e-9);
	assert_null(json_object_get(cb, "reuses"));      /* NULL in the view: absent */
	assert_non_null(ck);
	assert_int_equal(int_of(ck, "writes"), 100);
	assert_int_equal(int_of(ck, "write_bytes"), 819200);
	assert_int_equal(int_of(ck, "writebacks"), 80);
	assert_int_equal(int_of(ck, "fsyncs"), 1);
	assert_null(json_object_get(ck, "reads"));
	assert_null(json_object_get(ck, "read_bytes"));
	assert_null(row_of(d, "autovacuum worker", "relation", "normal"));
	/* totals: the client backend over its three rows, the checkpointer; no io worker on 16 */
	assert_int_equal(json_object_size(tot), 2);
	t = json_object_get(tot, "client backend");
	assert_int_equal(int_of(t, "reads"), 10000);
	assert_int_equal(int_of(t, "read_bytes"), 81920000);
	assert_int_equal(int_of(t, "reuses"), 0);         /* the bulkread row has reuses */
	assert_null(json_object_get(t, "op_bytes"));
	assert_int_equal(int_of(json_object_get(tot, "checkpointer"), "writes"), 100);
	assert_null(json_object_get(tot, "io worker"));
	json_decref(d);
}

/*
 * 18, real rows by hand: the client backend's relation/normal row went from
 * 32143 reads of 282,804,224 bytes in 564.828 ms (82827 hits) to 42513 reads
 * of 372,129,792 bytes in 812.901 ms (83056 hits): 10370 reads of
 * 89,325,568 bytes (10904 blocks: combined reads average 8613.8 bytes) in
 * 248.073 ms, 229 hits. The walwriter wrote one 8 kB WAL block and synced
 * once: a row of its own, but WAL is no part of the totals.
 */
static void delta_18(void **state)
{
	json_t *d = delta("pgstats/io18_before.txt", "pgstats/io18_after.txt", 180006);
	json_t *cb = row_of(d, "client backend", "relation", "normal");
	json_t *ww = row_of(d, "walwriter", "wal", "normal");
	json_t *tot = json_object_get(d, "totals"), *t;

	(void)state;
	assert_string_equal(json_string_value(json_object_get(d, "reads_are")), "I/Os");
	assert_string_equal(json_string_value(json_object_get(d, "bytes_from")), "read_bytes");
	assert_int_equal(json_array_size(json_object_get(d, "rows")), 2);
	assert_non_null(cb);
	assert_int_equal(int_of(cb, "reads"), 10370);
	assert_int_equal(int_of(cb, "read_bytes"), 89325568);
	assert_float_equal(real_of(cb, "read_time_ms"), 248.073, 1e-6);
	assert_int_equal(int_of(cb, "hits"), 229);
	assert_int_equal(int_of(cb, "writes"), 0);
	assert_float_equal(real_of(cb, "avg_read_bytes"), 89325568.0 / 10370.0, 1e-9);
	assert_null(json_object_get(cb, "op_bytes"));
	assert_non_null(ww);
	assert_int_equal(int_of(ww, "writes"), 1);
	assert_int_equal(int_of(ww, "write_bytes"), 8192);
	assert_int_equal(int_of(ww, "fsyncs"), 1);
	/* totals: client backend and io worker (always on 18); the walwriter only wrote WAL */
	assert_int_equal(json_object_size(tot), 2);
	t = json_object_get(tot, "client backend");
	assert_int_equal(int_of(t, "reads"), 10370);
	assert_int_equal(int_of(t, "read_bytes"), 89325568);
	assert_int_equal(int_of(t, "hits"), 229);
	t = json_object_get(tot, "io worker");
	assert_non_null(t);
	assert_int_equal(int_of(t, "reads"), 0);
	assert_null(json_object_get(t, "avg_read_bytes"));
	assert_null(json_object_get(tot, "walwriter"));
	json_decref(d);
}

/* A counter that went down, or a new stats_reset: no rows, no totals. */
static void reset_between(void **state)
{
	static const char *const pairs[][2] = {
		{ "pgstats/io16_before.txt", "pgstats/io16_reset.txt" },
		{ "pgstats/io18_before.txt", "pgstats/io18_after_reset.txt" },
	};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		json_t *d = delta(pairs[i][0], pairs[i][1], 180006);

		assert_true(json_is_true(json_object_get(d, "reset_between")));
		assert_string_equal(json_string_value(json_object_get(d, "bytes_from")),
				    i ? "read_bytes" : "op_bytes");
		assert_int_equal(json_array_size(json_object_get(d, "rows")), 0);
		assert_true(json_is_null(json_object_get(d, "totals")));
		json_decref(d);
	}
}

/* The same snapshot twice: nothing changed, the totals still name the client backend. */
static void unchanged(void **state)
{
	json_t *d = delta("pgstats/io18_before.txt", "pgstats/io18_before.txt", 180006);

	(void)state;
	assert_int_equal(json_array_size(json_object_get(d, "rows")), 0);
	assert_int_equal(int_of(json_object_get(json_object_get(d, "totals"), "client backend"), "reads"), 0);
	json_decref(d);
}

/* Bad cells and a result without the key columns are errors, named. */
static void bad_rows(void **state)
{
	struct pgstats_io s;
	char err[256] = "";
	PGresult *r = pgresult_from_text("backend_type|object|context|reads\nclient backend|relation|normal|12x\n");

	(void)state;
	assert_non_null(r);
	assert_int_equal(pgstats_io_parse(r, 160000, &s, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "reads is '12x'"));
	PQclear(r);
	r = pgresult_from_text("object|context|reads\nrelation|normal|1\n");
	assert_int_equal(pgstats_io_parse(r, 160000, &s, err, sizeof(err)), -EPROTO);
	PQclear(r);
}

/* Does the statement of sql/FILE (comments left out) name COLUMN? */
static bool selects(const char *file, const char *column)
{
	char stmt[2048];
	size_t pos = 0;

	assert_true(sql_next_statement(sql_text(file), &pos, stmt, sizeof(stmt)) > 0);
	return strstr(stmt, column) != NULL;
}

/* Which versions have the view, which SQL reads it, and the words when not. */
static void versions(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(pgstats_need_version(150018, 160000, "pg_stat_io", err, sizeof(err)),
			 PGSTATS_NOT_AVAILABLE);
	assert_string_equal(err, "pg_stat_io needs PostgreSQL 16 or later (the server is 15.18)");
	assert_int_equal(pgstats_need_version(90624, 160000, "pg_stat_io", err, sizeof(err)),
			 PGSTATS_NOT_AVAILABLE);
	assert_string_equal(err, "pg_stat_io needs PostgreSQL 16 or later (the server is 9.6.24)");
	assert_int_equal(pgstats_need_version(160000, 160000, "pg_stat_io", err, sizeof(err)), 0);
	assert_int_equal(pgstats_need_version(180006, 180000, "pg_aios", err, sizeof(err)), 0);
	assert_string_equal(pgstats_io_sql(160000), "pgstats/io_16.sql");
	assert_string_equal(pgstats_io_sql(170005), "pgstats/io_16.sql");
	assert_string_equal(pgstats_io_sql(180000), "pgstats/io_18.sql");
	/* 16/17 ask for op_bytes and no *_bytes column; 18 the other way round */
	assert_true(selects("pgstats/io_16.sql", "op_bytes"));
	assert_false(selects("pgstats/io_16.sql", "read_bytes"));
	assert_true(selects("pgstats/io_18.sql", "read_bytes"));
	assert_true(selects("pgstats/io_18.sql", "extend_bytes"));
	assert_false(selects("pgstats/io_18.sql", "op_bytes"));
}

static void not_available_json(void **state)
{
	json_t *o = pgstats_not_available_json("pg_stat_io needs PostgreSQL 16 or later (the server is 15.18)");
	char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);

	(void)state;
	assert_string_equal(s, "{\"available\":false,\"why\":\"pg_stat_io needs PostgreSQL 16 or later (the server is 15.18)\"}");
	free(s);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_16),
		cmocka_unit_test(delta_16),
		cmocka_unit_test(delta_18),
		cmocka_unit_test(reset_between),
		cmocka_unit_test(unchanged),
		cmocka_unit_test(bad_rows),
		cmocka_unit_test(versions),
		cmocka_unit_test(not_available_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
