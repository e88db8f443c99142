/*
 * runner_meta: a runner's meta.json and the identity a resume must match;
 * see runner.h.
 */
#ifndef BENCH_SWEEP_RUNNER_META_H
#define BENCH_SWEEP_RUNNER_META_H

#include "bench/sweep/runner.h"

/* The device under the data (the data directory, or the folder the
 * workload found it in, r->data_path) as JSON; fills r->disk and members. */
json_t *runner_meta_device(struct runner *r);

/* Write DIR/meta.json for a new folder. */
int runner_meta_write(struct runner *r, int argc, char **argv, char *err, size_t errlen);

/* Read the folder of --resume: the plan and the options it ran with. */
int runner_meta_resume(struct runner *r, char *err, size_t errlen);

/* Does the server, data set and target now match the folder's? -EINVAL
 * naming what differs. */
int runner_meta_check_identity(struct runner *r, char *err, size_t errlen);

#endif
