/*
 * ioworkers: the worker pool of ioworkers.h: one mutex over the queue and
 * the idle mask, a latch per worker (a semaphore behind a flag), and one
 * for the submitter. As in PostgreSQL, latches are set after the lock is
 * released, and a finished read does not take the lock.
 */
#include "io/engines/ioworkers.h"
#include "io/engines/pagesum.h"
#include "io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define NO_SLOT UINT_MAX

static void latch_init(struct ioworker_latch *l)
{
	atomic_init(&l->is_set, false);
	sem_init(&l->sem, 0, 0);
}

static void latch_set(struct ioworker_latch *l)
{
	if (!atomic_exchange(&l->is_set, true))
		sem_post(&l->sem);
}

/* Return once the latch is set (at once if it is). */
static void latch_wait(struct ioworker_latch *l)
{
	while (!atomic_load(&l->is_set))
		while (sem_wait(&l->sem) < 0 && errno == EINTR)
			;
}

/* Clear it, and the wake-ups it has already had. */
static void latch_reset(struct ioworker_latch *l)
{
	atomic_store(&l->is_set, false);
	while (sem_trywait(&l->sem) == 0)
		;
}

static double thread_cpu_ms(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* Where this worker reads RD to: in its own mapping of the view (mapped
 * now if need be) when RD's buffer lies in the view, else the buffer. */
static char *destination(const struct ioworkers *w, char **mine, const struct ioworker_read *rd)
{
	char *buf = rd->buf;

	if (w->view_fd < 0 || buf < w->view_base || buf + rd->len > w->view_base + w->view_len)
		return buf;
	if (!*mine) {
		void *m = mmap(NULL, w->view_len, PROT_READ | PROT_WRITE, MAP_SHARED, w->view_fd, 0);

		*mine = m == MAP_FAILED ? w->view_base : m;
	}
	return *mine + (buf - w->view_base);
}

/* The read into TO, on this worker's own descriptor of its file (opened now if need be). */
static int64_t do_read(const struct ioworkers *w, int *fds, const struct ioworker_read *rd, char *to)
{
	if (fds[rd->file] < 0 && (fds[rd->file] = open(w->paths[rd->file], O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	return (int64_t)file_pread_full(fds[rd->file], to, rd->len, rd->off);
}

/* The lowest-numbered idle worker, no longer idle; -1 if none. Under the lock. */
static int choose_idle(struct ioworkers *w)
{
	int i;

	if (w->idle_mask == 0)
		return -1;
	i = __builtin_ctzll(w->idle_mask);
	w->idle_mask &= ~(UINT64_C(1) << i);
	return i;
}

struct worker_arg {
	struct ioworkers *w;
	unsigned id;
};

/* Worker ID marks SLOT done, and wakes the submitter if it sleeps on it. */
static void complete(struct ioworkers *w, unsigned id, unsigned slot, int64_t res)
{
	w->worker_reads[id]++;
	w->slots[slot].result = res;
	atomic_store(&w->slots[slot].done, true);
	atomic_fetch_add(&w->reads, 1);
	if (atomic_load(&w->waiting_for) == slot)
		latch_set(&w->submitter);
}

static void *worker_main(void *arg)
{
	struct ioworkers *w = ((struct worker_arg *)arg)->w;
	unsigned id = ((struct worker_arg *)arg)->id;
	int *fds = malloc(w->npaths * sizeof(int));
	char *mine = NULL;

	free(arg);
	for (unsigned i = 0; fds && i < w->npaths; i++)
		fds[i] = -1;
	while (!atomic_load(&w->quit)) {
		int wake[IOWORKERS_FANOUT], nwake = 0, peer;
		unsigned slot = NO_SLOT;

		pthread_mutex_lock(&w->lock);
		if (w->qlen == 0) {
			w->idle_mask |= UINT64_C(1) << id;
		} else {
			slot = w->queue[w->qhead];
			w->qhead = (w->qhead + 1) % w->nslots;
			w->qlen--;
			w->idle_mask &= ~(UINT64_C(1) << id);
			while (nwake < IOWORKERS_FANOUT && (unsigned)nwake < w->qlen &&
			       (peer = choose_idle(w)) >= 0)
				wake[nwake++] = peer;
		}
		pthread_mutex_unlock(&w->lock);
		for (int i = 0; i < nwake; i++)
			latch_set(&w->latches[wake[i]]);
		if (slot != NO_SLOT) {
			char *to = destination(w, &mine, &w->slots[slot]);
			int64_t res = fds ? do_read(w, fds, &w->slots[slot], to) : -ENOMEM;

			if (w->verify_bytes && res > 0)
				atomic_fetch_add(&w->sums, pagesum(to, (size_t)res, w->verify_bytes));
			complete(w, id, slot, res);
		} else {
			latch_wait(&w->latches[id]);
			latch_reset(&w->latches[id]);
		}
	}
	pthread_mutex_lock(&w->lock);
	w->cpu_ms += thread_cpu_ms();
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; fds && i < w->npaths; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	if (mine && mine != w->view_base)
		munmap(mine, w->view_len);
	return NULL;
}

int ioworkers_start(struct ioworkers *w, const char *const *paths, unsigned npaths,
		    unsigned nthreads, unsigned nslots, size_t verify_bytes)
{
	memset(w, 0, sizeof(*w));
	w->paths = paths;
	w->npaths = npaths;
	w->verify_bytes = verify_bytes;
	w->view_fd = -1;
	pthread_mutex_init(&w->lock, NULL);
	if (nthreads == 0 || nthreads > IOWORKERS_MAX || nslots == 0)
		return -EINVAL;
	w->threads = calloc(nthreads, sizeof(*w->threads));
	w->latches = calloc(nthreads, sizeof(*w->latches));
	w->slots = calloc(nslots, sizeof(*w->slots));
	w->queue = calloc(nslots, sizeof(*w->queue));
	w->staged = calloc(nslots, sizeof(*w->staged));
	w->nthreads = nthreads;
	w->nslots = nslots;
	latch_init(&w->submitter);
	atomic_init(&w->waiting_for, NO_SLOT);
	if (!w->threads || !w->latches || !w->slots || !w->queue || !w->staged) {
		ioworkers_stop(w);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nthreads; i++)
		latch_init(&w->latches[i]);
	for (; w->started < nthreads; w->started++) {
		struct worker_arg *a = malloc(sizeof(*a));
		int rc = a ? 0 : ENOMEM;

		if (a) {
			*a = (struct worker_arg){ .w = w, .id = w->started };
			if ((rc = pthread_create(&w->threads[w->started], NULL, worker_main, a)))
				free(a);
		}
		if (rc) {
			ioworkers_stop(w);
			return -rc;
		}
	}
	return 0;
}

void ioworkers_view(struct ioworkers *w, int fd, void *base, size_t len)
{
	pthread_mutex_lock(&w->lock);	/* seen by a worker once it takes a read */
	w->view_fd = fd, w->view_base = base, w->view_len = len;
	pthread_mutex_unlock(&w->lock);
}

void ioworkers_stage(struct ioworkers *w, unsigned slot, unsigned file, void *buf,
		     size_t len, off_t off)
{
	struct ioworker_read *rd = &w->slots[slot];

	rd->file = file, rd->buf = buf, rd->len = len, rd->off = off, rd->result = 0;
	atomic_store(&rd->done, false);
	w->staged[w->nstaged++] = slot;
}

void ioworkers_submit(struct ioworkers *w)
{
	int wake;

	if (w->nstaged == 0)
		return;
	pthread_mutex_lock(&w->lock);
	for (unsigned i = 0; i < w->nstaged; i++)
		w->queue[(w->qhead + w->qlen++) % w->nslots] = w->staged[i];
	w->nstaged = 0;
	wake = choose_idle(w);
	pthread_mutex_unlock(&w->lock);
	if (wake >= 0)
		latch_set(&w->latches[wake]);
}

int64_t ioworkers_wait(struct ioworkers *w, unsigned slot)
{
	struct ioworker_read *rd = &w->slots[slot];

	atomic_store(&w->waiting_for, slot);
	for (;;) {
		latch_reset(&w->submitter);
		if (atomic_load(&rd->done))
			break;
		latch_wait(&w->submitter);
	}
	atomic_store(&w->waiting_for, NO_SLOT);
	atomic_store(&rd->done, false);
	return rd->result;
}

void ioworkers_stop(struct ioworkers *w)
{
	if (w->started) {
		atomic_store(&w->quit, true);
		for (unsigned i = 0; i < w->started; i++)
			latch_set(&w->latches[i]);
		for (unsigned i = 0; i < w->started; i++)
			pthread_join(w->threads[i], NULL);
	}
	if (w->latches) {
		for (unsigned i = 0; i < w->nthreads; i++)
			sem_destroy(&w->latches[i].sem);
		sem_destroy(&w->submitter.sem);
	}
	pthread_mutex_destroy(&w->lock);
	free(w->threads);
	free(w->latches);
	free(w->slots);
	free(w->queue);
	free(w->staged);
	w->threads = NULL;
	w->latches = NULL;
	w->slots = NULL;
	w->queue = w->staged = NULL;
	w->started = 0;
}
