/*
 * emulate: an emulated storage device, a FUSE file system (libfuse3's
 * low-level API) serving the files of a backing folder at a mount point,
 * every read delayed by the service model (io/emulate/model.h) and counted
 * (io/emulate/counters.h). Writes, fsync and metadata pass straight to the
 * backing files (their durability is the backing file system's). Reads
 * are answered asynchronously when the model says they are done, so the
 * kernel's and the model's limits apply, never the number of threads.
 * While mounted it publishes itself in a folder ".eicbench" at the mount's
 * root (hidden from listings; io/sysstat.h reads it as a device):
 * "diskstats" (the device and its members in /proc/diskstats's format),
 * "model", "model.json" and "counters.json"; and it keeps
 * MOUNT.emulate.json beside the mount (model, pid, state, and the counters
 * on SIGUSR1 and at the end). Knows nothing of PostgreSQL; never prints
 * but to its log stream.
 */
#ifndef IO_EMULATE_EMULATE_H
#define IO_EMULATE_EMULATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "io/emulate/model.h"
#include "io/sysstat.h"

#define EMULATE_CTL_DIR      SYSSTAT_PUBLISHED_DIR  /* at the mount's root */
#define EMULATE_FSTYPE       "fuse.eicbench"    /* in /proc/self/mountinfo */
#define EMULATE_STATE_SUFFIX ".emulate.json"    /* MOUNT + this, beside it */
#define EMULATE_MAX_READ_AHEAD (16ULL << 20)
#define EMULATE_MAX_REQUEST_KB 1024             /* the kernel's largest FUSE request with libfuse's buffer */

struct emulate_cfg {
	const char      *backing, *mount;       /* absolute, as resolved */
	struct model_cfg model;
	uint64_t         read_ahead_bytes;      /* the kernel's readahead on the mount */
	unsigned         threads;               /* FUSE worker threads at most; 0: default */
	bool             realtime;              /* answer reads from a SCHED_FIFO thread */
	const char      *command_line;          /* recorded in the state file; may be NULL */
	FILE            *log;                   /* where the emulator says what happened */
	int              ready_fd;              /* -1, or where "ok\n" or one error line goes once mounted */
};

/* The kernel's queue limits the emulator asks for: background requests
 * (readahead, advice, asynchronous direct I/O) and its congestion mark. */
unsigned emulate_max_background(const struct model_cfg *m);

/*
 * The backing folder and the mount point as given, made absolute into
 * BACKING and MOUNT: 0, or -EINVAL with ERR naming the value and what is
 * allowed (a backing folder that does not exist or is no folder; a mount
 * point that is not an empty folder, is already mounted, or lies inside
 * the backing folder or holds it).
 */
int emulate_check_paths(const char *backing_given, const char *mount_given,
			char *backing, char *mount, size_t len, char *err, size_t errlen);

/* Mount, serve until SIGTERM, SIGINT or SIGHUP (SIGUSR1 writes the
 * counters), unmount, write the last counters. 0 or -errno with ERR. */
int emulate_run(const struct emulate_cfg *cfg, char *err, size_t errlen);

/* The model and mount options as JSON, and in words ("2 ms, 8 at once per
 * member, 4 members raid0 in 64 KiB stripes, ..."). */
json_t *emulate_model_json(const struct emulate_cfg *cfg);
void emulate_describe(const struct model_cfg *m, uint64_t read_ahead_bytes, char *out, size_t len);

/* MOUNT + EMULATE_STATE_SUFFIX (a trailing slash of MOUNT dropped). */
void emulate_state_path(const char *mount, char *out, size_t len);

#endif
