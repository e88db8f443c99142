/*
 * test_explain: explain_parse over real PostgreSQL 15 output captured in
 * tests/fixtures/explain (run from the repository root), a hand-written
 * newer-version shape, and inputs that must be refused with a message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/observe/explain.h"

#define FIXTURES "tests/fixtures/explain/"

struct fixture_case {
	const char *file;
	double      execution_ms, top_rows;
	const char *node_types;
	bool        bitmap_heap, bitmap_or, seq_scan, gather;
	int64_t     exact, lossy, recheck;   /* of the Bitmap Heap Scan */
	int64_t     shared_hit, shared_read, shared_written;
	double      io_read_ms;
	int         workers_launched;
	const char *work_mem;                /* from "Settings", NULL if absent */
};

static const struct fixture_case cases[] = {
	{ "pg15_bitmap_or_lossy.json", 279.808, 201748,
	  "Bitmap Heap Scan,BitmapOr,Bitmap Index Scan", true, true, false, false,
	  607, 8243, 1674898, 11772, 2548, 1410, 5.151, EXPLAIN_ABSENT, "64kB" },
	{ "pg15_bitmap_or_exact.json", 85.041, 201748,
	  "Bitmap Heap Scan,BitmapOr,Bitmap Index Scan", true, true, false, false,
	  8850, 0, 0, 14320, 0, 0, 0.0, EXPLAIN_ABSENT, "256MB" },
	{ "pg15_sparse_exact.json", 32.141, 1944,
	  "Bitmap Heap Scan,Bitmap Index Scan", true, false, false, false,
	  1737, 0, 0, 7204, 0, 0, 0.0, EXPLAIN_ABSENT, "64MB" },
	{ "pg15_seqscan.json", 138.412, 201748,
	  "Seq Scan", false, false, true, false,
	  EXPLAIN_ABSENT, EXPLAIN_ABSENT, EXPLAIN_ABSENT, 8850, 0, 0, 0.0,
	  EXPLAIN_ABSENT, NULL },
	{ "pg15_parallel_bitmap_lossy.json", 155.339, 1,
	  "Aggregate,Gather,Bitmap Heap Scan,BitmapOr,Bitmap Index Scan",
	  true, true, false, true,
	  /* the heap phase's buffers over the three processes: the pages the
	   * same query reads without workers (8850 exact, above); EXPLAIN's
	   * "Heap Blocks" (388 exact, 5183 lossy) are the leader's alone */
	  8850, 0, 558299, 14320, 0, 0, 0.0, 2, "64kB" },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	assert_non_null(f);
	assert_int_equal(getdelim(&buf, &len, '\0', f) > 0, 1);
	fclose(f);
	return buf;
}

static void check_case(const struct fixture_case *c)
{
	struct explain_figures fig;
	char err[256] = "", path[256];
	char *text;
	const char *work_mem;

	snprintf(path, sizeof(path), FIXTURES "%s", c->file);
	text = slurp(path);
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	free(text);
	assert_float_equal(fig.execution_ms, c->execution_ms, 1e-9);
	assert_true(fig.planning_ms > 0);
	assert_float_equal(fig.top_rows, c->top_rows, 1e-9);
	assert_string_equal(fig.node_types, c->node_types);
	assert_int_equal(fig.has_bitmap_heap_scan, c->bitmap_heap);
	assert_int_equal(fig.bitmap.present, c->bitmap_heap);
	assert_int_equal(fig.has_bitmap_or, c->bitmap_or);
	assert_int_equal(fig.has_seq_scan, c->seq_scan);
	assert_int_equal(fig.has_gather, c->gather);
	assert_false(fig.has_index_scan);
	assert_int_equal(fig.bitmap.exact_heap_blocks, c->exact);
	assert_int_equal(fig.bitmap.lossy_heap_blocks, c->lossy);
	assert_int_equal(fig.bitmap.rows_removed_by_recheck, c->recheck);
	assert_int_equal(fig.buffers.shared_hit_blocks, c->shared_hit);
	assert_int_equal(fig.buffers.shared_read_blocks, c->shared_read);
	assert_int_equal(fig.buffers.shared_written_blocks, c->shared_written);
	assert_int_equal(fig.buffers.temp_read_blocks, 0);
	assert_float_equal(fig.io_read_ms, c->io_read_ms, 1e-9);
	assert_int_equal(fig.workers_launched, c->workers_launched);
	assert_non_null(fig.settings);
	work_mem = json_string_value(json_object_get(fig.settings, "work_mem"));
	if (c->work_mem)
		assert_string_equal(work_mem, c->work_mem);
	else
		assert_null(work_mem);
	explain_free(&fig);
}

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* A Seq Scan measured: the node is the heap phase, every page it read a
 * heap block, no index phase; the bitmap's place was empty before. */
