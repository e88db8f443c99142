/*
 * runner_memory: the host's free page reporting paused for the trials of
 * cold sweeps (io/pagereport.h), and the memory the host had taken back
 * given back once before the first trial, so that no trial's reads wait on
 * the host for memory after its caches were dropped. Left on with
 * --keep-page-reporting or EICBENCH_PAGE_REPORTING=keep (then only a pause
 * a dead eicbench left is put back). Each sweep's meta.json says which, in
 * host.free_page_reporting.pause.
 */
#ifndef BENCH_SWEEP_RUNNER_MEMORY_H
#define BENCH_SWEEP_RUNNER_MEMORY_H

#include "bench/sweep/runner.h"
#include "io/pagereport.h"

/* The machine-wide state file of the pause (under /run: gone at boot). */
#define RUNNER_MEMORY_DIR   "/run/eicbench"
#define RUNNER_MEMORY_STATE RUNNER_MEMORY_DIR "/page-reporting"

/* Before the trials of the N sweeps RS (set up, folders written): pause
 * when any is cold and none keeps reporting; say it on stderr; record it.
 * After the trials, pagereport_release(H) lets go (the last holder puts
 * the order back). */
void runner_memory_hold(struct runner *rs, int n, struct pagereport_hold *h);

/* EICBENCH_PAGE_REPORTING unset, "keep" or "pause": 0; else -EINVAL
 * with ERR naming the value (checked before anything is written). */
int runner_memory_check_env(char *err, size_t errlen);


#endif
