/*
 * dataset: loading the test table (fast or blog recipe), reuse of a finished
 * load, size estimates and the free-space check. Progress is reported through
 * a callback; nothing here prints.
 */
#include "bench/dataset/dataset.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bench/dataset/generator.h"
#include "bench/dataset/tablespace.h"
#include "bench/record/record.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/settings.h"
#include "bench/pg/sqltext.h"
#include "io/clock.h"
#include "io/faultpoint.h"

#define PAGE_BYTES 8192
#define HEAP_TUPLES_PER_PAGE 226   /* 24-byte header + 8 bytes data + 4-byte line pointer */
#define LEAF_TUPLES_PER_PAGE 366   /* 16-byte index tuples + line pointer, fillfactor 90 */
#define COPY_CHUNK_ROWS 65536

const char *dataset_recipe_name(enum dataset_recipe r)
{
	return r == RECIPE_BLOG ? "blog" : "fast";
}

void dataset_estimate(long long rows, struct dataset_estimate *e)
{
	uint64_t n = (uint64_t)rows + 1;
	uint64_t leaf = (n + LEAF_TUPLES_PER_PAGE - 1) / LEAF_TUPLES_PER_PAGE;

	e->heap_bytes = (n + HEAP_TUPLES_PER_PAGE - 1) / HEAP_TUPLES_PER_PAGE * PAGE_BYTES;
	/* inner pages add about 1/300 of the leaves, plus the metapage */
	e->index_bytes = (leaf + leaf / 300 + 2) * PAGE_BYTES;
	/* two index builds may spill their sorts at once */
	e->temp_bytes = 2 * e->index_bytes;
	e->need_bytes = e->heap_bytes + 2 * e->index_bytes + e->temp_bytes +
			((uint64_t)256 << 20);	/* WAL and catalogs */
}

int dataset_check_space(const char *dir, long long rows, char *err, size_t errlen)
{
	struct dataset_estimate e;
	struct statvfs v;
	uint64_t avail;

	dataset_estimate(rows, &e);
	if (statvfs(dir, &v) < 0)
		return 0;	/* cannot tell; let the load find out */
	avail = (uint64_t)v.f_bavail * v.f_frsize;
	if (avail >= e.need_bytes)
		return 0;
	snprintf(err, errlen, "--rows %lld needs about %.2f GiB free under '%s' (table %.2f GiB, two indexes %.2f GiB each, sort space %.2f GiB), but %.2f GiB is free; give fewer rows or more space",
		 rows, e.need_bytes / 0x1p30, dir, e.heap_bytes / 0x1p30,
		 e.index_bytes / 0x1p30, e.temp_bytes / 0x1p30, avail / 0x1p30);
	return -EINVAL;
}

/* Where the set lives, with the device there as records name it. */
static json_t *where_json(const struct dataset_info *d)
{
	struct device_info dev;

	if (!d->ts_name[0])
		return NULL;
	return json_pack("{s:s, s:s, s:o}", "name", d->ts_name, "location", d->ts_location,
			 "device", d->ts_location[0] && sysstat_device_for_path(d->ts_location, &dev) == 0 ?
			 record_device_json(&dev) : json_null());
}

json_t *dataset_info_json(const struct dataset_info *d)
{
	json_t *where = where_json(d), *o;

	o = json_pack("{s:I, s:I, s:I, s:s, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:i}",
			 "rows", (json_int_t)d->rows + 1, "major_max", (json_int_t)d->rows,
			 "seed", (json_int_t)d->seed, "recipe", d->recipe,
			 "heap_bytes", (json_int_t)d->heap_bytes,
			 "pkey_bytes", (json_int_t)d->pkey_bytes,
			 "minor_idx_bytes", (json_int_t)d->minor_bytes,
			 "total_bytes", (json_int_t)d->total_bytes,
			 "prepare_s", d->prepare_s, "data_s", d->data_s,
			 "index_s", d->index_s, "classes_s", d->classes_s, "vacuum_s", d->vacuum_s,
			 "finish_s", d->finish_s, "total_s", d->total_s,
			 "server_version", d->server_version);
	if (o && where)
		json_object_set_new(o, "tablespace", where);
	return o;
}

