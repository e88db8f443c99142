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

static int need_bitmap(const struct explain_figures *f, char *err, size_t errlen)
{
	if (f->has_bitmap_heap_scan)
		return 0;
	snprintf(err, errlen, "the plan has no Bitmap Heap Scan (nodes: %s), even with the other scans switched off%s",
		 f->node_types, "");
	return -EPROTO;
}

int trial_check_plan(const struct trial_env *e, int combo, char *err, size_t errlen)
{
	struct explain_figures f;
	PGconn *c = server_connect(e->srv, NULL, err, errlen);
	int ret = c ? trial_session(c, e, combo, err, errlen) : -EIO;

	if (ret == 0)
		ret = explain_once(c, "sweep/explain_plan.sql", e->query_text, &f, err, errlen);
	if (ret == 0) {
		ret = need_bitmap(&f, err, errlen);
		explain_free(&f);
	}
	PQfinish(c);
	return ret;
}

struct snaps {
	struct disk_snap disk;
	struct cpu_snap  cpu;
	struct proc_snap proc;
	bool have_disk, have_proc;
};

static void snap(const struct trial_env *e, pid_t pid, struct snaps *s)
{
	s->have_disk = e->disk[0] && sysstat_disk_read(e->disk, &s->disk) == 0;
	s->have_proc = pid > 0 && sysstat_proc_read(pid, &s->proc) == 0;
	if (sysstat_cpu_read(&s->cpu) < 0)
		memset(&s->cpu, 0, sizeof(s->cpu));
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

static json_t *disk_json(const struct trial_env *e, const struct snaps *a,
			 const struct snaps *b)
{
	struct disk_delta d;

	if (!a->have_disk || !b->have_disk)
		return json_null();
	sysstat_disk_diff(&a->disk, &b->disk, &d);
	return record_disk_json(e->disk, &d);
}

static json_t *cpu_json(const struct snaps *a, const struct snaps *b)
{
	struct cpu_delta d;

	sysstat_cpu_diff(&a->cpu, &b->cpu, &d);
	return json_pack("{s:f, s:f, s:f, s:f}", "user_pct", d.user_pct,
			 "system_pct", d.system_pct, "iowait_pct", d.iowait_pct,
			 "idle_pct", d.idle_pct);
}

static json_t *backend_json(pid_t pid, const struct snaps *a, const struct snaps *b)
{
	struct proc_delta d;

	if (!a->have_proc || !b->have_proc)
		return json_null();
	sysstat_proc_diff(&a->proc, &b->proc, &d);
	return json_pack("{s:i, s:f, s:f, s:f}", "pid", (int)pid, "user_s", d.user_s,
			 "system_s", d.system_s, "cpu_share", d.cpu_share);
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
	struct snaps a, b;
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

/* Connect, set up the session, and run the EXPLAIN ANALYZE between snapshots. */
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
		snap(e, m->pid, &m->a);
		ret = run_cancellable(e, c, sql, &r, err, errlen);
		snap(e, m->pid, &m->b);
	}
	if (ret == 0) {
		ret = explain_parse(PQgetvalue(r, 0, 0), &m->fig, err, errlen);
		PQclear(r);
	}
	free(sql);
	PQfinish(c);
	return ret;
}

int trial_run(const struct trial_env *e, const struct sweep_trial *t, int index,
	      json_t **record, char *err, size_t errlen)
{
	struct cold_times ct = { 0 };
	struct measured m = { 0 };
	char started[32];
	double t0 = clock_now_ms();
	PGconn *c;
	int ret;

	record_utc_iso(time(NULL), started, sizeof(started));
	ret = 0;
	for (int i = 0; i < e->plan->grid.nsettings; i++)
		if (e->plan->grid.s[i].context != SWEEP_SESSION)
			ret = 1;
	if (ret) {	/* settings beyond the session: ALTER SYSTEM first */
		c = server_connect(e->srv, NULL, err, errlen);
		ret = c ? trial_system(c, e, t->combo, err, errlen) : -EIO;
		PQfinish(c);
	}
	if (ret == 0 && !e->warm)
		ret = server_cold(e->srv, &ct, err, errlen);
	if (ret == 0)
		ret = measure(e, t->combo, &m, err, errlen);
	if (ret == 0)
		ret = need_bitmap(&m.fig, err, errlen);
	if (ret == 0)
		*record = json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:s, s:b, s:o, s:b, s:b, s:s, s:f, s:o, s:o, s:o, s:o}",
			"trial_key", t->key, "round", t->round, "index", index,
			"of", e->plan->ntrials, "settings", settings_json(e, t->combo),
			"in_force", m.in_force ? json_incref(m.in_force) : json_null(),
			"query", e->query_name, "cold", !e->warm,
			"cold_times", e->warm ? json_null() : cold_json(&ct),
			"jit", e->jit, "forced_bitmap", e->force_bitmap,
			"started_at", started, "wall_ms", clock_now_ms() - t0,
			"explain", explain_to_json(&m.fig), "disk", disk_json(e, &m.a, &m.b),
			"cpu", cpu_json(&m.a, &m.b), "backend", backend_json(m.pid, &m.a, &m.b));
	explain_free(&m.fig);
	json_decref(m.in_force);
	return ret;
}
