/*
 * workload_replay: the replay trial; see workload_replay.h. The check asks
 * the server for the pages and calibrates the work per page; a trial reads
 * the settings in force, lets the server be, and replays the scan.
 */
#include "bench/workloads/workload_replay.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/observe/explain.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/figures.h"
#include "bench/record/record.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/replay_pages.h"
#include "bench/workloads/workload_bitmap.h"
#include "io/cache.h"
#include "io/clock.h"
#include "io/engines/replay.h"
#include "io/sampler.h"

#define PG_AUX_PROCS 38                /* 18's NUM_AUXILIARY_PROCS: 6 + 32 I/O workers */
#define PG_SPECIAL_WORKERS 2           /* 18's NUM_SPECIAL_WORKER_PROCS */

static struct replay_wcfg *cfg_of(const struct runner *r)
{
	return r->cfg.ccfg;
}

static const struct bitmap_cfg *query_of(const struct runner *r)
{
	return r->cfg.wcfg;
}

/* ---- the pages ---- */

unsigned replay_pin_limit(long long shared_buffers_blocks, int max_connections,
			  int autovacuum_slots, int max_worker_processes, int max_wal_senders)
{
	long long procs = (long long)max_connections + autovacuum_slots + max_worker_processes +
			  max_wal_senders + PG_SPECIAL_WORKERS + PG_AUX_PROCS;

	return procs > 0 && shared_buffers_blocks > 0 ? (unsigned)(shared_buffers_blocks / procs) : 0;
}

void replay_wcfg_free(struct replay_wcfg *w)
{
	relblocks_free(&w->rb);
	free(w->pages);
	if (w->have_map)
		blockmap_close(&w->map);
	json_decref(w->calibration);
	w->pages = NULL;
	w->have_map = false;
	w->calibration = NULL;
}

/* ---- before the first trial ---- */

static int ask_pages(struct runner *r, PGconn *c, char *err, size_t errlen)
{
	struct replay_wcfg *w = cfg_of(r);
	const struct bitmap_cfg *b = query_of(r);
	char *sql = NULL;
	int rc = relblocks_lookup(c, b->relation, r->srv.external ? NULL : r->srv.datadir, &w->rb,
				  err, errlen);

	if (rc == 0)
		rc = relblocks_rewrite(b->q.text, b->relation, &sql, err, errlen);
	if (rc == 0)
		rc = relblocks_fetch(c, sql, &w->rb, err, errlen);
	free(sql);
	if (rc == -EINVAL)
		snprintf(err + strlen(err), errlen - strlen(err), " (the replay needs a query of the form SELECT * FROM %s ...)",
			 b->relation);
	return rc;
}

/* One EXPLAIN ANALYZE of the query at 0 in C's session; its figures. */
static int explain_once(struct runner *r, PGconn *c, struct explain_figures *f,
			char *err, size_t errlen)
{
	char *sql = bitmap_explain_sql("sweep/explain_analyze.sql", query_of(r)->q.text);
	PGresult *res = sql ? pgutil_query(c, sql, 0, NULL, err, errlen) : NULL;
	int rc = res ? explain_parse(PQgetvalue(res, 0, 0), f, err, errlen) : sql ? -EIO : -ENOMEM;

	PQclear(res);
	free(sql);
	return rc;
}

#define CALIBRATION_RUNS 3            /* measured, after one that warms the caches */
#define EXACT_WORK_MEM_MIN (64LL << 20) /* the calibration's exact bitmap: at least this work_mem */

/* A warm run: its work per page outside reads (warm runs here differ by up
 * to a quarter within a sweep, so the median of CALIBRATION_RUNS is taken). */
struct calib_run {
	double work_ns, heap_ms, read_ms, exec_ms;
};

static int by_work(const void *a, const void *b)
{
	double x = ((const struct calib_run *)a)->work_ns, y = ((const struct calib_run *)b)->work_ns;

	return x < y ? -1 : x > y;
}

/* CALIBRATION_RUNS warm runs in C's session (after one that fills the
 * caches when FILL) into RUN, the last one's figures in *F; RUN sorted
 * into SORTED. */
static int warm_runs(struct runner *r, PGconn *c, bool fill, struct explain_figures *f,
		     struct calib_run *run, struct calib_run *sorted, char *err, size_t errlen)
{
	const struct explain_phase *h = &f->bitmap.heap_phase;
	int rc = 0;