static void info_from_json(const char *text, struct dataset_info *d)
{
	json_t *j = json_loads(text, 0, NULL);

	if (!j)
		return;
	json_unpack(j, "{s?I, s?I, s?I, s?I, s?f, s?f, s?f, s?f, s?f, s?f, s?f, s?i}",
		    "heap_bytes", &d->heap_bytes, "pkey_bytes", &d->pkey_bytes,
		    "minor_idx_bytes", &d->minor_bytes, "total_bytes", &d->total_bytes,
		    "prepare_s", &d->prepare_s, "data_s", &d->data_s,
		    "index_s", &d->index_s, "classes_s", &d->classes_s, "vacuum_s", &d->vacuum_s,
		    "finish_s", &d->finish_s, "total_s", &d->total_s,
		    "server_version", &d->server_version);
	json_decref(j);
}

int dataset_lookup(PGconn *c, struct dataset_info *out, char *err, size_t errlen)
{
	PGresult *r;
	int found;

	if (pgutil_exec_file(c, "dataset/meta.sql", err, errlen) < 0)
		return -EIO;
	r = pgutil_query(c, sql_text("dataset/lookup.sql"), 0, NULL, err, errlen);
	if (!r)
		return -EIO;
	found = PQntuples(r) == 1;
	if (found) {
		memset(out, 0, sizeof(*out));
		out->rows = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		out->seed = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
		snprintf(out->recipe, sizeof(out->recipe), "%s", PQgetvalue(r, 0, 2));
		info_from_json(PQgetvalue(r, 0, 3), out);
	}
	PQclear(r);
	if (found) {
		struct tablespace ts;

		if (tablespace_of_dataset(c, NULL, &ts, err, errlen) == 1) {
			snprintf(out->ts_name, sizeof(out->ts_name), "%s", ts.name);
			snprintf(out->ts_location, sizeof(out->ts_location), "%s", ts.location);
		}
	}
	return found;
}

/* ---- loading --------------------------------------------------------------- */

struct load {
	struct server *s;
	const struct dataset_cfg *cfg;
	dataset_progress_fn progress;
	void *arg;
	char *err;
	size_t errlen;
	struct settings_journal journal;   /* the relaxed settings' originals */
	const struct tablespace *ts;       /* where the set goes */
};

/* Relaxed durability for the load only (managed cluster), put back after
 * it through the settings journal: wal_level minimal lets COPY FREEZE into
 * a new table and the index builds skip WAL. */
static const struct { const char *name, *value; } relaxed[] = {
	{ "wal_level", "minimal" },
	{ "max_wal_senders", "0" },
	{ "fsync", "off" },
	{ "full_page_writes", "off" },
	{ "autovacuum", "off" },
	{ "max_wal_size", "16GB" },
	{ "checkpoint_timeout", "1h" },
};

static void load_progress(struct load *l, const char *step, double done, double total,
		   const char *unit)
{
	if (l->progress)
		l->progress(l->arg, step, done, total, unit);
}

static bool stopped(const struct load *l)
{
	return l->cfg->stop && *l->cfg->stop;
}

static PGconn *session(struct load *l)
{
	return server_connect(l->s, NULL, l->err, l->errlen);
}

/* A loading session: its settings, and what it makes in the set's tablespace. */
static int load_session(struct load *l, PGconn *c)
{
	const char *p[] = { l->ts && strcmp(l->ts->name, TABLESPACE_DEFAULT) ? l->ts->name : "" };
	int ret = pgutil_exec_file(c, "dataset/load_session.sql", l->err, l->errlen);

	if (ret == 0) {
		PGresult *r = pgutil_query(c, sql_text("dataset/tablespace_session.sql"), 1, p, l->err, l->errlen);

		ret = r ? 0 : -EIO;
		PQclear(r);
	}
	return ret;
}

