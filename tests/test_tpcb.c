/*
 * test_tpcb: the run config's checks (each refusal names the value and
 * what is allowed, pgbench's rules among them), the builtin and protocol
 * names, and the figures' JSON.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "bench/tpcb/tpcb.h"

static struct tpcb_scripts builtin_set, waiting_set, piped_set;

static int setup(void **state)
{
	char err[256];

	(void)state;
	tpcb_scripts_init(&builtin_set);
	tpcb_scripts_init(&waiting_set);
	tpcb_scripts_init(&piped_set);
	if (tpcb_scripts_add_builtin(&builtin_set, TPCB_TPCB_LIKE, 1, err, sizeof(err)) < 0 ||
	    tpcb_scripts_finish(&builtin_set, err, sizeof(err)) < 0 ||
	    tpcb_scripts_add_text(&waiting_set, "w.sql", "SELECT 1 AS one \\gset\n\\sleep 1ms\n", 1, err, sizeof(err)) < 0 ||
	    tpcb_scripts_finish(&waiting_set, err, sizeof(err)) < 0 ||
	    tpcb_scripts_add_text(&piped_set, "p.sql", "\\startpipeline\nSELECT 1;\n\\endpipeline\n", 1, err, sizeof(err)) < 0 ||
	    tpcb_scripts_finish(&piped_set, err, sizeof(err)) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tpcb_scripts_free(&builtin_set);
	tpcb_scripts_free(&waiting_set);
	tpcb_scripts_free(&piped_set);
	return 0;
}

static struct tpcb_config good(void)
{
	return (struct tpcb_config){ .scripts = &builtin_set, .protocol = TPCB_PREPARED,
		.clients = 4, .threads = 2, .transactions = 200, .max_tries = 1,
		.wait_bound_s = 120 };
}

static void accepts_good(void **state)
{
	struct tpcb_config c = good();
	char err[512] = "";

	(void)state;
	assert_int_equal(tpcb_config_check(&c, err, sizeof(err)), 0);
	c.transactions = 0;
	c.duration_s = 20;
	c.pipeline = 8;
	c.rate_tps = 100;
	c.latency_limit_ms = 5;
	c.log_dir = "x";
	c.aggregate_s = 2;
	c.clients = c.threads = 3;
	assert_int_equal(tpcb_config_check(&c, err, sizeof(err)), 0);
}

static void set_c0(struct tpcb_config *c) { c->clients = 0; }
static void set_j_gt_c(struct tpcb_config *c) { c->threads = 5; }
static void set_both(struct tpcb_config *c) { c->duration_s = 10; }
static void set_neither(struct tpcb_config *c) { c->transactions = 0; }
static void set_pipe_simple(struct tpcb_config *c) { c->pipeline = 4; c->protocol = TPCB_SIMPLE; }
static void set_pipe_big(struct tpcb_config *c) { c->pipeline = TPCB_MAX_PIPELINE + 1; }
static void set_rate(struct tpcb_config *c) { c->rate_tps = -1; }
static void set_limit(struct tpcb_config *c) { c->latency_limit_ms = -5; }
static void set_agg_nolog(struct tpcb_config *c) { c->aggregate_s = 1; }
static void set_agg_frac(struct tpcb_config *c) { c->aggregate_s = 1.5; c->log_dir = "x"; }
static void set_tries(struct tpcb_config *c) { c->max_tries = -1; }
static void set_unlimited(struct tpcb_config *c) { c->max_tries = 0; }
static void set_agg_long(struct tpcb_config *c) { c->transactions = 0; c->duration_s = 2; c->aggregate_s = 3; c->log_dir = "x"; }
static void set_agg_mult(struct tpcb_config *c) { c->transactions = 0; c->duration_s = 5; c->aggregate_s = 3; c->log_dir = "x"; }
static void set_sampling(struct tpcb_config *c) { c->sampling_rate = 0.5; }
static void set_sampling_agg(struct tpcb_config *c) { c->sampling_rate = 0.5; c->aggregate_s = 1; c->log_dir = "x"; }
static void set_sampling_big(struct tpcb_config *c) { c->sampling_rate = 1.5; c->log_dir = "x"; }
static void set_prefix(struct tpcb_config *c) { c->log_prefix = "p"; }
static void set_stamp(struct tpcb_config *c) { c->progress_timestamp = true; }
static void set_pipe_wait(struct tpcb_config *c) { c->pipeline = 2; c->scripts = &waiting_set; }
static void set_piped_simple(struct tpcb_config *c) { c->protocol = TPCB_SIMPLE; c->scripts = &piped_set; }
static void set_pipe_connect(struct tpcb_config *c) { c->pipeline = 2; c->connect_each = true; }

static const struct {
	void (*set)(struct tpcb_config *c);
	const char *msg;
} cases[] = {
	{ set_c0, "-c 0 is not allowed; give from 1 to 1000 clients" },
	{ set_j_gt_c, "-j 5 is not allowed; give from 1 to 4 threads" },
	{ set_both, "specify either a number of transactions (-t) or a duration (-T), not both" },
	{ set_neither, "give -T SECONDS or -t TRANSACTIONS" },
	{ set_pipe_simple, "--pipeline needs -M extended or -M prepared" },
	{ set_pipe_big, "--pipeline 1001 is not allowed" },
	{ set_rate, "-R, -L and -P take values above 0" },
	{ set_limit, "-R, -L and -P take values above 0" },
	{ set_agg_nolog, "log aggregation (--aggregate-interval) is allowed only when logging transactions (-l)" },
	{ set_agg_frac, "--aggregate-interval 1.5 is not allowed; give whole seconds" },
	{ set_tries, "--max-tries must be 0 (no limit) or more" },
	{ set_unlimited, "an unlimited number of transaction tries (--max-tries 0) can only be used with --latency-limit or a duration (-T)" },
	{ set_agg_long, "number of seconds for aggregation (3) must not be higher than test duration (-T 2)" },
	{ set_agg_mult, "duration (-T 5) must be a multiple of aggregation interval (3)" },
	{ set_sampling, "log sampling (--sampling-rate) is allowed only when logging transactions (-l)" },
	{ set_sampling_agg, "cannot be used at the same time" },
	{ set_sampling_big, "invalid sampling rate" },
	{ set_prefix, "log file prefix (--log-prefix) is allowed only when logging transactions (-l)" },
	{ set_stamp, "--progress-timestamp is allowed only under --progress" },
	{ set_pipe_wait, "script \"w.sql\" waits on the server or a timer" },
	{ set_piped_simple, "cannot use pipeline mode with the simple query protocol" },
	{ set_pipe_connect, "--pipeline and -C are both given" },
};

static void refuses_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tpcb_config c = good();
		char err[512] = "";

		cases[i].set(&c);
		assert_int_equal(tpcb_config_check(&c, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
	}
}

static void names(void **state)
{
	enum tpcb_builtin b;
	enum tpcb_protocol p;

	char err[256];

	(void)state;
	assert_int_equal(tpcb_builtin_find("select-only", &b, err, sizeof(err)), 0);
	assert_int_equal(b, TPCB_SELECT_ONLY);
	assert_int_equal(tpcb_builtin_find("si", &b, err, sizeof(err)), 0);	/* pgbench's prefixes */
	assert_int_equal(b, TPCB_SIMPLE_UPDATE);
	assert_int_equal(tpcb_builtin_find("t", &b, err, sizeof(err)), 0);
	assert_int_equal(b, TPCB_TPCB_LIKE);
	assert_int_equal(tpcb_builtin_find("s", &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ambiguous builtin name: 2 builtin scripts found for prefix \"s\""));
	assert_int_equal(tpcb_builtin_find("tpcc", &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no builtin script found for name \"tpcc\""));
	assert_string_equal(tpcb_builtin_name(TPCB_TPCB_LIKE), "tpcb-like");
	assert_string_equal(tpcb_builtin_desc(TPCB_TPCB_LIKE), "<builtin: TPC-B (sort of)>");
	assert_int_equal(tpcb_protocol_parse("extended", &p), 0);
	assert_int_equal(p, TPCB_EXTENDED);
	assert_int_equal(tpcb_protocol_parse("Prepared", &p), -EINVAL);
	assert_string_equal(tpcb_protocol_name(TPCB_PREPARED), "prepared");
}