	for (int k = fill ? -1 : 0; rc == 0 && k < CALIBRATION_RUNS; k++) {	/* -1: filling the caches */
		double pages, outside;

		explain_free(f);
		rc = explain_once(r, c, f, err, errlen);
		if (rc == 0 && (!f->bitmap.phases || h->io_read_ms < 0)) {
			snprintf(err, errlen, "the calibration's EXPLAIN gave no heap phase or no I/O read time (track_io_timing)");
			rc = -EPROTO;
		}
		if (rc < 0 || k < 0)
			continue;
		pages = (double)((f->bitmap.exact_heap_blocks > 0 ? f->bitmap.exact_heap_blocks : 0) +
				 (f->bitmap.lossy_heap_blocks > 0 ? f->bitmap.lossy_heap_blocks : 0));
		outside = h->total_ms - h->io_read_ms;
		run[k] = (struct calib_run){ pages > 0 && outside > 0 ? outside * 1e6 / pages : 0,
					     h->total_ms, h->io_read_ms, f->execution_ms };
	}
	memcpy(sorted, run, CALIBRATION_RUNS * sizeof(*run));
	qsort(sorted, CALIBRATION_RUNS, sizeof(*sorted), by_work);
	return rc;
}

static json_t *runs_json(const struct calib_run *run)
{
	json_t *a = json_array();

	for (int k = 0; k < CALIBRATION_RUNS; k++)
		json_array_append_new(a, json_pack("{s:f, s:f, s:f}", "heap_ms", run[k].heap_ms,
						   "heap_read_ms", run[k].read_ms, "execution_ms", run[k].exec_ms));
	return a;
}

/* The session's work_mem in bytes (the bitmap's memory), or -1. */
static long long work_mem_of(PGconn *c, char *err, size_t errlen)
{
	PGresult *res = pgutil_query(c, sql_text("replay/work_mem.sql"), 0, NULL, err, errlen);
	long long v = res && PQntuples(res) == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : -1;

	PQclear(res);
	return v;
}

/* The same warm runs with a work_mem that holds the bitmap exact: the
 * work per page without the lossy pages' other tuples (-1: not had). */
static int exact_runs(struct runner *r, PGconn *c, json_t **out, char *err, size_t errlen)
{
	struct replay_wcfg *w = cfg_of(r);
	long long bytes = (w->exact_pages + w->lossy_pages) * REPLAY_TBM_ENTRY_BYTES * 4;
	struct calib_run run[CALIBRATION_RUNS], sorted[CALIBRATION_RUNS];
	struct explain_figures f = { 0 };
	char kb[32];
	const char *params[1] = { kb };
	int rc;

	snprintf(kb, sizeof(kb), "%lldkB", (bytes < EXACT_WORK_MEM_MIN ? EXACT_WORK_MEM_MIN : bytes) >> 10);
	rc = pgutil_exec(c, sql_text("replay/set_work_mem.sql"), 1, params, err, errlen);
	if (rc == 0)
		rc = warm_runs(r, c, false, &f, run, sorted, err, errlen);
	w->exact_work_ns = rc == 0 && f.bitmap.lossy_heap_blocks == 0 ? sorted[CALIBRATION_RUNS / 2].work_ns : -1;
	if (rc == 0)
		*out = json_pack("{s:s, s:f, s:I, s:o}", "work_mem", kb, "work_ns_per_page", w->exact_work_ns,
				 "lossy_pages", (json_int_t)f.bitmap.lossy_heap_blocks, "runs", runs_json(run));
	explain_free(&f);
	if (rc == 0)
		rc = pgutil_exec(c, "RESET work_mem", 0, NULL, err, errlen);
	return rc;
}

/* Warm at 0, in a session set as the trials': the work per page outside
 * reads at the session's work_mem and, when the bitmap has lossy pages,
 * with one that holds it exact (how the work splits between the page and
 * the tuples it examines: replay_work_fit). */
