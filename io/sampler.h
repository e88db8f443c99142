/*
 * sampler: a thread that snapshots /proc while something runs: the
 * diskstats of a few devices, /proc/stat, and of a few processes their CPU
 * ticks (/proc/PID/stat, for the user/system split) and their scheduler
 * times in ns (/proc/PID/schedstat: on a CPU, waiting on a run queue),
 * every interval_ms (100 by default) from sampler_start() to
 * sampler_stop(). Afterwards any time window inside the run can be read as
 * the usual deltas, counters interpolated linearly between the samples on
 * either side, so a phase whose start and end are known from elsewhere
 * (EXPLAIN's per-node times) gets its own device and CPU figures. Times are
 * CLOCK_MONOTONIC ns (io/clock.h). Processes can be added while it runs
 * (parallel workers that start after it did). Knows nothing of PostgreSQL.
 */
#ifndef IO_SAMPLER_H
#define IO_SAMPLER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/irqcpu.h"
#include "io/sysstat.h"
#include "io/ticker.h"

#define SAMPLER_MAX_DISKS (SYSSTAT_MAX_MEMBERS + 1)
#define SAMPLER_MAX_PIDS  16

struct sampler_cfg {
	const char *disks[SAMPLER_MAX_DISKS];   /* names in /proc/diskstats */
	const char *disk_file;                  /* where to read them (a published device); NULL: /proc/diskstats */
	int         ndisks;
	pid_t       pids[SAMPLER_MAX_PIDS];
	int         npids;
	int         interval_ms;                /* 0: 100 */
	struct irqcpu_irqs irqs;                /* the devices' interrupts to follow (n 0: none) */
};

/* One sample: a device that could not be read keeps its last value
 * (disk_missing is set); so does a process that ended after it was read
 * (it uses no more CPU), while one not read yet counts 0 ticks. */
struct sampler_sample {
	uint64_t        t_ns;
	struct disk_snap disk[SAMPLER_MAX_DISKS];
	struct cpu_snap  cpu;
	uint64_t        utime[SAMPLER_MAX_PIDS];  /* ticks of each pid */
	uint64_t        stime[SAMPLER_MAX_PIDS];
	uint64_t        oncpu_ns[SAMPLER_MAX_PIDS];     /* schedstat of each pid */
	uint64_t        runqueue_ns[SAMPLER_MAX_PIDS];
	int16_t         cpu_of[SAMPLER_MAX_PIDS];       /* the CPU each last ran on, -1 */
	uint64_t        irqs[IRQCPU_MAX_CPUS];          /* interrupts taken so far, per CPU */
};

#define SAMPLER_NEVER ((size_t)-1)

struct sampler {
	struct sampler_cfg     cfg;            /* npids grows with sampler_add_pid() */
	struct sampler_sample *samples;
	size_t                 n, cap;
	bool                   disk_missing[SAMPLER_MAX_DISKS];
	size_t                 pid_first[SAMPLER_MAX_PIDS]; /* first sample that read it, or SAMPLER_NEVER */
	bool                   sched_missing[SAMPLER_MAX_PIDS]; /* a schedstat read failed while stat did not */
	bool                   irqs_missing;   /* an interrupt count could not be read */
	int                    irq_ncpu;
	uint64_t               max_gap_ns;     /* the longest time between samples */
	struct ticker          ticker;
	pthread_mutex_t        lock;           /* the samples and pids, while running */
	bool                   running;
	int                    error;          /* -errno of the thread, 0 */
};

/* Take the first sample and start the thread. 0 or -errno. */
int sampler_start(struct sampler *s, const struct sampler_cfg *cfg);

/* Take the last sample and join the thread (once; safe to call again). */
void sampler_stop(struct sampler *s);

/*
 * Watch one more process from now on, while the sampler runs (from any
 * thread but not during sampler_stop()): a sample is taken at once, so the
 * pid's first reading is when it was added. Before that reading it counts 0
 * ticks: a process that started during the run used nothing before it
 * started, so a window over the whole run holds all its CPU time since it
 * started (its share is over the window asked for); a process added long
 * after it started has its earlier CPU time spread over the interval before
 * its first reading. Its index in the pid lists, or -ENOSPC (list full),
 * -EINVAL (pid <= 0, or the sampler not running), -ENOMEM.
 */
int sampler_add_pid(struct sampler *s, pid_t pid);

/* The time of pid J's first reading; 0 when it never was read. */
uint64_t sampler_pid_since_ns(const struct sampler *s, int j);

void sampler_free(struct sampler *s);

/* The first and last sample times. */
uint64_t sampler_first_ns(const struct sampler *s);
uint64_t sampler_last_ns(const struct sampler *s);

/*
 * Figures of the window [T0, T1] (clamped to the samples): what disk I did,
 * the CPUs, and the CPU of pid J (ticks, and schedstat's ns when every
 * sample had them: proc_delta.have_sched; on-CPU and run-queue time are
 * clamped to the window, so off-CPU time is never negative). -ERANGE when the window is empty or
 * shorter than two sampling intervals (too short to split by; the whole run
 * is always allowed), -ENOENT when that disk could not be read or that pid
 * never was. Only after sampler_stop().
 */
int sampler_disk_window(const struct sampler *s, int i, uint64_t t0, uint64_t t1,
			struct disk_delta *out);
int sampler_cpu_window(const struct sampler *s, uint64_t t0, uint64_t t1,
		       struct cpu_delta *out);
int sampler_proc_window(const struct sampler *s, int j, uint64_t t0, uint64_t t1,
			struct proc_delta *out);

/*
 * Where pid J ran in the window and which CPUs took the interrupts of
 * cfg.irqs: each interval between samples gives its on-CPU time (its ticks
 * without schedstat) to the CPU the pid was last on at its end, so a pid
 * that moves within an interval is placed by where it ended it. 0, or
 * -ERANGE / -ENOENT as above; have_reader or have_irqs are 0 where their
 * figures are missing.
 */
int sampler_placement_window(const struct sampler *s, int j, uint64_t t0, uint64_t t1,
			     struct irqcpu_placement *out);

#endif
