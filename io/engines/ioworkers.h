/*
 * ioworkers: a pool of threads that carry out reads for another thread, the
 * way PostgreSQL 18's I/O workers do for a backend (io_method = worker): the
 * submitter stages reads, then submits them into one queue under a lock and,
 * after releasing it, wakes the lowest-numbered idle worker through that
 * worker's own latch; a worker that takes a read wakes up to
 * IOWORKERS_FANOUT more idle workers (the lowest first) while reads are
 * still queued, then does the pread(2) on a file descriptor of its own (each
 * worker opens the files itself, as 18's workers reopen a backend's files,
 * so each has its own readahead state). A finished read is marked done
 * without the queue's lock, and the submitter's latch is set only if it is
 * waiting for that read, as a backend sleeps on its read's condition
 * variable. So, as in PostgreSQL, one worker does most reads when few are in
 * flight. Slots are the caller's: a slot holds one read from stage() until
 * wait() returns it. A worker may verify what it read, as 18's workers check
 * data checksums (io/engines/pagesum.h). Each worker's CPU time
 * (RUSAGE_THREAD) is summed when the pool stops. Given a shared memory
 * file (ioworkers_view), each worker maps it at an address of its own and
 * reads into its own mapping, as each of 18's workers, a process, maps the
 * server's buffers itself: the first touch of every page then costs each
 * worker what it costs a process of its own.
 */
#ifndef IO_ENGINES_IOWORKERS_H
#define IO_ENGINES_IOWORKERS_H

#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IOWORKERS_FANOUT 2             /* peers a worker wakes (IO_WORKER_WAKEUP_FANOUT) */
#define IOWORKERS_MAX 64               /* workers at most (the idle mask's bits) */

/* A latch: set by anyone, waited for and reset by its owner; setting a set
 * latch does nothing, waiting on a set one returns at once. */
struct ioworker_latch {
	atomic_bool is_set;
	sem_t       sem;
};

struct ioworker_read {
	unsigned file;                 /* index into the pool's paths */
	void    *buf;
	size_t   len;
	off_t    off;
	int64_t  result;               /* bytes read, or -errno */
	atomic_bool done;
};

struct ioworkers {
	const char *const *paths;      /* the files, opened by each worker on first use */
	unsigned         npaths;
	pthread_t       *threads;
	unsigned         nthreads, started;
	struct ioworker_latch *latches;   /* one per worker */
	struct ioworker_latch  submitter; /* the submitter's, set when its read is done */
	atomic_uint      waiting_for;  /* the slot the submitter sleeps on, or UINT_MAX */
	struct ioworker_read *slots;
	unsigned         nslots;
	unsigned        *queue;        /* a ring of slots waiting for a worker */
	unsigned         qhead, qlen;
	unsigned        *staged;       /* staged by the submitter, not yet queued */
	unsigned         nstaged;
	uint64_t         idle_mask;    /* workers waiting for work, bit i for worker i */
	atomic_bool      quit;
	pthread_mutex_t  lock;         /* the queue and the idle mask */
	double           cpu_ms;       /* the workers' CPU, summed as they end (under lock) */
	atomic_uint_fast64_t reads;
	uint64_t         worker_reads[IOWORKERS_MAX];   /* reads each worker did (its own to write;
							   seen once the read's done is) */
	size_t           verify_bytes; /* verify each block of this size read; 0: no */
	atomic_uint      sums;
	int              view_fd;      /* shared memory each worker maps itself, or -1 */
	char            *view_base;    /* the submitter's mapping of it */
	size_t           view_len;
};

/* Start NTHREADS workers for NSLOTS slots over the NPATHS files of PATHS
 * (borrowed), verifying blocks of VERIFY_BYTES after each read (0: not).
 * 0 or -errno. */
int ioworkers_start(struct ioworkers *w, const char *const *paths, unsigned npaths,
		    unsigned nthreads, unsigned nslots, size_t verify_bytes);

/* Reads into the LEN bytes at BASE, the caller's mapping of the shared
 * memory file FD (borrowed), go through each worker's own mapping of FD.
 * Before the first submit. */
void ioworkers_view(struct ioworkers *w, int fd, void *base, size_t len);

/* Stage a read of FILE into SLOT (free); it reaches the workers at the next submit. */
void ioworkers_stage(struct ioworkers *w, unsigned slot, unsigned file, void *buf,
		     size_t len, off_t off);

/* Queue what was staged and wake one idle worker. */
void ioworkers_submit(struct ioworkers *w);

/* Wait until SLOT's read is done; its result (bytes or -errno). The slot is free again. */
int64_t ioworkers_wait(struct ioworkers *w, unsigned slot);

/* End the workers (after every wait) and free the pool. */
void ioworkers_stop(struct ioworkers *w);

#endif
