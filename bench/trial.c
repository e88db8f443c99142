/*
 * trial: settings, cold cycle, EXPLAIN ANALYZE and /proc snapshots around it,
 * and the record of one trial. Nothing here prints.
 */
#include "bench/trial.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/explain.h"
#include "bench/pgutil.h"
#include "bench/record.h"
#include "bench/sqltext.h"
#include "io/sampler.h"
#include "io/clock.h"

int trial_session(PGconn *c, const struct trial_env *e, int combo,
		  char *err, size_t errlen)
{
	int ret = pgutil_exec_file(c, "sweep/session.sql", err, errlen);

	if (ret == 0 && !e->jit)
		ret = pgutil_exec_file(c, "sweep/no_jit.sql", err, errlen);
	if (ret == 0 && e->force_bitmap)
		ret = pgutil_exec_file(c, "sweep/force_bitmap.sql", err, errlen);
	for (int i = 0; ret == 0 && i < e->plan->grid.nsettings; i++) {
		const char *p[2] = { e->plan->grid.s[i].name, sweep_value(e->plan, combo, i) };

		if (e->plan->grid.s[i].context == SWEEP_SESSION)
			ret = pgutil_exec(c, sql_text("sweep/set_config.sql"), 2, p, err, errlen);
	}
	return ret;
}

int trial_alter_system(PGconn *c, const char *name, const char *value,
		       char *err, size_t errlen)
{
	char *id = PQescapeIdentifier(c, name, strlen(name));
	char *lit = value ? PQescapeLiteral(c, value, strlen(value)) : NULL;
	char sql[512];
	int ret;

	if (value)
		snprintf(sql, sizeof(sql), sql_text("sweep/alter_system.sql"), id, lit);
	else
		snprintf(sql, sizeof(sql), sql_text("sweep/alter_system_reset.sql"), id);
	ret = pgutil_exec(c, sql, 0, NULL, err, errlen);
	PQfreemem(id);
	PQfreemem(lit);
	return ret;
}

int trial_system(PGconn *c, const struct trial_env *e, int combo,
		 char *err, size_t errlen)
{
	bool any = false;
	int ret = 0;

	for (int i = 0; ret == 0 && i < e->plan->grid.nsettings; i++) {
		if (e->plan->grid.s[i].context == SWEEP_SESSION)
			continue;
		ret = trial_alter_system(c, e->plan->grid.s[i].name,
				   sweep_value(e->plan, combo, i), err, errlen);
		any = true;
	}
	if (ret == 0 && any)
		ret = pgutil_exec_file(c, "sweep/reload.sql", err, errlen);
	return ret;
}

/* "EXPLAIN ... QUERY" into a new string. */
static char *explain_text(const char *file, const char *query)
{
	const char *fmt = sql_text(file);
	size_t len = strlen(fmt) + strlen(query) + 1;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, fmt, query);
	return s;
}

/* Run an EXPLAIN; its figures, and its JSON text when TEXT is given. */
static int explain_once(PGconn *c, const char *file, const char *query,
			struct explain_figures *fig, char *err, size_t errlen)
{
	char *sql = explain_text(file, query);
	PGresult *r;
	int ret;

	if (!sql)
		return -ENOMEM;
	r = pgutil_query(c, sql, 0, NULL, err, errlen);
	free(sql);
	if (!r)
		return -EIO;
	ret = explain_parse(PQgetvalue(r, 0, 0), fig, err, errlen);
	PQclear(r);
	return ret;
}

/* One Bitmap Heap Scan, on the relation expected (when one is). */
static int need_bitmap(const struct trial_env *e, const struct explain_figures *f,
		       char *err, size_t errlen)
{
	if (!f->has_bitmap_heap_scan) {
		snprintf(err, errlen, "the plan has no Bitmap Heap Scan (nodes: %s), even with the other scans switched off",
			 f->node_types);
		return -EPROTO;
	}
	if (f->bitmap.nodes > 1) {
		snprintf(err, errlen, "the plan has %d Bitmap Heap Scans (nodes: %s); a sweep measures a query with one",
			 f->bitmap.nodes, f->node_types);
		return -EPROTO;
	}
	if (e->relation[0] && strcmp(f->bitmap.relation, e->relation)) {
		snprintf(err, errlen, "the Bitmap Heap Scan reads '%s', not '%s' as the sweep expects",
			 f->bitmap.relation, e->relation);
		return -EPROTO;
	}
	return 0;
}

