/*
 * probe: the timed loop. Synchronous engines: one slot, two clock reads per
 * read. Asynchronous engines: up to depth slots; a turn refills every free
 * slot, submits the new reads and waits in one system call, with one clock
 * read for the submissions and one for the completions it reaps. Combining
 * engines draw reads through io/combine.h. Steady windows are tallied at the
 * same clock reads; the clock starts after the engine is set up. Nothing is
 * allocated in the loop; buffers sit in huge pages where the kernel allows.
 */
#include "io/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "io/clock.h"
#include "io/combine.h"
#include "io/curve.h"

struct run {
	const struct probe_config *cfg;
	struct engine       eng;
	struct blocks       seq;
	struct combine      comb;          /* ENGINE_COMBINE engines */
	bool                combining;
	unsigned            max_blocks;    /* per read and per slot buffer */
	struct hist        *hist;
	struct engine_io   *ios;
	struct engine_io  **free_ios;      /* unused slots (async) */
	struct engine_io  **done;          /* reaped slots (async) */
	void               *bufs;
	unsigned            nfree;
	uint64_t            issued;        /* blocks */
	uint64_t            completed, completed_blocks;
	uint64_t            start_ns, deadline_ns;   /* deadline 0 = none */
	uint64_t            win_start_ns, win_end_ns, win_start_reads;
	bool                past_deadline;
	struct probe_result *res;          /* windows go straight in */
	enum probe_stage    failed;
	char               *err;
	size_t              errlen;
};

