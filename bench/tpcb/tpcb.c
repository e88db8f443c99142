/*
 * tpcb: protocol names, the checks of a run's config (on its own, then
 * against the server's tables), pgbench's pre-run vacuum, and a run's
 * figures as JSON. The run itself is in tpcb_run.c, init in tpcb_init.c,
 * the scripts in tpcb_script.c.
 */
#include "bench/tpcb/tpcb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"

static const char *const protocol_names[] = {
	[TPCB_SIMPLE] = "simple",
	[TPCB_EXTENDED] = "extended",
	[TPCB_PREPARED] = "prepared",
};

const char *tpcb_protocol_name(enum tpcb_protocol p)
{
	return protocol_names[p];
}

int tpcb_protocol_parse(const char *s, enum tpcb_protocol *out)
{
	for (int i = 0; s && i < 3; i++)
		if (!strcmp(s, protocol_names[i])) {
			*out = (enum tpcb_protocol)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- checks -------------------------------------------------------------- */

static int tpcb_refused(char *err, size_t errlen, const char *msg)
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
		return tpcb_refused(err, errlen, "specify either a number of transactions (-t) or a duration (-T), not both");
	if (c->duration_s <= 0 && c->transactions <= 0)
		return tpcb_refused(err, errlen, "give -T SECONDS or -t TRANSACTIONS (per client)");
	if (c->max_tries < 0)
		return tpcb_refused(err, errlen, "--max-tries must be 0 (no limit) or more");
	if (c->max_tries == 0 && c->latency_limit_ms <= 0 && c->duration_s <= 0)
		return tpcb_refused(err, errlen, "an unlimited number of transaction tries (--max-tries 0) can only be used with --latency-limit or a duration (-T)");
	return 0;
}

/* Does any script wait on a result or a timer, or run its own pipeline? */
static const struct tpcb_script *waiting_script(const struct tpcb_scripts *set, bool pipe_only)
{
	for (int i = 0; i < set->n; i++) {
		const struct tpcb_script *sc = &set->s[i];

		for (int k = 0; k < sc->ncmds; k++)
			if (sc->cmd[k].kind == TPCB_STARTPIPE || (!pipe_only && sc->waits))
				return sc;
	}
	return NULL;
}

static int check_pipeline(const struct tpcb_config *c, char *err, size_t errlen)
{
	const struct tpcb_script *w;

	if (c->pipeline < 0 || c->pipeline > TPCB_MAX_PIPELINE) {
		snprintf(err, errlen, "--pipeline %d is not allowed; give from 1 to %d",
			 c->pipeline, TPCB_MAX_PIPELINE);
		return -EINVAL;
	}
	if (c->pipeline > 0 && c->protocol == TPCB_SIMPLE)
		return tpcb_refused(err, errlen, "--pipeline needs -M extended or -M prepared: libpq's pipeline mode does not take the simple protocol");
	if (c->pipeline > 0 && c->connect_each)
		return tpcb_refused(err, errlen, "--pipeline and -C are both given: a pipeline needs its connection to stay; give one");
	if (c->pipeline > 0 && (w = waiting_script(c->scripts, false))) {
		snprintf(err, errlen, "--pipeline keeps several transactions in flight, but script \"%.200s\" waits on the server or a timer (\\gset, \\aset, \\sleep or a pipeline of its own); run it without --pipeline",
			 w->name);
		return -EINVAL;
	}
	if (c->protocol == TPCB_SIMPLE && (w = waiting_script(c->scripts, true))) {
		snprintf(err, errlen, "script \"%.200s\" has \\startpipeline: cannot use pipeline mode with the simple query protocol; give -M extended or -M prepared",
			 w->name);
		return -EINVAL;
	}
	return 0;
}

static int check_logs(const struct tpcb_config *c, char *err, size_t errlen)
{
	if (c->aggregate_s > 0 && !c->log_dir)
		return tpcb_refused(err, errlen, "log aggregation (--aggregate-interval) is allowed only when logging transactions (-l)");
	if (c->aggregate_s > 0 && (c->aggregate_s < 1 || c->aggregate_s != floor(c->aggregate_s))) {
		snprintf(err, errlen, "--aggregate-interval %g is not allowed; give whole seconds, 1 or more",
			 c->aggregate_s);
		return -EINVAL;
	}
	if (c->aggregate_s > 0 && c->duration_s > 0 && c->aggregate_s > c->duration_s) {
		snprintf(err, errlen, "number of seconds for aggregation (%g) must not be higher than test duration (-T %g)",
			 c->aggregate_s, c->duration_s);
		return -EINVAL;
	}
	if (c->aggregate_s > 0 && c->duration_s > 0 && fmod(c->duration_s, c->aggregate_s) != 0) {
		snprintf(err, errlen, "duration (-T %g) must be a multiple of aggregation interval (%g)",
			 c->duration_s, c->aggregate_s);
		return -EINVAL;
	}
	if (c->sampling_rate < 0 || c->sampling_rate > 1)
		return tpcb_refused(err, errlen, "invalid sampling rate: give --sampling-rate above 0 and at most 1");
	if (c->sampling_rate > 0 && !c->log_dir)
		return tpcb_refused(err, errlen, "log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
	if (c->sampling_rate > 0 && c->aggregate_s > 0)
		return tpcb_refused(err, errlen, "log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
	if (c->log_prefix && !c->log_dir)
		return tpcb_refused(err, errlen, "log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
	return 0;
}

static int check_modes(const struct tpcb_config *c, char *err, size_t errlen)
{
	int ret = check_pipeline(c, err, errlen);

	if (ret < 0)
		return ret;
	if (c->rate_tps < 0 || c->latency_limit_ms < 0 || c->progress_s < 0)
		return tpcb_refused(err, errlen, "-R, -L and -P take values above 0");
	if (c->progress_timestamp && c->progress_s <= 0)
		return tpcb_refused(err, errlen, "--progress-timestamp is allowed only under --progress (-P)");
	if (c->wait_bound_s <= 0)
		return tpcb_refused(err, errlen, "the wait bound (--timeout) must be above 0");
	return check_logs(c, err, errlen);
}

int tpcb_config_check(const struct tpcb_config *cfg, char *err, size_t errlen)
{
	int ret;

	if (!cfg->scripts || cfg->scripts->n == 0)
		return tpcb_refused(err, errlen, "no script to run");
	ret = check_counts(cfg, err, errlen);
	return ret < 0 ? ret : check_modes(cfg, err, errlen);
}

/* Which tables are missing ("" when none). */
static int read_tables(PGconn *c, char *missing, size_t len, char *err, size_t errlen)
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
		return tpcb_refused(err, errlen, "pgbench_branches is empty: make the tables again with eicbench tpcb init");
	r = pgutil_query(c, sql_text("tpcb/partitions.sql"), 0, NULL, err, errlen);
	if (r && PQntuples(r) == 1) {
		const char *m = PQgetvalue(r, 0, 0);

		snprintf(t->partition_method, sizeof(t->partition_method), "%s",
			 !strcmp(m, "r") ? "range" : !strcmp(m, "h") ? "hash" : "");
		t->partitions = atoi(PQgetvalue(r, 0, 1));
	}
	PQclear(r);
	return 0;
}

/* The builtins need pgbench's tables; their scale is the tables'. */
static int check_tables(PGconn *c, const struct tpcb_config *cfg, struct tpcb_target *t,
			char *err, size_t errlen)
{
	char missing[128];
	int ret = read_tables(c, missing, sizeof(missing), err, errlen);

	if (ret == 0 && missing[0]) {
		snprintf(err, errlen, "the database has no %s: make pgbench's tables first with eicbench tpcb init -s SCALE",
			 missing);
		return -EINVAL;
	}
	if (ret == 0)
		ret = read_scale(c, t, err, errlen);
	t->tables = ret == 0;
	if (ret == 0 && cfg->scale && cfg->scale != t->scale) {
		if (cfg->scale_exact) {
			snprintf(err, errlen, "-s %lld: the tables hold scale %lld (pgbench_branches has %lld rows); leave -s out, or make them again with eicbench tpcb init -s %lld",
				 cfg->scale, t->scale, t->scale, cfg->scale);
			return -EINVAL;
		}
		snprintf(t->warning, sizeof(t->warning), "scale option ignored, using count from pgbench_branches table (%lld)",
			 t->scale);
	}
	return ret;
}

static bool uses_pipeline(const struct tpcb_config *cfg)
{
	return cfg->pipeline > 0 || waiting_script(cfg->scripts, true) != NULL;
}

int tpcb_target_check(const struct server *s, const struct tpcb_config *cfg,
		      struct tpcb_target *t, char *err, size_t errlen)
{
	PGconn *c = server_connect(s, cfg->dbname, err, errlen);
	int ret = 0;

	if (!c)
		return -EIO;
	memset(t, 0, sizeof(*t));
	t->server_version = PQserverVersion(c);
	snprintf(t->server_version_str, sizeof(t->server_version_str), "%s",
		 PQparameterStatus(c, "server_version") ?: "?");
	t->scale = cfg->scale ? cfg->scale : 1;
	if (cfg->scripts->builtin_used || cfg->need_tables)
		ret = check_tables(c, cfg, t, err, errlen);
	if (ret == 0 && uses_pipeline(cfg) && t->server_version < 140000) {
		snprintf(err, errlen, "pipeline mode needs PostgreSQL 14 or later; the server is %s",
			 t->server_version_str);
		ret = -EINVAL;
	}
	PQfinish(c);
	return ret;
}

int tpcb_vacuum(const struct server *s, const char *dbname, bool accounts,
		char *warn, size_t warnlen, char *err, size_t errlen)
{
	static const char *const files[] = { "tpcb/run_vacuum.sql", "tpcb/run_vacuum_accounts.sql" };
	PGconn *c = server_connect(s, dbname, err, errlen);
	size_t used = 0;

	if (!c)
		return -EIO;
	if (warn && warnlen)
		warn[0] = '\0';
	for (int f = 0; f < (accounts ? 2 : 1); f++) {
		const char *text = sql_text(files[f]);
		char stmt[256], why[512];
		size_t pos = 0;

		while (text && sql_next_statement(text, &pos, stmt, sizeof(stmt)) > 0)
			if (pgutil_exec(c, stmt, 0, NULL, why, sizeof(why)) < 0 && warn &&
			    used < warnlen)	/* as pgbench: said, and the cleanup goes on */
				used += (size_t)snprintf(warn + used, warnlen - used, "%s%s (ignoring this error and continuing anyway)",
							 used ? "\n" : "", why);
	}
	PQfinish(c);
	return 0;
}

/* ---- figures ------------------------------------------------------------- */

double tpcb_result_tps(const struct tpcb_result *r)
{
	return r->run_s > 0 ? (double)r->committed / r->run_s : 0.0;
}

void tpcb_scripts_label(const struct tpcb_scripts *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < set->n && used < len; i++) {
		const struct tpcb_script *sc = &set->s[i];
		const char *name = sc->builtin[0] ? sc->builtin : sc->name;

		if (set->n == 1)
			used += (size_t)snprintf(buf + used, len - used, "%s", name);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%s@%d", i ? " + " : "", name,
						 sc->weight);
	}
}

json_t *tpcb_scripts_json(const struct tpcb_scripts *set)
{
	json_t *a = json_array(), *defs = json_object();

	for (int i = 0; i < set->n; i++) {
		const struct tpcb_script *sc = &set->s[i];
		json_t *o = json_pack("{s:s, s:i, s:s}", "name", sc->name, "weight", sc->weight,
				      "text", sc->text);

		if (sc->builtin[0])
			json_object_set_new(o, "builtin", json_string(sc->builtin));
		json_array_append_new(a, o);
	}
	for (int i = 0; i < set->ndefs; i++)
		json_object_set_new(defs, set->names[set->defs[i].slot], json_string(set->defs[i].value));
	if (json_object_size(defs) == 0) {
		json_decref(defs);
		return a;
	}
	return json_pack("{s:o, s:o}", "scripts", a, "defines", defs);
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

	for (int i = 0; i < r->ncmds; i++)
		json_array_append_new(a, json_pack("{s:i, s:s, s:I, s:f, s:I, s:I}",
			"script", r->cmds[i].script, "sql", r->cmds[i].line,
			"count", (json_int_t)r->cmds[i].count, "latency_ms", r->cmds[i].latency_ms,
			"failures", (json_int_t)r->cmds[i].failures,
			"retries", (json_int_t)r->cmds[i].retries));
	return a;
}

static json_t *per_script_json(const struct tpcb_config *cfg, const struct tpcb_result *r)
{
	json_t *a = json_array();

	for (int i = 0; i < r->nscripts; i++) {
		const struct tpcb_script_result *s = &r->scripts[i];

		json_array_append_new(a, json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
			"name", cfg->scripts->s[i].name, "weight", cfg->scripts->s[i].weight,
			"transactions", (json_int_t)s->committed, "failed", (json_int_t)s->failed,
			"skipped", (json_int_t)s->skipped, "retried", (json_int_t)s->retried,
			"retries", (json_int_t)s->retries, "latency_mean_ms", s->lat_mean_ms,
			"latency_stddev_ms", s->lat_stddev_ms));
	}
	return a;
}

