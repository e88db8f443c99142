/*
 * export: result folders into the tables of a results database (schema
 * eicbench, sql/export/): a row per folder with its facts, per trial, per
 * probe point, per run and per TPC-B run (export_tpcb.c), keyed by folder
 * (HOST/NAME) and trial key (or point number) so that loading a folder
 * again replaces its rows. A run's subfolders go in with it. One
 * transaction per folder: a folder is in whole or not at all. The schema's
 * migrations are listed here, in order; each is applied once.
 */
#include "bench/export/export.h"
#include "bench/export/export_tpcb.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/record/record.h"
#include "bench/record/record_path.h"
#include "bench/pg/sqltext.h"

/* The migrations, in the order they are applied: version N is the Nth. */
static const char *const migrations[] = {
	"export/migrate_0001_base.sql",
	"export/migrate_0002_hosts.sql",
	"export/migrate_0003_tpcb.sql",
};
#define NMIGRATIONS ((int)(sizeof(migrations) / sizeof(migrations[0])))

int export_schema_version(PGconn *c, char *err, size_t errlen)
{
	PGresult *r = pgutil_query(c, sql_text("export/schema_applied.sql"), 0, NULL, err, errlen);
	int v;

	if (!r)
		return -EIO;
	v = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return v;
}

static int migrate(PGconn *c, int from, int *applied, char *err, size_t errlen)
{
	int ret = 0;

	for (int v = from + 1; ret == 0 && v <= NMIGRATIONS; v++) {
		char no[16], name[64];
		const char *p[2] = { no, name };
		const char *base = strrchr(migrations[v - 1], '/') + 1;

		snprintf(no, sizeof(no), "%d", v);
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(base) - 4), base);
		ret = pgutil_exec_file(c, migrations[v - 1], err, errlen);
		if (ret == 0)
			ret = pgutil_exec(c, sql_text("export/schema_record.sql"), 2, p, err, errlen);
		if (ret == 0 && applied)
			(*applied)++;
	}
	return ret;
}

