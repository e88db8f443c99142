/*
 * query: presets from sql/query/, or one SELECT from a file; see query.h.
 */
#include "bench/dataset/query.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/pg/sqltext.h"
#include "io/file.h"

/* The classes, from the fewest pages to every page; per_1e8_s: a cold
 * query's time per 100M rows on the project's test machines, for first
 * estimates only: the median over the values of the full make run of
 * 2026-12-07 (PostgreSQL 15, its sweeps' whole-query medians, rounded up). */
#define BITMAP QUERY_SCAN_BITMAP, 0, NULL, "sweep/force_bitmap.sql"
static const struct query_class classes[] = {
	{ "scattered-0.1", "scattered, 0.1% of pages", 0.001, 0.05, BITMAP },
	{ "scattered-1",   "scattered, 1% of pages",   0.01, 0.4, BITMAP },
	{ "scattered-5",   "scattered, 5% of pages",   0.05, 1.5, BITMAP },
	{ "sparse",        "scattered, 20% of pages (minor = 800)", 0.20, 5.5, BITMAP },
	{ "runs-16",       "runs of 16 pages, 1% of pages", 0.01, 0.5, BITMAP },
	{ "runs-128",      "runs of 128 pages, 5% of pages", 0.05, 2, BITMAP },
	{ "blog",          "dense, every page (the post's query)", 1.0, 24, BITMAP },
	/* runs-128's pages, summed by the leader and two workers */
	{ "parallel",      "runs of 128 pages, 5% of pages, 2 parallel workers", 0.05, 2,
	  QUERY_SCAN_PARALLEL_BITMAP, 0, "sweep/parallel_session.sql", "sweep/force_parallel.sql" },
	/* every page in order: 17 and later read it through a read stream */
	{ "seq",           "sequential, every page (Seq Scan)", 1.0, 12, QUERY_SCAN_SEQ, 17, NULL, NULL },
	{ NULL }
};

const char *query_scan_name(enum query_scan scan)
{
	return scan == QUERY_SCAN_SEQ ? "Seq Scan" :
	       scan == QUERY_SCAN_PARALLEL_BITMAP ? "Parallel Bitmap Heap Scan" : "Bitmap Heap Scan";
}

int query_governed(const char *name, int major, char *buf, size_t len)
{
	const struct query_class *c = query_class_of(name);

	if (!c || !c->min_major || !major || major >= c->min_major)
		return 1;
	snprintf(buf, len, "PostgreSQL %d reads a %s without effective_io_concurrency",
		 major, query_scan_name(c->scan));
	return 0;
}

int query_replayable(const char *name)
{
	const struct query_class *c = query_class_of(name);

	return !c || c->scan == QUERY_SCAN_BITMAP;
}

const struct query_class *query_class_of(const char *name)
{
	for (const struct query_class *c = classes; c->name; c++)
		if (!strcmp(name, c->name))
			return c;
	return NULL;
}

int query_is_preset(const char *spec)
{
	return query_class_of(spec) != NULL;
}

/* TEXT past blank lines and "--" comment lines. */
static const char *skip_comments(const char *text)
{
	for (;;) {
		text += strspn(text, " \t\r\n");
		if (strncmp(text, "--", 2))
			return text;
		text += strcspn(text, "\n");
	}
}

/* Does the word KW (any case) start P, followed by a blank or '('? */
static bool word(const char *p, const char *kw)
{
	size_t n = strlen(kw);

	return !strncasecmp(p, kw, n) && (p[n] == '\0' || strchr(" \t\r\n(", p[n]));
}

static int read_file(const char *spec, char **text, char *err, size_t errlen)
{
	int rc = file_read_all(spec, QUERY_MAX_BYTES, text, NULL);

	if (rc == -ENOMEM)
		return rc;
	if (rc < 0)
		snprintf(err, errlen, "--query '%s': not a preset (" QUERY_PRESETS ") and not a readable file of at most 1 MiB (%s)",
			 spec, rc == -EFBIG ? "it is larger" : file_strerror(rc));
	return rc < 0 ? -EINVAL : 0;
}

/* Drop trailing blanks and semicolons; then check it is one SELECT. */
static int check_text(const char *spec, char *text, char *err, size_t errlen)
{
	size_t len = strlen(text);
	const char *start;

	while (len > 0 && strchr(" \t\r\n;", text[len - 1]))
		text[--len] = '\0';
	start = skip_comments(text);
	if (*start == '\0') {
		snprintf(err, errlen, "--query '%s': the file holds no query; give one SELECT statement", spec);
		return -EINVAL;
	}
	if (!word(start, "select") && !word(start, "with")) {
		snprintf(err, errlen, "--query '%s': the query must be a SELECT (or WITH ... SELECT); trials run it with EXPLAIN ANALYZE, which would execute anything else",
			 spec);
		return -EINVAL;
	}
	if (strchr(text, ';')) {
		snprintf(err, errlen, "--query '%s': the file holds more than one statement; give one SELECT statement", spec);
		return -EINVAL;
	}
	return 0;
}

int query_load(const char *spec, struct query *q, char *err, size_t errlen)
{
	char name[QUERY_NAME_MAX + 16];
	int rc;

	memset(q, 0, sizeof(*q));
	if (query_is_preset(spec)) {
		snprintf(name, sizeof(name), "query/%s.sql", spec);
		if (!sql_text(name)) {
			snprintf(err, errlen, "no SQL file sql/%s in this build", name);
			return -EINVAL;
		}
		snprintf(q->name, sizeof(q->name), "%s", spec);
		q->text = strdup(sql_text(name));
		rc = q->text ? 0 : -ENOMEM;
	} else {
		snprintf(q->name, sizeof(q->name), "file");
		rc = read_file(spec, &q->text, err, errlen);
	}
	if (rc == 0)
		rc = check_text(spec, q->text, err, errlen);
	if (rc < 0)
		query_free(q);
	return rc;
}

void query_free(struct query *q)
{
	free(q->text);
	q->text = NULL;
}
