/*
 * replay: the scan of bitmapscan.h (up to 17) or readstream.h (18) carried
 * out on the relation's files, per io_method, with the backend's work spun
 * after each page; see replay.h. Everything is set up (buffers, ring, worker
 * threads) before the clock starts; the device and the thread's CPU are
 * read just around the scan.
 */
#include "io/engines/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/engines/heappage.h"
#include "io/engines/ioworkers.h"
#include "io/engines/pagesum.h"
#include "io/file.h"

struct replay {
	const struct replay_config *cfg;
	struct replay_result *res;
	char     *bufs;                /* nslots + 1 buffers of slot_bytes: one for each read in
					  flight and one for the pages being worked on */
	uint64_t  started;             /* 18: reads started, which buffer the next one takes */
	size_t    slot_bytes;
	char     *pool;                /* pool_blocks blocks of fresh shared memory, or NULL */
	int       pool_fd;             /* the shared memory file behind it, or -1 */
	uint64_t  pool_next;           /* the next pool block a read takes */
	char    **slot_ptr;            /* where each slot's read goes */
	const char **page_at;          /* where each page's block was read to, or NULL */
	char    **paths;               /* worker: the files, for the workers' own descriptors */
	unsigned  nslots;              /* reads in flight at most */
	unsigned  head, count;         /* the ring of reads in flight, oldest first */
	bool     *sync_done;           /* slot: read synchronously when started */
	struct io_uring ring;
	bool      have_ring;
	unsigned  staged;              /* io_uring: queued, not yet submitted */
	unsigned  unreaped;            /* io_uring: queued or submitted, completion not reaped */
	unsigned  ring_entries;        /* io_uring: the ring's size, the most unreaped at once */
	bool     *ring_done;
	int64_t  *ring_res;            /* io_uring: each slot's result, once done */
	struct ioworkers workers;
	bool      have_workers;
	char     *err;
	size_t    errlen;
};

const char *replay_model_name(enum replay_model m)
{
	return m == REPLAY_PG18 ? "18" : "13-17";
}

static const char *const method_names[] = { "sync", "io_uring", "worker" };

const char *replay_method_name(enum replay_method m)
{
	return (unsigned)m < 3 ? method_names[m] : "?";
}

int replay_method_find(const char *name, enum replay_method *out)
{
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(name, method_names[i])) {
			*out = (enum replay_method)i;
			return 0;
		}
	return -EINVAL;
}

static int replay_failed(struct replay *r, int rc, const char *what, size_t idx)
{
	snprintf(r->err, r->errlen, "%s of page %zu (block %" PRIu64 "): %s", what, idx,
		 r->cfg->pages[idx].block, strerror(rc < 0 ? -rc : rc));
	return rc < 0 ? rc : -rc;
}

/* File descriptor and offset of page IDX's block. */
static int where(const struct replay *r, size_t idx, off_t *off)
{
	unsigned file;

	blockmap_locate(r->cfg->map, r->cfg->pages[idx].block, &file, off);
	return r->cfg->map->files[file].fd;
}

/* On 18 with checksums: the completing thread's verification of BUF. */
static void verify(struct replay *r, const void *buf, size_t len)
{
	if (r->cfg->verify_blocks && r->cfg->model == REPLAY_PG18)
		r->res->sums += pagesum(buf, len, r->cfg->map->block_bytes);
}

/*
 * Write LEN bytes at BUF through the kernel and then from this process, as
 * the index phase's reads wrote the server's buffers and its scan read
 * them: on some virtual machines the first touch of a page by the kernel
 * and the first by the process each cost a fault of their own (346 MiB
 * read into 128 MiB of buffers: 190 ms of system time after a memset
 * alone, 29 ms after the kernel's write; docs/measured.md, 2026-12-06,
 * evening). The kernel's zeros come from /dev/zero (a memset where it
 * cannot be read).
 */
static void touch_both(char *buf, size_t len)
{
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	size_t done = 0;

	while (fd >= 0 && done < len) {
		ssize_t k = read(fd, buf + done, len - done < (1u << 20) ? len - done : (1u << 20));

		if (k <= 0)
			break;
		done += (size_t)k;
	}
	if (fd >= 0)
		close(fd);
	memset(buf, 0, len);
}