static int calibrate(struct runner *r, PGconn *c, char *err, size_t errlen)
{
	struct replay_wcfg *w = cfg_of(r);
	struct explain_figures f = { 0 };
	struct calib_run run[CALIBRATION_RUNS], sorted[CALIBRATION_RUNS];
	json_t *exact = NULL;
	int rc = bitmap_session(r, c, 0, err, errlen);

	if (rc == 0)
		rc = pgutil_exec_file(c, "replay/no_prefetch.sql", err, errlen);
	if (rc == 0 && (w->work_mem_bytes = work_mem_of(c, err, errlen)) < 0)
		rc = -EIO;
	if (rc == 0)
		rc = warm_runs(r, c, true, &f, run, sorted, err, errlen);
	if (rc < 0) {
		explain_free(&f);
		return rc;
	}
	w->exact_pages = f.bitmap.exact_heap_blocks > 0 ? f.bitmap.exact_heap_blocks : 0;
	w->lossy_pages = f.bitmap.lossy_heap_blocks > 0 ? f.bitmap.lossy_heap_blocks : 0;
	w->index_blocks = f.bitmap.index_phase.shared_hit_blocks + f.bitmap.index_phase.shared_read_blocks;
	w->work_ns_per_page = sorted[CALIBRATION_RUNS / 2].work_ns;
	w->exact_work_ns = -1;
	if (w->lossy_pages > 0)
		rc = exact_runs(r, c, &exact, err, errlen);
	w->calibration = json_pack("{s:s, s:f, s:f, s:f, s:o, s:I, s:I, s:I, s:I, s:O?, s:o?}",
		"how", "warm EXPLAIN ANALYZE runs at effective_io_concurrency 0, in a session set as the trials': one to fill the caches, then three; the median run's heap phase less its I/O read time, over its heap blocks; with lossy pages, three more with a work_mem that holds the bitmap exact",
		"heap_ms", sorted[CALIBRATION_RUNS / 2].heap_ms, "heap_read_ms", sorted[CALIBRATION_RUNS / 2].read_ms,
		"execution_ms", sorted[CALIBRATION_RUNS / 2].exec_ms, "runs", runs_json(run),
		"shared_read_blocks", (json_int_t)f.bitmap.heap_phase.shared_read_blocks,
		"index_blocks", (json_int_t)w->index_blocks,
		"exact_pages", (json_int_t)w->exact_pages, "lossy_pages", (json_int_t)w->lossy_pages,
		"settings", f.settings, "exact_bitmap", exact);
	explain_free(&f);
	return rc;
}

/* What a resumed sweep recorded stands: the same work per page, the same lossy pages. */
static void take_resumed(struct replay_wcfg *w)
{
	const json_t *p = w->resumed, *e;

	w->work_ns_per_page = json_number_value(json_object_get(p, "work_ns_per_page"));
	w->exact_pages = json_integer_value(json_object_get(p, "exact_pages"));
	w->lossy_pages = json_integer_value(json_object_get(p, "lossy_pages"));
	w->work_mem_bytes = json_is_integer(e = json_object_get(p, "work_mem_bytes")) ? json_integer_value(e) : -1;
	w->calibration = json_incref(json_object_get(p, "calibration"));
	w->index_blocks = json_integer_value(json_object_get(w->calibration, "index_blocks"));
	e = json_object_get(json_object_get(w->calibration, "exact_bitmap"), "work_ns_per_page");
	w->exact_work_ns = json_is_number(e) ? json_number_value(e) : -1;
}

/* The scan's pages, lossy as the bitmap makes them, and the work on each. */
static int pages_and_work(struct replay_wcfg *w)
{
	double examined = 0, matching = 0;
	int rc = replay_pages_choose(&w->rb, w->lossy_pages, w->work_mem_bytes, w->rb.tuples_per_page,
				     &w->pages, &w->lossy_used, &w->lossy_how, &w->lossy_simulated);

	if (rc < 0)
		return rc;
	w->npages = w->rb.nblocks;
	for (size_t i = 0; i < w->npages; i++) {
		examined += w->pages[i].ntuples;
		matching += w->rb.ntuples[i];
	}
	w->work_split = replay_work_fit(w->work_ns_per_page, w->exact_work_ns, w->npages, examined,
					matching, &w->work_ns_fixed, &w->work_ns_per_tuple);
	return 0;
}

