/*
 * probe: run one engine over a block sequence at one depth, for a count of
 * blocks, a duration, or until its IOPS is steady, timing every read (ns,
 * CLOCK_MONOTONIC) into a histogram, counting the process's CPU time
 * (getrusage RUSAGE_SELF, so io_uring workers count too) and the device's
 * /proc/diskstats around the run. A read is one block, or with an
 * ENGINE_COMBINE engine a run of up to `combine` adjacent blocks (io/combine.h).
 * Files come from a blockmap, opened O_RDONLY: probes never write.
 * Optionally each block read is checked by a callback (tests). Never prints.
 */
#ifndef IO_PROBE_H
#define IO_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/blocks.h"
#include "io/engine.h"
#include "io/hist.h"
#include "io/sysstat.h"

#define PROBE_MAX_DEPTH 4096          /* io_uring's ring size used here */
#define PROBE_MAX_COMBINE 128         /* blocks per read: io_max_combine_limit's maximum */
#define PROBE_MAX_BUF_BYTES (256u << 20)  /* depth * combine * block size, at most */
#define PROBE_MAX_WINDOWS 600         /* windows kept per point */

/* 0 when BUF holds what block BLOCK should, else nonzero. */
typedef int (*probe_verify_fn)(const void *buf, uint64_t block, uint32_t bytes,
			       void *arg);

/*
 * Run until IOPS is steady: IOPS per window of window_ns; the point ends when
 * the last `windows` windows each lie within ±tolerance of their mean
 * (io/curve.h) and at least min_ns have passed, or at duration_ns.
 */
struct probe_steady {
	uint64_t window_ns;
	uint64_t min_ns;
	unsigned windows;
	double   tolerance;
};

struct probe_config {
	const struct engine_ops *engine;
	const struct blockmap   *map;
	struct blocks            seq;          /* copied: the run advances its own */
	unsigned                 depth;        /* 1..PROBE_MAX_DEPTH */
	unsigned                 combine;      /* ENGINE_COMBINE: blocks per read at most; 0 = 1 */
	uint64_t                 count;        /* blocks to read, 0 = until duration */
	uint64_t                 duration_ns;  /* 0 = until count; the most with steady */
	const struct probe_steady *steady;     /* NULL = count or duration only */
	const char              *disk_name;    /* /proc/diskstats name; NULL = none */
	const char              *disk_file;    /* read it from here (a published device); NULL = /proc/diskstats */
	probe_verify_fn          verify;       /* NULL = no check */
	void                    *verify_arg;
	const volatile sig_atomic_t *stop;     /* set by a signal handler; may be NULL */
};

enum probe_stage {
	PROBE_OK = 0,
	PROBE_FAILED_SETUP,                    /* bad config or out of memory */
	PROBE_FAILED_ENGINE_INIT,              /* e.g. io_uring unavailable */
	PROBE_FAILED_IO,                       /* a read failed or came back short */
	PROBE_FAILED_VERIFY,                   /* a block held the wrong bytes */
};

struct probe_result {
	const char         *engine;
	unsigned            depth;
	unsigned            combine;           /* blocks per read at most */
	uint32_t            block_bytes;
	bool                direct;
	uint64_t            ios, blocks, bytes; /* reads, blocks they covered, bytes */
	double              elapsed_s, iops, mib_s;   /* iops: reads per second */
	double              inflight;          /* time-averaged reads in flight (below) */
	struct hist_summary lat;               /* per read, ns */
	double              cpu_user_us_per_io, cpu_sys_us_per_io;
	/* Context switches per read (getrusage): voluntary ones are the waits
	 * that put the process to sleep, involuntary ones preemptions. */
	double              sleeps_per_io, preemptions_per_io;
	bool                have_disk;
	struct disk_delta   disk;
	bool                stopped;           /* the stop flag ended it early */
	bool                steady_mode;       /* cfg->steady was given: */
	bool                steady;            /* the rule was met before duration_ns */
	unsigned            nwindows;
	double              window_iops[PROBE_MAX_WINDOWS];
	enum probe_stage    failed;
};

/*
 * `inflight` is Little's law on the probe's own timing: the sum of every
 * read's latency (from the clock read just before the system call that
 * submits it to the one just after the call that reaps its completion) over
 * the elapsed time, so the mean number of slots holding a read. Below the depth, the loop left slots empty; the device's
 * own figure is disk.avg_queue_depth.
 */

/* 0, or -errno with res->failed saying where and err saying what. */
int probe_run(const struct probe_config *cfg, struct probe_result *res,
	      char *err, size_t errlen);

#endif
