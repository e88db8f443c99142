/*
 * workload_bitmap: the cold sweep's trial: the session, the plan check,
 * EXPLAIN ANALYZE while sampling; see workload_bitmap.h.
 */
#include "bench/workloads/workload_bitmap.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/dataset/tablespace.h"
#include "bench/observe/cachecheck_data.h"
#include "bench/observe/explain.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/figures.h"
#include "bench/record/record_path.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/bitmap_figures.h"
#include "io/clock.h"
#include "io/faultpoint.h"

#define DEFAULT_SAMPLE_MS 10

static struct bitmap_cfg *cfg_of(const struct runner *r)
{
	return r->cfg.wcfg;
}

int bitmap_session(const struct runner *r, PGconn *c, int combo, char *err, size_t errlen)
{
	const struct bitmap_cfg *b = cfg_of(r);
	int ret = pgutil_exec_file(c, "sweep/session.sql", err, errlen);

	if (ret == 0 && !b->jit)
		ret = pgutil_exec_file(c, "sweep/no_jit.sql", err, errlen);
	const struct query_class *qc = query_class_of(b->q.name);

	if (ret == 0 && qc && qc->session)
		ret = pgutil_exec_file(c, qc->session, err, errlen);
	if (ret == 0 && b->force_bitmap)
		ret = pgutil_exec_file(c, qc && qc->force ? qc->force : "sweep/force_bitmap.sql", err, errlen);
	return ret == 0 ? runner_session(r, c, combo, err, errlen) : ret;
}

char *bitmap_explain_sql(const char *file, const char *query)
{
	const char *fmt = sql_text(file);
	size_t len = strlen(fmt) + strlen(query) + 1;
	char *s = malloc(len);

	if (s)
		snprintf(s, len, fmt, query);
	return s;
}

/* The scan B's class measures (a file's query: one Bitmap Heap Scan). */
static enum query_scan scan_of(const struct bitmap_cfg *b)
{
	const struct query_class *qc = query_class_of(b->q.name);

	return qc ? qc->scan : QUERY_SCAN_BITMAP;
}

/* The one scan the class measures, on the relation expected (when one is);
 * a Seq Scan's figures then take the bitmap scan's place in F. */
static int need_bitmap(const struct bitmap_cfg *b, struct explain_figures *f,
		       char *err, size_t errlen)
{
	enum query_scan want = scan_of(b);
	const char *name = query_scan_name(want);

	if (want == QUERY_SCAN_SEQ) {
		if (f->has_bitmap_heap_scan || f->seq.nodes != 1 || f->seq.parallel_aware) {
			snprintf(err, errlen, "the plan is not one Seq Scan without parallel workers (nodes: %s)", f->node_types);
			return -EPROTO;
		}
		explain_take_seq(f);
	} else if (!f->has_bitmap_heap_scan) {
		snprintf(err, errlen, "the plan has no Bitmap Heap Scan (nodes: %s), even with the other scans switched off",
			 f->node_types);
		return -EPROTO;
	}
	if (f->bitmap.nodes > 1) {
		snprintf(err, errlen, "the plan has %d %ss (nodes: %s); a sweep measures a query with one",
			 f->bitmap.nodes, name, f->node_types);
		return -EPROTO;
	}
	if (f->bitmap.parallel_aware != (want == QUERY_SCAN_PARALLEL_BITMAP)) {
		snprintf(err, errlen, "the plan's Bitmap Heap Scan is %sparallel (nodes: %s); the class %s measures a %s",
			 f->bitmap.parallel_aware ? "" : "not ", f->node_types, b->q.name, name);
		return -EPROTO;
	}
	if (b->relation[0] && strcmp(f->bitmap.relation, b->relation)) {
		snprintf(err, errlen, "the %s reads '%s', not '%s' as the sweep expects",
			 name, f->bitmap.relation, b->relation);
		return -EPROTO;
	}
	return 0;
}

/* The class's scan is one its server's setting governs (seq: 17 and later). */
static int check_version(const struct bitmap_cfg *b, PGconn *c, char *err, size_t errlen)
{
	char why[256];

	if (query_governed(b->q.name, PQserverVersion(c) / 10000, why, sizeof(why)))
		return 0;
	snprintf(err, errlen, "--query %s: %s (%d and later apply it): the class measures nothing the setting changes there",
		 b->q.name, why, query_class_of(b->q.name)->min_major);
	return -EINVAL;
}

