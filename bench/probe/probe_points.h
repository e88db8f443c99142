/*
 * probe_points: the points of a probe's plan. Open the plan's files, check
 * the plan against them (O_DIRECT, block size, the replay list), make the
 * result folder (meta.json), then for each depth and engine: make the files
 * cold, run the probe (io/probe.h) and append the point to points.jsonl;
 * at the end each engine's knee into curve.json. What a point shows is the
 * caller's (hooks); progress lines go to stderr. Ctrl-C (the plan's stop)
 * ends the run after the point in progress, keeping every point so far.
 */
#ifndef BENCH_PROBE_PROBE_POINTS_H
#define BENCH_PROBE_PROBE_POINTS_H

#include <limits.h>

#include "bench/probe/probe_plan.h"
#include "io/sysstat.h"

#define PROBE_POINTS_FILE "points.jsonl"
#define PROBE_CURVE_FILE  "curve.json"

/* What the caller shows while the points run (each may be NULL). */
struct probe_hooks {
	void *arg;
	void (*begin)(void *arg, const struct probe_plan *p);      /* before the first point */
	/* a finished point, and its record */
	void (*point)(void *arg, const struct probe_plan *p, const struct probe_result *r,
		      const json_t *rec);
};

/* What a probe made. */
struct probe_out {
	char    dir[PATH_MAX];  /* the result folder, "" while none was made */
	json_t *knees;          /* points: each engine's peak and knee (curve.json's "engines") */
	json_t *cache;          /* the cache check: its record (cachecheck.json) */
};

void probe_out_free(struct probe_out *o);

/*
 * Run PLAN's points into a new result folder (OUT->dir). ARGC/ARGV are the
 * whole command line, for meta.json. 0, or -EINVAL for input the files
 * refuse (nothing written then but what says why), -EINTR when stopped,
 * another -errno when the run failed; ERR filled.
 */
int probe_points_run(const struct probe_plan *plan, const struct probe_hooks *hooks,
		     int argc, char **argv, struct probe_out *out, char *err, size_t errlen);

/*
 * Make the result folder (DIR, held until the process ends) and write its
 * meta.json: the head with DEV (the device under the plan's first file,
 * from record_device_at(); its name "" or DEV NULL: unknown), FILE_BLOCKS
 * (0: null), the plan's options and plan->meta_extra. 0, -EINVAL when
 * --out is taken or in use, another -errno.
 */
int probe_points_folder(const struct probe_plan *plan, const struct device_info *dev,
			uint64_t file_blocks, int argc, char **argv,
			char *dir, size_t dirlen, char *err, size_t errlen);

/* A point as points.jsonl keeps it (DISK: the device watched, or NULL). */
json_t *probe_points_json(const struct probe_plan *p, const char *disk,
			  const struct probe_result *r, const char *cold);

#endif
