/*
 * pgstats: pg_stat_io snapshots and their differences; see pgstats.h.
 */
#include "bench/observe/pgstats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "io/clock.h"

enum kind { COUNT, BYTES, MS, UNIT };

/* Every counter of every version, with its JSON name (times in ms). */
static const struct field {
	const char *column, *json;
	enum kind kind;
} fields[PGSTATS_IO_NFIELDS] = {
	[PGSTATS_READS]          = { "reads", "reads", COUNT },
	[PGSTATS_READ_BYTES]     = { "read_bytes", "read_bytes", BYTES },
	[PGSTATS_READ_TIME]      = { "read_time", "read_time_ms", MS },
	[PGSTATS_WRITES]         = { "writes", "writes", COUNT },
	[PGSTATS_WRITE_BYTES]    = { "write_bytes", "write_bytes", BYTES },
	[PGSTATS_WRITE_TIME]     = { "write_time", "write_time_ms", MS },
	[PGSTATS_WRITEBACKS]     = { "writebacks", "writebacks", COUNT },
	[PGSTATS_WRITEBACK_TIME] = { "writeback_time", "writeback_time_ms", MS },
	[PGSTATS_EXTENDS]        = { "extends", "extends", COUNT },
	[PGSTATS_EXTEND_BYTES]   = { "extend_bytes", "extend_bytes", BYTES },
	[PGSTATS_EXTEND_TIME]    = { "extend_time", "extend_time_ms", MS },
	[PGSTATS_HITS]           = { "hits", "hits", COUNT },
	[PGSTATS_EVICTIONS]      = { "evictions", "evictions", COUNT },
	[PGSTATS_REUSES]         = { "reuses", "reuses", COUNT },
	[PGSTATS_FSYNCS]         = { "fsyncs", "fsyncs", COUNT },
	[PGSTATS_FSYNC_TIME]     = { "fsync_time", "fsync_time_ms", MS },
	[PGSTATS_OP_BYTES]       = { "op_bytes", "op_bytes", UNIT },
};

/* Operations whose bytes 16 and 17 give as a count of op_bytes blocks. */
static const enum pgstats_io_field sized[][2] = {
	{ PGSTATS_READS, PGSTATS_READ_BYTES }, { PGSTATS_WRITES, PGSTATS_WRITE_BYTES }, { PGSTATS_EXTENDS, PGSTATS_EXTEND_BYTES },
};

#define HAS(row, f) (((row)->present >> (f)) & 1u)

/* ---- reading the view ---- */

static int parse_cell(const PGresult *r, int i, int col, struct pgstats_io_row *row,
		      int f, char *err, size_t errlen)
{
	const char *s;
	char *end;

	if (col < 0 || PQgetisnull(r, i, col))
		return 0;
	s = PQgetvalue(r, i, col);
	row->v[f] = strtod(s, &end);
	if (end == s || *end) {
		snprintf(err, errlen, "pg_stat_io: %s is '%s', not a number", fields[f].column, s);
		return -EPROTO;
	}
	row->present |= 1u << f;
	return 0;
}

static void copy_text(char *dst, size_t len, const PGresult *r, int i, int col)
{
	snprintf(dst, len, "%s", col >= 0 && !PQgetisnull(r, i, col) ? PQgetvalue(r, i, col) : "");
}

int pgstats_io_parse(const PGresult *r, int version_num, struct pgstats_io *snap,
		     char *err, size_t errlen)
{
	int bt = PQfnumber(r, "backend_type"), ob = PQfnumber(r, "object");
	int cx = PQfnumber(r, "context"), rs = PQfnumber(r, "stats_reset"), col[PGSTATS_IO_NFIELDS];
	int n = PQntuples(r), ret = 0;

	memset(snap, 0, sizeof(*snap));
	snap->version_num = version_num;
	if (bt < 0 || ob < 0 || cx < 0) {
		snprintf(err, errlen, "pg_stat_io: no backend_type, object or context column");
		return -EPROTO;
	}
	for (int f = 0; f < PGSTATS_IO_NFIELDS; f++)
		col[f] = PQfnumber(r, fields[f].column);
	snap->bytes_columns = col[PGSTATS_READ_BYTES] >= 0;
	snap->rows = calloc(n ? (size_t)n : 1, sizeof(*snap->rows));
	if (!snap->rows)
		return -ENOMEM;
	for (int i = 0; i < n && ret == 0; i++) {
		struct pgstats_io_row *row = &snap->rows[snap->n++];

		copy_text(row->backend_type, sizeof(row->backend_type), r, i, bt);
		copy_text(row->object, sizeof(row->object), r, i, ob);
		copy_text(row->context, sizeof(row->context), r, i, cx);
		copy_text(row->stats_reset, sizeof(row->stats_reset), r, i, rs);
		for (int f = 0; f < PGSTATS_IO_NFIELDS && ret == 0; f++)
			ret = parse_cell(r, i, col[f], row, f, err, errlen);
	}
	if (ret < 0)
		pgstats_io_free(snap);
	return ret;
}

