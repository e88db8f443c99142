/*
 * runner_memory: the host's free page reporting paused for the trials of
 * cold sweeps (bench/observe/memhold.h), so that no trial's reads wait on
 * the host for memory after its caches were dropped. Each sweep's
 * meta.json says what was done, in host.free_page_reporting.pause.
 */
#ifndef BENCH_SWEEP_RUNNER_MEMORY_H
#define BENCH_SWEEP_RUNNER_MEMORY_H

#include "bench/observe/memhold.h"
#include "bench/sweep/runner.h"

/* Before the trials of the N sweeps RS (set up, folders written): pause
 * when any is cold and none keeps reporting; say it on stderr; record it.
 * After the trials, pagereport_release(H) lets go (the last holder puts
 * the order back). */
void runner_memory_hold(struct runner *rs, int n, struct pagereport_hold *h);


#endif