static int open_files(struct replay_wcfg *w, char *err, size_t errlen)
{
	int rc = blockmap_open(&w->map, (const char *const *)w->rb.segments, w->rb.nsegments,
			       w->rb.block_bytes, 0, err, errlen);

	w->have_map = rc == 0;
	if (rc == 0 && w->map.nblocks < w->rb.relation_blocks) {
		snprintf(err, errlen, "the files of %s hold %" PRIu64 " blocks, the server says %" PRIu64,
			 w->rb.base, w->map.nblocks, w->rb.relation_blocks);
		return -EIO;
	}
	return rc;
}

static int check(struct runner *r, char *err, size_t errlen)
{
	struct replay_wcfg *w = cfg_of(r);
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	int rc = c ? ask_pages(r, c, err, errlen) : -EIO;

	if (rc == 0 && w->resumed)
		take_resumed(w);
	else if (rc == 0) {
		fprintf(stderr, "eicbench %s: replay: %zu heap pages; timing the backend's work per page (the query warm)\n",
			r->cfg.command, w->rb.nblocks);
		rc = calibrate(r, c, err, errlen);
	}
	PQfinish(c);
	if (rc == 0)
		rc = pages_and_work(w);
	if (rc == 0)
		rc = open_files(w, err, errlen);	/* readable and whole: checked once here */
	if (w->have_map) {
		blockmap_close(&w->map);
		w->have_map = false;
	}
	if (rc == 0) {
		char split[96] = "";

		if (w->work_split)
			snprintf(split, sizeof(split), " (%.2f us and %.1f ns a tuple examined)",
				 w->work_ns_fixed / 1e3, w->work_ns_per_tuple);
		fprintf(stderr, "eicbench %s: replay: %.2f us of work per page%s; %" PRId64 " exact and %" PRId64 " lossy pages%s\n",
			r->cfg.command, w->work_ns_per_page / 1e3, split, w->exact_pages, w->lossy_pages,
			w->lossy_pages == 0 ? "" : w->lossy_used ? " (which, simulated)" : " (which, modelled)");
	}
	return rc == -EPROTO ? -EIO : rc;
}

static json_t *plan_json(const struct runner *r)
{
	const struct replay_wcfg *w = cfg_of(r);

	return json_pack("{s:s, s:I, s:I, s:I, s:f, s:I, s:I, s:I, s:s, s:I, s:f, s:{s:b, s:f, s:f, s:s}, s:O?}",
		"relation", query_of(r)->relation, "pages", (json_int_t)w->npages,
		"rows", (json_int_t)w->rb.rows, "relation_blocks", (json_int_t)w->rb.relation_blocks,
		"tuples_per_page", w->rb.tuples_per_page,
		"exact_pages", (json_int_t)w->exact_pages, "lossy_pages", (json_int_t)w->lossy_pages,
		"work_mem_bytes", (json_int_t)w->work_mem_bytes,
		"lossy_model", w->lossy_how, "lossy_simulated", (json_int_t)w->lossy_simulated,
		"work_ns_per_page", w->work_ns_per_page,
		"work_model", "split", w->work_split, "ns_per_page", w->work_ns_fixed,
		"ns_per_tuple", w->work_ns_per_tuple,
		"how", w->work_split ? "a part per page and a part per tuple examined (a lossy page's every tuple, an exact page's rows), from the warm runs at the session's work_mem and with the bitmap exact" :
				       "the same on every page (the warm runs did not split it)",
		"calibration", w->calibration);
}

static int resume(struct runner *r, const json_t *plan, char *err, size_t errlen)
{
	const json_t *rp = json_object_get(plan, "replay");

	if (!json_is_object(rp)) {
		snprintf(err, errlen, "--resume '%s': meta.json holds no replay plan", r->cfg.resume);
		return -EINVAL;
	}
	cfg_of(r)->resumed = rp;
	return 0;
}

/* ---- one trial ---- */

struct in_force {
	int  version, eic, combine, workers, max_concurrency;
	char method[32], checksums[8];
	unsigned pin_limit, shared_buffers;
};

static int int_at(const PGresult *res, int col, int dflt)
{
	return PQgetisnull(res, 0, col) ? dflt : atoi(PQgetvalue(res, 0, col));
}