static void tablespace_of(PGconn *c, struct trial_plan_info *info)
{
	const char *p[] = { info->relation };
	char err[256];
	PGresult *r = pgutil_query(c, sql_text("sweep/tablespace.sql"), 1, p, err, sizeof(err));

	if (r && PQntuples(r) == 1) {
		snprintf(info->tablespace, sizeof(info->tablespace), "%s", PQgetvalue(r, 0, 0));
		if (!PQgetisnull(r, 0, 1))
			snprintf(info->tablespace_eic, sizeof(info->tablespace_eic), "%s",
				 PQgetvalue(r, 0, 1));
	}
	PQclear(r);
}

int trial_check_plan(const struct trial_env *e, int combo, struct trial_plan_info *info,
		     char *err, size_t errlen)
{
	struct explain_figures f;
	PGconn *c = server_connect(e->srv, NULL, err, errlen);
	int ret = c ? trial_session(c, e, combo, err, errlen) : -EIO;

	if (ret == 0)
		ret = explain_once(c, "sweep/explain_plan.sql", e->query_text, &f, err, errlen);
	if (ret == 0) {
		ret = need_bitmap(e, &f, err, errlen);
		if (ret == 0 && info) {
			memset(info, 0, sizeof(*info));
			snprintf(info->relation, sizeof(info->relation), "%s", f.bitmap.relation);
			tablespace_of(c, info);
		}
		explain_free(&f);
	}
	PQfinish(c);
	return ret;
}

/* Run SQL, cancelling it if the stop flag rises; the EXPLAIN text on success. */
static int run_cancellable(const struct trial_env *e, PGconn *c, const char *sql,
			   PGresult **out, char *err, size_t errlen)
{
	bool cancelled = false;

	if (!PQsendQuery(c, sql)) {
		snprintf(err, errlen, "cannot send the query: %s", PQerrorMessage(c));
		return -EIO;
	}
	for (;;) {
		struct pollfd p = { .fd = PQsocket(c), .events = POLLIN };

		poll(&p, 1, 100);
		if (!PQconsumeInput(c))
			break;
		if (!PQisBusy(c))
			break;
		if (e->stop && *e->stop && !cancelled) {
			PGcancel *cn = PQgetCancel(c);
			char m[128];

			PQcancel(cn, m, sizeof(m));
			PQfreeCancel(cn);
			cancelled = true;
		}
	}
	*out = PQgetResult(c);
	for (PGresult *r; (r = PQgetResult(c)) != NULL;)
		PQclear(r);
	if (cancelled || (e->stop && *e->stop)) {
		PQclear(*out);
		snprintf(err, errlen, "interrupted");
		return -EINTR;
	}
	if (PQresultStatus(*out) != PGRES_TUPLES_OK) {
		snprintf(err, errlen, "the query failed: %s", PQresultErrorMessage(*out));
		PQclear(*out);
		return -EIO;
	}
	return 0;
}

static pid_t backend_pid(PGconn *c)
{
	PGresult *r = PQexec(c, sql_text("sweep/backend_pid.sql"));
	pid_t pid = 0;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		pid = (pid_t)atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return pid;
}

/* ---- what the device and the backend did, whole and per phase ---- */

static json_t *disk_window(const struct sampler *sm, int i, const char *name,
			   uint64_t t0, uint64_t t1)
{
	struct disk_delta d;

	if (sampler_disk_window(sm, i, t0, t1, &d) < 0)
		return json_null();
	return record_disk_json(name, &d);
}

static json_t *cpu_window(const struct sampler *sm, uint64_t t0, uint64_t t1)
{
	struct cpu_delta d;

	if (sampler_cpu_window(sm, t0, t1, &d) < 0)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f}", "user_pct", d.user_pct,
			 "system_pct", d.system_pct, "iowait_pct", d.iowait_pct,
			 "idle_pct", d.idle_pct);
}

static json_t *backend_window(const struct sampler *sm, pid_t pid, uint64_t t0, uint64_t t1)
{
	struct proc_delta d;

	if (pid <= 0 || sampler_proc_window(sm, 0, t0, t1, &d) < 0)
		return json_null();
	return json_pack("{s:i, s:f, s:f, s:f}", "pid", (int)pid, "user_s", d.user_s,
			 "system_s", d.system_s, "cpu_share", d.cpu_share);
}