static void result_json(void **state)
{
	static struct tpcb_result r;
	struct tpcb_config c = good();
	struct tpcb_target t = { .scale = 3, .server_version = 150018,
		.server_version_str = "15.18" };
	json_t *j;

	(void)state;
	hist_init(&r.latency);
	hist_add(&r.latency, 2000000);
	hist_add(&r.latency, 4000000);
	r.committed = 2;
	r.failed = 2;
	r.run_s = 0.5;
	r.cpu_user_s = 0.00001;
	r.cpu_sys_s = 0.00003;
	c.rate_tps = 10;
	r.lag_count = 2;
	r.lag_sum_ms = 1;
	r.lag_max_ms = 0.75;
	j = tpcb_result_json(&c, &t, &r);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "workload")), "tpcb");
	assert_int_equal(json_integer_value(json_object_get(j, "transactions")), 2);
	assert_float_equal(json_real_value(json_object_get(j, "tps")), 4.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(json_object_get(j, "latency_ms"), "mean")),
			   3.0, 1e-9);
	assert_float_equal(json_real_value(json_object_get(json_object_get(j, "cpu"), "us_per_transaction")),
			   10.0, 1e-6);
	assert_float_equal(json_real_value(json_object_get(json_object_get(j, "lag_ms"), "mean")),
			   0.5, 1e-9);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "options"), "protocol")),
			    "prepared");
	assert_int_equal(json_integer_value(json_object_get(j, "scale")), 3);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "options"), "builtin")),
			    "tpcb-like");
	assert_int_equal(json_array_size(json_object_get(json_object_get(j, "options"), "scripts")), 1);
	assert_null(json_object_get(j, "statements"));
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_good),
		cmocka_unit_test(refuses_bad),
		cmocka_unit_test(names),
		cmocka_unit_test(result_json),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
