/*
 * cmd_probe: "eicbench probe": raw disk probes on a file, device or set of
 * PostgreSQL segment files, outside the database. A plan (files, block
 * sequence, engines, depths, block size, direct, duration, count or steady)
 * runs one point per engine and depth, each made cold first, and writes a
 * result folder (meta.json, points.jsonl, curve.json) plus a table or JSON
 * lines on stdout. Two forms: --file PATH, and --relation NAME --query Q,
 * which replays the heap blocks the query reads (bench/observe/relblocks.h) on the
 * relation's segments. --cache-check runs the check for caches below this
 * machine (io/cachecheck.h) over the same files instead of points.
 *
 * One command, split by concern: cmd_probe.c (options into a plan, the
 * forms), cmd_probe_rel.c (the relation form's questions to the database),
 * cmd_probe_run.c (files, the result folder, the points), cmd_probe_out.c (a
 * point as a table row and as JSON, the knee) and cmd_probe_cache.c
 * (--cache-check). cmd_probe itself is declared in bench/cmd/cmd.h.
 */
#ifndef BENCH_CMD_PROBE_H
#define BENCH_CMD_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/cmd/cmd.h"
#include "bench/pg/server.h"
#include "io/blocks.h"
#include "io/engine.h"
#include "io/probe.h"
#include "io/sysstat.h"

#define PROBE_CMD            "probe"
#define PROBE_CMD_MAX_ENGINES 8
#define PROBE_CMD_MAX_DEPTHS  32
#define PROBE_CMD_COMBINE     16     /* io_combine_limit's default, 128kB of 8 kB blocks */
#define PROBE_CMD_STEADY_MAX_S 30.0  /* --steady without --duration */
#define PROBE_CMD_MAX_SIZES   16
#define PROBE_CMD_MAX_SIZE    (16u << 20)   /* --sizes: 16 MiB a read at most */

/* The options as given; NULL / 0 / false when absent. */
struct probe_opts {
	struct server_cfg srv;
	const char *file, *relation, *query, *engine, *depth, *pattern, *out;
	uint64_t    bs;
	bool        direct, json, no_cold, steady, cache_check, one_pass, until_plateau;
	double      duration, window;
	long long   count, seed, combine;
	const char *sizes;
};

struct probe_plan {
	const char *const *paths;          /* one address space, in block order */
	unsigned           npaths;
	const char        *pattern;        /* as recorded: "random", "seq", "replay:FILE" */
	enum blocks_kind   kind;
	const char        *replay_file;    /* BLOCKS_REPLAY from a file, or ... */
	const uint64_t    *list;           /* ... from a list (e.g. PostgreSQL's blocks) */
	size_t             list_len;
	uint64_t           seed;
	const struct engine_ops *engines[PROBE_CMD_MAX_ENGINES];
	unsigned           nengines;
	unsigned           depths[PROBE_CMD_MAX_DEPTHS];
	unsigned           ndepths;
	unsigned           combine;        /* readstream: blocks per read at most */
	uint32_t           block_bytes;
	uint32_t           sizes[PROBE_CMD_MAX_SIZES];   /* --sizes: each point at each size */
	unsigned           nsizes;         /* 0: block_bytes alone */
	bool               one_pass;       /* each point reads the pattern's blocks once */
	bool               until_plateau;  /* an engine goes no deeper once IOPS stop rising */
	double             window_s;       /* --steady's window */
	bool               direct;
	bool               cold;           /* evict (or drop, as root) before each point */
	bool               json;           /* JSON lines on stdout, table on stderr */
	bool               steady;         /* each point until its IOPS is steady */
	bool               cache_check;    /* the cache check instead of points */
	uint64_t           count;          /* blocks per point; 0 = duration_s */
	double             duration_s;     /* 0 with BLOCKS_REPLAY and no count: one pass */
	const char        *out;            /* --out, or NULL for results/<stamp>-probe */
	const json_t      *meta_extra;     /* NULL, or members added to meta.json */
};

/* IOPS per engine and depth, as the points ran, for the knee. */
struct probe_curve {
	bool     flat[PROBE_CMD_MAX_ENGINES];   /* stopped going deeper: IOPS stopped rising */
	unsigned n[PROBE_CMD_MAX_ENGINES];
	unsigned depth[PROBE_CMD_MAX_ENGINES][PROBE_CMD_MAX_DEPTHS];
	double   iops[PROBE_CMD_MAX_ENGINES][PROBE_CMD_MAX_DEPTHS];
};

/*
 * Every engine's buffers (depth x block size, x --combine for readstream)
 * within PROBE_MAX_BUF_BYTES: 0, or -EINVAL with ERR naming the depth, the
 * block size and the bound. Checked before anything is written; the
 * relation form checks again once the server's block size is known.
 */
int probe_cmd_check_buffers(const struct probe_plan *p, char *err, size_t len);

/*
 * Open the files, check the plan against them, make the result folder and run
 * every point. ARGC/ARGV are the whole command line, for meta.json.
 * Returns the exit status: 0, 1 (a run failed), 2 (bad input).
 */
int probe_cmd_run_plan(const struct probe_plan *plan, int argc, char **argv);

/* The same for plan->cache_check: the check over the plan's files, recorded and printed. */
int probe_cmd_cache_check(const struct probe_plan *plan, int argc, char **argv);

/* --cache-check with --datadir or --dsn alone: over the data set's files, as a sweep runs it. */
int probe_cmd_cache_dataset(const struct probe_opts *o, struct probe_plan *plan,
			    int argc, char **argv);

/* The relation form: ask the database, fill the plan, run it. Exit status. */
int probe_cmd_relation(const struct probe_opts *o, struct probe_plan *plan,
		       int argc, char **argv);

/*
 * Make the result folder (DIR) and write its meta.json: host, DEV (NULL:
 * unknown), the options, FILE_BLOCKS and plan->meta_extra. Exit status, with
 * ERR filled on failure.
 */
int probe_cmd_write_meta(const struct probe_plan *plan, const struct device_info *dev,
			 uint64_t file_blocks, int argc, char **argv,
			 char *dir, size_t dirlen, char *err, size_t errlen);

/* The file system type under PATH, from /proc/self/mountinfo ("unknown" if not found). */
void probe_cmd_fs_type(const char *path, char *out, size_t len);

/* cmd_probe_out.c: the table, a point's record, the knee. */
void probe_cmd_print_header(FILE *f, const struct probe_plan *plan);
void probe_cmd_print_row(FILE *f, const struct probe_result *r);
json_t *probe_cmd_point_json(const struct probe_plan *plan, const char *disk,
			     const struct probe_result *r, const char *cold);
/* Print each engine's peak and knee (engines with two depths or more); the same as JSON. */
json_t *probe_cmd_knees(FILE *f, const struct probe_plan *plan, const struct probe_curve *c);

#endif
