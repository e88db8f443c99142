/*
 * workload_bitmap: the cold sweep's workload: EXPLAIN (ANALYZE, BUFFERS,
 * SETTINGS, FORMAT JSON) of a query whose plan is one Bitmap Heap Scan,
 * while the device, the CPUs, the backend (and on 18 its I/O workers) are
 * sampled and, from 16, pg_stat_io and pg_aios are read. A trial's record
 * keeps EXPLAIN's own output, its per-phase figures and the samples; a
 * plan that reads other blocks than the first trial of its settings is
 * said in the record. bitmap_figures.c builds the figures.
 */
#ifndef BENCH_WORKLOADS_WORKLOAD_BITMAP_H
#define BENCH_WORKLOADS_WORKLOAD_BITMAP_H

#include <limits.h>
#include <stdbool.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/dataset/query.h"
#include "bench/observe/explain.h"
#include "bench/workloads/workloads.h"

struct bitmap_cfg {
	const char *query_spec;        /* --query as given, or NULL */
	struct query q;                /* its name and text */
	bool jit, force_bitmap, allow_override, no_cache_check;
	int  sample_ms;                /* 0: 10 */
	/* found by the check */
	bool forced;                   /* the bitmap plan is not the planner's own: its
	                                * other scans were switched off to get it */
	char planner_plan[EXPLAIN_NODE_TYPES_MAX]; /* the planner's own plan's nodes, unforced */
	char relation[128];            /* the Bitmap Heap Scan's relation */
	char tablespace[128];
	char tablespace_eic[32];       /* the tablespace's own value, or "" */
	char tablespace_dir[PATH_MAX]; /* its folder, or "" for the data directory's */
	json_t *refs;                  /* the first trial's plan per settings */
	json_t *cache_check;           /* the check for caches below, before the first trial */
};

struct runner;

/* The session every trial makes (sweep/session.sql, JIT off unless asked,
 * the forced bitmap plan), then COMBO's session values. 0 or -errno. */
int bitmap_session(const struct runner *r, PGconn *c, int combo, char *err, size_t errlen);

/* The SQL of FILE (an EXPLAIN ... %s) around QUERY, malloc'd; NULL out of memory. */
char *bitmap_explain_sql(const char *file, const char *query);

/* A trial's plan against the first one of its settings (bitmap_figures.c):
 * 1 when it differs (REC says what), else 0. REFS is filled as it goes. */
int bitmap_plan_check(json_t *rec, json_t *refs);

#endif
