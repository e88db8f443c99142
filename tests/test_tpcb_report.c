/*
 * test_tpcb_report: pgbench's log line formats (per transaction with and
 * without lag and retries, failed and skipped ones; the aggregate line with
 * all fifteen columns), the -P line, and the report's pgbench layout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bench/tpcb/tpcb_report.h"

/* Monotonic 5 s is Unix time 1700000000.250000 with this offset. */
#define OFFSET_NS (1700000000250000000LL - 5000000000LL)

static void tx_lines(void **state)
{
	struct tpcb_done d = { .client = 3, .tx_no = 17, .outcome = TPCB_OK,
		.sched_ns = 4998000000ULL, .start_ns = 4998500000ULL,
		.end_ns = 5000000000ULL, .tries = 1 };
	char buf[256];

	(void)state;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, false, false);
	assert_string_equal(buf, "3 17 2000 0 1700000000 250000\n");
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, false, false);
	assert_string_equal(buf, "3 17 2000 0 1700000000 250000 500\n");
	d.tries = 3;
	d.script = 2;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, true, false);
	assert_string_equal(buf, "3 17 2000 2 1700000000 250000 500 2\n");
	d.script = 0;
	d.outcome = TPCB_FAILED;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, true, false);
	assert_string_equal(buf, "3 17 failed 0 1700000000 250000 2\n");
	d.fail = TPCB_FAIL_DEADLOCK;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, true, true);
	assert_string_equal(buf, "3 17 deadlock 0 1700000000 250000 2\n");
	d.fail = TPCB_FAIL_SERIALIZATION;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, false, true);
	assert_string_equal(buf, "3 17 serialization 0 1700000000 250000\n");
	d.outcome = TPCB_SKIPPED;
	d.end_ns = 5000000007ULL;	/* sub-microsecond parts are cut */
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, false, true);
	assert_string_equal(buf, "3 17 skipped 0 1700000000 250000 500\n");
}

static void agg_line(void **state)
{
	struct tpcb_agg a;
	char buf[256];
	int fields = 0, n;

	(void)state;
	tpcb_agg_reset(&a, 1700000000);
	n = tpcb_log_agg_line(buf, sizeof(buf), &a);
	assert_int_equal(n, (int)strlen(buf));
	assert_string_equal(buf, "1700000000 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	a = (struct tpcb_agg){ .start_s = 1700000001, .count = 2, .lat_sum = 3000.4,
		.lat_sum2 = 5000000, .lat_min = 1000, .lat_max = 2000.5, .lag_sum = 30,
		.lag_sum2 = 500, .lag_min = 10, .lag_max = 20, .skipped = 1, .retried = 2,
		.retries = 3, .ser_failures = 4, .dl_failures = 5 };
	tpcb_log_agg_line(buf, sizeof(buf), &a);
	assert_string_equal(buf, "1700000001 2 3000 5000000 1000 2000 30 500 10 20 1 2 3 4 5\n");
	for (char *p = strtok(buf, " \n"); p; p = strtok(NULL, " \n"))
		fields++;
	assert_int_equal(fields, 15);
}

static void progress(void **state)
{
	struct tpcb_config cfg = { .max_tries = 1 };
	struct tpcb_progress p = { .elapsed_s = 5, .tps = 3201.26, .lat_ms = 1.2494,
		.stddev_ms = 0.4123, .lag_ms = 0.05, .failed = 2, .skipped = 7,
		.retried = 3, .retries = 4 };
	char buf[256];

	(void)state;
	tpcb_progress_line(buf, sizeof(buf), &cfg, &p);
	assert_string_equal(buf, "progress: 5.0 s, 3201.3 tps, lat 1.249 ms stddev 0.412, 2 failed");
	cfg.rate_tps = 100;
	cfg.latency_limit_ms = 10;
	cfg.max_tries = 3;
	tpcb_progress_line(buf, sizeof(buf), &cfg, &p);
	assert_string_equal(buf, "progress: 5.0 s, 3201.3 tps, lat 1.249 ms stddev 0.412, 2 failed, lag 0.050 ms, 7 skipped, 3 retried, 4 retries");
}