static json_t *options_json(const struct tpcb_config *c)
{
	char label[512];
	json_t *o;

	tpcb_scripts_label(c->scripts, label, sizeof(label));
	o = json_pack("{s:s, s:s, s:i, s:i, s:f, s:I, s:i, s:f, s:f, s:i, s:I, s:b, s:f}",
		      "builtin", label, "protocol", tpcb_protocol_name(c->protocol),
		      "clients", c->clients, "threads", c->threads,
		      "duration_s", c->duration_s, "transactions_per_client", (json_int_t)c->transactions,
		      "pipeline", c->pipeline, "rate_tps", c->rate_tps,
		      "latency_limit_ms", c->latency_limit_ms, "max_tries", c->max_tries,
		      "seed", (json_int_t)c->seed, "log", c->log_dir != NULL,
		      "aggregate_interval_s", c->aggregate_s);
	json_object_set_new(o, "scripts", tpcb_scripts_json(c->scripts));
	json_object_set_new(o, "connect_each", json_boolean(c->connect_each));
	if (c->sampling_rate > 0)
		json_object_set_new(o, "sampling_rate", json_real(c->sampling_rate));
	if (c->log_dir)
		json_object_set_new(o, "log_prefix", json_string(c->log_prefix ? c->log_prefix : "pgbench_log"));
	return o;
}

