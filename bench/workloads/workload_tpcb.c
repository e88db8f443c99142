/*
 * workload_tpcb: a configuration-sweep trial with the TPC-B driver; see
 * workload_tpcb.h.
 */
#include "bench/workloads/workload_tpcb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/figures.h"
#include "bench/record/record.h"
#include "bench/record/record_path.h"
#include "bench/sweep/runner.h"
#include "io/clock.h"
#include "io/file.h"
#include "io/sampler.h"

#define DEFAULT_SAMPLE_MS 500
#define MAX_LOG_LINES     200
#define WAIT_BOUND_S      60    /* a client waits this long for the server at most */

static struct tpcb_wcfg *cfg_of(const struct runner *r)
{
	return r->cfg.wcfg;
}

/* ---- before the first trial ---- */

static void show_step(void *arg, const char *step, double done, double total, const char *unit)
{
	(void)arg, (void)done, (void)total, (void)unit;
	fprintf(stderr, "eicbench confsweep: making pgbench's tables: %s\n", step);
}

/* ---- loads ---- */

static int add_script(struct tpcb_scripts *set, const char *spec, bool builtin, const char *base,
		      char *err, size_t errlen)
{
	char name[PATH_MAX], path[PATH_MAX * 2];
	enum tpcb_builtin b;
	int w;

	if (tpcb_script_weight(spec, name, sizeof(name), &w, err, errlen) < 0)
		return -EINVAL;
	if (builtin)
		return tpcb_builtin_find(name, &b, err, errlen) < 0 ? -EINVAL :
		       tpcb_scripts_add_builtin(set, b, w, err, errlen);
	if (name[0] == '/' || !base || !*base)
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", base, name);
	return tpcb_scripts_add_file(set, path, w, err, errlen);
}

static int compile_load(struct tpcb_scripts *set, const struct tpcb_load_spec *spec,
			const char *base, enum tpcb_builtin fallback, char *err, size_t errlen)
{
	char why[2048];
	int ret = 0, part = -1;

	tpcb_scripts_init(set);
	for (int i = 0; ret == 0 && i < spec->ndefines; i++, part = i - 1)
		ret = tpcb_scripts_define(set, spec->define[i], why, sizeof(why));
	for (int k = 0; ret == 0 && k < spec->nscripts; k++) {
		part = spec->ndefines + k;
		ret = add_script(set, spec->script[k], spec->builtin[k], base, why, sizeof(why));
	}
	if (ret == 0 && spec->nscripts == 0)
		ret = tpcb_scripts_add_builtin(set, fallback, 1, why, sizeof(why));
	if (ret == 0) {
		part = -1;
		ret = tpcb_scripts_finish(set, why, sizeof(why));
	}
	if (ret < 0) {
		const char *where = part >= 0 ? spec->where[part] : NULL;

		snprintf(err, errlen, "%s%s%s", where ? where : "", where ? ": " : "", why);
	}
	return ret == -ENOMEM ? -ENOMEM : ret < 0 ? -EINVAL : 0;
}

int workload_tpcb_add_load(struct tpcb_wcfg *w, const struct tpcb_load_spec *spec,
			   const char *base_dir, enum tpcb_builtin fallback, char *err, size_t errlen)
{
	struct tpcb_scripts *l;
	int ret;

	if (w->nloads == WORKLOAD_TPCB_MAX_LOADS) {
		snprintf(err, errlen, "at most %d loads in one sweep", WORKLOAD_TPCB_MAX_LOADS);
		return -EINVAL;
	}
	if (!w->loads && !(w->loads = calloc(WORKLOAD_TPCB_MAX_LOADS, sizeof(*w->loads))))
		return -ENOMEM;
	l = &w->loads[w->nloads];
	ret = compile_load(l, spec, base_dir, fallback, err, errlen);
	if (ret < 0) {
		tpcb_scripts_free(l);
		return ret;
	}
	w->run.scripts = &w->loads[0];
	return w->nloads++;
}

void workload_tpcb_free(struct tpcb_wcfg *w)
{
	for (int i = 0; w->loads && i < w->nloads; i++)
		tpcb_scripts_free(&w->loads[i]);
	free(w->loads);
	w->loads = NULL;
	w->nloads = 0;
}

