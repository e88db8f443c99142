/*
 * workloads: the trials a sweep can run, behind struct workload
 * (bench/sweep/workload.h), one file each: the cold bitmap-scan EXPLAIN
 * (workload_bitmap.h), its replay (workload_replay.h, the bitmap sweep's
 * companion) and the TPC-B driver (workload_tpcb.h). This folder
 * sits above the runner (it implements the runner's interface and uses its
 * trial context) and below the commands, which pick a workload by name.
 */
#ifndef BENCH_WORKLOADS_WORKLOADS_H
#define BENCH_WORKLOADS_WORKLOADS_H

#include "bench/sweep/workload.h"

extern const struct workload workload_bitmap;
extern const struct workload workload_tpcb;
extern const struct workload workload_replay;

/* Every workload, NULL-terminated; and the one called NAME, or NULL. */
extern const struct workload *const workload_table[];
const struct workload *workload_find(const char *name);

#endif