/* One pread(2) of N blocks from page IDX, whole, into BUF; timed as a wait. */
static int read_now(struct replay *r, size_t idx, unsigned n, char *buf)
{
	size_t want = (size_t)n * r->cfg->map->block_bytes;
	uint64_t t0 = clock_now_ns();
	off_t off;
	int fd = where(r, idx, &off);
	ssize_t k = file_pread_full(fd, buf, want, off);

	if (k != (ssize_t)want)
		return replay_failed(r, k < 0 ? (int)k : -EIO, k < 0 ? "read" : "short read", idx);
	verify(r, buf, want);
	r->res->wait_ms += (double)(clock_now_ns() - t0) / 1e6;
	r->res->reads++;
	r->res->read_blocks += n;
	return 0;
}

/* POSIX_FADV_WILLNEED for N blocks from page IDX; timed. */
static int advise(struct replay *r, size_t idx, unsigned n)
{
	uint64_t t0 = clock_now_ns();
	off_t off;
	int fd = where(r, idx, &off);
	int rc = posix_fadvise(fd, off, (off_t)n * r->cfg->map->block_bytes, POSIX_FADV_WILLNEED);

	r->res->advise_ms += (double)(clock_now_ns() - t0) / 1e6;
	r->res->advices++;
	return rc ? replay_failed(r, -rc, "advice", idx) : 0;
}

/* The backend's work on page IDX: its tuples read where the block was read
 * to (heappage.h), then the rest of its share spun on the CPU. */
static int work(void *arg, size_t idx)
{
	struct replay *r = arg;
	uint64_t t0 = clock_now_ns(), t, end = t0 + r->cfg->work_ns_per_page +
		(uint64_t)(r->cfg->work_ns_per_tuple * r->cfg->pages[idx].ntuples);

	if (r->page_at[idx])
		heappage_walk(r->page_at[idx], r->cfg->map->block_bytes, r->cfg->pages[idx].ntuples,
			      r->cfg->pages[idx].lossy, &r->res->walk);
	t = clock_now_ns();
	while (t < end)
		t = clock_now_ns();
	r->res->work_ms += (double)(t - t0) / 1e6;
	return 0;
}

/* ---- up to 17 ---- */

/* Where a read of N blocks goes: the next N blocks of the pool, as a
 * restarted server hands out its free buffers in order and then sweeps
 * them round; without a pool, the slot's own buffer. */
static char *dest(struct replay *r, unsigned n, char *slot)
{
	uint64_t b;

	if (!r->pool)
		return slot;
	if (r->pool_next % r->cfg->pool_blocks + n > r->cfg->pool_blocks)
		r->pool_next += r->cfg->pool_blocks - r->pool_next % r->cfg->pool_blocks;
	b = r->pool_next % r->cfg->pool_blocks;
	r->pool_next += n;
	return r->pool + b * r->cfg->map->block_bytes;
}

static int read17(void *arg, size_t idx)
{
	struct replay *r = arg;

	char *buf = dest(r, 1, r->bufs);

	r->page_at[idx] = buf;
	return read_now(r, idx, 1, buf);
}

static int advise17(void *arg, size_t idx)
{
	return advise(arg, idx, 1);
}

static const struct scan17_ops ops17 = { .read = read17, .advise = advise17, .work = work };

/* ---- 18: the reads in flight, oldest first ---- */

static unsigned push_slot(struct replay *r)
{
	unsigned slot = (r->head + r->count) % r->nslots;

	r->count++;
	return slot;
}

static unsigned pop_slot(struct replay *r)
{
	unsigned slot = r->head;

	r->head = (r->head + 1) % r->nslots;
	r->count--;
	return slot;
}

static char *slot_buf(const struct replay *r, unsigned slot)
{
	return r->slot_ptr[slot];
}

