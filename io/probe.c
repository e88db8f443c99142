/*
 * probe: the timed loop. Synchronous engines: one slot, two clock reads per
 * read. Asynchronous engines: up to depth slots in flight, each read
 * submitted as its slot frees, completions reaped in batches with one clock
 * read per batch. The clock starts after the engine is set up; nothing is
 * allocated in the loop.
 */
#include "io/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "io/clock.h"

struct run {
	const struct probe_config *cfg;
	struct engine       eng;
	struct blocks       seq;
	struct hist        *hist;
	struct engine_io   *ios;
	struct engine_io  **free_ios;      /* unused slots (async) */
	struct engine_io  **done;          /* reaped slots (async) */
	void               *bufs;
	unsigned            nfree;
	uint64_t            issued, completed;
	uint64_t            deadline_ns;   /* 0 = none */
	bool                past_deadline;
	enum probe_stage    failed;
	char               *err;
	size_t              errlen;
};

static int fail(struct run *r, enum probe_stage stage, int rc, const char *fmt, ...)
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

static void check_deadline(struct run *r, uint64_t t)
{
	if (r->deadline_ns && t >= r->deadline_ns)
		r->past_deadline = true;
}

/* Next block of the sequence into a slot. */
static inline void prepare(struct run *r, struct engine_io *io)
{
	io->block = blocks_next(&r->seq);
	blockmap_locate(r->cfg->map, io->block, &io->file, &io->offset);
	r->issued++;
}

