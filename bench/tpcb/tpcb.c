/*
 * tpcb: names of the builtins and protocols, the checks of a run's config
 * (on its own, then against the server's tables), pgbench's pre-run vacuum,
 * and a run's figures as JSON. The run itself is in tpcb_run.c, init in
 * tpcb_init.c.
 */
#include "bench/tpcb/tpcb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"

static const char *const builtin_names[] = {
	[TPCB_TPCB_LIKE] = "tpcb-like",
	[TPCB_SIMPLE_UPDATE] = "simple-update",
	[TPCB_SELECT_ONLY] = "select-only",
};

static const char *const builtin_labels[] = {	/* as pgbench names them */
	[TPCB_TPCB_LIKE] = "TPC-B (sort of)",
	[TPCB_SIMPLE_UPDATE] = "simple update",
	[TPCB_SELECT_ONLY] = "select only",
};

static const char *const protocol_names[] = {
	[TPCB_SIMPLE] = "simple",
	[TPCB_EXTENDED] = "extended",
	[TPCB_PREPARED] = "prepared",
};

static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; s && i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -EINVAL;
}

const char *tpcb_builtin_name(enum tpcb_builtin b)
{
	return builtin_names[b];
}

const char *tpcb_builtin_label(enum tpcb_builtin b)
{
	return builtin_labels[b];
}

int tpcb_builtin_parse(const char *s, enum tpcb_builtin *out)
{
	int i = lookup(s, builtin_names, 3);

	if (i >= 0)
		*out = (enum tpcb_builtin)i;
	return i < 0 ? i : 0;
}

const char *tpcb_protocol_name(enum tpcb_protocol p)
{
	return protocol_names[p];
}

int tpcb_protocol_parse(const char *s, enum tpcb_protocol *out)
{
	int i = lookup(s, protocol_names, 3);

	if (i >= 0)
		*out = (enum tpcb_protocol)i;
	return i < 0 ? i : 0;
}

/* ---- checks -------------------------------------------------------------- */

static int bad(char *err, size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%s", msg);
	return -EINVAL;
}

static int check_counts(const struct tpcb_config *c, char *err, size_t errlen)
{
	if (c->clients < 1 || c->clients > TPCB_MAX_CLIENTS) {
		snprintf(err, errlen, "-c %d is not allowed; give from 1 to %d clients",
			 c->clients, TPCB_MAX_CLIENTS);
		return -EINVAL;
	}
	if (c->threads < 1 || c->threads > c->clients) {
		snprintf(err, errlen, "-j %d is not allowed; give from 1 to %d threads (at most one per client, -c %d)",
			 c->threads, c->clients, c->clients);
		return -EINVAL;
	}
	if (c->duration_s > 0 && c->transactions > 0)
		return bad(err, errlen, "-T and -t are both given; give one: a duration or a number of transactions per client");
	if (c->duration_s <= 0 && c->transactions <= 0)
		return bad(err, errlen, "give -T SECONDS or -t TRANSACTIONS (per client)");
	if (c->max_tries < 1)
		return bad(err, errlen, "--max-tries must be 1 or more");
	return 0;
}

static int check_modes(const struct tpcb_config *c, char *err, size_t errlen)
{
	if (c->pipeline < 0 || c->pipeline > TPCB_MAX_PIPELINE) {
		snprintf(err, errlen, "--pipeline %d is not allowed; give from 1 to %d",
			 c->pipeline, TPCB_MAX_PIPELINE);
		return -EINVAL;
	}
	if (c->pipeline > 0 && c->protocol == TPCB_SIMPLE)
		return bad(err, errlen, "--pipeline needs -M extended or -M prepared: libpq's pipeline mode does not take the simple protocol");
	if (c->rate_tps < 0 || c->latency_limit_ms < 0 || c->progress_s < 0)
		return bad(err, errlen, "-R, -L and -P take values above 0");
	if (c->aggregate_s > 0 && !c->log_dir)
		return bad(err, errlen, "--aggregate-interval needs -l (it sets the log's format)");
	if (c->aggregate_s > 0 && (c->aggregate_s < 1 || c->aggregate_s != floor(c->aggregate_s))) {
		snprintf(err, errlen, "--aggregate-interval %g is not allowed; give whole seconds, 1 or more",
			 c->aggregate_s);
		return -EINVAL;
	}
	if (c->wait_bound_s <= 0)
		return bad(err, errlen, "the wait bound (--timeout) must be above 0");
	return 0;
}