/* The config of combination COMBO's runs: its step's load. */
static struct tpcb_config config_of(const struct runner *r, int combo)
{
	const struct tpcb_wcfg *w = cfg_of(r);
	struct tpcb_config c = w->run;

	if (combo >= 0 && combo < SWEEP_MAX_STEPS && w->load_of[combo] < w->nloads)
		c.scripts = &w->loads[w->load_of[combo]];
	return c;
}

static int check_loads(struct tpcb_wcfg *w, char *err, size_t errlen)
{
	for (int i = 0; i < w->nloads; i++) {
		struct tpcb_config c = w->run;
		int ret;

		c.scripts = &w->loads[i];
		if ((ret = tpcb_config_check(&c, err, errlen)) < 0)
			return ret;
	}
	return 0;
}

static int check(struct runner *r, char *err, size_t errlen)
{
	struct tpcb_wcfg *w = cfg_of(r);
	struct tpcb_init_config ic = { .scale = w->scale, .fillfactor = 100, .stop = r->stop };
	struct tpcb_init_result ir;
	int ret = check_loads(w, err, errlen);

	if (ret < 0)
		return ret;
	w->run.scale = w->scale;
	w->run.scale_exact = w->run.need_tables = true;
	w->run.stop = r->stop;
	if (!w->sample_ms)
		w->sample_ms = DEFAULT_SAMPLE_MS;
	if (tpcb_target_check(&r->srv, &w->run, &w->target, err, errlen) == 0)
		return 0;
	fprintf(stderr, "eicbench %s: %s; making pgbench's tables at scale %lld\n", r->cfg.command,
		err, w->scale);
	ret = tpcb_init(&r->srv, &ic, show_step, NULL, &ir, err, errlen);
	return ret < 0 ? ret : tpcb_target_check(&r->srv, &w->run, &w->target, err, errlen);
}

static json_t *plan_json(const struct runner *r)
{
	const struct tpcb_wcfg *w = cfg_of(r);
	const struct tpcb_config *c = &w->run;
	char label[512];
	json_t *j, *loads = json_array(), *of = json_array();

	tpcb_scripts_label(c->scripts, label, sizeof(label));
	j = json_pack("{s:s, s:s, s:i, s:i, s:f, s:I, s:I, s:f, s:b, s:i, s:I}",
		      "builtin", label, "protocol", tpcb_protocol_name(c->protocol),
		      "clients", c->clients, "threads", c->threads, "duration_s", c->duration_s,
		      "transactions", (json_int_t)c->transactions, "scale", (json_int_t)w->scale,
		      "warmup_s", w->warmup_s, "checkpoint_before_run", !w->no_checkpoint,
		      "pipeline", c->pipeline, "seed", (json_int_t)c->seed);
	for (int i = 0; i < w->nloads; i++)
		json_array_append_new(loads, tpcb_scripts_json(&w->loads[i]));
	for (int k = 0; w->nloads > 1 && k < r->plan.ncombos && k < SWEEP_MAX_STEPS; k++)
		json_array_append_new(of, json_integer(w->load_of[k]));
	json_object_set_new(j, "loads", loads);
	if (w->nloads > 1)
		json_object_set_new(j, "load_of_step", of);
	else
		json_decref(of);
	return json_pack("{s:o}", "tpcb", j);
}

void workload_tpcb_defaults(struct tpcb_wcfg *w)
{
	w->run.max_tries = 1;
	w->run.wait_bound_s = WAIT_BOUND_S;
}

