/*
 * io_uring engines: up to depth reads in flight, buffered or O_DIRECT. The
 * probe's buffers are registered (read_fixed), so are the files and the
 * ring's own fd, when the kernel and RLIMIT_MEMLOCK allow; otherwise plain
 * reads on plain fds.
 * commit(0) submits and flushes completions without waiting, commit(n) also
 * waits for n; reap takes completions in a batch. No allocation after init.
 * init returns the -errno of io_uring_queue_init (-ENOSYS, -EPERM when
 * io_uring is disabled or filtered). Two engines share this code: io_uring
 * reads one block per read; readstream reads runs of adjacent blocks the probe
 * combined (io/combine.h), one read each into a multi-block buffer, as
 * PostgreSQL 18's read stream does (without its look-ahead ramp: every slot
 * is kept busy from the start).
 */
#include <errno.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>

#include "io/engine.h"

struct uring {
	struct io_uring      ring;
	struct io_uring_cqe **cqes;    /* depth entries for batched reaping */
	bool                 fixed_bufs;
	bool                 fixed_files;
};

/* Prefer a ring tuned for one submitting thread; fall back to plain. */
static int ring_init(struct io_uring *ring, unsigned depth)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	};
	int rc = io_uring_queue_init_params(depth, ring, &p);

	if (rc == -EINVAL)
		rc = io_uring_queue_init(depth, ring, 0);
	return rc;
}

static bool register_bufs(struct uring *u, const struct engine_setup *s)
{
	struct iovec *iov = calloc(s->depth, sizeof(*iov));
	int rc;

	if (!iov)
		return false;
	for (unsigned i = 0; i < s->depth; i++)
		iov[i] = (struct iovec){
			.iov_base = s->ios[i].buf, .iov_len = (size_t)s->max_blocks * s->block_bytes,
		};
	rc = io_uring_register_buffers(&u->ring, iov, s->depth);
	free(iov);
	return rc == 0;
}

static bool register_files(struct uring *u, const struct blockmap *map)
{
	int *fds = calloc(map->nfiles, sizeof(*fds));
	int rc;

	if (!fds)
		return false;
	for (unsigned i = 0; i < map->nfiles; i++)
		fds[i] = map->files[i].fd;
	rc = io_uring_register_files(&u->ring, fds, map->nfiles);
	free(fds);
	return rc == 0;
}

static int uring_init(struct engine *e)
{
	struct uring *u = calloc(1, sizeof(*u));
	int rc;

	if (!u)
		return -ENOMEM;
	u->cqes = calloc(e->setup.depth, sizeof(*u->cqes));
	if (!u->cqes) {
		free(u);
		return -ENOMEM;
	}
	rc = ring_init(&u->ring, e->setup.depth);
	if (rc < 0) {
		free(u->cqes);
		free(u);
		return rc;
	}
	u->fixed_bufs = register_bufs(u, &e->setup);
	u->fixed_files = register_files(u, e->setup.map);
	/* the ring's own fd too: io_uring_enter then skips the fd lookup */
	(void)io_uring_register_ring_fd(&u->ring);
	e->priv = u;
	return 0;
}

static int uring_queue(struct engine *e, struct engine_io *io)
{
	struct uring *u = e->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	int fd = u->fixed_files ? (int)io->file : e->setup.map->files[io->file].fd;
	unsigned len = io->nblocks * e->setup.block_bytes;

	if (!sqe)
		return -EBUSY;
	if (u->fixed_bufs)
		io_uring_prep_read_fixed(sqe, fd, io->buf, len, (uint64_t)io->offset, (int)io->slot);
	else
		io_uring_prep_read(sqe, fd, io->buf, len, (uint64_t)io->offset);
	if (u->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, io);
	return ENGINE_QUEUED;
}

static int uring_commit(struct engine *e, unsigned wait_nr)
{
	struct uring *u = e->priv;
	int rc;

	do
		rc = wait_nr ? io_uring_submit_and_wait(&u->ring, wait_nr)
			     : io_uring_submit_and_get_events(&u->ring);
	while (rc == -EINTR);
	return rc < 0 ? rc : 0;
}

static int uring_reap(struct engine *e, struct engine_io **done, unsigned max)
{
	struct uring *u = e->priv;
	unsigned n = io_uring_peek_batch_cqe(&u->ring, u->cqes, max);

	for (unsigned i = 0; i < n; i++) {
		struct engine_io *io = io_uring_cqe_get_data(u->cqes[i]);
		io->result = u->cqes[i]->res;
		done[i] = io;
	}
	io_uring_cq_advance(&u->ring, n);
	return (int)n;
}

static void uring_cleanup(struct engine *e)
{
	struct uring *u = e->priv;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u->cqes);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_uring = {
	.name = "io_uring",
	.summary = "io_uring, up to depth reads in flight, registered buffers and files",
	.max_depth = 4096,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};

const struct engine_ops engine_readstream = {
	.name = "readstream",
	.summary = "io_uring, adjacent blocks combined into reads of up to --combine blocks (PostgreSQL 18)",
	.flags = ENGINE_COMBINE,
	.max_depth = 4096,
	.init = uring_init,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