int tpcb_config_check(const struct tpcb_config *cfg, char *err, size_t errlen)
{
	int ret = check_counts(cfg, err, errlen);

	return ret < 0 ? ret : check_modes(cfg, err, errlen);
}

/* Which tables are missing ("" when none) and the server's version string. */
static int read_tables(PGconn *c, struct tpcb_target *t, char *missing, size_t len,
		       char *err, size_t errlen)
{
	static const char *const names[] = { "pgbench_accounts", "pgbench_branches",
		"pgbench_tellers", "pgbench_history" };
	PGresult *r = pgutil_query(c, sql_text("tpcb/tables.sql"), 0, NULL, err, errlen);
	size_t used = 0;

	if (!r)
		return -EIO;
	missing[0] = '\0';
	for (int i = 0; i < 4; i++)
		if (strcmp(PQgetvalue(r, 0, i), "t"))
			used += (size_t)snprintf(missing + used, len - used, "%s%s",
						 used ? ", " : "", names[i]);
	snprintf(t->server_version_str, sizeof(t->server_version_str), "%s", PQgetvalue(r, 0, 4));
	t->server_version = PQserverVersion(c);
	PQclear(r);
	return 0;
}

static int read_scale(PGconn *c, struct tpcb_target *t, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("tpcb/scale.sql"), 0, NULL, err, errlen);

	if (!r)
		return -EIO;
	t->scale = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	if (t->scale < 1)
		return bad(err, errlen, "pgbench_branches is empty: make the tables again with eicbench tpcb init");
	return 0;
}

static int check_target(PGconn *c, const struct tpcb_config *cfg,
			struct tpcb_target *t, char *err, size_t errlen)
{
	char missing[128];
	int ret = read_tables(c, t, missing, sizeof(missing), err, errlen);

	if (ret == 0 && missing[0]) {
		snprintf(err, errlen, "the database has no %s: make pgbench's tables first with eicbench tpcb init -s SCALE",
			 missing);
		return -EINVAL;
	}
	if (ret == 0)
		ret = read_scale(c, t, err, errlen);
	if (ret == 0 && cfg->scale && cfg->scale != t->scale) {
		snprintf(err, errlen, "-s %lld: the tables hold scale %lld (pgbench_branches has %lld rows); leave -s out, or make them again with eicbench tpcb init -s %lld",
			 cfg->scale, t->scale, t->scale, cfg->scale);
		return -EINVAL;
	}
	if (ret == 0 && cfg->pipeline > 0 && t->server_version < 140000) {
		snprintf(err, errlen, "--pipeline needs PostgreSQL 14 or later; the server is %s",
			 t->server_version_str);
		return -EINVAL;
	}
	return ret;
}

int tpcb_target_check(const struct server *s, const struct tpcb_config *cfg,
		      struct tpcb_target *t, char *err, size_t errlen)
{
	PGconn *c = server_connect(s, NULL, err, errlen);
	int ret;

	if (!c)
		return -EIO;
	memset(t, 0, sizeof(*t));
	ret = check_target(c, cfg, t, err, errlen);
	PQfinish(c);
	return ret;
}

int tpcb_vacuum(const struct server *s, char *err, size_t errlen)
{
	PGconn *c = server_connect(s, NULL, err, errlen);
	int ret = c ? pgutil_exec_file(c, "tpcb/run_vacuum.sql", err, errlen) : -EIO;

	PQfinish(c);
	return ret;
}

/* ---- figures ------------------------------------------------------------- */

double tpcb_result_tps(const struct tpcb_result *r)
{
	return r->run_s > 0 ? (double)r->committed / r->run_s : 0.0;
}