/* A read came back at time t: check it, time it, verify it, advise. */
static int finish(struct run *r, struct engine_io *io, uint64_t t)
{
	const struct probe_config *c = r->cfg;
	uint32_t bs = c->map->block_bytes;

	if (io->result != (int64_t)bs) {
		if (io->result < 0)
			return fail(r, PROBE_FAILED_IO, (int)io->result,
				    "%s: read of block %" PRIu64 " failed: %s",
				    c->engine->name, io->block, strerror((int)-io->result));
		return fail(r, PROBE_FAILED_IO, -EIO,
			    "%s: short read of block %" PRIu64 ": %" PRId64 " of %u bytes",
			    c->engine->name, io->block, io->result, bs);
	}
	hist_add(r->hist, t - io->start_ns);
	r->completed++;
	if (c->verify && c->verify(io->buf, io->block, bs, c->verify_arg) != 0)
		return fail(r, PROBE_FAILED_VERIFY, -EIO,
			    "%s: block %" PRIu64 " does not hold the expected bytes",
			    c->engine->name, io->block);
	if (r->eng.ops->advise) {
		int rc = r->eng.ops->advise(&r->eng, io);
		if (rc < 0)
			return fail(r, PROBE_FAILED_IO, rc, "%s: advice failed: %s",
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
			return fail(r, PROBE_FAILED_IO, rc, "%s: %s", r->cfg->engine->name,
				    strerror(-rc));
		if ((rc = finish(r, io, t)) < 0)
			return rc;
		check_deadline(r, t);
	}
	return 0;
}

/*
 * Submit each read as soon as its slot is free, one commit per read, as fio
 * does by default: batching the refill makes the device see convoys (a
 * virtio disk then completes them together and IOPS drop ~10%). The commit
 * that fills the last slot also waits for a completion.
 */
static int issue(struct run *r)
{
	const struct engine_ops *ops = r->eng.ops;
	int rc;

	while (r->nfree > 0 && may_issue(r)) {
		struct engine_io *io = r->free_ios[--r->nfree];
		prepare(r, io);
		io->start_ns = clock_now_ns();
		if ((rc = ops->queue(&r->eng, io)) < 0)
			r->free_ios[r->nfree++] = io;	/* not in flight: drain must not wait for it */
		else
			rc = ops->commit(&r->eng, r->nfree == 0);
		if (rc < 0)
			return fail(r, PROBE_FAILED_IO, rc, "%s: submit: %s",
				    r->cfg->engine->name, strerror(-rc));
	}
	return 0;
}

/* Completions into done[], waiting for one when none is ready. */
static int collect(struct run *r)
{
	const struct engine_ops *ops = r->eng.ops;
	int n = ops->reap(&r->eng, r->done, r->cfg->depth), rc;

	if (n > 0)
		return n;
	if ((rc = ops->commit(&r->eng, 1)) < 0)
		return fail(r, PROBE_FAILED_IO, rc, "%s: wait: %s",
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
		if ((rc = issue(r)) < 0)
			return rc;
		if (r->nfree == r->cfg->depth)
			return 0;                  /* nothing in flight, nothing to issue */
		if ((n = collect(r)) < 0)
			return n;
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

static int alloc_slots(struct run *r, unsigned depth, uint32_t bs)
{
	r->hist = malloc(sizeof(*r->hist));
	r->ios = calloc(depth, sizeof(*r->ios));
	r->free_ios = calloc(depth, sizeof(*r->free_ios));
	r->done = calloc(depth, sizeof(*r->done));
	if (!r->hist || !r->ios || !r->free_ios || !r->done ||
	    posix_memalign(&r->bufs, 4096, (size_t)depth * bs) != 0) {
		r->bufs = NULL;
		return fail(r, PROBE_FAILED_SETUP, -ENOMEM, "out of memory for %u slots", depth);
	}
	hist_init(r->hist);
	memset(r->bufs, 0, (size_t)depth * bs);
	for (unsigned i = 0; i < depth; i++) {
		r->ios[i] = (struct engine_io){ .slot = i, .buf = (char *)r->bufs + (size_t)i * bs };
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
		return fail(r, PROBE_FAILED_SETUP, -EINVAL, "no engine or no blocks");
	if (c->depth < 1 || c->depth > PROBE_MAX_DEPTH ||
	    (c->engine->max_depth && c->depth > c->engine->max_depth))
		return fail(r, PROBE_FAILED_SETUP, -EINVAL, "depth %u is outside 1..%u",
			    c->depth, PROBE_MAX_DEPTH);
	if (c->count == 0 && c->duration_ns == 0)
		return fail(r, PROBE_FAILED_SETUP, -EINVAL, "neither a count nor a duration");
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
			.depth = c->depth, .block_bytes = c->map->block_bytes, .ios = r->ios,
		},
	};
	if (!c->engine->init)
		return 0;
	rc = c->engine->init(&r->eng);
	if (rc < 0)
		return fail(r, PROBE_FAILED_ENGINE_INIT, rc, "%s: cannot start: %s",
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
		       sysstat_disk_read(c->disk_name, &s->disk) == 0;
	getrusage(RUSAGE_SELF, &s->ru);
	s->t_ns = clock_now_ns();
}

static void summarize(const struct run *r, const struct snap *a,
		      const struct snap *b, struct probe_result *res)
{
	const struct probe_config *c = r->cfg;
	double ios = (double)r->completed;

	res->ios = r->completed;
	res->bytes = r->completed * c->map->block_bytes;
	res->elapsed_s = (double)(b->t_ns - a->t_ns) / 1e9;
	if (res->elapsed_s > 0) {
		res->iops = ios / res->elapsed_s;
		res->mib_s = (double)res->bytes / 1048576.0 / res->elapsed_s;
	}
	hist_summarize(r->hist, &res->lat);
	if (ios > 0) {
		res->cpu_user_us_per_io = tv_us(a->ru.ru_utime, b->ru.ru_utime) / ios;
		res->cpu_sys_us_per_io = tv_us(a->ru.ru_stime, b->ru.ru_stime) / ios;
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
	struct run r = { .cfg = cfg, .seq = cfg->seq, .err = err, .errlen = errlen };
	int rc;

	*res = (struct probe_result){
		.engine = cfg->engine ? cfg->engine->name : "",
		.depth = cfg->depth,
		.block_bytes = cfg->map ? cfg->map->block_bytes : 0,
		.direct = cfg->map && (cfg->map->open_flags & O_DIRECT),
	};
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
