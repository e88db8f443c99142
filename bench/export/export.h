/*
 * export: result folders into PostgreSQL (schema eicbench, sql/export/), so
 * that runs over months, devices and hosts can be queried with SQL: a row
 * per folder (keyed HOST/NAME, unique across hosts), per sweep or confsweep
 * trial, per probe point, per run, and per TPC-B run in tests (a tpcb
 * folder's, each confsweep trial's) with, on request, their pgbench logs.
 * The schema carries its version: migrations (sql/export/migrate_N_*.sql)
 * are applied in order, once each, recorded in eicbench.schema_version.
 * Idempotent: a folder loaded again replaces its rows. Each folder in one
 * transaction.
 */
#ifndef BENCH_EXPORT_EXPORT_H
#define BENCH_EXPORT_EXPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <libpq-fe.h>

struct export_opts {
	const char *label;           /* the test set of every folder loaded; NULL: each folder's own */
	bool with_logs;              /* the pgbench logs into timing, timing_intervals */
};

struct export_folder {
	char   dir[PATH_MAX];
	char   id[PATH_MAX];         /* folder_id: HOST/NAME, under its run's for a subfolder */
	char   parent_id[PATH_MAX];
	char   command[32];
	size_t rows;                 /* trials or points loaded */
	size_t tests, timing;        /* TPC-B runs; log lines */
	int    torn;                 /* a torn last line was left out */
};

/* The schema when missing, and every migration not applied yet, in order;
 * *APPLIED (may be NULL) the number applied now. 0 or -errno with ERR. */
int export_prepare(PGconn *c, int *applied, char *err, size_t errlen);

/* The schema version the database has now, or -errno. */
int export_schema_version(PGconn *c, char *err, size_t errlen);

/*
 * Load DIR (a sweep, probe, run, tpcb or confsweep folder; PARENT_ID the
 * run's folder_id for a run's subfolder, else NULL) into the tables.
 * -EINVAL for a folder that is none of those, other -errno for a failed
 * load; ERR says which.
 */
int export_folder(PGconn *c, const char *dir, const char *parent_id, const struct export_opts *o,
		  struct export_folder *f, char *err, size_t errlen);

/* The key folder DIR would be loaded under (HOST/NAME, HOST from its
 * meta.json; under PARENT_ID for a run's subfolder). 0, or -EINVAL when it
 * has no readable meta.json. */
int export_folder_id(const char *dir, const char *parent_id, char *out, size_t len);

/* The subfolders run folder DIR lists in its meta.json "folders"; count. */
int export_subfolders(const char *dir, char names[][128], int max);

#endif