/* Each relaxed setting journaled, then changed; a restart puts them in force. */
static int relax_on(struct load *l)
{
	PGconn *c = session(l);
	int ret = c ? 0 : -EIO;

	for (size_t i = 0; ret == 0 && i < sizeof(relaxed) / sizeof(relaxed[0]); i++) {
		enum settings_context ctx;

		ret = settings_context_of(c, relaxed[i].name, &ctx, l->err, l->errlen);
		if (ret == 0)
			ret = settings_remember(&l->journal, c, relaxed[i].name, ctx, l->err, l->errlen);
		if (ret == 0)
			ret = settings_alter(c, relaxed[i].name, relaxed[i].value, l->err, l->errlen);
	}
	PQfinish(c);
	return ret == 0 ? server_restart(l->s, l->err, l->errlen) : ret;
}

/* Switch the managed cluster's relaxed load settings on, or back off. */
static int relax(struct load *l, bool on)
{
	if (l->s->external || l->cfg->recipe == RECIPE_BLOG)
		return 0;
	if (!on)
		return settings_restore(&l->journal, l->s, l->err, l->errlen);
	if (settings_journal_init(&l->journal, l->s, "eicbench load", l->err, l->errlen) < 0)
		return -EIO;
	return relax_on(l);
}

double dataset_progress(double running_sum, int finished, int n, double total, double shown)
{
	return fmax(shown, (running_sum + total * finished) / n);
}

/* Wait for every busy connection, reporting progress from MON every second
 * (MONSQL: the part done of the works still running, summed; see
 * dataset_progress), and the whole when all are done. */
static int wait_busy(struct load *l, PGconn **conns, int n, PGconn *mon,
		     const char *step, const char *monsql, double total,
		     const char *unit)
{
	int busy = n, ret = 0;
	double shown = 0;

	while (busy > 0) {
		struct pollfd p[4];
		int k = 0;

		for (int i = 0; i < n; i++)
			if (conns[i])
				p[k++] = (struct pollfd){ .fd = PQsocket(conns[i]), .events = POLLIN };
		if (poll(p, k, 1000) == 0 && mon) {
			PGresult *r = PQexec(mon, monsql);

			if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
				double done = dataset_progress(strtod(PQgetvalue(r, 0, 0), NULL),
							       n - busy, n, total, shown);

				if (done > shown)
					load_progress(l, step, shown = done, total, unit);
			}
			PQclear(r);
		}
		if (stopped(l))
			for (int i = 0; i < n; i++)
				if (conns[i]) {
					PGcancel *cn = PQgetCancel(conns[i]);
					char e[64];

					PQcancel(cn, e, sizeof(e));
					PQfreeCancel(cn);
				}
		for (int i = 0; i < n; i++) {
			PGresult *r;

			if (!conns[i] || (PQconsumeInput(conns[i]), PQisBusy(conns[i])))
				continue;
			while ((r = PQgetResult(conns[i])) != NULL) {
				ExecStatusType st = PQresultStatus(r);

				if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK && ret == 0) {
					snprintf(l->err, l->errlen, "%s: %s", step, PQresultErrorMessage(r));
					ret = -EIO;
				}
				PQclear(r);
			}
			conns[i] = NULL;
			busy--;
		}
	}
	if (stopped(l)) {	/* the cancelled statements' errors say no more */
		snprintf(l->err, l->errlen, "interrupted during %s", step);
		ret = -EINTR;
	} else if (ret == 0 && mon)
		load_progress(l, step, total, total, unit);
	return ret;
}

static int copy_end(PGconn *c, const char *errmsg, char *err, size_t errlen)
{
	PGresult *r;
	int ret = 0;

	if (PQputCopyEnd(c, errmsg) != 1)
		ret = -EIO;
	while ((r = PQgetResult(c)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && ret == 0) {
			snprintf(err, errlen, "COPY failed: %s", PQresultErrorMessage(r));
			ret = -EIO;
		}
		PQclear(r);
	}
	if (ret < 0 && !*err)
		snprintf(err, errlen, "COPY failed: %s", PQerrorMessage(c));
	return ret;
}