static void test_take_seq(void **state)
{
	struct explain_figures fig;
	char err[256];
	char *text = slurp(FIXTURES "pg15_seqscan.json");

	(void)state;
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	assert_false(fig.bitmap.present);
	assert_true(fig.seq.present);
	assert_true(explain_take_seq(&fig));
	assert_true(fig.bitmap.present);
	assert_string_equal(fig.bitmap.scan, "Seq Scan");
	assert_int_equal(fig.bitmap.nodes, 1);
	assert_int_equal(fig.bitmap.exact_heap_blocks, 8850);
	assert_int_equal(fig.bitmap.lossy_heap_blocks, 0);
	assert_true(fig.bitmap.phases);
	assert_float_equal(fig.bitmap.index_phase.total_ms, 0, 0);
	assert_float_equal(fig.bitmap.heap_phase.total_ms, fig.bitmap.node.total_ms, 0);
	assert_true(fig.bitmap.node.total_ms > 0 && fig.bitmap.node.total_ms <= fig.execution_ms);
	assert_float_equal(fig.bitmap.other_ms, fig.execution_ms - fig.bitmap.node.total_ms, 1e-3);
	explain_free(&fig);
	free(text);
	/* a bitmap plan has no Seq Scan to take */
	text = slurp(FIXTURES "pg15_sparse_exact.json");
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	assert_false(explain_take_seq(&fig));
	assert_string_equal(fig.bitmap.scan, "Bitmap Heap Scan");
	explain_free(&fig);
	free(text);
}

static void test_parallel_bitmap_rows_are_per_loop(void **state)
{
	struct explain_figures fig;
	char err[256];
	char *text = slurp(FIXTURES "pg15_parallel_bitmap_lossy.json");

	(void)state;
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	assert_float_equal(fig.bitmap.actual_rows, 67249, 0);
	assert_float_equal(fig.bitmap.actual_loops, 3, 0);
	assert_true(fig.bitmap.parallel_aware);
	assert_int_equal(fig.bitmap.nodes, 1);
	assert_int_equal(fig.workers_planned, 2);
	assert_string_equal(fig.top_node, "Aggregate");
	explain_free(&fig);
	free(text);
}

/* A shape from 17+: renamed I/O keys, fractional rows, no Settings, no
 * Planning Time, buffers missing: all absent, none an error. */
static const char newer_shape[] =
	"[{\"Plan\": {\"Node Type\": \"Bitmap Heap Scan\", \"Actual Rows\": 0.5,"
	" \"Exact Heap Blocks\": 3, \"Shared I/O Read Time\": 1.25,"
	" \"Shared I/O Write Time\": 0.5, \"I/O Read Time\": 99,"
	" \"Plans\": [{\"Node Type\": \"BitmapAnd\", \"Plans\": ["
	"   {\"Node Type\": \"Bitmap Index Scan\"}, {\"Node Type\": \"Bitmap Index Scan\"}]}]}}]";

