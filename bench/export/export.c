/*
 * export: result folders into the tables of a results database (schema
 * eicbench, sql/export/): a row per folder with its facts, per trial, per
 * probe point and per run, keyed by folder and trial key (or point number)
 * so that loading a folder again replaces its rows. A run's subfolders go in
 * with it. One transaction per folder: a folder is in whole or not at all.
 */
#include "bench/export/export.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/record/record.h"
#include "bench/report/report.h"
#include "bench/pg/sqltext.h"

int export_prepare(PGconn *c, char *err, size_t errlen)
{
	return pgutil_exec_file(c, "export/schema.sql", err, errlen);
}

/* "20261201T103000Z-run/sweep-blog": the folder's name, under its run's. */
static void folder_id(const char *dir, const char *parent_id, char *out, size_t len)
{
	char copy[PATH_MAX];
	size_t n;

	snprintf(copy, sizeof(copy), "%s", dir);
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	if ((size_t)snprintf(out, len, "%s%s%s", parent_id ? parent_id : "", parent_id ? "/" : "",
			     strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy) >= len)
		out[len - 1] = '\0';	/* cut: ids are far shorter than PATH_MAX */
}

/* A number as text for a parameter, or NULL (SQL NULL) when absent. */
static const char *num_text(double v, char *buf, size_t len)
{
	if (isnan(v))
		return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

static int put_folder(PGconn *c, const struct export_folder *f, const json_t *meta,
		      char *err, size_t errlen)
{
	char *text = json_dumps(meta, JSON_COMPACT), ra[32], rows[32];
	const char *query = report_str_at(meta, "plan", "query");
	const char *p[13] = {
		f->id, report_str_at(meta, "command", NULL), f->dir, f->parent_id[0] ? f->parent_id : NULL,
		report_str_at(meta, "host", "hostname"), report_str_at(meta, "started_utc", NULL),
		report_str_at(meta, "git_rev", NULL), report_str_at(meta, "server", "version"),
		report_str_at(meta, "device", "name"),
		num_text(report_num_at(meta, "device.read_ahead_kb"), ra, sizeof(ra)),
		num_text(report_num_at(meta, "dataset.rows"), rows, sizeof(rows)),
		query, text,
	};
	int ret;

	if (!text)
		return -ENOMEM;
	ret = pgutil_exec(c, sql_text("export/folder.sql"), 13, p, err, errlen);
	free(text);
	return ret;
}

static int put_trial(PGconn *c, const char *id, const json_t *t, char *err, size_t errlen)
{
	char *rec = json_dumps(t, JSON_COMPACT), *set = json_dumps(json_object_get(t, "settings") ?: json_null(),
								   JSON_COMPACT | JSON_ENCODE_ANY);
	char round[32], ex[32], heap[32], idx[32];
	const char *p[9] = {
		id, report_str_at(t, "trial_key", NULL),
		num_text(report_num_at(t, "round"), round, sizeof(round)),
		report_str_at(t, "query", NULL), set,
		num_text(report_num_at(t, "explain.execution_ms"), ex, sizeof(ex)),
		num_text(report_num_at(t, "explain.bitmap.heap_phase.total_ms"), heap, sizeof(heap)),
		num_text(report_num_at(t, "explain.bitmap.index_phase.total_ms"), idx, sizeof(idx)),
		rec,
	};
	int ret = rec && set ? 0 : -ENOMEM;

	if (ret == 0 && !p[1])
		ret = 0;	/* a line without a key is no trial: left out */
	else if (ret == 0)
		ret = pgutil_exec(c, sql_text("export/trial.sql"), 9, p, err, errlen);
	free(rec);
	free(set);
	return ret;
}

static int put_point(PGconn *c, const char *id, size_t no, const json_t *pt,
		     char *err, size_t errlen)
{
	char *rec = json_dumps(pt, JSON_COMPACT), n[32], depth[32], iops[32], mib[32];
	const char *p[7] = {
		id, (snprintf(n, sizeof(n), "%zu", no), n), report_str_at(pt, "engine", NULL),
		num_text(report_num_at(pt, "depth"), depth, sizeof(depth)),
		num_text(report_num_at(pt, "iops"), iops, sizeof(iops)),
		num_text(report_num_at(pt, "mib_s"), mib, sizeof(mib)), rec,
	};
	int ret = rec ? pgutil_exec(c, sql_text("export/point.sql"), 7, p, err, errlen) : -ENOMEM;

	free(rec);
	return ret;
}

/* The lines of DIR/FILE, one call each; a torn last line is left out and counted. */
static int put_lines(PGconn *c, struct export_folder *f, const char *file, int points,
		     char *err, size_t errlen)
{
	json_t *lines = NULL, *t;
	size_t i;
	int torn = 0, ret = record_load(f->dir, file, &lines, &torn, err, errlen);

	if (ret == -ENOENT)
		return 0;
	f->torn += torn;
	json_array_foreach(lines, i, t) {
		ret = points ? put_point(c, f->id, i + 1, t, err, errlen) :
			       put_trial(c, f->id, t, err, errlen);
		if (ret < 0)
			break;
		f->rows++;
	}
	json_decref(lines);
	return ret;
}

static int put_run(PGconn *c, const char *id, const json_t *meta, char *err, size_t errlen)
{
	char *text = json_dumps(meta, JSON_COMPACT);
	const char *p[2] = { id, text };
	int ret = text ? pgutil_exec(c, sql_text("export/run.sql"), 2, p, err, errlen) : -ENOMEM;

	free(text);
	return ret;
}

/* The folder's own rows, in one transaction. */
static int put_all(PGconn *c, struct export_folder *f, const json_t *meta, char *err, size_t errlen)
{
	const char *cmd = report_str_at(meta, "command", NULL);
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, err, errlen);

	if (ret == 0)
		ret = put_folder(c, f, meta, err, errlen);
	if (ret == 0 && !strcmp(cmd, "sweep"))
		ret = put_lines(c, f, RECORD_TRIALS, 0, err, errlen);
	if (ret == 0 && !strcmp(cmd, "probe"))
		ret = put_lines(c, f, "points.jsonl", 1, err, errlen);
	if (ret == 0 && !strcmp(cmd, "run"))
		ret = put_run(c, f->id, meta, err, errlen);
	if (ret == 0)
		ret = pgutil_exec(c, "COMMIT", 0, NULL, err, errlen);
	else
		PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

static const char *const known[] = { "sweep", "probe", "run", NULL };

int export_folder(PGconn *c, const char *dir, const char *parent_id,
		  struct export_folder *f, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *cmd;
	json_t *meta;
	int ret = -EINVAL;

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	snprintf(f->parent_id, sizeof(f->parent_id), "%s", parent_id ? parent_id : "");
	folder_id(dir, parent_id, f->id, sizeof(f->id));
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	meta = json_load_file(path, 0, NULL);
	cmd = report_str_at(meta, "command", NULL);
	for (int i = 0; cmd && known[i]; i++)
		if (!strcmp(cmd, known[i]))
			ret = 0;
	if (ret < 0)
		snprintf(err, errlen, "%s: %s; give folders written by eicbench sweep, probe or run", dir,
			 !meta ? "no readable meta.json" : cmd ? "not a sweep, probe or run folder" : "meta.json names no command");
	else
		ret = put_all(c, f, meta, err, errlen);
	snprintf(f->command, sizeof(f->command), "%s", cmd ? cmd : "");
	json_decref(meta);
	return ret;
}

/* The subfolders a run lists (sweeps, probes), in the run's meta.json. */
int export_subfolders(const char *dir, char names[][128], int max)
{
	char path[PATH_MAX];
	json_t *meta, *v;
	size_t i;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	meta = json_load_file(path, 0, NULL);
	json_array_foreach(json_object_get(meta, "folders"), i, v)
		if (json_is_string(v) && n < max && !strchr(json_string_value(v), '/'))
			snprintf(names[n++], 128, "%s", json_string_value(v));
	json_decref(meta);
	return n;
}
