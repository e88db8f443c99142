/*
 * explain: the text of EXPLAIN (ANALYZE, BUFFERS, SETTINGS, FORMAT JSON) into
 * a plain struct of figures. Knows the PostgreSQL 13-18 key names; a key a
 * version does not print is "absent" (EXPLAIN_ABSENT, or NULL), never an
 * error. Times are milliseconds, buffer counts are 8 kB blocks as printed.
 * Buffers and I/O times are the top node's, which PostgreSQL already sums
 * over the whole tree. The first Bitmap Heap Scan is also split in two
 * phases from its own per-node figures (which include its children): the
 * index phase is its BitmapOr / Bitmap Index Scan subtree, the heap phase
 * the node minus that subtree. Does not talk to a server.
 */
#ifndef BENCH_OBSERVE_EXPLAIN_H
#define BENCH_OBSERVE_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define EXPLAIN_ABSENT (-1)          /* for counts and times never negative */
#define EXPLAIN_NODE_TYPES_MAX 512

/* Buffer counters of one node, in blocks. */
struct explain_buffers {
	int64_t shared_hit_blocks, shared_read_blocks;
	int64_t shared_dirtied_blocks, shared_written_blocks;
	int64_t temp_read_blocks, temp_written_blocks;
};

/* What one phase of a bitmap scan took: time, blocks, read wait. Times are
 * per loop as printed (one loop without parallel workers). */
struct explain_phase {
	double  total_ms;
	int64_t shared_hit_blocks, shared_read_blocks;
	double  io_read_ms;              /* EXPLAIN_ABSENT without track_io_timing */
};

/* The scan measured: the first Bitmap Heap Scan in tree order (or, after
 * explain_take_seq, the first Seq Scan: its heap phase is the node, its
 * index phase empty, its exact heap blocks the pages it read). Rows are per
 * loop, as printed. Under parallel workers the heap blocks are the heap
 * phase's buffers, which PostgreSQL sums over the processes (its "Heap
 * Blocks" are the leader's alone). */
struct explain_bitmap {
	bool    present;
	const char *scan;                /* "Bitmap Heap Scan" or "Seq Scan" */
	int     nodes;                   /* how many such nodes in all */
	int64_t exact_heap_blocks, lossy_heap_blocks;
	int64_t rows_removed_by_recheck;
	double  actual_rows, actual_loops;
	bool    parallel_aware;
	char    relation[128];           /* "Relation Name", "" if not printed */
	struct explain_phase node;       /* the node itself, children included */
	struct explain_phase index_phase, heap_phase;
	double  other_ms;                /* the execution outside both phases: the
					    executor's start-up and shut-down (relations
					    opened, the bitmap freed), any node above, and
					    the executor's work between the rows the node
					    returns (most of it, for many rows) */
	bool    phases;                  /* both phases known (per-node timing,
					    one loop: not under parallel workers) */
};

struct explain_figures {
	double execution_ms, planning_ms;
	double top_rows;                 /* Actual Rows of the top node */
	char   top_node[64];             /* its Node Type */

	/* Node types anywhere in the tree. */
	bool has_seq_scan, has_index_scan, has_index_only_scan;
	bool has_bitmap_heap_scan, has_bitmap_index_scan;
	bool has_bitmap_or, has_bitmap_and, has_gather;
	char node_types[EXPLAIN_NODE_TYPES_MAX]; /* distinct, tree order, "A,B" */
	bool node_types_truncated;

	struct explain_bitmap  bitmap;
	struct explain_bitmap  seq;      /* the first Seq Scan, as a scan measured */
	struct explain_buffers buffers;
	/* track_io_timing: 15 says "I/O Read Time", 17+ "Shared I/O Read Time". */
	double io_read_ms, io_write_ms, temp_io_read_ms, temp_io_write_ms;

	int workers_planned, workers_launched;  /* summed over Gather nodes */
	json_t *settings;                /* the "Settings" object (own ref) or NULL */
};

/* Parse JSON_TEXT into OUT. 0, or -EINVAL with a message in ERR. On success
 * OUT holds a reference: release it with explain_free(). */
int explain_parse(const char *json_text, struct explain_figures *out,
		  char *err, size_t errlen);
void explain_free(struct explain_figures *fig);

/* Measure the first Seq Scan: its figures take the bitmap scan's place.
 * false (nothing changed) when the plan has none. */
bool explain_take_seq(struct explain_figures *fig);

/* The figures as a new JSON object (absent values are null), or NULL. */
json_t *explain_to_json(const struct explain_figures *fig);

#endif