/* Stream rows 0..rows through binary COPY from the generator. */
static int copy_rows(struct load *l, PGconn *c)
{
	uint64_t n = (uint64_t)l->cfg->rows + 1, done = 0;
	char trailer[GEN_COPY_TRAILER_BYTES];
	char *buf = malloc(COPY_CHUNK_ROWS * GEN_COPY_ROW_BYTES + GEN_COPY_HEADER_BYTES);
	double last = 0;
	size_t len;

	if (!buf)
		return -ENOMEM;
	len = gen_copy_header(buf);
	while (done < n && !stopped(l)) {
		size_t k = n - done < COPY_CHUNK_ROWS ? n - done : COPY_CHUNK_ROWS;

		len += gen_copy_rows(l->cfg->seed, done, k, buf + len);
		if (PQputCopyData(c, buf, (int)len) != 1)
			break;
		done += k;
		len = 0;
		if (clock_now_ms() - last > 200) {
			load_progress(l, "copy", (double)done, (double)n, "rows");
			last = clock_now_ms();
		}
		faultpoint("load:copy");
	}
	free(buf);
	if (done < n) {
		copy_end(c, "interrupted", l->err, l->errlen);
		if (!*l->err)
			snprintf(l->err, l->errlen, "interrupted while copying rows");
		return stopped(l) ? -EINTR : -EIO;
	}
	load_progress(l, "copy", (double)done, (double)n, "rows");
	if (PQputCopyData(c, trailer, (int)gen_copy_trailer(trailer)) != 1)
		return -EIO;
	return copy_end(c, NULL, l->err, l->errlen);
}

static int fast_data(struct load *l, PGconn *c)
{
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, l->err, l->errlen);

	if (ret == 0)
		ret = pgutil_exec_file(c, "dataset/fast_create.sql", l->err, l->errlen);
	if (ret == 0) {
		PGresult *r = PQexec(c, sql_text("dataset/fast_copy.sql"));

		if (PQresultStatus(r) != PGRES_COPY_IN) {
			snprintf(l->err, l->errlen, "COPY did not start: %s", PQresultErrorMessage(r));
			ret = -EIO;
		}
		PQclear(r);
	}
	if (ret == 0)
		ret = copy_rows(l, c);
	if (ret == 0)
		ret = pgutil_exec(c, "COMMIT", 0, NULL, l->err, l->errlen);
	else
		PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

/* Both indexes at once, one per session (2 cores: one sort each). */
static int fast_indexes(struct load *l, PGconn *c)
{
	PGconn *a = session(l), *b = a ? session(l) : NULL;
	PGconn *busy[2] = { a, b };
	int ret = (a && b) ? 0 : -EIO;

	if (ret == 0)
		ret = load_session(l, a);
	if (ret == 0)
		ret = load_session(l, b);
	if (ret == 0 && (!PQsendQuery(a, sql_text("dataset/fast_index_pkey.sql")) ||
			 !PQsendQuery(b, sql_text("dataset/fast_index_minor.sql")))) {
		snprintf(l->err, l->errlen, "cannot start the index builds: %s", PQerrorMessage(a));
		ret = -EIO;
	}
	if (ret == 0) {
		load_progress(l, "index", 0, 100, "%");
		faultpoint("load:index");
		ret = wait_busy(l, busy, 2, c, "index", sql_text("dataset/index_progress.sql"),
				100, "%");
	}
	if (ret == 0)
		ret = pgutil_exec_file(c, "dataset/fast_pkey.sql", l->err, l->errlen);
	PQfinish(a);
	PQfinish(b);
	return ret;
}