static void test_newer_shape_and_absent_keys(void **state)
{
	struct explain_figures fig;
	char err[256];

	(void)state;
	assert_int_equal(explain_parse(newer_shape, &fig, err, sizeof(err)), 0);
	assert_float_equal(fig.top_rows, 0.5, 0);
	assert_float_equal(fig.io_read_ms, 1.25, 0);
	assert_float_equal(fig.io_write_ms, 0.5, 0);
	assert_float_equal(fig.execution_ms, EXPLAIN_ABSENT, 0);
	assert_float_equal(fig.planning_ms, EXPLAIN_ABSENT, 0);
	assert_int_equal(fig.bitmap.exact_heap_blocks, 3);
	assert_int_equal(fig.bitmap.lossy_heap_blocks, EXPLAIN_ABSENT);
	assert_int_equal(fig.buffers.shared_hit_blocks, EXPLAIN_ABSENT);
	assert_true(fig.has_bitmap_and);
	assert_false(fig.has_bitmap_or);
	assert_string_equal(fig.node_types, "Bitmap Heap Scan,BitmapAnd,Bitmap Index Scan");
	assert_null(fig.settings);
	assert_int_equal(fig.workers_launched, EXPLAIN_ABSENT);
	explain_free(&fig);
}

static void test_distinct_types_are_whole_names(void **state)
{
	struct explain_figures fig;
	char err[256];
	const char *text =
		"[{\"Plan\": {\"Node Type\": \"Gather Merge\", \"Workers Planned\": 2,"
		" \"Plans\": [{\"Node Type\": \"Gather\", \"Workers Launched\": 1},"
		" {\"Node Type\": \"Gather Merge\", \"Workers Launched\": 2}]}}]";

	(void)state;
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	assert_string_equal(fig.node_types, "Gather Merge,Gather");
	assert_int_equal(fig.workers_planned, 2);
	assert_int_equal(fig.workers_launched, 3);
	explain_free(&fig);
}

/* Per-node phases: the children are the index phase, the rest the heap. */
static const struct {
	const char *file;
	bool   phases;
	double node_ms, index_ms, heap_ms;
	int64_t index_read, heap_read, heap_hit;
	double index_io_ms, heap_io_ms;
} phase_cases[] = {
	/* BitmapOr of two Bitmap Index Scans under the heap scan */
	{ "pg15_bitmap_or_lossy.json", true, 271.995, 64.495, 207.5, 1012, 1536, 11772 - 4458,
	  2.475, 2.676 },
	/* a single Bitmap Index Scan */
	{ "pg15_sparse_exact.json", true, 32.013, 29.834, 2.179, 0, 0, 7204 - 5467, 0.0, 0.0 },
	/* parallel: the node's time is a mean over 3 loops, the bitmap's one */
	{ "pg15_parallel_bitmap_lossy.json", false, 139.748, 45.712, 94.036, 0, 0, 0, 0, 0 },
};

static void test_phases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(phase_cases) / sizeof(phase_cases[0]); i++) {
		struct explain_figures fig;
		char err[256], path[256], *text;

		snprintf(path, sizeof(path), FIXTURES "%s", phase_cases[i].file);
		text = slurp(path);
		assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
		free(text);
		assert_string_equal(fig.bitmap.relation, "test");
		assert_int_equal(fig.bitmap.phases, phase_cases[i].phases);
		assert_float_equal(fig.bitmap.node.total_ms, phase_cases[i].node_ms, 1e-9);
		assert_float_equal(fig.bitmap.index_phase.total_ms, phase_cases[i].index_ms, 1e-9);
		if (phase_cases[i].phases) {
			assert_float_equal(fig.bitmap.heap_phase.total_ms, phase_cases[i].heap_ms, 1e-9);
			assert_float_equal(fig.bitmap.index_phase.total_ms + fig.bitmap.heap_phase.total_ms,
					   fig.bitmap.node.total_ms, 1e-9);
			assert_int_equal(fig.bitmap.index_phase.shared_read_blocks, phase_cases[i].index_read);
			assert_int_equal(fig.bitmap.heap_phase.shared_read_blocks, phase_cases[i].heap_read);
			assert_int_equal(fig.bitmap.heap_phase.shared_hit_blocks, phase_cases[i].heap_hit);
			assert_float_equal(fig.bitmap.index_phase.io_read_ms, phase_cases[i].index_io_ms, 1e-9);
			/* the three parts are the whole execution */
			assert_float_equal(fig.bitmap.index_phase.total_ms + fig.bitmap.heap_phase.total_ms +
					   fig.bitmap.other_ms, fig.execution_ms, 1e-9);
			assert_true(fig.bitmap.other_ms >= 0 && fig.bitmap.other_ms < 0.1 * fig.execution_ms);
			assert_float_equal(fig.bitmap.heap_phase.io_read_ms, phase_cases[i].heap_io_ms, 1e-9);
		}
		explain_free(&fig);
	}
}

