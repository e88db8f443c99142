/*
 * query: the one loader of the query a sweep or a probe runs. A preset name
 * (a query class: sql/query/NAME.sql, on the shapes sql/dataset/classes.sql
 * gives the data set) or a file of at most 1 MiB holding one
 * SELECT (or WITH ... SELECT) statement; trailing blanks and one ';' are
 * dropped. The rules are the same for every command; a command that needs
 * more of the text (the probe's "SELECT * FROM name") checks that itself.
 */
#ifndef BENCH_DATASET_QUERY_H
#define BENCH_DATASET_QUERY_H

#include <stddef.h>

#define QUERY_MAX_BYTES (1 << 20)
#define QUERY_NAME_MAX  64

struct query {
	char  name[QUERY_NAME_MAX];     /* the preset's name, or "file" */
	char *text;                     /* malloc'd, one statement, no ';' */
};

/*
 * Load SPEC into Q. 0, or -EINVAL with ERR naming SPEC and what is allowed
 * (no such preset or file, too large, empty, not a SELECT, more than one
 * statement), or -ENOMEM. Free with query_free().
 */
int query_load(const char *spec, struct query *q, char *err, size_t errlen);
void query_free(struct query *q);

/* The presets, and the classes run measures by default (every preset). */
#define QUERY_PRESETS "scattered-0.1, scattered-1, scattered-5, sparse, runs-16, runs-128, blog, parallel, seq"
#define QUERY_CLASSES "scattered-0.1,scattered-1,scattered-5,sparse,runs-16,runs-128,blog,parallel,seq"
#define QUERY_BITMAP_CLASSES "scattered-0.1, scattered-1, scattered-5, sparse, runs-16, runs-128, blog"
#define QUERY_CLASSES_QUICK "scattered-1,sparse,runs-16,blog,seq"

/* The scan a class measures. */
enum query_scan {
	QUERY_SCAN_BITMAP,          /* one Bitmap Heap Scan, no parallel workers */
	QUERY_SCAN_PARALLEL_BITMAP, /* one Parallel Bitmap Heap Scan under a Gather */
	QUERY_SCAN_SEQ,             /* one Seq Scan, no parallel workers */
};

/* A preset: a query class, by the share of the heap pages it reads and how
 * they cluster. */
struct query_class {
	const char *name;
	const char *label;         /* in words, for tables */
	double      page_share;    /* of the heap pages, by design */
	double      per_1e8_s;     /* a cold query's time per 100M rows, roughly */
	enum query_scan scan;
	int         min_major;     /* the first PostgreSQL major whose setting governs that scan, or 0 */
	const char *session;       /* SQL file run after the trial's session (sql/sweep/), or NULL */
	const char *force;         /* SQL file that makes the planner take that scan, or NULL: never forced */
};

/* The scan's name as EXPLAIN and the reports say it. */
const char *query_scan_name(enum query_scan scan);

/* Does PostgreSQL MAJOR's setting govern the scan of the class NAME? 1 yes
 * (or NAME is no class, or MAJOR is 0: not known); 0 no, with BUF saying
 * "PostgreSQL 15 reads a Seq Scan without effective_io_concurrency" (the
 * callers add "17 and later apply it" from min_major in their own form). */
int query_governed(const char *name, int major, char *buf, size_t len);

/* Q measured with replay trials beside it (one backend's bitmap heap reads:
 * not a Seq Scan, not a scan shared by parallel workers)? A file's query is. */
int query_replayable(const char *name);

/* The class named NAME, or NULL. */
const struct query_class *query_class_of(const char *name);

/* Is SPEC a preset's name? */
int query_is_preset(const char *spec);

#endif