static int submit_ring(struct replay *r)
{
	int rc;

	if (!r->staged)
		return 0;
	do
		rc = io_uring_submit(&r->ring);
	while (rc == -EINTR);
	if (rc < 0) {
		snprintf(r->err, r->errlen, "io_uring submit: %s", strerror(-rc));
		return rc;
	}
	r->staged = 0;
	return 0;
}

/* Submit what is queued, wait for a completion if the ring has none, and
 * reap every completion the ring held when the wait ended, as a backend
 * drains its ring whenever it waits for one of its reads. */
static int reap_ring(struct replay *r, size_t idx)
{
	struct io_uring_cqe *cqe, *batch[REPLAY_SUBMIT_BATCH];
	int rc = submit_ring(r);
	unsigned ready;

	if (rc == 0 && !io_uring_cq_ready(&r->ring))
		do
			rc = io_uring_wait_cqe(&r->ring, &cqe);
		while (rc == -EINTR);
	if (rc < 0)
		return replay_failed(r, rc, "io_uring wait", idx);
	for (ready = io_uring_cq_ready(&r->ring); ready > 0;) {
		unsigned n = io_uring_peek_batch_cqe(&r->ring, batch, ready < REPLAY_SUBMIT_BATCH ?
						     ready : REPLAY_SUBMIT_BATCH);

		if (n == 0)
			break;
		for (unsigned i = 0; i < n; i++) {
			unsigned done = (unsigned)io_uring_cqe_get_data64(batch[i]);

			r->ring_res[done] = batch[i]->res;
			r->ring_done[done] = true;
		}
		io_uring_cq_advance(&r->ring, n);
		r->unreaped -= n;
		ready -= n;
	}
	return 0;
}

/* Reap completions until SLOT's has come; its result. */
static int reap_until(struct replay *r, unsigned slot, size_t idx, size_t want)
{
	int rc;

	while (!r->ring_done[slot])
		if ((rc = reap_ring(r, idx)) < 0)
			return rc;
	if (r->ring_res[slot] == (int64_t)want)
		return 0;
	return replay_failed(r, r->ring_res[slot] < 0 ? (int)r->ring_res[slot] : -EIO, "read", idx);
}

static int start18(void *arg, size_t idx, unsigned n, bool advice, bool synchronous)
{
	struct replay *r = arg;
	unsigned slot = push_slot(r);
	struct io_uring_sqe *sqe;
	off_t off;
	int fd;

	r->sync_done[slot] = false;
	r->slot_ptr[slot] = dest(r, n, r->bufs + (size_t)(r->started++ % (r->nslots + 1)) * r->slot_bytes);
	for (size_t j = idx; j < r->cfg->npages && r->cfg->pages[j].block - r->cfg->pages[idx].block < n; j++)
		r->page_at[j] = r->slot_ptr[slot] + (r->cfg->pages[j].block - r->cfg->pages[idx].block) *
							r->cfg->map->block_bytes;
	if (r->cfg->method == REPLAY_SYNC)
		return advice ? advise(r, idx, n) : 0;	/* the read comes when the consumer waits */
	if (synchronous) {
		r->sync_done[slot] = true;
		return read_now(r, idx, n, slot_buf(r, slot));
	}
	fd = where(r, idx, &off);
	r->res->reads++;
	r->res->read_blocks += n;
	if (r->cfg->method == REPLAY_WORKER) {
		unsigned file;

		blockmap_locate(r->cfg->map, r->cfg->pages[idx].block, &file, &off);
		ioworkers_stage(&r->workers, slot, file, slot_buf(r, slot),
				(size_t)n * r->cfg->map->block_bytes, off);
		return 0;
	}
	/* A backend has io_max_concurrency handles for its reads: with all of
	 * them unreaped it waits for one to come back. */
	while (r->unreaped >= r->ring_entries) {
		int rc = reap_ring(r, idx);
		if (rc < 0)
			return rc;
	}
	if (!(sqe = io_uring_get_sqe(&r->ring))) {
		int rc = submit_ring(r);
		if (rc < 0 || !(sqe = io_uring_get_sqe(&r->ring)))
			return rc < 0 ? rc : replay_failed(r, -EBUSY, "io_uring queue", idx);
	}
	r->ring_done[slot] = false;
	io_uring_prep_read(sqe, fd, slot_buf(r, slot), n * r->cfg->map->block_bytes, (uint64_t)off);
	io_uring_sqe_set_data64(sqe, slot);
	if (r->unreaped++ > REPLAY_URING_INLINE) {	/* PostgreSQL 18's method_io_uring.c */
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
		r->res->async_reads++;
	}
	if (r->unreaped > r->res->ring_max_unreaped)
		r->res->ring_max_unreaped = r->unreaped;
	return ++r->staged == REPLAY_SUBMIT_BATCH ? submit_ring(r) : 0;
}

