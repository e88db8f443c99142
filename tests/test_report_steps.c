/*
 * test_report_steps: a configuration sweep's folder as the seeds' table
 * (tests/fixtures/confsweep: four cumulative TPC-B steps, three runs each,
 * a torn last record), and the workload table it reads its figures from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/report_steps.h"
#include "bench/pg/sqltext.h"
#include "bench/record/figures.h"
#include "bench/workloads/workloads.h"
#include "bench/workloads/workload_tpcb.h"

#define F "tests/fixtures/confsweep"

static char *render(const char *dir)
{
	struct doc d = { 0 };
	char err[1024] = "", *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_steps_document(dir, &d, err, sizeof(err)), 0);
	assert_int_equal(doc_text_out(&d, f), 0);
	fclose(f);
	doc_free(&d);
	return buf;
}

/* Where the line of TEXT that starts with NAME (after spaces) begins. */
static const char *line_of(const char *text, const char *name)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		while (*q == ' ')
			q++;
		if (!strncmp(q, name, strlen(name)) && q[strlen(name)] == ' ')
			return q;
	}
	return NULL;
}

/* That line alone, in BUF (a check on it can see nothing past it). */
static const char *row(const char *text, const char *name, char *buf, size_t len)
{
	const char *p = line_of(text, name);

	if (!p)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	return buf;
}

/* The cells of LINE, split at runs of two spaces or more, into CELL. */
static int cells(const char *line, char cell[][64], int max)
{
	int n = 0;

	while (*line == ' ')
		line++;
	while (*line && n < max) {
		const char *end = strstr(line, "  ");
		size_t k = end ? (size_t)(end - line) : strcspn(line, "\n");

		snprintf(cell[n++], 64, "%.*s", (int)k, line);
		line += k;
		while (*line == ' ')
			line++;
		if (*line == '\n')
			break;
	}
	return n;
}

/* The cell of the steps table in STEP's row, under the heading COLUMN. */
static const char *cell(const char *text, const char *step, const char *column, char *buf)
{
	char head[16][64], r[16][64], line[512];
	int nh, nr;

	assert_non_null(row(text, "step", line, sizeof(line)));
	nh = cells(line, head, 16);
	assert_non_null(row(text, step, line, sizeof(line)));
	nr = cells(line, r, 16);
	for (int i = 0; i < nh && i < nr; i++)
		if (!strcmp(head[i], column))
			return strcpy(buf, r[i]);
	fail_msg("no column '%s' in the row of '%s'", column, step);
	return NULL;
}

static void steps_in_the_files_order(void **state)
{
	char *t = render(F);
	const char *a = line_of(t, "defaults"), *b = line_of(t, "fsync off"), *c = line_of(t, "shared_buffers 1GB"),
		   *d = line_of(t, "fsync on");

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_non_null(d);
	assert_true(a < b && b < c && c < d);
	free(t);
}

static void medians_ranges_and_gains(void **state)
{
	char *t = render(F), buf[64];

	(void)state;
	/* fsync off: runs 1480, 1470, 1490: median 1480, 10.50x the first's 141 */
	assert_string_equal(cell(t, "fsync off", "tps", buf), "1480.0");
	assert_string_equal(cell(t, "fsync off", "min-max", buf), "1470.0-1490.0");
	assert_string_equal(cell(t, "fsync off", "x previous", buf), "10.50");
	assert_string_equal(cell(t, "fsync off", "x first", buf), "10.50");
	assert_string_equal(cell(t, "defaults", "tps", buf), "141.0");
	assert_string_equal(cell(t, "defaults", "runs", buf), "3");
	/* what each step set anew, not what it carried */
	assert_string_equal(cell(t, "shared_buffers 1GB", "what it set", buf), "shared_buffers = 1GB");
	assert_string_equal(cell(t, "fsync on", "what it set", buf), "fsync = on");
	/* 1500 / 1480 and 186 / 1500 against the step before, 186 / 141 the first */
	assert_string_equal(cell(t, "shared_buffers 1GB", "x previous", buf), "1.01");
	assert_string_equal(cell(t, "fsync on", "x previous", buf), "0.12");
	assert_string_equal(cell(t, "fsync on", "x first", buf), "1.32");
	free(t);
}