static int blog_data(struct load *l, PGconn *c)
{
	char last[32], seed[32];
	const char *p1[] = { last }, *p2[] = { seed };
	PGconn *mon = session(l);
	struct dataset_estimate e;
	int ret = mon ? 0 : -EIO;

	dataset_estimate(l->cfg->rows, &e);
	snprintf(last, sizeof(last), "%lld", l->cfg->rows);
	snprintf(seed, sizeof(seed), "%.6f", (double)(l->cfg->seed % 2000001) / 1e6 - 1.0);
	if (ret == 0)
		ret = pgutil_exec_file(c, "dataset/blog_schema.sql", l->err, l->errlen);
	if (ret == 0)
		ret = pgutil_exec(c, sql_text("dataset/setseed.sql"), 1, p2, l->err, l->errlen);
	if (ret == 0 && !PQsendQueryParams(c, sql_text("dataset/blog_insert.sql"), 1,
					   NULL, p1, NULL, NULL, 0)) {
		snprintf(l->err, l->errlen, "cannot start the INSERT: %s", PQerrorMessage(c));
		ret = -EIO;
	}
	if (ret == 0) {
		PGconn *busy[1] = { c };

		ret = wait_busy(l, busy, 1, mon, "insert", sql_text("dataset/relation_size.sql"),
				(double)e.heap_bytes, "bytes");
	}
	PQfinish(mon);
	return ret;
}

static int read_sizes(struct load *l, PGconn *c, struct dataset_info *d)
{
	PGresult *r = pgutil_query(c, sql_text("dataset/sizes.sql"), 0, NULL,
				   l->err, l->errlen);

	if (!r)
		return -EIO;
	d->heap_bytes = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
	d->pkey_bytes = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
	d->minor_bytes = strtoull(PQgetvalue(r, 0, 2), NULL, 10);
	d->total_bytes = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
	d->server_version = PQserverVersion(c);
	PQclear(r);
	return 0;
}

static int save_dataset_info(struct load *l, PGconn *c, struct dataset_info *d)
{
	char rows[32], seed[32], *info;
	const char *p[4];
	json_t *j = dataset_info_json(d);
	int ret;

	snprintf(rows, sizeof(rows), "%lld", d->rows);
	snprintf(seed, sizeof(seed), "%" PRIu64, d->seed);
	info = json_dumps(j, JSON_COMPACT);
	p[0] = rows, p[1] = seed, p[2] = d->recipe, p[3] = info;
	ret = pgutil_exec(c, sql_text("dataset/record.sql"), 4, p, l->err, l->errlen);
	free(info);
	json_decref(j);
	return ret;
}

/* Data, indexes and VACUUM on C, with each step timed into D. */
static int load_steps(struct load *l, PGconn *c, struct dataset_info *d)
{
	double t = clock_now_ms();
	int ret = pgutil_exec_file(c, "dataset/stage.sql", l->err, l->errlen);

	if (ret == 0)
		ret = load_session(l, c);
	if (ret == 0 && l->cfg->recipe == RECIPE_FAST) {
		ret = fast_data(l, c);
		d->data_s = (clock_now_ms() - t) / 1e3;
		t = clock_now_ms();
		if (ret == 0)
			ret = fast_indexes(l, c);
		d->index_s = (clock_now_ms() - t) / 1e3;
	} else if (ret == 0) {
		ret = blog_data(l, c);
		d->data_s = (clock_now_ms() - t) / 1e3;
	}
	t = clock_now_ms();
	load_progress(l, "classes", 0, 1, "");
	if (ret == 0)
		ret = pgutil_exec_cancellable(c, sql_text("dataset/classes.sql"), l->cfg->stop,
					      l->err, l->errlen);
	d->classes_s = (clock_now_ms() - t) / 1e3;
	t = clock_now_ms();
	load_progress(l, "vacuum", 0, 1, "");
	faultpoint("load:vacuum");
	if (ret == 0 && stopped(l))
		ret = -EINTR;
	if (ret == 0)
		ret = pgutil_exec_cancellable(c, sql_text("dataset/finish.sql"), l->cfg->stop,
					      l->err, l->errlen);
	if (ret == -EINTR)
		snprintf(l->err, l->errlen, "interrupted; the data set in use is as it was");
	d->vacuum_s = (clock_now_ms() - t) / 1e3;
	return ret;
}

/* The new data set takes the old one's place, with its record, in one
 * transaction: a load that stops before leaves the old one whole. */