/* The settings in force for the trial's session, as the query would have them. */
static int settings(struct runner *r, int combo, struct in_force *s, json_t **in_force,
		    char *err, size_t errlen)
{
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	PGresult *res = NULL;
	int rc = c ? bitmap_session(r, c, combo, err, errlen) : -EIO;

	if (rc == 0 && !(res = pgutil_query(c, sql_text("replay/settings.sql"), 0, NULL, err, errlen)))
		rc = -EIO;
	if (rc == 0) {
		s->version = int_at(res, 0, 0);
		s->eic = int_at(res, 1, 0);
		snprintf(s->method, sizeof(s->method), "%s", PQgetisnull(res, 0, 2) ? "" : PQgetvalue(res, 0, 2));
		s->combine = int_at(res, 3, 16);
		s->workers = int_at(res, 4, 3);
		s->shared_buffers = (unsigned)strtoul(PQgetvalue(res, 0, 5), NULL, 10);
		s->pin_limit = replay_pin_limit(strtoll(PQgetvalue(res, 0, 5), NULL, 10), int_at(res, 6, 100),
						int_at(res, 7, 3), int_at(res, 8, 8), int_at(res, 9, 10));
		snprintf(s->checksums, sizeof(s->checksums), "%s", PQgetvalue(res, 0, 10));
		s->max_concurrency = int_at(res, 11, 64);
		*in_force = runner_in_force(r, c);
	}
	PQclear(res);
	PQfinish(c);
	return rc;
}

/*
 * The query's index phase, done by the server before the replay reads: the
 * query's first row in the trial's session, without prefetching and with
 * the other scans off, so the bitmap is built from the index as the query
 * builds it, taking as long and filling as much of the page cache; then
 * the heap's pages that first row brought in are evicted. The replay so
 * starts as the query's heap phase does, as long after the cold start. On
 * a machine whose host takes free memory back that matters: a page read
 * into the cache costs the kernel more the later after the caches were
 * dropped (docs/measured.md). A warm sweep's replay keeps the heap cached,
 * as its query finds it. Pages a tablespace's effective_io_concurrency
 * prefetched for that first row may land after the advice: at most that
 * many. *MS: the phase's time; *EVICTED: the bytes of the heap's files
 * advised out.
 */
static int index_phase(struct runner *r, int combo, double *ms, uint64_t *evicted,
		       char *err, size_t errlen)
{
	const struct replay_wcfg *w = cfg_of(r);
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	char *sql = bitmap_explain_sql("replay/index_phase.sql", query_of(r)->q.text);
	PGresult *res = NULL;
	int rc = !c ? -EIO : !sql ? -ENOMEM : bitmap_session(r, c, combo, err, errlen);

	if (rc == 0)
		rc = pgutil_exec_file(c, "replay/no_prefetch.sql", err, errlen);
	if (rc == 0)
		rc = pgutil_exec_file(c, "sweep/force_bitmap.sql", err, errlen);
	if (rc == 0) {
		uint64_t t0 = clock_now_ns();

		res = pgutil_query(c, sql, 0, NULL, err, errlen);
		*ms = (double)(clock_now_ns() - t0) / 1e6;
		rc = res ? 0 : -EIO;
	}
	PQclear(res);
	PQfinish(c);
	free(sql);
	*evicted = 0;
	for (unsigned i = 0; rc == 0 && !r->cfg.warm && i < w->rb.nsegments; i++) {
		uint64_t bytes = 0;

		rc = cache_evict_file(w->rb.segments[i], &bytes);
		if (rc < 0)
			snprintf(err, errlen, "cannot advise %s out of the page cache: %s", w->rb.segments[i],
				 strerror(-rc));
		*evicted += bytes;
	}
	return rc;
}

