/*
 * export_tpcb: TPC-B runs and their logs into the results database; see
 * export_tpcb.h. A log line is taken field by field, each field checked to
 * be a number (or the outcome's word) before it goes into COPY's text, so
 * no line can write anything but its own values.
 */
#include "bench/export/export_tpcb.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record_path.h"

#define LOG_FIELDS_MAX 16

static const char *num(double v, char *buf, size_t len)
{
	if (isnan(v))
		return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

/* A run's step: a plan of steps names it; a grid's is the key after its round. */
static const char *step_of(const json_t *rec, const char *key)
{
	const char *s = record_str_at(rec, "step", NULL), *sp;

	if (s || strncmp(key, "round=", 6) || !(sp = strchr(key, ' ')))
		return s;
	return sp + 1;
}

int export_tpcb_test(PGconn *c, const struct export_folder *f, const json_t *meta,
		     const char *label, const char *key, const json_t *rec, char *err, size_t errlen)
{
	const json_t *t = json_is_object(json_object_get(rec, "tpcb")) ? json_object_get(rec, "tpcb") : rec;
	const json_t *settings = json_object_get(rec, "tpcb") ? json_object_get(rec, "settings") :
				 json_object_get(json_object_get(meta, "server"), "settings");
	char b[18][40], *set = json_dumps(settings ? settings : json_null(), JSON_COMPACT | JSON_ENCODE_ANY);
	char *text = json_dumps(rec, JSON_COMPACT);
	const char *p[26] = {
		f->id, key, label, record_str_at(meta, "host", "hostname"),
		record_str_at(meta, "started_utc", NULL), step_of(rec, key),
		num(record_num_at(rec, "round"), b[0], 40), record_str_at(t, "server_version_str", NULL),
		num(record_num_at(t, "scale"), b[1], 40), num(record_num_at(t, "options.clients"), b[2], 40),
		num(record_num_at(t, "options.threads"), b[3], 40),
		record_str_at(json_object_get(t, "options"), "protocol", NULL),
		num(record_num_at(t, "options.pipeline"), b[4], 40),
		record_str_at(json_object_get(t, "options"), "builtin", NULL),
		num(record_num_at(t, "run_s"), b[5], 40), num(record_num_at(t, "transactions"), b[6], 40),
		num(record_num_at(t, "failed"), b[7], 40), num(record_num_at(t, "tps"), b[8], 40),
		num(record_num_at(t, "latency_ms.mean"), b[9], 40), num(record_num_at(t, "latency_ms.p50"), b[10], 40),
		num(record_num_at(t, "latency_ms.p90"), b[11], 40), num(record_num_at(t, "latency_ms.p99"), b[12], 40),
		num(record_num_at(t, "latency_ms.max"), b[13], 40),
		num(record_num_at(t, "cpu.us_per_transaction"), b[14], 40), set, text,
	};
	int ret = set && text ? pgutil_exec(c, sql_text("export/test.sql"), 26, p, err, errlen) : -ENOMEM;

	free(set);
	free(text);
	return ret;
}

/* ---- logs -------------------------------------------------------------------------- */

/* Is NAME a log of PREFIX (PREFIX.PID or PREFIX.PID.N)? Its thread in *THREAD. */
static bool log_name(const char *name, const char *prefix, int *thread)
{
	size_t n = strlen(prefix);
	const char *p = name + n;
	char *end;

	if (strncmp(name, prefix, n) || *p != '.' || !strchr("0123456789", p[1]))
		return false;
	strtol(p + 1, &end, 10);
	if (!*end) {
		*thread = 0;
		return true;
	}
	if (*end != '.' || !strchr("0123456789", end[1]))
		return false;
	*thread = (int)strtol(end + 1, &end, 10);
	return !*end;
}

static bool numeric(const char *s)
{
	return *s && strspn(s, "0123456789.-") == strlen(s);
}

static void utc(const char *epoch_s, const char *epoch_us, char *out, size_t len)
{
	time_t t = (time_t)strtoll(epoch_s, NULL, 10);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, len, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out + strlen(out), len - strlen(out), ".%06ld+00", epoch_us ? strtol(epoch_us, NULL, 10) : 0L);
}

struct logctx {
	PGconn *c;
	const struct export_folder *f;
	const char *key;
	int thread;
	bool lag, retries, agg;
	size_t lines;
};

/* One line of a per-transaction log as COPY text into BUF; false: not such a line. */
static bool tx_row(const struct logctx *x, char **w, int n, size_t line, char *buf, size_t len)
{
	char at[64];
	int k = 6;
	const char *lag = "\\N", *retries = "\\N";
	bool ok;

	if (n < 6)
		return false;
	ok = numeric(w[2]);
	if (!numeric(w[0]) || !numeric(w[1]) || !numeric(w[3]) || !numeric(w[4]) ||
	    !numeric(w[5]) || (!ok && strspn(w[2], "abcdefghijklmnopqrstuvwxyz") != strlen(w[2])))
		return false;
	if (x->lag && k < n)
		lag = numeric(w[k]) ? w[k] : "\\N", k++;
	if (x->retries && k < n)
		retries = numeric(w[k]) ? w[k] : "\\N";
	utc(w[4], w[5], at, sizeof(at));
	snprintf(buf, len, "%s\t%s\t%d\t%zu\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", x->f->id, x->key, x->thread,
		 line, w[0], w[1], ok ? "ok" : w[2], ok ? w[2] : "\\N", w[3], at, lag, retries);
	return true;
}

