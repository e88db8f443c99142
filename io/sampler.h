/*
 * sampler: a thread that snapshots /proc while something runs: the
 * diskstats of a few devices, /proc/stat, and the CPU ticks of a few
 * processes, every interval_ms (100 by default) from sampler_start() to
 * sampler_stop(). Afterwards any time window inside the run can be read as
 * the usual deltas, counters interpolated linearly between the samples on
 * either side, so a phase whose start and end are known from elsewhere
 * (EXPLAIN's per-node times) gets its own device and CPU figures. Times are
 * CLOCK_MONOTONIC ns (io/clock.h). Knows nothing of PostgreSQL.
 */
#ifndef IO_SAMPLER_H
#define IO_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/sysstat.h"

#define SAMPLER_MAX_DISKS (SYSSTAT_MAX_MEMBERS + 1)
#define SAMPLER_MAX_PIDS  16

struct sampler_cfg {
	const char *disks[SAMPLER_MAX_DISKS];   /* names in /proc/diskstats */
	int         ndisks;
	pid_t       pids[SAMPLER_MAX_PIDS];
	int         npids;
	int         interval_ms;                /* 0: 100 */
};

/* One sample: a device or process that could not be read keeps its last
 * value (missing is set on the sampler). */
struct sampler_sample {
	uint64_t        t_ns;
	struct disk_snap disk[SAMPLER_MAX_DISKS];
	struct cpu_snap  cpu;
	uint64_t        utime[SAMPLER_MAX_PIDS];  /* ticks of each pid */
	uint64_t        stime[SAMPLER_MAX_PIDS];
};

struct sampler {
	struct sampler_cfg     cfg;
	struct sampler_sample *samples;
	size_t                 n, cap;
	bool                   disk_missing[SAMPLER_MAX_DISKS];
	bool                   pid_missing[SAMPLER_MAX_PIDS];
	uint64_t               max_gap_ns;     /* the longest time between samples */
	pthread_t              thread;
	pthread_mutex_t        lock;           /* guards stop, for the wake-up */
	pthread_cond_t         wake;
	bool                   stop;
	bool                   running;
	int                    error;          /* -errno of the thread, 0 */
};

/* Take the first sample and start the thread. 0 or -errno. */
int sampler_start(struct sampler *s, const struct sampler_cfg *cfg);

/* Take the last sample and join the thread (once; safe to call again). */
void sampler_stop(struct sampler *s);

void sampler_free(struct sampler *s);

/* The first and last sample times. */
uint64_t sampler_first_ns(const struct sampler *s);
uint64_t sampler_last_ns(const struct sampler *s);

/*
 * Figures of the window [T0, T1] (clamped to the samples): what disk I did,
 * the CPUs, and the CPU share of pid J. -ERANGE when the window is empty or
 * shorter than two sampling intervals (too short to split by; the whole run
 * is always allowed), -ENOENT when that disk or pid could not be read.
 */
int sampler_disk_window(const struct sampler *s, int i, uint64_t t0, uint64_t t1,
			struct disk_delta *out);
int sampler_cpu_window(const struct sampler *s, uint64_t t0, uint64_t t1,
		       struct cpu_delta *out);
int sampler_proc_window(const struct sampler *s, int j, uint64_t t0, uint64_t t1,
			struct proc_delta *out);

#endif