static json_t *members_window(const struct trial_env *e, const struct sampler *sm,
			      uint64_t t0, uint64_t t1)
{
	json_t *o = json_object();

	for (int i = 0; i < e->nmembers; i++)
		json_object_set_new(o, e->members[i],
				    disk_window(sm, i + 1, e->members[i], t0, t1));
	return o;
}

/* Device, CPUs and backend over [T0, T1]; the times relative to the query. */
static json_t *window_json(const struct trial_env *e, const struct sampler *sm, pid_t pid,
			   uint64_t t0, uint64_t t1, uint64_t sent)
{
	return json_pack("{s:f, s:f, s:o, s:o, s:o, s:o}",
			 "from_ms", ((double)t0 - (double)sent) / 1e6,
			 "to_ms", ((double)t1 - (double)sent) / 1e6,
			 "disk", e->disk[0] ? disk_window(sm, 0, e->disk, t0, t1) : json_null(),
			 "members", members_window(e, sm, t0, t1),
			 "cpu", cpu_window(sm, t0, t1),
			 "backend", backend_window(sm, pid, t0, t1));
}

/*
 * The phases in time: the heap phase ends when the executor does (taken as
 * the moment the result arrived, DONE) and lasts the heap phase's time from
 * EXPLAIN; the index phase comes right before it. Too short a phase for the
 * samples, or no per-node times: not split, and the record says why.
 */
static json_t *phases_json(const struct trial_env *e, const struct sampler *sm, pid_t pid,
			   const struct explain_bitmap *b, uint64_t sent, uint64_t done)
{
	uint64_t heap_ns, index_ns, min_ns = 2 * (uint64_t)sm->cfg.interval_ms * 1000000u;
	const char *why = NULL;

	if (!b->phases)
		why = "EXPLAIN gave no per-node times for the two phases (parallel workers, or no children)";
	heap_ns = why ? 0 : (uint64_t)(b->heap_phase.total_ms * 1e6);
	index_ns = why ? 0 : (uint64_t)(b->index_phase.total_ms * 1e6);
	if (!why && (heap_ns < min_ns || index_ns < min_ns))
		why = "a phase was shorter than two sampling intervals";
	if (!why && heap_ns + index_ns > done - sent)
		why = "the phases' times from EXPLAIN exceed the time the query took";
	if (why)
		return json_pack("{s:b, s:s}", "split", 0, "why", why);
	return json_pack("{s:b, s:o, s:o}", "split", 1,
			 "index", window_json(e, sm, pid, done - heap_ns - index_ns, done - heap_ns, sent),
			 "heap", window_json(e, sm, pid, done - heap_ns, done, sent));
}

/* The samples as a time line: times and counters relative to the first. */
static json_t *samples_json(const struct trial_env *e, const struct sampler *sm, uint64_t sent)
{
	json_t *t = json_array(), *disks = json_object(), *ticks = json_array();
	const struct sampler_sample *x = sm->samples;

	for (int i = 0; i < sm->cfg.ndisks; i++) {
		json_t *reads = json_array(), *kib = json_array(), *wms = json_array();

		for (size_t k = 0; k < sm->n; k++) {
			json_array_append_new(reads, json_integer((json_int_t)(x[k].disk[i].reads - x[0].disk[i].reads)));
			json_array_append_new(kib, json_integer((json_int_t)((x[k].disk[i].read_sectors -
									      x[0].disk[i].read_sectors) / 2)));
			json_array_append_new(wms, json_integer((json_int_t)(x[k].disk[i].weighted_ms -
									     x[0].disk[i].weighted_ms)));
		}
		json_object_set_new(disks, sm->cfg.disks[i], json_pack("{s:o, s:o, s:o}", "reads", reads,
								       "read_kib", kib, "weighted_ms", wms));
	}
	for (size_t k = 0; k < sm->n; k++) {
		json_array_append_new(t, json_real(((double)x[k].t_ns - (double)sent) / 1e6));
		if (sm->cfg.npids)
			json_array_append_new(ticks, json_integer((json_int_t)(x[k].utime[0] + x[k].stime[0] -
									       x[0].utime[0] - x[0].stime[0])));
	}
	(void)e;
	return json_pack("{s:i, s:f, s:o, s:o, s:o}", "interval_ms", sm->cfg.interval_ms,
			 "max_gap_ms", (double)sm->max_gap_ns / 1e6, "t_ms", t, "disks", disks,
			 "backend_ticks", ticks);
}