/* ---- before the first trial ---- */

static void tablespace_of(PGconn *c, struct bitmap_cfg *b)
{
	const char *p[] = { b->relation };
	char err[256];
	PGresult *r = pgutil_query(c, sql_text("sweep/tablespace.sql"), 1, p, err, sizeof(err));

	if (r && PQntuples(r) == 1) {
		snprintf(b->tablespace, sizeof(b->tablespace), "%s", PQgetvalue(r, 0, 0));
		if (!PQgetisnull(r, 0, 1))
			snprintf(b->tablespace_eic, sizeof(b->tablespace_eic), "%s", PQgetvalue(r, 0, 1));
		snprintf(b->tablespace_dir, sizeof(b->tablespace_dir), "%s", PQgetvalue(r, 0, 2));
	}
	PQclear(r);
}

/* The relation's tablespace is the storage under test: its folder must be
 * there (a killed emulator leaves a mount that is not), and the device
 * watched is the one under it. */
static int follow_tablespace(struct runner *r, const struct bitmap_cfg *b, char *err, size_t errlen)
{
	struct tablespace ts = { 0 };

	if (!b->tablespace_dir[0])
		return 0;
	snprintf(ts.name, sizeof(ts.name), "%s", b->tablespace);
	snprintf(ts.location, sizeof(ts.location), "%s", b->tablespace_dir);
	if (tablespace_reachable(&ts, err, errlen) < 0)
		return -EINVAL;
	if (!r->srv.external)
		snprintf(r->data_path, sizeof(r->data_path), "%s", b->tablespace_dir);
	return 0;
}

/* Plain EXPLAIN with the first combination's settings, into F. */
static int explain_once(struct runner *r, PGconn *c, struct explain_figures *f,
			char *err, size_t errlen)
{
	struct bitmap_cfg *b = cfg_of(r);
	char *sql = bitmap_explain_sql("sweep/explain_plan.sql", b->q.text);
	PGresult *res = NULL;
	int ret = sql ? bitmap_session(r, c, 0, err, errlen) : -ENOMEM;

	if (ret == 0 && !(res = pgutil_query(c, sql, 0, NULL, err, errlen)))
		ret = -EIO;
	free(sql);
	if (ret == 0)
		ret = explain_parse(PQgetvalue(res, 0, 0), f, err, errlen);
	PQclear(res);
	if (ret == 0 && strstr(f->node_types, "ModifyTable")) {
		snprintf(err, errlen, "the query writes (its plan has a ModifyTable node: a data-modifying WITH?); trials run EXPLAIN ANALYZE, which would execute it: give a query that only reads");
		explain_free(f);
		ret = -EINVAL;
	}
	return ret;
}

/* The planner's own plan first, under the session's cost settings; when it
 * is not the one Bitmap Heap Scan a sweep measures and forcing is allowed,
 * the other scans are switched off, and the sweep is marked forced. On
 * --resume the recorded choice stands. */
static int plan_of(struct runner *r, PGconn *c, char *err, size_t errlen)
{
	struct bitmap_cfg *b = cfg_of(r);
	const struct query_class *qc = query_class_of(b->q.name);
	bool may_force = b->force_bitmap && (!qc || qc->force);
	struct explain_figures f;
	int ret;

	if (!r->resumed)
		b->force_bitmap = false;
	ret = explain_once(r, c, &f, err, errlen);
	if (ret < 0)
		return ret;
	if (!r->resumed) {
		snprintf(b->planner_plan, sizeof(b->planner_plan), "%s", f.node_types);
		if (may_force && need_bitmap(b, &f, err, errlen) < 0) {
			explain_free(&f);
			b->force_bitmap = b->forced = true;
			ret = explain_once(r, c, &f, err, errlen);
			if (ret < 0)
				return ret;
		}
	}
	ret = need_bitmap(b, &f, err, errlen);
	if (ret == 0)
		snprintf(b->relation, sizeof(b->relation), "%s", f.bitmap.relation);
	explain_free(&f);
	return ret == -EPROTO ? -EINVAL : ret;	/* a query without the plan is bad input */
}