static int submit18(void *arg)
{
	struct replay *r = arg;

	if (r->cfg->method == REPLAY_WORKER)
		ioworkers_submit(&r->workers);
	else if (r->cfg->method == REPLAY_IO_URING)
		return submit_ring(r);
	return 0;
}

static int wait18(void *arg, size_t idx, unsigned n)
{
	struct replay *r = arg;
	unsigned slot = pop_slot(r);
	size_t want = (size_t)n * r->cfg->map->block_bytes;
	uint64_t t0;
	int rc = 0;

	if (r->cfg->method == REPLAY_SYNC)
		return read_now(r, idx, n, slot_buf(r, slot));
	if (r->sync_done[slot])
		return 0;
	t0 = clock_now_ns();
	if (r->cfg->method == REPLAY_WORKER) {
		int64_t got = ioworkers_wait(&r->workers, slot);
		if (got != (int64_t)want)
			rc = replay_failed(r, got < 0 ? (int)got : -EIO, "read", idx);
	} else {
		rc = reap_until(r, slot, idx, want);
		if (rc == 0)
			verify(r, slot_buf(r, slot), want);
	}
	r->res->wait_ms += (double)(clock_now_ns() - t0) / 1e6;
	return rc;
}

static const struct readstream_ops ops18 = {
	.start = start18, .wait = wait18, .submit = submit18, .work = work,
};

static void stream_cfg(const struct replay_config *c, struct readstream_cfg *s)
{
	*s = (struct readstream_cfg){
		.max_ios = c->eic, .combine_limit = c->combine_limit ? c->combine_limit : 1,
		.pin_limit = c->pin_limit, .seg_blocks = (unsigned)c->map->uniform_blocks,
		.advice = c->method == REPLAY_SYNC && c->eic > 0,
	};
}

/* ---- setup, measuring, the run ---- */

static int check(const struct replay_config *c, char *err, size_t errlen)
{
	if (!c->map || !c->pages || !c->npages)
		snprintf(err, errlen, "no pages to replay");
	else if (c->model == REPLAY_PG18 && (c->combine_limit < 1 || c->combine_limit > 128))
		snprintf(err, errlen, "io_combine_limit %u blocks is outside 1..128", c->combine_limit);
	else if (c->model == REPLAY_PG18 && c->method == REPLAY_WORKER &&
		 (c->io_workers < 1 || c->io_workers > REPLAY_MAX_WORKERS))
		snprintf(err, errlen, "io_workers %u is outside 1..%d", c->io_workers, REPLAY_MAX_WORKERS);
	else if (c->eic > 1000)
		snprintf(err, errlen, "effective_io_concurrency %u is outside 0..1000", c->eic);
	else {
		for (size_t i = 0; i < c->npages; i++)
			if (c->pages[i].block >= c->map->nblocks) {
				snprintf(err, errlen, "page %zu: block %" PRIu64 " is past the relation's %" PRIu64 " blocks",
					 i, c->pages[i].block, c->map->nblocks);
				return -EINVAL;
			}
		return 0;
	}
	return -EINVAL;
}