/* One recorded load back: its scripts' texts (or builtins) and defines. */
static int resume_load(struct tpcb_scripts *set, const json_t *j, char *err, size_t errlen)
{
	const json_t *scripts = json_is_array(j) ? j : json_object_get(j, "scripts"), *x;
	const char *k;
	size_t i;
	int ret = 0;

	tpcb_scripts_init(set);
	json_object_foreach((json_t *)json_object_get(j, "defines"), k, x) {
		char def[1024];

		snprintf(def, sizeof(def), "%s=%s", k, json_string_value(x) ?: "");
		if (ret == 0)
			ret = tpcb_scripts_define(set, def, err, errlen);
	}
	json_array_foreach(scripts, i, x) {
		const char *b = json_string_value(json_object_get(x, "builtin"));
		int w = (int)json_integer_value(json_object_get(x, "weight"));
		enum tpcb_builtin bi;

		if (ret == 0 && b)
			ret = tpcb_builtin_find(b, &bi, err, errlen) < 0 ? -EINVAL :
			      tpcb_scripts_add_builtin(set, bi, w, err, errlen);
		else if (ret == 0)
			ret = tpcb_scripts_add_text(set, json_string_value(json_object_get(x, "name")) ?: "?",
						    json_string_value(json_object_get(x, "text")) ?: "", w,
						    err, errlen);
	}
	return ret < 0 ? ret : tpcb_scripts_finish(set, err, errlen);
}

/* The loads of PLAN, or for a folder of before scripts its builtin. */
static int resume_loads(struct tpcb_wcfg *w, const json_t *t, char *err, size_t errlen)
{
	const json_t *loads = json_object_get(t, "loads"), *x;
	size_t i;

	if (!json_is_array(loads) || json_array_size(loads) == 0) {
		struct tpcb_load_spec spec = { .nscripts = 1, .builtin = { true } };

		spec.script[0] = json_string_value(json_object_get(t, "builtin")) ?: "";
		return workload_tpcb_add_load(w, &spec, NULL, TPCB_TPCB_LIKE, err, errlen) < 0 ? -EINVAL : 0;
	}
	if (!(w->loads = calloc(WORKLOAD_TPCB_MAX_LOADS, sizeof(*w->loads))))
		return -ENOMEM;
	json_array_foreach(loads, i, x) {
		if (w->nloads == WORKLOAD_TPCB_MAX_LOADS || resume_load(&w->loads[w->nloads++], x, err, errlen) < 0)
			return -EINVAL;
	}
	json_array_foreach(json_object_get(t, "load_of_step"), i, x)
		if (i < SWEEP_MAX_STEPS && json_integer_value(x) < w->nloads)
			w->load_of[i] = (int)json_integer_value(x);
	w->run.scripts = &w->loads[0];
	return 0;
}

static int resume(struct runner *r, const json_t *plan, char *err, size_t errlen)
{
	struct tpcb_wcfg *w = cfg_of(r);
	const json_t *t = json_object_get(plan, "tpcb");
	char why[1024];

	if (!json_is_object(t) ||
	    tpcb_protocol_parse(json_string_value(json_object_get(t, "protocol")) ?: "", &w->run.protocol) < 0) {
		snprintf(err, errlen, "--resume '%s': meta.json holds no TPC-B options", r->cfg.resume);
		return -EINVAL;
	}
	if (resume_loads(w, t, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "--resume '%s': the scripts meta.json keeps do not compile: %s",
			 r->cfg.resume, why);
		return -EINVAL;
	}
	w->run.seed = (uint64_t)json_integer_value(json_object_get(t, "seed"));
	w->run.clients = (int)json_integer_value(json_object_get(t, "clients"));
	w->run.threads = (int)json_integer_value(json_object_get(t, "threads"));
	w->run.duration_s = json_number_value(json_object_get(t, "duration_s"));
	w->run.transactions = json_integer_value(json_object_get(t, "transactions"));
	w->run.pipeline = (int)json_integer_value(json_object_get(t, "pipeline"));
	w->scale = json_integer_value(json_object_get(t, "scale"));
	w->warmup_s = json_number_value(json_object_get(t, "warmup_s"));
	w->no_checkpoint = json_is_false(json_object_get(t, "checkpoint_before_run"));
	workload_tpcb_defaults(w);
	return 0;
}

/* ---- one trial ---- */

/* The combination's session values as libpq options ("-c name=value"),
 * spaces and backslashes escaped as libpq wants them. */