/* The data set's tablespace (from the catalog alone) can be reached. */
static int dataset_reachable(PGconn *c, char *err, size_t errlen)
{
	struct tablespace ts;
	int found = tablespace_of_dataset(c, NULL, &ts, err, errlen);

	if (found <= 0)
		return 0;	/* no data set: said next */
	return tablespace_reachable(&ts, err, errlen);
}

/* A tablespace value overrides the session's: refuse unless allowed. */
static int check_tablespace(const struct runner *r, const struct bitmap_cfg *b,
			    char *err, size_t errlen)
{
	if (!b->tablespace_eic[0] || b->allow_override || sweep_grid_find(&r->plan.grid, SWEEP_EIC) < 0)
		return 0;
	snprintf(err, errlen, "the relation %s lives in tablespace %s, which sets effective_io_concurrency = %s for itself: that overrides every value the sweep would try. Run ALTER TABLESPACE %s RESET (effective_io_concurrency); first, or give --allow-override to sweep anyway (every trial then reads with %s)",
		 b->relation, b->tablespace, b->tablespace_eic, b->tablespace, b->tablespace_eic);
	return -EINVAL;
}

/* Caches below this machine would make cold trials warm for the device:
 * look before the first trial, say what was found, and keep it. */
static void cache_check(const struct runner *r, struct bitmap_cfg *b)
{
	const char *line;

	fprintf(stderr, "eicbench %s: checking for caches below this machine (a few seconds)\n", r->cfg.command);
	b->cache_check = cachecheck_data_sweep(&r->srv, r->plan.order_seed);
	line = json_string_value(json_object_get(b->cache_check, "sentence"));
	if (!line)
		line = json_string_value(json_object_get(b->cache_check, "skipped"));
	if (line)
		fprintf(stderr, "eicbench %s: cache check: %s\n", r->cfg.command, line);
}

static int check(struct runner *r, char *err, size_t errlen)
{
	struct bitmap_cfg *b = cfg_of(r);
	PGresult *res;
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	int ret;

	if (!c) {
		if (!r->srv.external)
			snprintf(err, errlen, "no data set in '%s' (no database %s): run eicbench load --datadir %s first",
				 r->srv.datadir, SERVER_DBNAME, r->srv.datadir);
		return -EINVAL;
	}
	/* first where the data set lives: the server cannot even size it on a
	 * mount that is gone */
	ret = dataset_reachable(c, err, errlen);
	if (ret < 0) {
		PQfinish(c);
		return ret;
	}
	res = pgutil_query(c, sql_text("sweep/dataset_present.sql"), 0, NULL, err, errlen);
	ret = res && !strcmp(PQgetvalue(res, 0, 0), "t") ? 0 : -EINVAL;
	if (ret < 0)
		snprintf(err, errlen, "no data set: the table test is missing; run eicbench load first");
	PQclear(res);
	if (ret == 0 && query_is_preset(b->q.name))
		snprintf(b->relation, sizeof(b->relation), "test");
	if (ret == 0)
		ret = check_version(b, c, err, errlen);
	if (ret == 0)
		ret = plan_of(r, c, err, errlen);
	if (ret == 0) {
		tablespace_of(c, b);
		ret = follow_tablespace(r, b, err, errlen);
		if (ret == 0)
			ret = check_tablespace(r, b, err, errlen);
	}
	PQfinish(c);
	if (ret == 0 && !r->resumed && !r->cfg.warm && !b->no_cache_check)
		cache_check(r, b);
	if (!b->sample_ms)
		b->sample_ms = DEFAULT_SAMPLE_MS;
	if (!b->refs)
		b->refs = json_object();
	return ret;
}

/* The settings every trial's session makes (besides the grid's values). */
static json_t *session_json(const struct runner *r)
{
	char err[256];
	PGconn *c = server_connect(&r->srv, NULL, err, sizeof(err));
	json_t *o = json_object();
	PGresult *res = NULL;

	if (c && bitmap_session(r, c, 0, err, sizeof(err)) == 0)
		res = pgutil_query(c, sql_text("sweep/session_settings.sql"), 0, NULL, err, sizeof(err));
	for (int i = 0; res && i < PQntuples(res); i++)
		if (sweep_grid_find(&r->plan.grid, PQgetvalue(res, i, 0)) < 0)
			json_object_set_new(o, PQgetvalue(res, i, 0), json_string(PQgetvalue(res, i, 1)));
	PQclear(res);
	PQfinish(c);
	return o;
}