static int probe_failed(struct run *r, enum probe_stage stage, int rc, const char *fmt, ...)
{
	va_list ap;

	r->failed = stage;
	if (r->err && r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static bool may_issue(const struct run *r)
{
	const struct probe_config *c = r->cfg;

	if (c->stop && *c->stop)
		return false;
	if (c->count && r->issued >= c->count)
		return false;
	return !r->past_deadline;
}

/* A window has ended at time t: keep its IOPS, stop when steady. */
static void close_window(struct run *r, uint64_t t)
{
	const struct probe_steady *st = r->cfg->steady;
	struct probe_result *res = r->res;

	res->window_iops[res->nwindows++] = (double)(r->completed - r->win_start_reads) * 1e9 /
					    (double)(t - r->win_start_ns);
	r->win_start_ns = t;
	r->win_start_reads = r->completed;
	while (r->win_end_ns <= t)          /* windows end on a fixed grid from the start */
		r->win_end_ns += st->window_ns;
	if (t - r->start_ns >= st->min_ns &&
	    curve_steady(res->window_iops, res->nwindows, st->windows, st->tolerance)) {
		res->steady = true;
		r->past_deadline = true;
	}
	if (res->nwindows == PROBE_MAX_WINDOWS)
		r->past_deadline = true;
}

/* After a clock read: close a window that ended, stop at the deadline. */
static void check_deadline(struct run *r, uint64_t t)
{
	if (r->cfg->steady && !r->past_deadline && t >= r->win_end_ns)
		close_window(r, t);
	if (r->deadline_ns && t >= r->deadline_ns)
		r->past_deadline = true;
}

/* The next read into a slot: one block, or a run of them when combining. */
static inline void prepare(struct run *r, struct engine_io *io)
{
	uint64_t left = r->cfg->count ? r->cfg->count - r->issued : UINT64_MAX;

	if (r->combining) {
		io->nblocks = combine_next(&r->comb, left < r->max_blocks ? (unsigned)left : r->max_blocks,
					   &io->block, &io->file, &io->offset);
	} else {
		io->block = blocks_next(&r->seq);
		io->nblocks = 1;
		blockmap_locate(r->cfg->map, io->block, &io->file, &io->offset);
	}
	r->issued += io->nblocks;
}

/* Each block of a finished read against the verify callback. */
static int verify(struct run *r, const struct engine_io *io)
{
	const struct probe_config *c = r->cfg;
	uint32_t bs = c->map->block_bytes;

	for (unsigned i = 0; i < io->nblocks; i++)
		if (c->verify((const char *)io->buf + (size_t)i * bs, io->block + i, bs,
			      c->verify_arg) != 0)
			return probe_failed(r, PROBE_FAILED_VERIFY, -EIO,
				    "%s: block %" PRIu64 " does not hold the expected bytes",
				    c->engine->name, io->block + i);
	return 0;
}

/* A read came back at time t: check it, time it, verify it, advise. */
static int finish(struct run *r, struct engine_io *io, uint64_t t)
{
	const struct probe_config *c = r->cfg;
	int64_t want = (int64_t)io->nblocks * c->map->block_bytes;
	int rc;

	if (io->result != want) {
		if (io->result < 0)
			return probe_failed(r, PROBE_FAILED_IO, (int)io->result,
				    "%s: read of block %" PRIu64 " failed: %s",
				    c->engine->name, io->block, strerror((int)-io->result));
		return probe_failed(r, PROBE_FAILED_IO, -EIO,
			    "%s: short read of block %" PRIu64 ": %" PRId64 " of %" PRId64 " bytes",
			    c->engine->name, io->block, io->result, want);
	}
	hist_add(r->hist, t - io->start_ns);
	r->completed++;
	r->completed_blocks += io->nblocks;
	if (c->verify && (rc = verify(r, io)) < 0)
		return rc;
	if (r->eng.ops->advise) {
		int rc = r->eng.ops->advise(&r->eng, io);
		if (rc < 0)
			return probe_failed(r, PROBE_FAILED_IO, rc, "%s: advice failed: %s",
				    c->engine->name, strerror(-rc));
	}
	return 0;
}

static int loop_sync(struct run *r)
{
	struct engine_io *io = &r->ios[0];
	uint64_t t;
	int rc;

	while (may_issue(r)) {
		prepare(r, io);
		io->start_ns = clock_now_ns();
		rc = r->eng.ops->queue(&r->eng, io);
		t = clock_now_ns();
		if (rc < 0)
			return probe_failed(r, PROBE_FAILED_IO, rc, "%s: %s", r->cfg->engine->name,
				    strerror(-rc));
		if ((rc = finish(r, io, t)) < 0)
			return rc;
		check_deadline(r, t);
	}
	return 0;
}

/*
 * Fill every free slot the run may still issue: each read prepared and
 * queued, nothing submitted yet. The slots filled are left just above
 * free_ios[nfree], where turn() stamps them. How many, or -errno.
 */
static int fill(struct run *r)
{
	const struct engine_ops *ops = r->eng.ops;
	int n = 0, rc;

	while (r->nfree > 0 && may_issue(r)) {
		struct engine_io *io = r->free_ios[r->nfree - 1];
		prepare(r, io);
		if ((rc = ops->queue(&r->eng, io)) < 0)
			return probe_failed(r, PROBE_FAILED_IO, rc, "%s: submit: %s",
				    r->cfg->engine->name, strerror(-rc));
		r->nfree--;
		n++;
	}
	return n;
}

/*
 * One system call per turn: the reads just queued are stamped with one
 * clock read and submitted together, and the same call waits for a
 * completion; then every completion ready is reaped and timed with one
 * clock read. A read's latency runs from the call that submitted it to the
 * clock read after the call that reaped it, as before any batching. The
 * number of completions reaped.
 */
static int turn(struct run *r, int queued)
{
	const struct engine_ops *ops = r->eng.ops;
	int rc;

	if (queued) {
		uint64_t t0 = clock_now_ns();
		for (int i = 0; i < queued; i++)
			r->free_ios[r->nfree + (unsigned)i]->start_ns = t0;
	}
	if ((rc = ops->commit(&r->eng, 1)) < 0)
		return probe_failed(r, PROBE_FAILED_IO, rc, "%s: submit and wait: %s",
			    r->cfg->engine->name, strerror(-rc));
	return ops->reap(&r->eng, r->done, r->cfg->depth);
}

/* After a failure, collect what is still in flight before buffers go away. */
static void drain(struct run *r)
{
	int n;

	while (r->nfree < r->cfg->depth) {
		if (r->eng.ops->commit(&r->eng, 1) < 0)
			return;
		n = r->eng.ops->reap(&r->eng, r->done, r->cfg->depth);
		for (int i = 0; i < n; i++)
			r->free_ios[r->nfree++] = r->done[i];
	}
}

static int loop_async(struct run *r)
{
	uint64_t t;
	int rc, n;

	for (;;) {
		if ((n = fill(r)) < 0)
			return n;
		if (r->nfree == r->cfg->depth)
			return 0;                  /* nothing in flight, nothing to issue */
		if ((n = turn(r, n)) < 0)
			return n;
		rc = 0;
		t = clock_now_ns();
		for (int i = 0; i < n; i++) {
			if (rc == 0)
				rc = finish(r, r->done[i], t);
			r->free_ios[r->nfree++] = r->done[i];
		}
		if (rc < 0)
			return rc;
		check_deadline(r, t);
	}
}

/*
 * The slot buffers, zeroed, in transparent huge pages where the kernel
 * allows it (madvise mode or always): a buffer is then physically
 * contiguous and a read one DMA segment, where 4 KiB pages would make an
 * 8 KiB read two (the kernel maps, and the device fills, each segment).
 * Elsewhere they are ordinary pages and nothing else changes. NULL when out
 * of memory.
 */
static void *alloc_bufs(size_t bytes)
{
	const size_t huge = (size_t)2 << 20;
	size_t len = (bytes + huge - 1) & ~(huge - 1);
	void *p;

	if (posix_memalign(&p, huge, len) != 0)
		return NULL;
	(void)madvise(p, len, MADV_HUGEPAGE);   /* a hint: EINVAL without THP */
	memset(p, 0, bytes);
	return p;
}

static int alloc_slots(struct run *r, unsigned depth, uint32_t bs)
{
	size_t slot_bytes = (size_t)r->max_blocks * bs;

	r->hist = malloc(sizeof(*r->hist));
	r->ios = calloc(depth, sizeof(*r->ios));
	r->free_ios = calloc(depth, sizeof(*r->free_ios));
	r->done = calloc(depth, sizeof(*r->done));
	if (r->hist && r->ios && r->free_ios && r->done)
		r->bufs = alloc_bufs(depth * slot_bytes);
	if (!r->bufs)
		return probe_failed(r, PROBE_FAILED_SETUP, -ENOMEM, "out of memory for %u slots", depth);
	hist_init(r->hist);
	for (unsigned i = 0; i < depth; i++) {
		r->ios[i] = (struct engine_io){
			.slot = i, .nblocks = 1, .buf = (char *)r->bufs + i * slot_bytes,
		};
		r->free_ios[i] = &r->ios[depth - 1 - i];
	}
	r->nfree = depth;
	return 0;
}

static void free_slots(struct run *r)
{
	free(r->hist);
	free(r->ios);
	free(r->free_ios);
	free(r->done);
	free(r->bufs);
}

static int check_config(struct run *r)
{
	const struct probe_config *c = r->cfg;

	if (!c->engine || !c->map || c->map->nblocks == 0)
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL, "no engine or no blocks");
	if (c->depth < 1 || c->depth > PROBE_MAX_DEPTH ||
	    (c->engine->max_depth && c->depth > c->engine->max_depth))
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL, "depth %u is outside 1..%u",
			    c->depth, PROBE_MAX_DEPTH);
	if (c->count == 0 && c->duration_ns == 0)
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL, "neither a count nor a duration");
	if (c->combine > PROBE_MAX_COMBINE)
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL, "combine %u is outside 1..%u",
			    c->combine, PROBE_MAX_COMBINE);
	if ((uint64_t)c->depth * r->max_blocks * c->map->block_bytes > PROBE_MAX_BUF_BYTES)
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL,
			    "depth %u x %u blocks of %u bytes is more than %u MiB of buffers",
			    c->depth, r->max_blocks, c->map->block_bytes, PROBE_MAX_BUF_BYTES >> 20);
	if (c->steady && (!c->duration_ns || !c->steady->window_ns || !c->steady->windows ||
			  c->duration_ns / c->steady->window_ns > PROBE_MAX_WINDOWS))
		return probe_failed(r, PROBE_FAILED_SETUP, -EINVAL,
			    "a steady rule needs a duration of at most %u windows", PROBE_MAX_WINDOWS);
	return 0;
}