static json_t *latency_json(const struct hist *h)
{
	struct hist_summary s;

	hist_summarize(h, &s);
	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
			 "mean", s.mean_ns / 1e6, "stddev", s.stddev_ns / 1e6,
			 "min", (double)s.min_ns / 1e6, "p50", (double)s.p50_ns / 1e6,
			 "p90", (double)s.p90_ns / 1e6, "p99", (double)s.p99_ns / 1e6,
			 "p99.9", (double)s.p999_ns / 1e6, "max", (double)s.max_ns / 1e6);
}

static json_t *statements_json(const struct tpcb_result *r)
{
	json_t *a = json_array();

	for (int i = 0; i < r->nstmts; i++)
		json_array_append_new(a, json_pack("{s:s, s:I, s:f, s:I, s:I}",
			"sql", r->stmt[i].sql, "count", (json_int_t)r->stmt[i].count,
			"latency_ms", r->stmt[i].latency_ms,
			"failures", (json_int_t)r->stmt[i].failures,
			"retries", (json_int_t)r->stmt[i].retries));
	return a;
}

static json_t *options_json(const struct tpcb_config *c)
{
	return json_pack("{s:s, s:s, s:i, s:i, s:f, s:I, s:i, s:f, s:f, s:i, s:I, s:b, s:f}",
			 "builtin", tpcb_builtin_name(c->builtin),
			 "protocol", tpcb_protocol_name(c->protocol),
			 "clients", c->clients, "threads", c->threads,
			 "duration_s", c->duration_s, "transactions_per_client", (json_int_t)c->transactions,
			 "pipeline", c->pipeline, "rate_tps", c->rate_tps,
			 "latency_limit_ms", c->latency_limit_ms, "max_tries", c->max_tries,
			 "seed", (json_int_t)c->seed, "log", c->log_dir != NULL,
			 "aggregate_interval_s", c->aggregate_s);
}

json_t *tpcb_result_json(const struct tpcb_config *cfg,
			 const struct tpcb_target *t, const struct tpcb_result *r)
{
	uint64_t total = r->committed + r->failed;
	double cpu = r->cpu_user_s + r->cpu_sys_s;
	json_t *j = json_pack("{s:s, s:o, s:I, s:i, s:s}", "workload", "tpcb",
			      "options", options_json(cfg), "scale", (json_int_t)t->scale,
			      "server_version", t->server_version,
			      "server_version_str", t->server_version_str);

	json_object_update_new(j, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"transactions", (json_int_t)r->committed, "failed", (json_int_t)r->failed,
		"serialization_failures", (json_int_t)r->serialization_failures,
		"deadlock_failures", (json_int_t)r->deadlock_failures,
		"retried", (json_int_t)r->retried, "retries", (json_int_t)r->retries,
		"skipped", (json_int_t)r->skipped, "late", (json_int_t)r->late,
		"expected", (json_int_t)r->expected));
	json_object_update_new(j, json_pack("{s:f, s:f, s:f, s:o, s:{s:f, s:f, s:f, s:f}}",
		"connect_ms", r->connect_ms, "run_s", r->run_s, "tps", tpcb_result_tps(r),
		"latency_ms", latency_json(&r->latency),
		"cpu", "user_s", r->cpu_user_s, "sys_s", r->cpu_sys_s, "total_s", cpu,
		"us_per_transaction", total ? cpu * 1e6 / (double)total : 0.0));
	json_object_set_new(j, "lag_ms", cfg->rate_tps > 0 ?
		json_pack("{s:f, s:f}", "mean", r->lag_count ? r->lag_sum_ms / (double)r->lag_count : 0.0,
			  "max", r->lag_max_ms) : json_null());
	json_object_update_new(j, json_pack("{s:i, s:s?, s:b}", "aborted_clients", r->aborted_clients,
		"abort_message", r->aborted_clients ? r->abort_msg : NULL, "interrupted", r->interrupted));
	if (cfg->per_statement)
		json_object_set_new(j, "statements", statements_json(r));
	return j;
}