static json_t *cold_json(const struct cold_times *t)
{
	return json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "method", t->method,
			 "stop_ms", t->stop_ms, "sync_ms", t->sync_ms, "drop_ms", t->drop_ms,
			 "start_ms", t->start_ms, "ready_ms", t->ready_ms, "total_ms", t->total_ms);
}

static json_t *settings_json(const struct trial_env *e, int combo)
{
	json_t *o = json_object();

	for (int i = 0; i < e->plan->grid.nsettings; i++)
		json_object_set_new(o, e->plan->grid.s[i].name,
				    json_string(sweep_value(e->plan, combo, i)));
	return o;
}

struct measured {
	struct explain_figures fig;
	json_t *plan;                /* the EXPLAIN output as the server gave it */
	struct sampler sm;
	uint64_t sent_ns, done_ns;
	pid_t pid;
	json_t *in_force;
};

/* The grid's settings as the session sees them ({name: value with unit}). */
static json_t *in_force(PGconn *c, const struct trial_env *e)
{
	char names[SWEEP_MAX_SETTINGS * (SWEEP_NAME_MAX + 1) + 3] = "{", err[256];
	const char *p[] = { names };
	json_t *o = json_object();
	PGresult *r;

	for (int i = 0; i < e->plan->grid.nsettings; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? "," : "", e->plan->grid.s[i].name);
	strcat(names, "}");
	r = pgutil_query(c, sql_text("sweep/current_settings.sql"), 1, p, err, sizeof(err));
	for (int i = 0; r && i < PQntuples(r); i++)
		json_object_set_new(o, PQgetvalue(r, i, 0), json_string(PQgetvalue(r, i, 1)));
	PQclear(r);
	return o;
}

static int start_sampler(const struct trial_env *e, struct measured *m)
{
	struct sampler_cfg cfg = { .interval_ms = e->sample_ms };

	if (e->disk[0])
		cfg.disks[cfg.ndisks++] = e->disk;
	for (int i = 0; e->disk[0] && i < e->nmembers; i++)
		cfg.disks[cfg.ndisks++] = e->members[i];
	if (m->pid > 0)
		cfg.pids[cfg.npids++] = m->pid;
	return sampler_start(&m->sm, &cfg);
}

/* Connect, set up the session, and run the EXPLAIN ANALYZE while sampling. */
static int measure(const struct trial_env *e, int combo, struct measured *m,
		   char *err, size_t errlen)
{
	PGconn *c = server_connect(e->srv, NULL, err, errlen);
	PGresult *r = NULL;
	char *sql = explain_text("sweep/explain_analyze.sql", e->query_text);
	int ret = c && sql ? trial_session(c, e, combo, err, errlen) : -EIO;

	if (ret == 0) {
		m->in_force = in_force(c, e);
		m->pid = e->srv->external ? 0 : backend_pid(c);
		ret = start_sampler(e, m);
		if (ret < 0)
			snprintf(err, errlen, "cannot sample /proc during the query: %s", strerror(-ret));
	}
	if (ret == 0) {
		m->sent_ns = clock_now_ns();
		ret = run_cancellable(e, c, sql, &r, err, errlen);
		m->done_ns = clock_now_ns();
		sampler_stop(&m->sm);
	}
	if (ret == 0) {
		ret = explain_parse(PQgetvalue(r, 0, 0), &m->fig, err, errlen);
		m->plan = json_loads(PQgetvalue(r, 0, 0), JSON_DECODE_ANY, NULL);
		PQclear(r);
	}
	free(sql);
	PQfinish(c);
	return ret;
}

/* Settings beyond the session go through ALTER SYSTEM before the cold start. */
static int system_settings(const struct trial_env *e, int combo, char *err, size_t errlen)
{
	PGconn *c;
	int ret;

	for (int i = 0; i < e->plan->grid.nsettings; i++) {
		if (e->plan->grid.s[i].context == SWEEP_SESSION)
			continue;
		c = server_connect(e->srv, NULL, err, errlen);
		ret = c ? trial_system(c, e, combo, err, errlen) : -EIO;
		PQfinish(c);
		return ret;
	}
	return 0;
}