static void best_step_judged_by_its_runs(void **state)
{
	char *t = render(F);

	(void)state;
	assert_non_null(strstr(t, "at step 'shared_buffers 1GB'"));
	assert_non_null(strstr(t, "Every run of it did better than every run of"));
	/* step by step: shared_buffers 1GB's runs overlap fsync off's */
	for (char *nl = t; (nl = strchr(nl, '\n')) != NULL;)
		*nl = ' ';	/* the text is wrapped */
	assert_non_null(strstr(t, "Against the step before it, only 'fsync off' (10.50x) and 'fsync on' (0.12x) moved tps beyond the runs' spread"));
	assert_non_null(strstr(t, "The other steps' runs overlap those of the step before them"));
	assert_non_null(strstr(t, "two steps that do not differ come out apart this way"));
	free(t);
}

static void warnings_counted_once_each(void **state)
{
	char *t = render(F), buf[64];

	(void)state;
	assert_non_null(strstr(t, "3x LOG:  checkpoints are occurring too frequently (9 seconds apart)"));
	assert_null(strstr(t, "HINT:"));
	assert_string_equal(cell(t, "fsync off", "warnings", buf), "3");
	assert_string_equal(cell(t, "defaults", "warnings", buf), "0");
	assert_non_null(strstr(t, "torn"));
	free(t);
}

static void not_a_confsweep(void **state)
{
	struct doc d = { 0 };
	char err[1024] = "";

	(void)state;
	assert_true(report_steps_is(F));
	assert_false(report_steps_is("tests/fixtures/sweep/clear"));
	assert_int_equal(report_steps_document("tests/fixtures/nosuch", &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a confsweep's folder"));
	doc_free(&d);
}

static void the_workload_table(void **state)
{
	int n = 0;

	(void)state;
	for (const struct workload *const *w = workload_table; *w; w++, n++) {
		assert_ptr_equal(workload_find((*w)->name), *w);
		assert_non_null((*w)->check);
		assert_non_null((*w)->trial);
		assert_non_null((*w)->plan_json);
		assert_non_null((*w)->resume);
		assert_non_null((*w)->figures[0].path);
		assert_ptr_equal(record_figures((*w)->name, NULL), (*w)->figures);
		for (const struct record_figure *f = (*w)->figures; f->path; f++)
			assert_true(f->label && *f->label && f->unit && *f->unit);
		assert_non_null(sql_text((*w)->relations_sql));
	}
	assert_int_equal(n, 2);
	assert_null(workload_find("tpcc"));
	assert_string_equal(workload_tpcb.figures[0].path, "tps");
	assert_false(workload_tpcb.figures[0].lower_is_better);
	assert_true(workload_bitmap.figures[0].lower_is_better);
	assert_true(workload_tpcb.makes_tables && workload_tpcb.warms_up);
	assert_false(workload_bitmap.makes_tables || workload_bitmap.warms_up);
}

static void log_lines_that_count(void **state)
{
	(void)state;
	assert_true(record_log_is_warning("2026-12-01 UTC [1] WARNING:  there is no transaction in progress"));
	assert_true(record_log_is_warning("... [1] LOG:  checkpoints are occurring too frequently (2 seconds apart)"));
	assert_true(record_log_is_warning("... [1] ERROR:  could not serialize access"));
	assert_true(record_log_is_warning("... [1] FATAL:  terminating connection"));
	assert_false(record_log_is_warning("... [1] LOG:  checkpoint starting: wal"));
	assert_false(record_log_is_warning("... [1] HINT:  Consider increasing max_wal_size"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(steps_in_the_files_order),
		cmocka_unit_test(medians_ranges_and_gains),
		cmocka_unit_test(best_step_judged_by_its_runs),
		cmocka_unit_test(warnings_counted_once_each),
		cmocka_unit_test(not_a_confsweep),
		cmocka_unit_test(the_workload_table),
		cmocka_unit_test(log_lines_that_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
