/*
 * cmd_probe: "eicbench probe": raw disk probes on a file, device or set of
 * PostgreSQL segment files, outside the database. A plan (files, block
 * sequence, engines, depths, block size, direct, duration or count) runs one
 * point per engine and depth, each made cold first, and writes a result
 * folder (meta.json, points.jsonl) plus a table or JSON lines on stdout.
 * Two forms: --file PATH, and --relation NAME --query Q, which replays the
 * heap blocks the query reads (bench/relblocks.h) on the relation's segments.
 * cmd_probe itself is declared in bench/cmd.h.
 */
#ifndef BENCH_CMD_PROBE_H
#define BENCH_CMD_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/cmd.h"
#include "io/blocks.h"
#include "io/engine.h"

#define PROBE_CMD_MAX_ENGINES 8
#define PROBE_CMD_MAX_DEPTHS  32

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
	uint32_t           block_bytes;
	bool               direct;
	bool               cold;           /* evict (or drop, as root) before each point */
	bool               json;           /* JSON lines on stdout, table on stderr */
	uint64_t           count;          /* reads per point; 0 = duration_s */
	double             duration_s;     /* 0 with BLOCKS_REPLAY and no count: one pass */
	const char        *out;            /* --out, or NULL for results/<stamp>-probe */
	const json_t      *meta_extra;     /* NULL, or members added to meta.json */
};

/*
 * Open the files, check the plan against them, make the result folder and run
 * every point. ARGC/ARGV are the whole command line, for meta.json.
 * Returns the exit status: 0, 1 (a run failed), 2 (bad input).
 */
int probe_cmd_run_plan(const struct probe_plan *plan, int argc, char **argv);

#endif