static json_t *record_of(const struct trial_env *e, const struct sweep_trial *t, int index,
			 const struct measured *m, const struct cold_times *ct,
			 const char *started, double wall_ms)
{
	uint64_t t0 = sampler_first_ns(&m->sm), t1 = sampler_last_ns(&m->sm);
	json_t *rec = json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:s, s:b, s:o, s:b, s:b, s:s, s:f}",
		"trial_key", t->key, "round", t->round, "index", index,
		"of", e->plan->ntrials, "settings", settings_json(e, t->combo),
		"in_force", m->in_force ? json_incref(m->in_force) : json_null(),
		"query", e->query_name, "cold", !e->warm,
		"cold_times", e->warm ? json_null() : cold_json(ct),
		"jit", e->jit, "forced_bitmap", e->force_bitmap,
		"started_at", started, "wall_ms", wall_ms);

	json_object_set_new(rec, "explain", explain_to_json(&m->fig));
	json_object_set_new(rec, "disk", e->disk[0] ? disk_window(&m->sm, 0, e->disk, t0, t1) : json_null());
	json_object_set_new(rec, "members", members_window(e, &m->sm, t0, t1));
	json_object_set_new(rec, "cpu", cpu_window(&m->sm, t0, t1));
	json_object_set_new(rec, "backend", backend_window(&m->sm, m->pid, t0, t1));
	json_object_set_new(rec, "phases", phases_json(e, &m->sm, m->pid, &m->fig.bitmap,
						       m->sent_ns, m->done_ns));
	json_object_set_new(rec, "samples", samples_json(e, &m->sm, m->sent_ns));
	json_object_set_new(rec, "plan", json_incref(m->plan));
	return rec;
}

int trial_run(const struct trial_env *e, const struct sweep_trial *t, int index,
	      json_t **record, char *err, size_t errlen)
{
	struct cold_times ct = { 0 };
	struct measured m = { 0 };
	char started[32];
	double t0 = clock_now_ms();
	int ret;

	record_utc_iso(time(NULL), started, sizeof(started));
	ret = system_settings(e, t->combo, err, errlen);
	if (ret == 0 && !e->warm)
		ret = server_cold(e->srv, &ct, err, errlen);
	if (ret == 0)
		ret = measure(e, t->combo, &m, err, errlen);
	if (ret == 0)
		ret = need_bitmap(e, &m.fig, err, errlen);
	if (ret == 0)
		*record = record_of(e, t, index, &m, &ct, started, clock_now_ms() - t0);
	sampler_free(&m.sm);
	explain_free(&m.fig);
	json_decref(m.plan);
	json_decref(m.in_force);
	return ret;
}

/* ---- the plan is the same in every trial ---- */

/* The settings of RECORD apart from effective_io_concurrency, as one key. */
static void ref_key(const json_t *record, char *buf, size_t len)
{
	const char *name;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(json_object_get(record, "settings"), name, v)
		if (strcmp(name, SWEEP_EIC) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s=%s;", name,
						 json_string_value(v) ?: "");
}

static void differ(json_t *diffs, const char *what, const json_t *want, const json_t *got)
{
	if (!json_equal(want, got))
		json_array_append_new(diffs, json_pack("{s:s, s:O, s:O}", "figure", what,
						       "reference", want, "here", got));
}

int trial_plan_check(json_t *record, json_t *refs)
{
	static const char *const what[] = { "relation", "exact_heap_blocks", "lossy_heap_blocks" };
	const json_t *bm = json_object_get(json_object_get(record, "explain"), "bitmap");
	const json_t *rows = json_object_get(json_object_get(record, "explain"), "top_rows");
	json_t *ref, *diffs;
	char key[1024];

	ref_key(record, key, sizeof(key));
	ref = json_object_get(refs, key);
	if (!ref) {
		ref = json_pack("{s:O?, s:O?, s:O?, s:O?, s:s?}", "relation", json_object_get(bm, "relation"),
				"exact_heap_blocks", json_object_get(bm, "exact_heap_blocks"),
				"lossy_heap_blocks", json_object_get(bm, "lossy_heap_blocks"),
				"top_rows", rows, "trial_key",
				json_string_value(json_object_get(record, "trial_key")));
		json_object_set_new(refs, key, ref);
		json_object_set_new(record, "plan_check", json_pack("{s:b, s:s}", "ok", 1, "reference", "this trial"));
		return 0;
	}
	diffs = json_array();
	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
		differ(diffs, what[i], json_object_get(ref, what[i]), json_object_get(bm, what[i]));
	differ(diffs, "top_rows", json_object_get(ref, "top_rows"), rows);
	json_object_set_new(record, "plan_check", json_pack("{s:b, s:O, s:o}", "ok", json_array_size(diffs) == 0,
							    "reference", json_object_get(ref, "trial_key"),
							    "differences", diffs));
	return json_array_size(json_object_get(json_object_get(record, "plan_check"), "differences")) > 0;
}