static json_t *plan_json(const struct runner *r)
{
	const struct bitmap_cfg *b = cfg_of(r);

	return json_pack("{s:s, s:s, s:b, s:b, s:b, s:s, s:i, s:s, s:o, s:{s:s, s:s, s:o, s:o, s:b}, s:O?}",
			 "query", b->q.name, "query_text", b->q.text, "jit", b->jit,
			 "forced_bitmap", b->force_bitmap, "forced", b->forced,
			 "planner_plan", b->planner_plan, "sample_ms", b->sample_ms,
			 "relation", b->relation, "session", session_json(r),
			 "tablespace", "relation", b->relation, "name", b->tablespace,
			 "location", b->tablespace_dir[0] ? json_string(b->tablespace_dir) : json_null(),
			 "effective_io_concurrency", b->tablespace_eic[0] ? json_string(b->tablespace_eic) : json_null(),
			 "override_allowed", b->allow_override, "cache_check", b->cache_check);
}

/* On --resume: the query and the session as recorded. */
static int resume(struct runner *r, const json_t *plan, char *err, size_t errlen)
{
	struct bitmap_cfg *b = cfg_of(r);
	const char *name = json_string_value(json_object_get(plan, "query"));
	const char *text = json_string_value(json_object_get(plan, "query_text"));

	if (!text) {
		snprintf(err, errlen, "--resume '%s': meta.json holds no query text", r->cfg.resume);
		return -EINVAL;
	}
	if (b->q.text && strcmp(b->q.text, text)) {
		snprintf(err, errlen, "--resume '%s': that folder was made for a different plan (settings, runs, order or query); give --resume alone to finish its own plan",
			 r->cfg.resume);
		return -EINVAL;
	}
	query_free(&b->q);
	snprintf(b->q.name, sizeof(b->q.name), "%s", name ? name : "file");
	b->q.text = strdup(text);
	b->jit = json_is_true(json_object_get(plan, "jit"));
	b->force_bitmap = json_is_true(json_object_get(plan, "forced_bitmap"));
	b->forced = json_is_true(json_object_get(plan, "forced"));
	snprintf(b->planner_plan, sizeof(b->planner_plan), "%s",
		 json_string_value(json_object_get(plan, "planner_plan")) ?: "");
	b->sample_ms = (int)json_integer_value(json_object_get(plan, "sample_ms"));
	b->allow_override |= json_is_true(json_object_get(json_object_get(plan, "tablespace"), "override_allowed"));
	return b->q.text ? 0 : -ENOMEM;
}

/* ---- one trial ---- */

static pid_t backend_pid(PGconn *c)
{
	PGresult *r = PQexec(c, sql_text("sweep/backend_pid.sql"));
	pid_t pid = 0;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		pid = (pid_t)atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return pid;
}

/* The device, its members, the backend and the server's workers. */
static int start_sampling(const struct runner *r, PGconn *c, struct bitmap_measure *m)
{
	struct sampler_cfg cfg = { .interval_ms = cfg_of(r)->sample_ms };
	struct pgaios_cfg ac = { .interval_ms = PGAIOS_DEFAULT_INTERVAL_MS, .pid = PQbackendPID(c) };

	if (r->disk[0])
		cfg.disks[cfg.ndisks++] = r->disk;
	cfg.disk_file = r->disk_file;
	cfg.irqs = r->irqs;
	for (int i = 0; r->disk[0] && i < r->nmembers; i++)
		cfg.disks[cfg.ndisks++] = r->members[i];
	if (m->pid > 0) {
		cfg.pids[cfg.npids++] = m->pid;
		m->procs_ret = pgprocs_list(c, 0, &m->procs, m->procs_why, sizeof(m->procs_why));
		if (m->procs_ret == 0)
			m->procs_first = pgprocs_to_sampler(&m->procs, &cfg, &m->procs_added);
	} else
		m->procs_ret = -ENOENT;
	m->io_ret = pgstats_io_snapshot(c, &m->io0, m->io_why, sizeof(m->io_why));
	m->aios_ret = pgaios_start_server(&m->aios, &r->srv, &ac, m->aios_why, sizeof(m->aios_why));
	return sampler_start(&m->sm, &cfg);
}