static void version_text(int num, char *buf, size_t len)
{
	if (num >= 100000)
		snprintf(buf, len, "%d.%d", num / 10000, num % 10000);
	else
		snprintf(buf, len, "%d.%d.%d", num / 10000, num / 100 % 100, num % 100);
}

int pgstats_need_version(int version_num, int need, const char *what,
			 char *err, size_t errlen)
{
	char have[32];

	if (version_num >= need)
		return 0;
	version_text(version_num, have, sizeof(have));
	snprintf(err, errlen, "%s needs PostgreSQL %d or later (the server is %s)",
		 what, need / 10000, have);
	return PGSTATS_NOT_AVAILABLE;
}

const char *pgstats_io_sql(int version_num)
{
	return version_num >= 180000 ? "pgstats/io_18.sql" : "pgstats/io_16.sql";
}

int pgstats_io_snapshot(PGconn *c, struct pgstats_io *snap, char *err, size_t errlen)
{
	int v = PQserverVersion(c), ret;
	PGresult *r;

	memset(snap, 0, sizeof(*snap));
	snap->version_num = v;
	if ((ret = pgstats_need_version(v, 160000, "pg_stat_io", err, errlen)) != 0)
		return ret;
	if ((ret = pgutil_exec_file(c, "pgstats/flush.sql", err, errlen)) < 0)
		return ret;
	r = pgutil_query(c, sql_text(pgstats_io_sql(v)), 0, NULL, err, errlen);
	if (!r)
		return -EIO;
	ret = pgstats_io_parse(r, v, snap, err, errlen);
	snap->taken_ns = clock_now_ns();
	PQclear(r);
	return ret;
}

void pgstats_io_free(struct pgstats_io *snap)
{
	free(snap->rows);
	snap->rows = NULL;
	snap->n = 0;
}

/* ---- the difference ---- */

static const struct pgstats_io_row *find_row(const struct pgstats_io *s,
					     const struct pgstats_io_row *key)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->rows[i].backend_type, key->backend_type) &&
		    !strcmp(s->rows[i].object, key->object) &&
		    !strcmp(s->rows[i].context, key->context))
			return &s->rows[i];
	return NULL;
}

/*
 * B minus A (a row A lacks starts from zero); op_bytes is kept as the unit,
 * and on 16/17 each operation's bytes are its count times op_bytes.
 * Returns -1 when a counter went down (a reset), 1 when any changed, else 0.
 */
static int row_delta(const struct pgstats_io_row *a, const struct pgstats_io_row *b,
		     struct pgstats_io_row *d)
{
	int changed = 0;

	*d = *b;
	if (a && strcmp(a->stats_reset, b->stats_reset))
		return -1;
	for (int f = 0; f < PGSTATS_IO_NFIELDS; f++) {
		if (!HAS(b, f) || fields[f].kind == UNIT)
			continue;
		d->v[f] = b->v[f] - (a && HAS(a, f) ? a->v[f] : 0);
		if (d->v[f] < 0)
			return -1;
		changed |= d->v[f] != 0;
	}
	for (size_t k = 0; k < sizeof(sized) / sizeof(sized[0]); k++)
		if (HAS(d, PGSTATS_OP_BYTES) && HAS(d, sized[k][0]) && !HAS(d, sized[k][1])) {
			d->v[sized[k][1]] = d->v[sized[k][0]] * d->v[PGSTATS_OP_BYTES];
			d->present |= 1u << sized[k][1];
		}
	return changed;
}