static int start_engine(struct run *r)
{
	const struct probe_config *c = r->cfg;
	int rc;

	r->eng = (struct engine){
		.ops = c->engine,
		.setup = {
			.map = c->map, .seq = &c->seq, .limit = c->count,
			.depth = c->depth, .max_blocks = r->max_blocks,
			.block_bytes = c->map->block_bytes, .ios = r->ios,
		},
	};
	if (r->combining)
		combine_init(&r->comb, &r->seq, c->map, r->max_blocks);
	if (!c->engine->init)
		return 0;
	rc = c->engine->init(&r->eng);
	if (rc < 0)
		return probe_failed(r, PROBE_FAILED_ENGINE_INIT, rc, "%s: cannot start: %s",
			    c->engine->name, strerror(-rc));
	return 0;
}

static double tv_us(struct timeval a, struct timeval b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_usec - a.tv_usec);
}

struct snap {
	uint64_t         t_ns;
	struct rusage    ru;
	struct disk_snap disk;
	bool             have_disk;
};

static void take_snap(const struct probe_config *c, struct snap *s)
{
	s->have_disk = c->disk_name && c->disk_name[0] &&
		       sysstat_disk_read_file(c->disk_file, c->disk_name, &s->disk) == 0;
	getrusage(RUSAGE_SELF, &s->ru);
	s->t_ns = clock_now_ns();
}