static int swap_in(struct load *l, PGconn *c, struct dataset_info *d)
{
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, l->err, l->errlen);

	faultpoint("load:swap");
	/* DROP TABLE waits for anyone reading the old table: Ctrl-C cancels */
	if (ret == 0)
		ret = pgutil_exec_cancellable(c, sql_text("dataset/swap.sql"), l->cfg->stop,
					      l->err, l->errlen);
	if (ret == 0)
		ret = read_sizes(l, c, d);
	if (ret == 0)
		ret = save_dataset_info(l, c, d);
	if (ret == 0 && stopped(l))
		ret = -EINTR;
	if (ret == 0)
		ret = pgutil_exec(c, "COMMIT", 0, NULL, l->err, l->errlen);
	else
		PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

/* After a load that stopped: the staging schema goes, quietly. */
static void unstage(struct load *l)
{
	char e[256];
	PGconn *c = session(l);

	if (c)
		pgutil_exec_file(c, "dataset/unstage.sql", e, sizeof(e));
	PQfinish(c);
}

static int load_relaxed(struct load *l, struct dataset_info *d)
{
	double t0 = clock_now_ms(), t;
	PGconn *c;
	int ret = relax(l, true);

	if (ret == 0 && stopped(l))
		ret = -EINTR;
	d->prepare_s = (clock_now_ms() - t0) / 1e3;
	c = ret == 0 ? session(l) : NULL;
	if (ret == 0)
		ret = c ? load_steps(l, c, d) : -EIO;
	PQfinish(c);
	t = clock_now_ms();
	load_progress(l, "finish", 0, 1, "");
	if (ret == 0) {
		ret = relax(l, false);
	} else {	/* keep the first error; still restore the settings */
		char keep[512];
		struct load quiet = *l;

		quiet.err = keep, quiet.errlen = sizeof(keep);
		relax(&quiet, false);
	}
	if (ret == 0 && stopped(l))
		ret = -EINTR;
	if (ret == 0)
		ret = l->s->external ? 0 : server_sync_dir(l->s->datadir);
	c = ret == 0 ? session(l) : NULL;
	if (c) {
		load_progress(l, "swap", 0, 1, "");
		ret = swap_in(l, c, d);
	}
	else if (ret == 0)
		ret = -EIO;
	PQfinish(c);
	if (ret < 0)
		unstage(l);
	if (ret == -EINTR)
		snprintf(l->err, l->errlen, "interrupted; the data set in use is as it was, and so are the settings");
	d->finish_s = (clock_now_ms() - t) / 1e3;
	return ret;
}

/* A set loaded before the query classes had their indexes gets them, and
 * the statistics the planner needs for them, in place. */
static int add_classes(struct load *l, struct dataset_info *d)
{
	PGconn *c = session(l);
	PGresult *r = c ? PQexec(c, sql_text("dataset/classes_present.sql")) : NULL;
	bool have = PQresultStatus(r) == PGRES_TUPLES_OK && !strcmp(PQgetvalue(r, 0, 0), "t");
	double t = clock_now_ms();
	int ret = c ? 0 : -EIO;

	PQclear(r);
	if (ret == 0 && !have) {
		load_progress(l, "classes", 0, 1, "");
		ret = pgutil_exec(c, "SET search_path = public", 0, NULL, l->err, l->errlen);
		if (ret == 0)
			ret = pgutil_exec_cancellable(c, sql_text("dataset/classes.sql"), l->cfg->stop,
						      l->err, l->errlen);
		if (ret == 0)
			ret = pgutil_exec_cancellable(c, sql_text("dataset/classes_add.sql"), l->cfg->stop,
						      l->err, l->errlen);
		d->classes_added = ret == 0;
		d->classes_s = (clock_now_ms() - t) / 1e3;
	}
	PQfinish(c);
	return ret;
}

/* Is there a table test that no eicbench_dataset row accounts for? */
static bool foreign_test(PGconn *c)
{
	PGresult *r = PQexec(c, sql_text("dataset/test_exists.sql"));
	bool yes = PQresultStatus(r) != PGRES_TUPLES_OK || !strcmp(PQgetvalue(r, 0, 0), "t");

	PQclear(r);
	return yes;
}

