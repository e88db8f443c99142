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
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, false);
	assert_string_equal(buf, "3 17 2000 0 1700000000 250000\n");
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, false);
	assert_string_equal(buf, "3 17 2000 0 1700000000 250000 500\n");
	d.tries = 3;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, true);
	assert_string_equal(buf, "3 17 2000 0 1700000000 250000 500 2\n");
	d.outcome = TPCB_FAILED;
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, false, true);
	assert_string_equal(buf, "3 17 failed 0 1700000000 250000 2\n");
	d.outcome = TPCB_SKIPPED;
	d.end_ns = 5000000007ULL;	/* sub-microsecond parts are cut */
	tpcb_log_tx_line(buf, sizeof(buf), &d, OFFSET_NS, true, false);
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
	struct tpcb_config cfg = { .builtin = TPCB_SELECT_ONLY, .protocol = TPCB_PREPARED,
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
	r.nstmts = 1;
	snprintf(r.stmt[0].sql, sizeof(r.stmt[0].sql), "SELECT 1;");
	r.stmt[0].latency_ms = 0.25;
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
	assert_non_null(strstr(buf, "statement latencies in milliseconds and failures:\n         0.250           0  SELECT 1;\n"));
	assert_null(strstr(buf, "retried"));
	assert_null(strstr(buf, "rate limit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tx_lines),
		cmocka_unit_test(agg_line),
		cmocka_unit_test(progress),
		cmocka_unit_test(report_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
