/*
 * ioworkers: the worker pool of ioworkers.h: one mutex over the queue, one
 * condition for work (a signal wakes one idle worker) and one for finished
 * reads (the submitter waits on it by slot).
 */
#include "io/engines/ioworkers.h"
#include "io/engines/pagesum.h"
#include "io/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static double thread_cpu_ms(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* The read, on this worker's own descriptor of its file (opened now if need be). */
static int64_t do_read(const struct ioworkers *w, int *fds, struct ioworker_read *rd)
{
	if (fds[rd->file] < 0 && (fds[rd->file] = open(w->paths[rd->file], O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	return (int64_t)file_pread_full(fds[rd->file], rd->buf, rd->len, rd->off);
}

/* Take one queued slot and wake peers while reads are still queued; under the lock. */
static unsigned take(struct ioworkers *w)
{
	unsigned slot = w->queue[w->qhead], wake;

	w->qhead = (w->qhead + 1) % w->nslots;
	w->qlen--;
	wake = w->qlen < IOWORKERS_FANOUT ? w->qlen : IOWORKERS_FANOUT;
	for (unsigned i = 0; i < wake && i < w->idle; i++)
		pthread_cond_signal(&w->work);
	return slot;
}

static void *worker_main(void *arg)
{
	struct ioworkers *w = arg;
	int *fds = malloc(w->npaths * sizeof(int));

	for (unsigned i = 0; fds && i < w->npaths; i++)
		fds[i] = -1;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		unsigned slot;
		int64_t res;
		uint32_t sum;

		while (w->qlen == 0 && !w->quit) {
			w->idle++;
			pthread_cond_wait(&w->work, &w->lock);
			w->idle--;
		}
		if (w->qlen == 0)
			break;
		slot = take(w);
		pthread_mutex_unlock(&w->lock);
		res = fds ? do_read(w, fds, &w->slots[slot]) : -ENOMEM;
		sum = w->verify_bytes && res > 0 ?
		      pagesum(w->slots[slot].buf, (size_t)res, w->verify_bytes) : 0;
		pthread_mutex_lock(&w->lock);
		w->sums += sum;
		w->slots[slot].result = res;
		w->slots[slot].done = true;
		w->reads++;
		pthread_cond_broadcast(&w->done);
	}
	w->cpu_ms += thread_cpu_ms();
	pthread_mutex_unlock(&w->lock);
	for (unsigned i = 0; fds && i < w->npaths; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return NULL;
}

int ioworkers_start(struct ioworkers *w, const char *const *paths, unsigned npaths,
		    unsigned nthreads, unsigned nslots, size_t verify_bytes)
{
	memset(w, 0, sizeof(*w));
	w->paths = paths;
	w->npaths = npaths;
	w->verify_bytes = verify_bytes;
	if (nthreads == 0 || nslots == 0)
		return -EINVAL;
	w->threads = calloc(nthreads, sizeof(*w->threads));
	w->slots = calloc(nslots, sizeof(*w->slots));
	w->queue = calloc(nslots, sizeof(*w->queue));
	w->staged = calloc(nslots, sizeof(*w->staged));
	w->nthreads = nthreads;
	w->nslots = nslots;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	if (!w->threads || !w->slots || !w->queue || !w->staged) {
		ioworkers_stop(w);
		return -ENOMEM;
	}
	for (; w->started < nthreads; w->started++) {
		int rc = pthread_create(&w->threads[w->started], NULL, worker_main, w);
		if (rc) {
			ioworkers_stop(w);
			return -rc;
		}
	}
	return 0;
}

void ioworkers_stage(struct ioworkers *w, unsigned slot, unsigned file, void *buf,
		     size_t len, off_t off)
{
	w->slots[slot] = (struct ioworker_read){ .file = file, .buf = buf, .len = len, .off = off };
	w->staged[w->nstaged++] = slot;
}

void ioworkers_submit(struct ioworkers *w)
{
	if (w->nstaged == 0)
		return;
	pthread_mutex_lock(&w->lock);
	for (unsigned i = 0; i < w->nstaged; i++)
		w->queue[(w->qhead + w->qlen++) % w->nslots] = w->staged[i];
	w->nstaged = 0;
	if (w->idle > 0)
		pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
}

int64_t ioworkers_wait(struct ioworkers *w, unsigned slot)
{
	int64_t res;

	pthread_mutex_lock(&w->lock);
	while (!w->slots[slot].done)
		pthread_cond_wait(&w->done, &w->lock);
	res = w->slots[slot].result;
	w->slots[slot].done = false;
	pthread_mutex_unlock(&w->lock);
	return res;
}

void ioworkers_stop(struct ioworkers *w)
{
	if (w->started) {
		pthread_mutex_lock(&w->lock);
		w->quit = true;
		pthread_cond_broadcast(&w->work);
		pthread_mutex_unlock(&w->lock);
		for (unsigned i = 0; i < w->started; i++)
			pthread_join(w->threads[i], NULL);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->done);
	free(w->threads);
	free(w->slots);
	free(w->queue);
	free(w->staged);
	w->threads = NULL;
	w->slots = NULL;
	w->queue = w->staged = NULL;
	w->started = 0;
}
