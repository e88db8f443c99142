/*
 * probe: run one engine over a block sequence at one depth, for a count of
 * reads or a duration, timing every read (ns, CLOCK_MONOTONIC) into a
 * histogram, counting the process's CPU time (getrusage RUSAGE_SELF, so io_uring
 * workers count too) and the device's /proc/diskstats around the run. Files
 * come from a blockmap, opened O_RDONLY: probes never write. Optionally each
 * block read is checked by a callback (tests). Never prints.
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

/* 0 when BUF holds what block BLOCK should, else nonzero. */
typedef int (*probe_verify_fn)(const void *buf, uint64_t block, uint32_t bytes,
			       void *arg);

struct probe_config {
	const struct engine_ops *engine;
	const struct blockmap   *map;
	struct blocks            seq;          /* copied: the run advances its own */
	unsigned                 depth;        /* 1..PROBE_MAX_DEPTH */
	uint64_t                 count;        /* reads to issue, 0 = until duration */
	uint64_t                 duration_ns;  /* 0 = until count */
	const char              *disk_name;    /* /proc/diskstats name; NULL = none */
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
	uint32_t            block_bytes;
	bool                direct;
	uint64_t            ios, bytes;
	double              elapsed_s, iops, mib_s;
	struct hist_summary lat;               /* per read, ns */
	double              cpu_user_us_per_io, cpu_sys_us_per_io;
	bool                have_disk;
	struct disk_delta   disk;
	bool                stopped;           /* the stop flag ended it early */
	enum probe_stage    failed;
};

/* 0, or -errno with res->failed saying where and err saying what. */
int probe_run(const struct probe_config *cfg, struct probe_result *res,
	      char *err, size_t errlen);

#endif