/* Connect, set up the session, and run the EXPLAIN ANALYZE while sampling. */
static int measure(struct runner *r, int combo, struct bitmap_measure *m, char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	PGresult *res = NULL;
	char *sql = bitmap_explain_sql("sweep/explain_analyze.sql", cfg_of(r)->q.text);
	int ret = c && sql ? bitmap_session(r, c, combo, err, errlen) : -EIO;

	if (ret == 0) {
		m->in_force = runner_in_force(r, c);
		m->pid = r->srv.external ? 0 : backend_pid(c);
		ret = start_sampling(r, c, m);
		if (ret < 0)
			snprintf(err, errlen, "cannot sample /proc during the query: %s", strerror(-ret));
	}
	if (ret == 0)
		ret = pgutil_exec_file(c, "sweep/begin_read_only.sql", err, errlen);
	if (ret == 0) {
		faultpoint("sweep:query");
		m->sent_ns = clock_now_ns();
		ret = pgutil_query_cancellable(c, sql, r->stop, &res, err, errlen);
		m->done_ns = clock_now_ns();
		sampler_stop(&m->sm);
		pgaios_stop(&m->aios);
		if (ret != -EINTR) {
			char e2[256];

			pgutil_exec_file(c, "sweep/end_read_only.sql", e2, sizeof(e2));
		}
		if (m->io_ret == 0)
			m->io_ret = pgstats_io_snapshot(c, &m->io1, m->io_why, sizeof(m->io_why));
	}
	if (ret == 0) {
		ret = explain_parse(PQgetvalue(res, 0, 0), &m->fig, err, errlen);
		m->plan = json_loads(PQgetvalue(res, 0, 0), JSON_DECODE_ANY, NULL);
	}
	PQclear(res);
	free(sql);
	PQfinish(c);
	return ret;
}

static int trial(struct runner *r, const struct sweep_trial *t, json_t *rec, char *err, size_t errlen)
{
	struct bitmap_measure m = { 0 };
	const struct bitmap_cfg *b = cfg_of(r);
	int ret = measure(r, t->combo, &m, err, errlen);

	if (ret == 0)
		ret = need_bitmap(b, &m.fig, err, errlen);
	if (ret == 0) {
		json_object_set_new(rec, "query", json_string(b->q.name));
		json_object_set_new(rec, "jit", json_boolean(b->jit));
		json_object_set_new(rec, "forced_bitmap", json_boolean(b->force_bitmap));
		bitmap_figures_add(r, &m, rec);
	}
	bitmap_measure_free(&m);
	return ret;
}

static int check_record(struct runner *r, json_t *rec)
{
	int differs = bitmap_plan_check(rec, cfg_of(r)->refs);
	const json_t *pc = json_object_get(rec, "plan_check"), *d;
	size_t i;

	if (!differs || !json_object_get(rec, "wall_ms"))
		return differs;
	fprintf(stderr, "eicbench sweep: trial '%s' read another plan than '%s':",
		json_string_value(json_object_get(rec, "trial_key")),
		json_string_value(json_object_get(pc, "reference")));
	json_array_foreach(json_object_get(pc, "differences"), i, d) {
		char *want = json_dumps(json_object_get(d, "reference"), JSON_ENCODE_ANY);
		char *got = json_dumps(json_object_get(d, "here"), JSON_ENCODE_ANY);

		fprintf(stderr, "%s %s %s instead of %s", i ? ";" : "",
			json_string_value(json_object_get(d, "figure")), got, want);
		free(want), free(got);
	}
	fprintf(stderr, "; the record says so and the report leaves it out\n");
	return differs;
}

static void say(const struct runner *r, const json_t *rec, char *buf, size_t len)
{
	const json_t *ex = json_object_get(rec, "explain");
	double heap = record_num_at(ex, "bitmap.heap_phase.total_ms");

	(void)r;
	snprintf(buf, len, "%9.1f ms", json_real_value(json_object_get(ex, "execution_ms")));
	if (!isnan(heap))
		snprintf(buf + strlen(buf), len - strlen(buf), "  heap %9.1f ms", heap);
}

const struct workload workload_bitmap = {
	.name = "bitmap",
	.summary = RECORD_SUMMARY_BITMAP,
	.check = check,
	.plan_json = plan_json,
	.resume = resume,
	.trial = trial,
	.check_record = check_record,
	.say = say,
	.figures = record_figures_bitmap,
	.relations_sql = "sweep/relations.sql",
};
