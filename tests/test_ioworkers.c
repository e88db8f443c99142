/*
 * test_ioworkers: the worker pool on a real file of 64 blocks: every read
 * lands whole where it was asked for, whichever worker did it; with every
 * worker idle, one read goes to the lowest-numbered worker and no other
 * (PostgreSQL wakes the lowest idle one); a batch of reads is done once
 * each, the workers' counts adding up; reads into a shared memory file
 * given as a view go through the workers' own mappings of it and land in
 * the submitter's; a pool of more workers than the idle mask holds, or of
 * none, is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "io/engines/ioworkers.h"
#include "tests/fixture.h"

#define BS      8192
#define NBLOCKS 64

struct fx {
	char *dir, *path;
	const char *paths[1];
	char *bufs;
	char *want;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	FILE *in;

	if (!f || !(f->dir = fixture_dir()))
		return -1;
	f->path = fixture_path(f->dir, "16384");
	if (fixture_write_blocks(f->path, 0, NBLOCKS, BS, 0) < 0)
		return -1;
	f->paths[0] = f->path;
	f->bufs = calloc(NBLOCKS, BS);
	f->want = malloc((size_t)NBLOCKS * BS);
	if (!f->bufs || !f->want || !(in = fopen(f->path, "rb")))
		return -1;
	if (fread(f->want, BS, NBLOCKS, in) != NBLOCKS)
		return -1;
	fclose(in);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	fixture_remove(f->dir);
	free(f->dir);
	free(f->path);
	free(f->bufs);
	free(f->want);
	free(f);
	return 0;
}

/* Wait (up to 5 s) until all NTHREADS workers have said they are idle. */
static void all_idle(struct ioworkers *w, unsigned nthreads)
{
	uint64_t all = (UINT64_C(1) << nthreads) - 1, mask = 0;
	struct timespec pause = { 0, 1000000 };

	for (int i = 0; i < 5000; i++) {
		pthread_mutex_lock(&w->lock);
		mask = w->idle_mask;
		pthread_mutex_unlock(&w->lock);
		if (mask == all)
			return;
		nanosleep(&pause, NULL);
	}
	fail_msg("the workers never all went idle (mask %#llx)", (unsigned long long)mask);
}

static uint64_t sum(const struct ioworkers *w, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += w->worker_reads[i];
	return s;
}

static void lowest_idle_first(void **state)
{
	struct fx *f = *state;
	struct ioworkers w;

	assert_int_equal(ioworkers_start(&w, f->paths, 1, 3, 8, 0), 0);
	all_idle(&w, 3);
	ioworkers_stage(&w, 0, 0, f->bufs, BS, 5 * BS);
	ioworkers_submit(&w);
	assert_int_equal(ioworkers_wait(&w, 0), BS);
	assert_memory_equal(f->bufs, f->want + 5 * BS, BS);
	assert_int_equal(w.worker_reads[0], 1);
	assert_int_equal(w.worker_reads[1] + w.worker_reads[2], 0);
	ioworkers_stop(&w);
}

static void batch(void **state)
{
	struct fx *f = *state;
	struct ioworkers w;

	assert_int_equal(ioworkers_start(&w, f->paths, 1, 3, NBLOCKS, 0), 0);
	for (int round = 0; round < 20; round++) {
		memset(f->bufs, 0, (size_t)NBLOCKS * BS);
		for (unsigned s = 0; s < NBLOCKS; s++)       /* block 63 - s into slot s */
			ioworkers_stage(&w, s, 0, f->bufs + (size_t)s * BS, BS, (off_t)(NBLOCKS - 1 - s) * BS);
		ioworkers_submit(&w);
		for (unsigned s = 0; s < NBLOCKS; s++) {
			assert_int_equal(ioworkers_wait(&w, s), BS);
			assert_memory_equal(f->bufs + (size_t)s * BS, f->want + (size_t)(NBLOCKS - 1 - s) * BS, BS);
		}
		assert_int_equal(sum(&w, 3), (uint64_t)(round + 1) * NBLOCKS);
	}
	/* one at a time, as at effective_io_concurrency 1 */
	for (unsigned s = 0; s < NBLOCKS; s++) {
		ioworkers_stage(&w, 0, 0, f->bufs, BS, (off_t)s * BS);
		ioworkers_submit(&w);
		assert_int_equal(ioworkers_wait(&w, 0), BS);
		assert_memory_equal(f->bufs, f->want + (size_t)s * BS, BS);
	}
	assert_int_equal(sum(&w, 3), 21 * NBLOCKS);
	ioworkers_stop(&w);
}

/* Mappings of the memfd named NAME in this process. */
static int mappings_of(const char *name)
{
	char line[512];
	int n = 0;
	FILE *maps = fopen("/proc/self/maps", "r");

	while (maps && fgets(line, sizeof(line), maps))
		n += strstr(line, name) != NULL;
	if (maps)
		fclose(maps);
	return n;
}

static void views(void **state)
{
	struct fx *f = *state;
	struct ioworkers w;
	size_t len = (size_t)NBLOCKS * BS;
	int fd = memfd_create("ioworkers-view-test", MFD_CLOEXEC);
	char *base;

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)len), 0);
	base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	assert_true(base != MAP_FAILED);
	assert_int_equal(mappings_of("ioworkers-view-test"), 1);
	assert_int_equal(ioworkers_start(&w, f->paths, 1, 3, NBLOCKS, BS), 0);
	ioworkers_view(&w, fd, base, len);
	for (unsigned s = 0; s < NBLOCKS; s++)       /* block 63 - s into block s of the view */
		ioworkers_stage(&w, s, 0, base + (size_t)s * BS, BS, (off_t)(NBLOCKS - 1 - s) * BS);
	ioworkers_submit(&w);
	for (unsigned s = 0; s < NBLOCKS; s++) {
		assert_int_equal(ioworkers_wait(&w, s), BS);
		assert_memory_equal(base + (size_t)s * BS, f->want + (size_t)(NBLOCKS - 1 - s) * BS, BS);
	}
	/* each worker that read mapped the file for itself; a read outside the view goes where it was asked */
	assert_true(mappings_of("ioworkers-view-test") >= 2);
	ioworkers_stage(&w, 0, 0, f->bufs, BS, 7 * BS);
	ioworkers_submit(&w);
	assert_int_equal(ioworkers_wait(&w, 0), BS);
	assert_memory_equal(f->bufs, f->want + 7 * BS, BS);
	ioworkers_stop(&w);
	assert_int_equal(mappings_of("ioworkers-view-test"), 1);
	munmap(base, len);
	close(fd);
}

static void refused(void **state)
{
	struct fx *f = *state;
	struct ioworkers w;

	assert_int_equal(ioworkers_start(&w, f->paths, 1, 0, 8, 0), -EINVAL);
	ioworkers_stop(&w);
	assert_int_equal(ioworkers_start(&w, f->paths, 1, IOWORKERS_MAX + 1, 8, 0), -EINVAL);
	ioworkers_stop(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lowest_idle_first),
		cmocka_unit_test(batch),
		cmocka_unit_test(views),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
