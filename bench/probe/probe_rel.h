/*
 * probe_rel: the relation form of a probe. Take the cluster (--datadir,
 * started if stopped, or --dsn), look the relation up and find its segment
 * files; for points ask which heap blocks the query reads
 * (bench/observe/relblocks.h), or with a pattern (random, seq) read the
 * relation's own blocks (the device's curve on the data set's files);
 * then disconnect and run the plan over those files: its points, or the
 * cache check over them.
 */
#ifndef BENCH_PROBE_PROBE_REL_H
#define BENCH_PROBE_PROBE_REL_H

#include "bench/probe/probe_points.h"

/*
 * CFG's relation form with P (from probe_plan_make(CFG)); the files and
 * blocks P points at are the call's own (cleared again on return). 0 or
 * -errno with ERR, as probe_points_run() and probe_cache_files().
 */
int probe_rel_run(const struct probe_cfg *cfg, struct probe_plan *p, const struct probe_hooks *hooks,
		  int argc, char **argv, struct probe_out *out, char *err, size_t errlen);

#endif