static void session_options(const struct runner *r, int combo, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < r->plan.grid.nsettings && used < len; i++) {
		const char *v = runner_value(r, combo, i);

		if (runner_context(r, i) != SETTINGS_SESSION || !v)
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s-c %s=", used ? " " : "",
					 r->plan.grid.s[i].name);
		for (; *v && used + 2 < len; v++) {
			if (*v == ' ' || *v == '\\')
				out[used++] = '\\';
			out[used++] = *v;
		}
		out[used] = '\0';
	}
}

/* The server's statistics now, each view as one JSON object. */
static json_t *stats_now(PGconn *c)
{
	char err[256];
	json_t *o = json_object();
	PGresult *res = pgutil_query(c, sql_text(PQserverVersion(c) >= 170000 ?
				     "confsweep/stats_17.sql" : "confsweep/stats.sql"), 0, NULL, err, sizeof(err));

	for (int i = 0; res && i < PQntuples(res); i++)
		json_object_set_new(o, PQgetvalue(res, i, 0), json_loads(PQgetvalue(res, i, 1), 0, NULL));
	PQclear(res);
	return o;
}

/* B - A for every number of every view; WAL bytes from the LSNs. */
static json_t *stats_delta(const json_t *a, const json_t *b)
{
	json_t *out = json_object(), *vb, *x;
	const char *view, *k;

	json_object_foreach((json_t *)b, view, vb) {
		json_t *d = json_object();

		json_object_foreach(vb, k, x)
			if (json_is_number(x) && json_is_number(json_object_get(json_object_get(a, view), k)))
				json_object_set_new(d, k, json_real(json_number_value(x) -
					json_number_value(json_object_get(json_object_get(a, view), k))));
		json_object_set_new(out, view, d);
	}
	return out;
}

/* The server log from OFFSET on: its lines (the first MAX_LOG_LINES), and
 * how many are warnings. */
static json_t *log_since(const struct runner *r, long offset, int *warnings)
{
	char path[PATH_MAX + 32], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	json_t *lines;
	FILE *f;
	int n = 0;

	*warnings = 0;
	if (r->srv.external || offset < 0)
		return json_null();
	server_log_path(&r->srv, path, sizeof(path));
	lines = json_array();
	if (!(f = fopen(path, "re")) || fseek(f, offset, SEEK_SET) < 0) {
		if (f)
			fclose(f);
		return lines;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		*warnings += record_log_is_warning(line);
		if (n++ < MAX_LOG_LINES)
			json_array_append_new(lines, json_string(line));
	}
	free(line);
	fclose(f);
	return lines;
}