/* One line of an aggregate log (fifteen numbers) as COPY text. */
static bool agg_row(const struct logctx *x, char **w, int n, char *buf, size_t len)
{
	char at[64];
	int used;

	if (n != 15)
		return false;
	for (int i = 0; i < n; i++)
		if (!numeric(w[i]))
			return false;
	utc(w[0], NULL, at, sizeof(at));
	used = snprintf(buf, len, "%s\t%s\t%d\t%s", x->f->id, x->key, x->thread, at);
	for (int i = 1; i < n && used > 0 && (size_t)used < len; i++)
		used += snprintf(buf + used, len - (size_t)used, "\t%s", w[i]);
	if (used > 0 && (size_t)used + 2 < len)
		snprintf(buf + used, len - (size_t)used, "\n");
	return true;
}

static int copy_file(struct logctx *x, const char *path, char *err, size_t errlen)
{
	FILE *in = fopen(path, "re");
	char line[512], row[PATH_MAX + 1024];
	size_t no = 0;

	if (!in) {
		snprintf(err, errlen, "cannot read the log %s: %s", path, strerror(errno));
		return -EIO;
	}
	while (fgets(line, sizeof(line), in)) {
		char *w[LOG_FIELDS_MAX], *save = NULL;
		int n = 0;

		no++;
		for (char *t = strtok_r(line, " \n", &save); t && n < LOG_FIELDS_MAX; t = strtok_r(NULL, " \n", &save))
			w[n++] = t;
		if (!(x->agg ? agg_row(x, w, n, row, sizeof(row)) : tx_row(x, w, n, no, row, sizeof(row))))
			continue;	/* not a line of this log's kind */
		if (PQputCopyData(x->c, row, (int)strlen(row)) != 1) {
			fclose(in);
			snprintf(err, errlen, "COPY of %s failed: %s", path, PQerrorMessage(x->c));
			return -EIO;
		}
		x->lines++;
	}
	fclose(in);
	return 0;
}

static int copy_end(PGconn *c, int ret, char *err, size_t errlen)
{
	PGresult *r;

	if (PQputCopyEnd(c, ret < 0 ? "a log could not be read" : NULL) != 1 && ret == 0) {
		snprintf(err, errlen, "COPY failed: %s", PQerrorMessage(c));
		ret = -EIO;
	}
	while ((r = PQgetResult(c)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && ret == 0) {
			snprintf(err, errlen, "COPY of the logs failed: %s", PQresultErrorMessage(r));
			ret = -EIO;
		}
		PQclear(r);
	}
	return ret;
}

int export_tpcb_logs(PGconn *c, struct export_folder *f, const char *key, const json_t *rec,
		     char *err, size_t errlen)
{
	const json_t *opt = json_object_get(rec, "options");
	const char *prefix = record_str_at(opt, "log_prefix", NULL);
	struct logctx x = { .c = c, .f = f, .key = key,
		.lag = record_num_at(rec, "options.rate_tps") > 0,
		.retries = record_num_at(rec, "options.max_tries") != 1,
		.agg = record_num_at(rec, "options.aggregate_interval_s") > 0 };
	const char *p[1] = { f->id };
	struct dirent *e;
	PGresult *r;
	DIR *d;
	const char *sql = sql_text("export/timing_clear.sql");
	size_t pos = 0;
	char stmt[256];
	int ret = 0;

	while (ret == 0 && sql_next_statement(sql, &pos, stmt, sizeof(stmt)) > 0)
		ret = pgutil_exec(c, stmt, 1, p, err, errlen);
	if (ret < 0 || !json_is_true(json_object_get(opt, "log")) || !(d = opendir(f->dir)))
		return ret;
	r = PQexec(c, sql_text(x.agg ? "export/intervals_copy.sql" : "export/timing_copy.sql"));
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		snprintf(err, errlen, "COPY of the logs did not start: %s", PQresultErrorMessage(r));
		PQclear(r);
		closedir(d);
		return -EIO;
	}
	PQclear(r);
	while (ret == 0 && (e = readdir(d)) != NULL) {
		char path[PATH_MAX + 300];

		if (!log_name(e->d_name, prefix ? prefix : "pgbench_log", &x.thread))
			continue;
		snprintf(path, sizeof(path), "%s/%s", f->dir, e->d_name);
		ret = copy_file(&x, path, err, errlen);
	}
	closedir(d);
	ret = copy_end(c, ret, err, errlen);
	f->timing += x.lines;
	return ret;
}