static int config_for(const struct runner *r, const struct in_force *s, struct replay_config *c,
		      char *err, size_t errlen)
{
	const struct replay_wcfg *w = cfg_of(r);
	const struct bitmap_cfg *b = query_of(r);

	*c = (struct replay_config){
		.map = &w->map, .pages = w->pages, .npages = w->npages,
		.model = s->version >= 180000 ? REPLAY_PG18 : REPLAY_PG13_17,
		.eic = (unsigned)(b->tablespace_eic[0] ? atoi(b->tablespace_eic) : s->eic),
		.combine_limit = (unsigned)s->combine, .pin_limit = s->pin_limit,
		.io_workers = (unsigned)s->workers, .ring_entries = (unsigned)s->max_concurrency,
		.disk_name = r->disk[0] ? r->disk : NULL, .disk_file = r->disk_file,
		.work_ns_per_page = (uint64_t)llround(w->work_ns_fixed),
		.work_ns_per_tuple = w->work_ns_per_tuple, .stop = r->stop,
		.verify_blocks = !strcmp(s->checksums, "on"),
		.pool_blocks = s->shared_buffers,
		/* a warm server's buffers are all in use; a cold one's as many as
		 * the index phase just read into them */
		.pool_touched = r->cfg.warm ? s->shared_buffers :
				(unsigned)(w->index_blocks < s->shared_buffers ? w->index_blocks : s->shared_buffers),
	};
	if (s->version < 130000) {
		snprintf(err, errlen, "the replay models PostgreSQL 13 and later; this server is %d", s->version);
		return -EPROTO;
	}
	if (c->model == REPLAY_PG18 && replay_method_find(s->method, &c->method) < 0) {
		snprintf(err, errlen, "io_method '%s' is not one the replay knows (sync, io_uring, worker)", s->method);
		return -EPROTO;
	}
	return 0;
}

static json_t *result_json(const struct replay_config *c, const struct replay_result *x)
{
	const struct readstream_stats *st = &x->stream;

	return json_pack("{s:s, s:s?, s:i, s:i, s:i, s:i, s:f, s:f, s:b, s:i, s:i, s:I, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:f,"
			 " s:{s:I, s:I}, s:o, s:{s:f, s:f, s:I, s:o, s:o}, s:o}",
		"model", replay_model_name(c->model),
		"method", c->model == REPLAY_PG18 ? replay_method_name(c->method) : NULL,
		"eic", (int)c->eic, "combine_limit", (int)c->combine_limit, "pin_limit", (int)c->pin_limit,
		"io_workers", (int)c->io_workers, "work_ns_per_page", (double)c->work_ns_per_page,
		"work_ns_per_tuple", c->work_ns_per_tuple,
		"verify_blocks", c->verify_blocks && c->model == REPLAY_PG18, "pool_blocks", (int)c->pool_blocks,
		"pool_touched_blocks", (int)c->pool_touched,
		"pages", (json_int_t)c->npages,
		"elapsed_ms", x->elapsed_ms, "wait_ms", x->wait_ms, "advise_ms", x->advise_ms,
		"work_ms", x->work_ms, "reads", (json_int_t)x->reads, "read_blocks", (json_int_t)x->read_blocks,
		"advices", (json_int_t)x->advices,
		"mean_read_kib", x->reads ? (double)x->read_blocks * c->map->block_bytes / 1024.0 / (double)x->reads : 0.0,
		"walk", "tuples", (json_int_t)x->walk.tuples, "bytes", (json_int_t)x->walk.bytes,
		"stream", c->model == REPLAY_PG18 ?
			  json_pack("{s:I, s:I, s:i, s:i, s:i, s:o, s:o, s:o}", "hits", (json_int_t)st->hits,
				    "advices", (json_int_t)st->advices, "max_distance", (int)st->max_distance,
				    "max_ios_in_flight", (int)st->max_ios_in_flight,
				    "max_pinned", (int)st->max_pinned,
				    "ring_entries", c->method == REPLAY_IO_URING && c->eic ?
						    json_integer((json_int_t)c->ring_entries) : json_null(),
				    "async_reads", c->method == REPLAY_IO_URING && c->eic ?
						   json_integer((json_int_t)x->async_reads) : json_null(),
				    "ring_max_unreaped", c->method == REPLAY_IO_URING && c->eic ?
							 json_integer((json_int_t)x->ring_max_unreaped) : json_null()) :
			  json_null(),
		"cpu", "user_ms", x->user_ms, "system_ms", x->system_ms, "minor_faults", (json_int_t)x->minor_faults,
		"oncpu_ms", x->have_schedstat ? json_real(x->oncpu_ms) : json_null(),
		"runqueue_ms", x->have_schedstat ? json_real(x->runqueue_ms) : json_null(),
		"workers_cpu_ms", c->model == REPLAY_PG18 && c->method == REPLAY_WORKER && c->eic ?
				  json_real(x->workers_cpu_ms) : json_null());
}

