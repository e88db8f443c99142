/*
 * cachecheck_data: the check for caches below this machine (io/cachecheck.h)
 * over a data set's files, and its result as JSON for records. A sweep calls
 * cachecheck_data_sweep before its first trial and keeps the object in its
 * meta.json; `probe --cache-check` writes the same object to cachecheck.json.
 * Never prints.
 */
#ifndef BENCH_OBSERVE_CACHECHECK_DATA_H
#define BENCH_OBSERVE_CACHECHECK_DATA_H

#include <stdint.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "io/cachecheck.h"

#define CACHECHECK_DATA_TABLE "test"     /* the data set's table; its indexes come along */

/*
 * The record of one check: with RC 0, {"ran": true, the passes' figures
 * (reads, mean, p50, p90, p99 in ns), "statistic", "ratio", "ci95",
 * "threshold", "cache_below", "sentence", ...}; otherwise {"ran": false,
 * "skipped": ERR, "reason": "no_direct" (RC == CACHECHECK_NO_DIRECT),
 * "bad_input" (-EINVAL: no such table, files unreadable or too small) or
 * "error"}. CFG gives the seed and block size recorded. NULL only when out
 * of memory.
 */
json_t *cachecheck_data_json(const struct cachecheck_config *cfg,
			     const struct cachecheck_result *r, int rc, const char *err);

/*
 * Run the check over the files of table "test" and its indexes on SRV (a
 * running server: the managed cluster, or --dsn with its files readable
 * here), drawing blocks with SEED. Always an object as above, plus
 * "relations" (their names) and "files" (how many): a check that cannot run
 * (no such table, files unreadable, O_DIRECT refused) says why under
 * "skipped", and the sweep goes on. "sentence" or "skipped" is the line to
 * print. NULL only when out of memory.
 */
json_t *cachecheck_data_sweep(const struct server *srv, uint64_t seed);

#endif