static bool same_set(const struct dataset_info *have, const struct dataset_cfg *cfg,
		     const struct tablespace *ts)
{
	return have->rows == cfg->rows && have->seed == cfg->seed &&
	       !strcmp(have->recipe, dataset_recipe_name(cfg->recipe)) &&
	       (!have->ts_name[0] || !strcmp(have->ts_name, ts->name));
}

/* Where the set goes: the tablespace at cfg->tablespace_dir, or the default. */
static int target(struct load *l, PGconn *c, struct tablespace *ts)
{
	memset(ts, 0, sizeof(*ts));
	if (l->cfg->tablespace_dir)
		return tablespace_prepare(l->s, c, l->cfg->tablespace_dir, ts, l->err, l->errlen);
	snprintf(ts->name, sizeof(ts->name), TABLESPACE_DEFAULT);
	snprintf(ts->location, sizeof(ts->location), "%s", l->s->external ? "" : l->s->datadir);
	return 0;
}

/* The set there now, when it lives on a folder that is gone: refused, so
 * that nothing drops what only the folder's backing holds. */
static int current_reachable(const struct dataset_info *have, char *err, size_t errlen)
{
	struct tablespace now = { 0 };

	snprintf(now.name, sizeof(now.name), "%s", have->ts_name);
	snprintf(now.location, sizeof(now.location), "%s", have->ts_location);
	return tablespace_reachable(&now, err, errlen);
}

/* The folder whose file system the set goes on (checked before anything
 * is made): the tablespace's folder, or its parent while it is missing. */
static const char *space_dir(const struct server *s, const struct dataset_cfg *cfg,
			     char *dir, size_t len)
{
	struct stat st;
	char *slash;

	if (!cfg->tablespace_dir)
		return s->datadir;
	snprintf(dir, len, "%s", cfg->tablespace_dir);
	if (stat(dir, &st) < 0 && (slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	return dir[0] ? dir : "/";
}

int dataset_load(struct server *s, const struct dataset_cfg *cfg,
		 dataset_progress_fn progress, void *arg,
		 struct dataset_info *out, char *err, size_t errlen)
{
	struct load l = { .s = s, .cfg = cfg, .progress = progress, .arg = arg, .err = err, .errlen = errlen };
	struct tablespace ts;
	char where[PATH_MAX];
	double t0 = clock_now_ms();
	PGconn *c;
	int ret, found;

	if (!s->external && dataset_check_space(space_dir(s, cfg, where, sizeof(where)), cfg->rows, err, errlen) < 0)
		return -EINVAL;
	c = session(&l);
	if (!c)
		return -EIO;
	ret = target(&l, c, &ts);
	l.ts = &ts;
	found = ret < 0 ? ret : dataset_lookup(c, out, err, errlen);
	if (found > 0 && (ret = current_reachable(out, err, errlen)) < 0)
		found = ret;
	if (found == 0 && s->external && foreign_test(c)) {
		snprintf(err, errlen, "the database given with --dsn has a table named test that eicbench did not load; eicbench will not drop it: give a database of its own, or drop the table yourself");
		PQfinish(c);
		return -EINVAL;
	}
	PQfinish(c);
	if (found < 0)
		return found;
	if (found && same_set(out, cfg, &ts) && !cfg->force) {
		out->reused = true;
		return add_classes(&l, out);
	}
	memset(out, 0, sizeof(*out));
	out->rows = cfg->rows;
	out->seed = cfg->seed;
	snprintf(out->recipe, sizeof(out->recipe), "%s", dataset_recipe_name(cfg->recipe));
	snprintf(out->ts_name, sizeof(out->ts_name), "%s", ts.name);
	snprintf(out->ts_location, sizeof(out->ts_location), "%s", ts.location);
	err[0] = '\0';
	ret = load_relaxed(&l, out);
	out->total_s = (clock_now_ms() - t0) / 1e3;
	return ret;
}