static json_t *cpu_json(const struct cpu_snap *a, const struct cpu_snap *b)
{
	struct cpu_delta d;

	sysstat_cpu_diff(a, b, &d);
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "user_pct", d.user_pct, "system_pct", d.system_pct,
			 "iowait_pct", d.iowait_pct, "idle_pct", d.idle_pct, "steal_pct", d.steal_pct);
}

static int trial(struct runner *r, const struct sweep_trial *t, json_t *rec, char *err, size_t errlen)
{
	struct in_force s = { 0 };
	struct replay_config c;
	struct replay_result x;
	struct cpu_snap a, b;
	json_t *in_force = NULL;
	bool have_cpu = false;
	double index_ms = 0;
	uint64_t evicted = 0, end = 0;
	struct sampler sm = { 0 };
	json_t *placement = NULL;
	int rc = settings(r, t->combo, &s, &in_force, err, errlen);

	if (rc == 0)
		rc = index_phase(r, t->combo, &index_ms, &evicted, err, errlen);

	/* files opened anew, as a new backend opens them: the kernel's
	 * readahead state of a file lives with its open file */
	if (rc == 0)
		rc = open_files(cfg_of(r), err, errlen);
	if (rc == 0)
		rc = config_for(r, &s, &c, err, errlen);
	if (rc == 0) {
		struct sampler_cfg sc = { .interval_ms = query_of(r)->sample_ms > 0 ? query_of(r)->sample_ms : 10,
					  .irqs = r->irqs, .npids = 1, .pids = { gettid() } };
		bool sampled = sampler_start(&sm, &sc) == 0;

		have_cpu = sysstat_cpu_read(&a) == 0;
		rc = replay_run(&c, &x, err, errlen);
		have_cpu &= sysstat_cpu_read(&b) == 0;
		end = clock_now_ns();
		if (sampled) {
			sampler_stop(&sm);
			/* the replay's reader, sampled as the query's backend is
			 * (from /proc/TID), over its reads: the elapsed time before END */
			placement = rc == 0 && x.elapsed_ms * 1e6 < (double)end ?
				    record_placement_window(&sm, 0, end - (uint64_t)(x.elapsed_ms * 1e6), end) : NULL;
		}
		sampler_free(&sm);
	}
	if (cfg_of(r)->have_map) {
		blockmap_close(&cfg_of(r)->map);
		cfg_of(r)->have_map = false;
	}
	if (rc == 0) {
		json_object_set_new(rec, "workload", json_string(workload_replay.name));
		json_object_set_new(rec, "query", json_string(query_of(r)->q.name));
		json_object_set_new(rec, "in_force", in_force);
		json_object_set_new(rec, "replay", result_json(&c, &x));
		json_object_set_new(json_object_get(rec, "replay"), "index_phase",
			json_pack("{s:o, s:f, s:I}", "how",
				  json_sprintf("the query's first row, done by the server before the replay's reads (no prefetching, the other scans off); %s",
					       r->cfg.warm ? "warm: the heap left cached" : "the heap's files then advised out of the page cache"),
				  "ms", index_ms, "heap_evicted_bytes", (json_int_t)evicted));
		json_object_set_new(rec, "disk", x.have_disk ? record_disk_json(r->disk, &x.disk) : json_null());
		json_object_set_new(rec, "cpu", have_cpu ? cpu_json(&a, &b) : json_null());
		json_object_set_new(json_object_get(rec, "replay"), "placement", placement ? placement : json_null());
		json_object_set_new(rec, "data_checksums", json_string(s.checksums));
		in_force = NULL;
		placement = NULL;
	}
	json_decref(placement);
	json_decref(in_force);
	return rc;
}

static void say(const struct runner *r, const json_t *rec, char *buf, size_t len)
{
	const json_t *x = json_object_get(rec, "replay");

	(void)r;
	snprintf(buf, len, "replay %9.1f ms  %6" JSON_INTEGER_FORMAT " reads",
		 json_number_value(json_object_get(x, "elapsed_ms")),
		 json_integer_value(json_object_get(x, "reads")));
}

const struct workload workload_replay = {
	.name = "replay",
	.summary = RECORD_SUMMARY_REPLAY,
	.check = check,
	.plan_json = plan_json,
	.resume = resume,
	.trial = trial,
	.say = say,
	.figures = record_figures_replay,
	.relations_sql = "sweep/relations.sql",
};