static void test_no_bitmap_no_phases(void **state)
{
	struct explain_figures fig;
	char err[256], *text = slurp(FIXTURES "pg15_seqscan.json");
	json_t *j;

	(void)state;
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	free(text);
	assert_false(fig.bitmap.present);
	assert_false(fig.bitmap.phases);
	assert_float_equal(fig.bitmap.heap_phase.total_ms, EXPLAIN_ABSENT, 0);
	j = explain_to_json(&fig);
	assert_true(json_is_null(json_object_get(j, "bitmap")));
	json_decref(j);
	explain_free(&fig);
	/* a heap scan node without children (never printed so) has no phases */
	assert_int_equal(explain_parse("[{\"Plan\": {\"Node Type\": \"Bitmap Heap Scan\","
				       " \"Actual Total Time\": 5, \"Actual Loops\": 1}}]",
				       &fig, err, sizeof(err)), 0);
	assert_false(fig.bitmap.phases);
	explain_free(&fig);
}

static void test_to_json(void **state)
{
	struct explain_figures fig;
	char err[256];
	char *text = slurp(FIXTURES "pg15_bitmap_or_lossy.json");
	json_t *j;

	(void)state;
	assert_int_equal(explain_parse(text, &fig, err, sizeof(err)), 0);
	free(text);
	j = explain_to_json(&fig);
	explain_free(&fig);
	assert_non_null(j);
	assert_float_equal(json_real_value(json_object_get(j, "execution_ms")), 279.808, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "bitmap"),
							    "lossy_heap_blocks")), 8243);
	assert_true(json_is_true(json_object_get(json_object_get(j, "has"), "bitmap_or")));
	assert_true(json_is_null(json_object_get(j, "workers_launched")));
	assert_float_equal(json_real_value(json_object_get(json_object_get(json_object_get(j, "bitmap"),
		"heap_phase"), "total_ms")), 207.5, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(j, "bitmap"),
		"index_phase"), "shared_read_blocks")), 1012);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "settings"),
								"work_mem")), "64kB");
	json_decref(j);
}

static const struct {
	const char *text, *message_part;
} refused[] = {
	{ "[{\"Plan\": {\"Node Type\": ", "not valid JSON" },
	{ "", "not valid JSON" },
	{ NULL, "not valid JSON" },
	{ "{\"rows\": [1, 2, 3]}", "not EXPLAIN" },
	{ "[]", "not EXPLAIN" },
	{ "42", "not EXPLAIN" },
	{ "[{\"Plan\": {\"Total Cost\": 1}}]", "not EXPLAIN" },
	{ "[{\"Plan\": []}]", "not EXPLAIN" },
};

static void test_refused(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct explain_figures fig;
		char err[256] = "";

		assert_int_equal(explain_parse(refused[i].text, &fig, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, refused[i].message_part));
		assert_null(fig.settings);
		explain_free(&fig);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_parallel_bitmap_rows_are_per_loop),
		cmocka_unit_test(test_take_seq),
		cmocka_unit_test(test_newer_shape_and_absent_keys),
		cmocka_unit_test(test_distinct_types_are_whole_names),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_no_bitmap_no_phases),
		cmocka_unit_test(test_to_json),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