static json_t *value_json(int f, double v)
{
	if (fields[f].kind == MS)
		return json_real(round(v * 1000.0) / 1000.0);   /* to the microsecond */
	return json_integer((json_int_t)llround(v));
}

/* The counters of D (and the average read size when there were reads). */
static void counters_json(json_t *o, const struct pgstats_io_row *d)
{
	for (int f = 0; f < PGSTATS_IO_NFIELDS; f++)
		if (HAS(d, f))
			json_object_set_new(o, fields[f].json, value_json(f, d->v[f]));
	if (HAS(d, PGSTATS_READS) && HAS(d, PGSTATS_READ_BYTES) && d->v[PGSTATS_READS] > 0)
		json_object_set_new(o, "avg_read_bytes", json_real(d->v[PGSTATS_READ_BYTES] / d->v[PGSTATS_READS]));
}

static json_t *row_json(const struct pgstats_io_row *d)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "backend_type", d->backend_type,
			      "object", d->object, "context", d->context);

	counters_json(o, d);
	return o;
}

/* The sums of one backend type; REPORT when it goes into the record. */
struct total {
	struct pgstats_io_row sum;
	bool report;
};

#define MAX_TYPES 32

/* Add D (unless it is WAL) to the total of its backend type in TOT. */
static void add_total(struct total *tot, size_t *ntot, const struct pgstats_io_row *d,
		      bool changed)
{
	bool wal = !strcmp(d->object, "wal");
	struct total *t = NULL;

	for (size_t i = 0; i < *ntot && !t; i++)
		if (!strcmp(tot[i].sum.backend_type, d->backend_type))
			t = &tot[i];
	if (!t && *ntot < MAX_TYPES) {
		t = &tot[(*ntot)++];
		memset(t, 0, sizeof(*t));
		snprintf(t->sum.backend_type, sizeof(t->sum.backend_type), "%s", d->backend_type);
	}
	if (!t)
		return;
	/* a type whose relation I/O changed is reported; the two a trial always wants too */
	t->report |= (changed && !wal) || !strcmp(d->backend_type, "client backend") ||
		     !strcmp(d->backend_type, "io worker");
	if (wal)
		return;
	for (int f = 0; f < PGSTATS_IO_NFIELDS; f++)
		if (HAS(d, f) && fields[f].kind != UNIT) {
			t->sum.v[f] += d->v[f];
			t->sum.present |= 1u << f;
		}
}

static json_t *totals_json(const struct total *tot, size_t ntot)
{
	json_t *o = json_object();

	for (size_t i = 0; i < ntot; i++) {
		json_t *t;

		if (!tot[i].report)
			continue;
		t = json_object();
		counters_json(t, &tot[i].sum);
		json_object_set_new(o, tot[i].sum.backend_type, t);
	}
	return o;
}

json_t *pgstats_io_delta_json(const struct pgstats_io *a, const struct pgstats_io *b)
{
	struct total tot[MAX_TYPES];
	struct pgstats_io_row d;
	size_t ntot = 0;
	bool reset = false;
	json_t *rows = json_array(), *o;

	for (size_t i = 0; i < b->n && !reset; i++) {
		int ch = row_delta(find_row(a, &b->rows[i]), &b->rows[i], &d);

		reset = ch < 0;
		if (ch > 0)
			json_array_append_new(rows, row_json(&d));
		if (ch >= 0)
			add_total(tot, &ntot, &d, ch > 0);
	}
	o = json_pack("{s:b, s:i, s:s, s:s, s:f, s:b}", "available", 1,
		      "server_version_num", b->version_num,
		      "reads_are", b->bytes_columns ? "I/Os" : "blocks",
		      "bytes_from", b->bytes_columns ? "read_bytes" : "op_bytes",
		      "elapsed_ms", ((double)b->taken_ns - (double)a->taken_ns) / 1e6,
		      "reset_between", reset);
	if (reset)
		json_array_clear(rows);
	json_object_set_new(o, "rows", rows);
	json_object_set_new(o, "totals", reset ? json_null() : totals_json(tot, ntot));
	return o;
}

json_t *pgstats_not_available_json(const char *why)
{
	return json_pack("{s:b, s:s}", "available", 0, "why", why);
}