static json_t *counts_json(const struct tpcb_result *r)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
		"transactions", (json_int_t)r->committed, "failed", (json_int_t)r->failed,
		"serialization_failures", (json_int_t)r->serialization_failures,
		"deadlock_failures", (json_int_t)r->deadlock_failures,
		"retried", (json_int_t)r->retried, "retries", (json_int_t)r->retries,
		"skipped", (json_int_t)r->skipped, "late", (json_int_t)r->late,
		"expected", (json_int_t)r->expected);
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

	json_object_update_new(j, counts_json(r));
	json_object_update_new(j, json_pack("{s:f, s:f, s:f, s:o, s:{s:f, s:f, s:f, s:f}}",
		"connect_ms", r->connect_ms, "run_s", r->run_s, "tps", tpcb_result_tps(r),
		"latency_ms", latency_json(&r->latency),
		"cpu", "user_s", r->cpu_user_s, "sys_s", r->cpu_sys_s, "total_s", cpu,
		"us_per_transaction", total ? cpu * 1e6 / (double)total : 0.0));
	json_object_set_new(j, "lag_ms", cfg->rate_tps > 0 ?
		json_pack("{s:f, s:f}", "mean", r->lag_count ? r->lag_sum_ms / (double)r->lag_count : 0.0,
			  "max", r->lag_max_ms) : json_null());
	if (cfg->connect_each)
		json_object_set_new(j, "connections_ms", json_real(r->connections_ms));
	json_object_update_new(j, json_pack("{s:i, s:s?, s:b, s:b}", "aborted_clients", r->aborted_clients,
		"abort_message", r->aborted_clients ? r->abort_msg : NULL, "interrupted", r->interrupted,
		"stopped_on_abort", r->stopped_on_abort));
	if (r->nscripts > 1)
		json_object_set_new(j, "per_script", per_script_json(cfg, r));
	if (cfg->per_statement)
		json_object_set_new(j, "statements", statements_json(r));
	return j;
}