static void summarize(const struct run *r, const struct snap *a,
		      const struct snap *b, struct probe_result *res)
{
	const struct probe_config *c = r->cfg;
	double ios = (double)r->completed;

	res->ios = r->completed;
	res->blocks = r->completed_blocks;
	res->bytes = r->completed_blocks * c->map->block_bytes;
	res->elapsed_s = (double)(b->t_ns - a->t_ns) / 1e9;
	hist_summarize(r->hist, &res->lat);
	if (res->elapsed_s > 0) {
		res->iops = ios / res->elapsed_s;
		res->mib_s = (double)res->bytes / 1048576.0 / res->elapsed_s;
		res->inflight = res->lat.mean_ns * ios / 1e9 / res->elapsed_s;
	}
	if (ios > 0) {
		res->cpu_user_us_per_io = tv_us(a->ru.ru_utime, b->ru.ru_utime) / ios;
		res->cpu_sys_us_per_io = tv_us(a->ru.ru_stime, b->ru.ru_stime) / ios;
		res->sleeps_per_io = (double)(b->ru.ru_nvcsw - a->ru.ru_nvcsw) / ios;
		res->preemptions_per_io = (double)(b->ru.ru_nivcsw - a->ru.ru_nivcsw) / ios;
	}
	res->have_disk = a->have_disk && b->have_disk;
	if (res->have_disk)
		sysstat_disk_diff(&a->disk, &b->disk, &res->disk);
	res->stopped = c->stop && *c->stop;
}

static int run_loop(struct run *r, struct probe_result *res)
{
	const struct probe_config *c = r->cfg;
	struct snap a, b;
	int rc;

	take_snap(c, &a);
	r->start_ns = r->win_start_ns = a.t_ns;
	if (c->steady)
		r->win_end_ns = a.t_ns + c->steady->window_ns;
	if (c->duration_ns)
		r->deadline_ns = a.t_ns + c->duration_ns;
	if (c->engine->flags & ENGINE_SYNC) {
		rc = loop_sync(r);
	} else {
		rc = loop_async(r);
		if (rc < 0)
			drain(r);
	}
	take_snap(c, &b);
	summarize(r, &a, &b, res);
	return rc;
}

int probe_run(const struct probe_config *cfg, struct probe_result *res,
	      char *err, size_t errlen)
{
	struct run r = {
		.cfg = cfg, .seq = cfg->seq, .err = err, .errlen = errlen, .res = res,
		.combining = cfg->engine && (cfg->engine->flags & ENGINE_COMBINE) && cfg->combine > 1,
	};
	int rc;

	r.max_blocks = r.combining ? cfg->combine : 1;
	memset(res, 0, offsetof(struct probe_result, window_iops));
	res->engine = cfg->engine ? cfg->engine->name : "";
	res->depth = cfg->depth;
	res->combine = r.max_blocks;
	res->block_bytes = cfg->map ? cfg->map->block_bytes : 0;
	res->direct = cfg->map && (cfg->map->open_flags & O_DIRECT);
	res->steady_mode = cfg->steady != NULL;
	rc = check_config(&r);
	if (rc == 0)
		rc = alloc_slots(&r, cfg->depth, cfg->map->block_bytes);
	if (rc == 0)
		rc = start_engine(&r);
	if (rc == 0) {
		rc = run_loop(&r, res);
		if (cfg->engine->cleanup)
			cfg->engine->cleanup(&r.eng);
	}
	free_slots(&r);
	res->failed = r.failed;
	return rc;
}