static int setup(struct replay *r)
{
	const struct replay_config *c = r->cfg;
	struct readstream_cfg sc;
	int rc;

	stream_cfg(c, &sc);
	r->nslots = 1;
	r->slot_bytes = c->map->block_bytes;
	if (c->model == REPLAY_PG18) {
		unsigned ios = c->eic ? c->eic : 1, pins = readstream_max_pinned(&sc);
		r->nslots = ios < pins ? ios : pins;
		r->slot_bytes = (size_t)sc.combine_limit * c->map->block_bytes;
	}
	r->bufs = aligned_alloc(4096, (r->nslots + 1) * r->slot_bytes);
	r->sync_done = calloc(r->nslots, sizeof(bool));
	r->ring_done = calloc(r->nslots, sizeof(bool));
	r->ring_res = calloc(r->nslots, sizeof(int64_t));
	r->slot_ptr = calloc(r->nslots, sizeof(char *));
	r->page_at = calloc(c->npages ? c->npages : 1, sizeof(char *));
	if (c->pool_blocks) {
		/* a file, so that each I/O worker can map it for itself */
		size_t bytes = (size_t)c->pool_blocks * c->map->block_bytes;

		r->pool_fd = memfd_create("eicbench-replay-buffers", MFD_CLOEXEC);
		if (r->pool_fd < 0 || ftruncate(r->pool_fd, (off_t)bytes) < 0 ||
		    (r->pool = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, r->pool_fd, 0)) == MAP_FAILED) {
			r->pool = NULL;
			return snprintf(r->err, r->errlen, "cannot map %u blocks of shared memory: %s",
					c->pool_blocks, strerror(errno)), -errno;
		}
		/* The buffers the index phase used hold its pages already: the
		 * reads start after them and reach them once round the pool.
		 * Only those the reads will take are written (NEED bounds the
		 * blocks they take, skips at the wrap included), so a large
		 * shared_buffers costs no more than the scan. */
		uint64_t touched = c->pool_touched < c->pool_blocks ? c->pool_touched : c->pool_blocks,
			 need = c->npages + (uint64_t)c->combine_limit * (c->npages / c->pool_blocks + 1);

		touch_both(r->pool, (size_t)(touched < need ? touched : need) * c->map->block_bytes);
		r->pool_next = touched < c->pool_blocks ? touched : 0;
	}
	if (!r->bufs || !r->sync_done || !r->ring_done || !r->ring_res || !r->slot_ptr || !r->page_at)
		return snprintf(r->err, r->errlen, "out of memory for %u reads", r->nslots), -ENOMEM;
	if (c->model != REPLAY_PG18 || c->eic == 0)
		return 0;
	if (c->method == REPLAY_IO_URING) {
		r->ring_entries = c->ring_entries ? c->ring_entries : r->nslots;
		if ((rc = io_uring_queue_init(r->ring_entries, &r->ring, 0)) < 0)
			return snprintf(r->err, r->errlen, "io_uring cannot start: %s", strerror(-rc)), rc;
		r->have_ring = true;
	} else if (c->method == REPLAY_WORKER) {
		if (!(r->paths = calloc(c->map->nfiles, sizeof(char *))))
			return snprintf(r->err, r->errlen, "out of memory"), -ENOMEM;
		for (unsigned i = 0; i < c->map->nfiles; i++)
			r->paths[i] = c->map->files[i].path;
		if ((rc = ioworkers_start(&r->workers, (const char *const *)r->paths, c->map->nfiles,
					  c->io_workers, r->nslots,
					  c->verify_blocks ? c->map->block_bytes : 0)) < 0)
			return snprintf(r->err, r->errlen, "cannot start %u I/O worker threads: %s",
					c->io_workers, strerror(-rc)), rc;
		r->have_workers = true;
		if (r->pool)
			ioworkers_view(&r->workers, r->pool_fd, r->pool,
				       (size_t)c->pool_blocks * c->map->block_bytes);
	}
	return 0;
}

static void teardown(struct replay *r)
{
	if (r->have_ring)
		io_uring_queue_exit(&r->ring);
	if (r->have_workers) {
		r->res->sums += r->workers.sums;
		ioworkers_stop(&r->workers);
		r->res->workers_cpu_ms = r->workers.cpu_ms;
	}
	if (r->pool)
		munmap(r->pool, (size_t)r->cfg->pool_blocks * r->cfg->map->block_bytes);
	if (r->pool_fd >= 0)
		close(r->pool_fd);
	free(r->slot_ptr);
	free(r->page_at);
	free(r->paths);
	free(r->bufs);
	free(r->sync_done);
	free(r->ring_done);
	free(r->ring_res);
}

