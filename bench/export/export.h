/*
 * export: result folders into PostgreSQL (schema eicbench; tables folders,
 * trials, probe_points, runs, from sql/export/), so that runs over months
 * and devices can be queried with SQL. Idempotent: a folder loaded again
 * replaces its rows. Each folder in one transaction.
 */
#ifndef BENCH_EXPORT_EXPORT_H
#define BENCH_EXPORT_EXPORT_H

#include <limits.h>
#include <stddef.h>

#include <libpq-fe.h>

struct export_folder {
	char   dir[PATH_MAX];
	char   id[PATH_MAX];         /* folder_id: its name, under its run's */
	char   parent_id[PATH_MAX];
	char   command[32];
	size_t rows;                 /* trials or points loaded */
	int    torn;                 /* a torn last line was left out */
};

/* Create the schema and tables when missing. 0 or -errno with ERR. */
int export_prepare(PGconn *c, char *err, size_t errlen);

/*
 * Load DIR (a sweep, probe or run folder; PARENT_ID the run's folder_id
 * for a run's subfolder, else NULL) into the tables. -EINVAL for a folder
 * that is none of those, other -errno for a failed load; ERR says which.
 */
int export_folder(PGconn *c, const char *dir, const char *parent_id,
		  struct export_folder *f, char *err, size_t errlen);

/* The subfolders run folder DIR lists in its meta.json "folders"; count. */
int export_subfolders(const char *dir, char names[][128], int max);

#endif