static long log_size(const struct runner *r)
{
	char path[PATH_MAX + 32];
	struct stat st;

	if (r->srv.external)
		return -1;
	server_log_path(&r->srv, path, sizeof(path));
	return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static json_t *sampled(const struct runner *r, const struct sampler *sm)
{
	struct disk_delta d;
	struct cpu_delta c;
	uint64_t t0 = sampler_first_ns(sm), t1 = sampler_last_ns(sm);
	json_t *o = json_object();

	if (sampler_cpu_window(sm, t0, t1, &c) == 0)
		json_object_set_new(o, "cpu", json_pack("{s:f, s:f, s:f, s:f}", "user_pct", c.user_pct,
					"system_pct", c.system_pct, "iowait_pct", c.iowait_pct, "idle_pct", c.idle_pct));
	if (r->disk[0] && sampler_disk_window(sm, 0, t0, t1, &d) == 0)
		json_object_set_new(o, "disk", record_disk_json(r->disk, &d));
	return o;
}

/* One run of the driver with the session options in the environment. */
static int drive(struct runner *r, const struct tpcb_config *c, const char *options,
		 struct tpcb_result *res, char *err, size_t errlen)
{
	const char *was = getenv("PGOPTIONS");
	char *keep = was ? strdup(was) : NULL;
	int ret;

	if (*options)
		setenv("PGOPTIONS", options, 1);
	ret = tpcb_run(&r->srv, c, &cfg_of(r)->target, res, err, errlen);
	if (keep)
		setenv("PGOPTIONS", keep, 1);
	else
		unsetenv("PGOPTIONS");
	free(keep);
	return ret;
}

/* Cleanup, warm-up and CHECKPOINT before the measured run. */
static int before_run(struct runner *r, const struct tpcb_config *run, const char *options,
		      char *err, size_t errlen)
{
	struct tpcb_wcfg *w = cfg_of(r);
	int ret = tpcb_vacuum(&r->srv, NULL, false, NULL, 0, err, errlen);
	PGconn *c;

	if (ret == 0 && w->warmup_s > 0) {
		struct tpcb_config warm = *run;
		struct tpcb_result res = { 0 };

		warm.duration_s = w->warmup_s;
		warm.transactions = 0;
		warm.progress = NULL;
		warm.log_dir = NULL;
		ret = drive(r, &warm, options, &res, err, errlen);
		tpcb_result_free(&res);
	}
	if (ret < 0 || w->no_checkpoint)
		return ret;
	if (!(c = server_connect(&r->srv, NULL, err, errlen)))
		return -EIO;
	ret = pgutil_exec_file(c, "confsweep/checkpoint.sql", err, errlen);
	PQfinish(c);
	return ret;
}

static int trial(struct runner *r, const struct sweep_trial *t, json_t *rec, char *err, size_t errlen)
{
	struct tpcb_wcfg *w = cfg_of(r);
	struct sampler_cfg scfg = { .interval_ms = w->sample_ms };
	struct tpcb_result res = { 0 };
	struct sampler sm;
	char options[2048];
	json_t *s0, *s1, *inforce = NULL;
	PGconn *c;
	long offset;
	int ret, warnings;

	struct tpcb_config run = config_of(r, t->combo);

	session_options(r, t->combo, options, sizeof(options));
	ret = before_run(r, &run, options, err, errlen);
	if (ret < 0)
		return ret;
	if (*options)
		setenv("PGOPTIONS", options, 1);
	c = server_connect(&r->srv, NULL, err, errlen);
	if (*options)
		unsetenv("PGOPTIONS");
	if (!c)
		return -EIO;
	inforce = runner_in_force(r, c);
	s0 = stats_now(c);
	offset = log_size(r);
	if (r->disk[0])
		scfg.disks[scfg.ndisks++] = r->disk;
	scfg.disk_file = r->disk_file;
	ret = sampler_start(&sm, &scfg);
	if (ret == 0) {
		ret = drive(r, &run, options, &res, err, errlen);
		sampler_stop(&sm);
	}
	s1 = stats_now(c);
	PQfinish(c);
	if (ret == 0 || ret == -EIO) {	/* -EIO: clients lost, figures still kept */
		json_object_set_new(rec, "in_force", inforce);
		json_object_set_new(rec, "tpcb", tpcb_result_json(&run, &w->target, &res));
		json_object_set_new(rec, "tps", json_real(tpcb_result_tps(&res)));
		json_object_set_new(rec, "stats", stats_delta(s0, s1));
		json_object_set_new(rec, "log", log_since(r, offset, &warnings));
		json_object_set_new(rec, "warnings", json_integer(warnings));
		json_object_update_new(rec, sampled(r, &sm));
		inforce = NULL;
		if (ret == -EIO)
			json_object_set_new(rec, "error", json_string(err));
		ret = 0;
	}
	tpcb_result_free(&res);
	sampler_free(&sm);
	json_decref(inforce);
	json_decref(s0);
	json_decref(s1);
	return ret;
}

static void say(const struct runner *r, const json_t *rec, char *buf, size_t len)
{
	(void)r;
	snprintf(buf, len, "%8.0f tps  p99 %6.2f ms%s", record_num_at(rec, "tps"),
		 record_num_at(rec, "tpcb.latency_ms.p99"),
		 json_integer_value(json_object_get(rec, "warnings")) ? "  (warnings in the server log)" : "");
}

const struct workload workload_tpcb = {
	.name = "tpcb",
	.summary = RECORD_SUMMARY_TPCB,
	.check = check,
	.plan_json = plan_json,
	.resume = resume,
	.warms_up = true,
	.makes_tables = true,
	.relations_sql = "confsweep/relations.sql",
	.trial = trial,
	.say = say,
	.figures = record_figures_tpcb,
};