int export_prepare(PGconn *c, int *applied, char *err, size_t errlen)
{
	int ret = pgutil_exec_file(c, "export/schema_version.sql", err, errlen), v;

	if (applied)
		*applied = 0;
	if (ret == 0)
		ret = pgutil_exec(c, "BEGIN", 0, NULL, err, errlen);
	if (ret == 0)
		ret = pgutil_exec_file(c, "export/schema_lock.sql", err, errlen);
	v = ret == 0 ? export_schema_version(c, err, errlen) : ret;
	if (v > NMIGRATIONS) {
		snprintf(err, errlen, "the results database is at schema version %d, newer than this eicbench's %d: export with a newer eicbench",
			 v, NMIGRATIONS);
		v = -EINVAL;
	}
	ret = v < 0 ? v : migrate(c, v, applied, err, errlen);
	if (ret == 0)
		return pgutil_exec(c, "COMMIT", 0, NULL, err, errlen);
	PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

/* DIR's own name, without trailing slashes. */
static void base_name(const char *dir, char *out, size_t len)
{
	char copy[PATH_MAX];
	size_t n;

	snprintf(copy, sizeof(copy), "%s", dir);
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	snprintf(out, len, "%s", strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy);
}

/* "db1/20261201T103000Z-run/sweep-blog": the host, then the folder's name
 * under its run's (whose id holds the host already). */
static void folder_id(const char *dir, const char *parent_id, const char *host, char *out,
		      size_t len)
{
	char name[PATH_MAX];

	base_name(dir, name, sizeof(name));
	if ((size_t)snprintf(out, len, "%s/%s", parent_id ? parent_id : host, name) >= len)
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

/* What a folder is labelled: --label, else its sweep file's name, else its command. */
static const char *label_of(const json_t *meta, const struct export_opts *o)
{
	const char *sf = record_str_at(meta, "sweep_file", NULL);

	if (o && o->label)
		return o->label;
	if (sf && strrchr(sf, '/'))
		return strrchr(sf, '/') + 1;
	return sf ? sf : record_str_at(meta, "command", NULL);
}

static int put_folder(PGconn *c, const struct export_folder *f, const json_t *meta,
		      const struct export_opts *o, char *err, size_t errlen)
{
	char *text = json_dumps(meta, JSON_COMPACT), ra[32], rows[32], name[PATH_MAX];
	const char *query = record_str_at(meta, "plan", "query");
	const char *p[15] = {
		f->id, record_str_at(meta, "command", NULL), f->dir, f->parent_id[0] ? f->parent_id : NULL,
		record_str_at(meta, "host", "hostname"), record_str_at(meta, "started_utc", NULL),
		record_str_at(meta, "git_rev", NULL), record_str_at(meta, "server", "version"),
		record_str_at(meta, "device", "name"),
		num_text(record_num_at(meta, "device.read_ahead_kb"), ra, sizeof(ra)),
		num_text(record_num_at(meta, "dataset.rows"), rows, sizeof(rows)),
		query, text, name, label_of(meta, o),
	};
	int ret;

	if (!text)
		return -ENOMEM;
	base_name(f->dir, name, sizeof(name));
	ret = pgutil_exec(c, sql_text("export/folder.sql"), 15, p, err, errlen);
	free(text);
	return ret;
}

static int put_trial(PGconn *c, const char *id, const json_t *t, char *err, size_t errlen)
{
	char *rec = json_dumps(t, JSON_COMPACT), *set = json_dumps(json_object_get(t, "settings") ?: json_null(),
								   JSON_COMPACT | JSON_ENCODE_ANY);
	char round[32], ex[32], heap[32], idx[32];
	const char *p[9] = {
		id, record_str_at(t, "trial_key", NULL),
		num_text(record_num_at(t, "round"), round, sizeof(round)),
		record_str_at(t, "query", NULL), set,
		num_text(record_num_at(t, "explain.execution_ms"), ex, sizeof(ex)),
		num_text(record_num_at(t, "explain.bitmap.heap_phase.total_ms"), heap, sizeof(heap)),
		num_text(record_num_at(t, "explain.bitmap.index_phase.total_ms"), idx, sizeof(idx)),
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
		id, (snprintf(n, sizeof(n), "%zu", no), n), record_str_at(pt, "engine", NULL),
		num_text(record_num_at(pt, "depth"), depth, sizeof(depth)),
		num_text(record_num_at(pt, "iops"), iops, sizeof(iops)),
		num_text(record_num_at(pt, "mib_s"), mib, sizeof(mib)), rec,
	};
	int ret = rec ? pgutil_exec(c, sql_text("export/point.sql"), 7, p, err, errlen) : -ENOMEM;

	free(rec);
	return ret;
}

enum lines { TRIALS, POINTS, CONFSWEEP, TPCB };

/* One record of DIR/FILE, as what KIND of folder holds. */
static int put_line(PGconn *c, struct export_folder *f, const json_t *meta, const json_t *t,
		    size_t no, enum lines kind, const struct export_opts *o, char *err, size_t errlen)
{
	const char *key = record_str_at(t, "trial_key", NULL);
	int ret;

	switch (kind) {
	case POINTS:
		return put_point(c, f->id, no, t, err, errlen);
	case TRIALS:
		return put_trial(c, f->id, t, err, errlen);
	case CONFSWEEP:
		ret = put_trial(c, f->id, t, err, errlen);
		if (ret == 0 && key && json_is_object(json_object_get(t, "tpcb")) &&
		    (ret = export_tpcb_test(c, f, meta, label_of(meta, o), key, t, err, errlen)) == 0)
			f->tests++;
		return ret;
	default:	/* a tpcb folder's one record: its key is "run" */
		if (json_object_get(t, "error"))
			return 0;	/* a run that failed before measuring */
		ret = export_tpcb_test(c, f, meta, label_of(meta, o), "run", t, err, errlen);
		if (ret == 0)
			f->tests++;
		if (ret == 0 && o && o->with_logs)
			ret = export_tpcb_logs(c, f, "run", t, err, errlen);
		return ret;
	}
}

/* The lines of DIR/FILE, one call each; a torn last line is left out and counted. */
static int put_lines(PGconn *c, struct export_folder *f, const json_t *meta, const char *file,
		     enum lines kind, const struct export_opts *o, char *err, size_t errlen)
{
	json_t *lines = NULL, *t;
	size_t i;
	int torn = 0, ret = record_load(f->dir, file, &lines, &torn, err, errlen);

	if (ret == -ENOENT)
		return 0;
	f->torn += torn;
	json_array_foreach(lines, i, t) {
		ret = put_line(c, f, meta, t, i + 1, kind, o, err, errlen);
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
static int put_all(PGconn *c, struct export_folder *f, const json_t *meta,
		   const struct export_opts *o, char *err, size_t errlen)
{
	const char *cmd = record_str_at(meta, "command", NULL);
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, err, errlen);

	if (ret == 0)
		ret = put_folder(c, f, meta, o, err, errlen);
	if (ret == 0 && !strcmp(cmd, "sweep"))
		ret = put_lines(c, f, meta, RECORD_TRIALS, TRIALS, o, err, errlen);
	if (ret == 0 && !strcmp(cmd, "confsweep"))
		ret = put_lines(c, f, meta, RECORD_TRIALS, CONFSWEEP, o, err, errlen);
	if (ret == 0 && !strcmp(cmd, "tpcb run"))
		ret = put_lines(c, f, meta, RECORD_TRIALS, TPCB, o, err, errlen);
	if (ret == 0 && !strcmp(cmd, "probe"))
		ret = put_lines(c, f, meta, "points.jsonl", POINTS, o, err, errlen);
	if (ret == 0 && !strcmp(cmd, "run"))
		ret = put_run(c, f->id, meta, err, errlen);
	if (ret == 0)
		ret = pgutil_exec(c, "COMMIT", 0, NULL, err, errlen);
	else
		PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

static const char *const known[] = { "sweep", "probe", "run", "confsweep", "tpcb run", NULL };

int export_folder(PGconn *c, const char *dir, const char *parent_id, const struct export_opts *o,
		  struct export_folder *f, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *cmd, *host;
	json_t *meta;
	int ret = -EINVAL;

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s", dir);
	snprintf(f->parent_id, sizeof(f->parent_id), "%s", parent_id ? parent_id : "");
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	meta = json_load_file(path, 0, NULL);
	host = record_str_at(meta, "host", "hostname");
	folder_id(dir, parent_id, host && *host ? host : "unknown-host", f->id, sizeof(f->id));
	cmd = record_str_at(meta, "command", NULL);
	for (int i = 0; cmd && known[i]; i++)
		if (!strcmp(cmd, known[i]))
			ret = 0;
	if (ret < 0)
		snprintf(err, errlen, "%s: %s; give folders written by eicbench sweep, probe, run, tpcb run or confsweep", dir,
			 !meta ? "no readable meta.json" : cmd ? "not a sweep, probe, run, tpcb or confsweep folder" : "meta.json names no command");
	else
		ret = put_all(c, f, meta, o, err, errlen);
	snprintf(f->command, sizeof(f->command), "%s", cmd ? cmd : "");
	json_decref(meta);
	return ret;
}

int export_folder_id(const char *dir, const char *parent_id, char *out, size_t len)
{
	char path[PATH_MAX];
	const char *host;
	json_t *meta;

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	meta = json_load_file(path, 0, NULL);
	if (!meta)
		return -EINVAL;
	host = record_str_at(meta, "host", "hostname");
	folder_id(dir, parent_id, host && *host ? host : "unknown-host", out, len);
	json_decref(meta);
	return 0;
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
