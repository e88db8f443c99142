/*
 * probe_cache: the check for caches below this machine (io/cachecheck.h) as
 * a probe runs it, in a result folder of its own: over the plan's files
 * (a file, or a relation's segments) or over the data set's files as a
 * sweep runs it (bench/observe/cachecheck_data.h). The record
 * (cachecheck.json, beside meta.json) is written first; a check that could
 * not run is recorded as skipped, with why. Showing it is the caller's.
 */
#ifndef BENCH_PROBE_PROBE_CACHE_H
#define BENCH_PROBE_PROBE_CACHE_H

#include "bench/probe/probe_points.h"

#define PROBE_CACHE_FILE "cachecheck.json"

/*
 * The check over PLAN's files into a new folder (OUT->dir), its record in
 * OUT->cache. 0 once the record is kept (probe_cache_status() says how the
 * check went), or -errno with ERR when no record could be (-EINVAL: the
 * folder named is taken).
 */
int probe_cache_files(const struct probe_plan *plan, int argc, char **argv,
		      struct probe_out *out, char *err, size_t errlen);

/* The same over the data set's table and indexes on CFG's server (started
 * when stopped). */
int probe_cache_dataset(const struct probe_cfg *cfg, const struct probe_plan *plan,
			int argc, char **argv, struct probe_out *out, char *err, size_t errlen);

/* How the recorded check went: 0 it ran, -EINVAL it could not run here
 * (the files refuse O_DIRECT, bad input), -EIO it failed. */
int probe_cache_status(const json_t *rec);

#endif