static void report_layout(void **state)
{
	static struct tpcb_result r;
	static struct tpcb_scripts set;
	static struct tpcb_cmd_result cmds[2];
	char err[256];
	struct tpcb_config cfg = { .scripts = &set, .protocol = TPCB_PREPARED,
		.clients = 8, .threads = 2, .duration_s = 20, .max_tries = 1,
		.per_statement = true };
	struct tpcb_target t = { .scale = 20, .server_version = 150018,
		.server_version_str = "15.18" };
	char buf[8192] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	hist_init(&r.latency);
	for (int i = 1; i <= 1000; i++)
		hist_add(&r.latency, (uint64_t)i * 1000);
	r.committed = 1000;
	r.run_s = 2;
	r.connect_ms = 1.5;
	r.cpu_user_s = 0.001;
	r.cpu_sys_s = 0.002;
	tpcb_scripts_init(&set);
	assert_int_equal(tpcb_scripts_add_builtin(&set, TPCB_SELECT_ONLY, 1, err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);
	r.ncmds = 2;
	r.cmds = cmds;
	snprintf(cmds[0].line, sizeof(cmds[0].line), "\\set aid random(1, 100000 * :scale)");
	snprintf(cmds[1].line, sizeof(cmds[1].line), "SELECT 1;");
	cmds[0].latency_ms = 0.001;
	cmds[1].latency_ms = 0.25;
	tpcb_report_print(f, &cfg, &t, &r);
	fclose(f);
	assert_non_null(strstr(buf, "transaction type: <builtin: select only>\n"));
	assert_non_null(strstr(buf, "scaling factor: 20\nquery mode: prepared\nnumber of clients: 8\nnumber of threads: 2\n"));
	assert_non_null(strstr(buf, "duration: 20 s\n"));
	assert_non_null(strstr(buf, "number of transactions actually processed: 1000\n"));
	assert_non_null(strstr(buf, "number of failed transactions: 0 (0.000%)\n"));
	assert_non_null(strstr(buf, "latency average = 0.500 ms\n"));
	assert_non_null(strstr(buf, "latency percentiles: p50 0.50"));
	assert_non_null(strstr(buf, "initial connection time = 1.500 ms\n"));
	assert_non_null(strstr(buf, "tps = 500.000000 (without initial connection time)\n"));
	assert_non_null(strstr(buf, "(3.00 µs per transaction)"));
	assert_non_null(strstr(buf, "statement latencies in milliseconds and failures:\n"
			       "         0.001           0  \\set aid random(1, 100000 * :scale)\n"
			       "         0.250           0  SELECT 1;\n"));
	assert_null(strstr(buf, "retried"));
	assert_null(strstr(buf, "rate limit"));
	assert_null(strstr(buf, "SQL script 1"));
	tpcb_scripts_free(&set);
}

/* Several scripts: each with its share and figures, pgbench's lines. */
static void report_scripts(void **state)
{
	static struct tpcb_result r;
	static struct tpcb_scripts set;
	static struct tpcb_script_result per[2];
	char err[256], buf[8192] = "";
	struct tpcb_config cfg = { .scripts = &set, .clients = 1, .threads = 1, .transactions = 10,
		.max_tries = 2, .failures_detailed = true };
	struct tpcb_target t = { .scale = 1, .server_version_str = "15.18" };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	tpcb_scripts_init(&set);
	assert_int_equal(tpcb_scripts_add_builtin(&set, TPCB_SELECT_ONLY, 3, err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_add_text(&set, "mine.sql", "SELECT 1;\n", 1, err, sizeof(err)), 0);
	assert_int_equal(tpcb_scripts_finish(&set, err, sizeof(err)), 0);
	hist_init(&r.latency);
	r.committed = 8;
	r.failed = 2;
	r.deadlock_failures = 2;
	r.expected = 10;
	r.run_s = 1;
	r.nscripts = 2;
	r.scripts = per;
	per[0] = (struct tpcb_script_result){ .committed = 6, .lat_mean_ms = 1.5 };
	per[1] = (struct tpcb_script_result){ .committed = 2, .failed = 2, .deadlock_failures = 2 };
	tpcb_report_print(f, &cfg, &t, &r);
	fclose(f);
	assert_non_null(strstr(buf, "transaction type: multiple scripts\n"));
	assert_non_null(strstr(buf, "number of transactions actually processed: 8/10\n"));
	assert_non_null(strstr(buf, "number of failed transactions: 2 (20.000%)\n"
			       "number of serialization failures: 0 (0.000%)\n"
			       "number of deadlock failures: 2 (20.000%)\n"));
	assert_non_null(strstr(buf, "SQL script 1: <builtin: select only>\n - weight: 3 (targets 75.0% of total)\n"
			       " - 6 transactions (60.0% of total)\n"
			       " - number of transactions actually processed: 6 (tps = 6.000000)\n"));
	assert_non_null(strstr(buf, "SQL script 2: mine.sql\n - weight: 1 (targets 25.0% of total)\n"));
	assert_non_null(strstr(buf, " - number of deadlock failures: 2 (50.000%)\n"));
	assert_non_null(strstr(buf, " - latency average = 1.500 ms\n"));
	tpcb_scripts_free(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tx_lines),
		cmocka_unit_test(agg_line),
		cmocka_unit_test(progress),
		cmocka_unit_test(report_layout),
		cmocka_unit_test(report_scripts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