struct snap {
	uint64_t         t_ns;
	struct rusage    ru;
	struct sched_snap sched;
	bool             have_sched, have_disk;
	struct disk_snap disk;
};

static void take(const struct replay_config *c, struct snap *s)
{
	s->have_disk = c->disk_name && c->disk_name[0] && sysstat_disk_read_file(c->disk_file, c->disk_name, &s->disk) == 0;
	s->have_sched = sysstat_sched_read(0, &s->sched) == 0;
	getrusage(RUSAGE_THREAD, &s->ru);
	s->t_ns = clock_now_ns();
}

static double tv_ms(struct timeval a, struct timeval b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_usec - a.tv_usec) / 1e3;
}

static void measure(const struct snap *a, const struct snap *b, struct replay_result *res)
{
	res->elapsed_ms = (double)(b->t_ns - a->t_ns) / 1e6;
	res->user_ms = tv_ms(a->ru.ru_utime, b->ru.ru_utime);
	res->system_ms = tv_ms(a->ru.ru_stime, b->ru.ru_stime);
	res->minor_faults = (uint64_t)(b->ru.ru_minflt - a->ru.ru_minflt);
	res->have_schedstat = a->have_sched && b->have_sched;
	if (res->have_schedstat) {
		res->oncpu_ms = (double)(b->sched.oncpu_ns - a->sched.oncpu_ns) / 1e6;
		res->runqueue_ms = (double)(b->sched.runqueue_ns - a->sched.runqueue_ns) / 1e6;
	}
	res->have_disk = a->have_disk && b->have_disk;
	if (res->have_disk)
		sysstat_disk_diff(&a->disk, &b->disk, &res->disk);
}

/* After a failure or a stop: submit what is queued and reap every read
 * still in flight, since the ring's exit does not wait for them and they
 * would land in buffers about to be freed. Quiet: the first error stays
 * the one reported. */
static void drain_ring(struct replay *r)
{
	struct io_uring_cqe *cqe;
	int rc;

	if (r->staged) {
		do
			rc = io_uring_submit(&r->ring);
		while (rc == -EINTR);
		if (rc < 0)
			return;
		r->staged = 0;
	}
	while (r->unreaped > 0) {
		do
			rc = io_uring_wait_cqe(&r->ring, &cqe);
		while (rc == -EINTR);
		if (rc < 0)
			return;
		io_uring_cqe_seen(&r->ring, cqe);
		r->unreaped--;
	}
}

int replay_run(const struct replay_config *cfg, struct replay_result *res,
	       char *err, size_t errlen)
{
	struct replay r = { .cfg = cfg, .res = res, .err = err, .errlen = errlen, .pool_fd = -1 };
	struct readstream_cfg sc;
	struct snap a, b;
	int rc;

	memset(res, 0, sizeof(*res));
	if ((rc = check(cfg, err, errlen)) < 0)
		return rc;
	if ((rc = setup(&r)) == 0) {
		take(cfg, &a);
		if (cfg->model == REPLAY_PG18) {
			stream_cfg(cfg, &sc);
			rc = readstream_run(cfg->pages, cfg->npages, &sc, &ops18, &r, cfg->stop, &res->stream);
		} else {
			rc = bitmapscan17_run(cfg->pages, cfg->npages, (int)cfg->eic, &ops17, &r, cfg->stop);
		}
		take(cfg, &b);
		measure(&a, &b, res);
		if (rc < 0 && r.have_ring)
			drain_ring(&r);
	}
	if (r.have_workers && rc < 0)	/* reads still queued finish before the pool ends */
		while (r.count > 0)
			(void)ioworkers_wait(&r.workers, pop_slot(&r));
	teardown(&r);
	res->stopped = rc == -EINTR;
	if (rc == -EINTR)
		snprintf(err, errlen, "interrupted");
	return rc;
}
