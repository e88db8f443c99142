/*
 * probe_plan: the raw disk probes' configuration and the plan made from it,
 * for every command that probes (probe, run). A probe reads real files
 * outside the database: a file or device (the file form), or the segment
 * files of a relation of the cluster (the relation form: the heap blocks a
 * query reads, or the relation's own blocks at random or in order), one
 * point per engine and depth, each made cold first; or, instead of points,
 * the check for caches below this machine. This layer may use the data set
 * (query presets), observe (relblocks, the data set's cache check), pg,
 * record, cli and io. Checks name the bad value: 0 or -EINVAL with ERR.
 */
#ifndef BENCH_PROBE_PROBE_PLAN_H
#define BENCH_PROBE_PROBE_PLAN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "io/blocks.h"
#include "io/engine.h"
#include "io/probe.h"

#define PROBE_PLAN_MAX_ENGINES 8
#define PROBE_PLAN_MAX_DEPTHS  32
#define PROBE_PLAN_COMBINE     16     /* io_combine_limit's default, 128kB of 8 kB blocks */
#define PROBE_PLAN_STEADY_MAX_S 30.0  /* steady without a duration */
#define PROBE_PLAN_MAX_SIZES   16
#define PROBE_PLAN_MAX_SIZE    (16u << 20)   /* sizes: 16 MiB a read at most */
#define PROBE_PLAN_ENGINES     "psync,fadvise,io_uring"
#define PROBE_PLAN_ENGINES_DIRECT "psync,io_uring"   /* fadvise reads into the page cache O_DIRECT skips */
#define PROBE_PLAN_DEPTHS      "1,2,4,8,16,32,64,128,256"

/* What to probe, as `eicbench probe` takes it; NULL / 0 / false when not
 * given (seed: -1). */
struct probe_cfg {
	struct server_cfg srv;
	const char *file, *relation, *query, *engine, *depth, *pattern, *out;
	uint64_t    bs;
	bool        direct, json, no_cold, steady, cache_check, one_pass, until_plateau;
	bool        keep_page_reporting;   /* leave the host's free page reporting on (bench/observe/memhold.h) */
	double      duration, window;
	long long   count, seed, combine;
	const char *sizes;                 /* block sizes, comma-separated, instead of bs */
	const volatile sig_atomic_t *stop; /* raised: end after the point in progress */
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
	const struct engine_ops *engines[PROBE_PLAN_MAX_ENGINES];
	unsigned           nengines;
	unsigned           depths[PROBE_PLAN_MAX_DEPTHS];
	unsigned           ndepths;
	unsigned           combine;        /* readstream: blocks per read at most */
	uint32_t           block_bytes;
	uint32_t           sizes[PROBE_PLAN_MAX_SIZES];  /* each point at each size */
	unsigned           nsizes;         /* 0: block_bytes alone */
	bool               one_pass;       /* each point reads the pattern's blocks once */
	bool               until_plateau;  /* an engine goes no deeper once IOPS stop rising */
	double             window_s;       /* steady's window */
	bool               direct;
	bool               cold;           /* evict (or drop, as root) before each point */
	bool               keep_page_reporting; /* buffered cold points: reporting left on */
	bool               json;           /* JSON lines on stdout, table on stderr */
	bool               steady;         /* each point until its IOPS is steady */
	bool               cache_check;    /* the cache check instead of points */
	uint64_t           count;          /* blocks per point; 0 = duration_s */
	double             duration_s;     /* 0 with BLOCKS_REPLAY and no count: one pass */
	const char        *out;            /* the result folder, or NULL for results/<stamp>-probe */
	const json_t      *meta_extra;     /* NULL, or members added to meta.json */
	const volatile sig_atomic_t *stop; /* raised: end after the point in progress */
};

/*
 * CFG into P: which form, and every option checked against it and against
 * the others (engines, depths, pattern, time, block size, buffers). The
 * relation form's files come later (bench/probe/probe_rel.h).
 */
int probe_plan_make(const struct probe_cfg *cfg, struct probe_plan *p,
		    char *err, size_t len);

/*
 * Every engine's buffers (depth x block size, x combine for readstream)
 * within PROBE_MAX_BUF_BYTES: 0, or -EINVAL with ERR naming the depth, the
 * block size and the bound. Checked before anything is written; the
 * relation form checks again once the server's block size is known.
 */
int probe_plan_check_buffers(const struct probe_plan *p, char *err, size_t len);

/* The plan's options as meta.json records them. */
json_t *probe_plan_json(const struct probe_plan *p);

#endif
