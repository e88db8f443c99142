/*
 * test_replay: the heap-scan replay on real segment files (three files of
 * 100, 100 and 50 blocks): up to 17 one read of one block per page and the
 * advice the ramp asks for; on 18 under each io_method the reads the read
 * stream starts, combining neighbours, never across a segment, and the
 * blocks verified where checksums are asked for; the work between pages is
 * spent, each page's tuples read where its block was read to; io_uring marks
 * the reads past the first few in flight IOSQE_ASYNC and keeps no more
 * unreaped than its ring holds; bad configurations are refused before any read.
 * io_uring is skipped (not failed) where the kernel refuses it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/blocks.h"
#include "io/engines/replay.h"
#include "tests/fixture.h"

#define BS      8192
#define SEG     100
#define NBLOCKS 250
#define NPAGES  120

struct fx {
	char *dir, *base;
	struct blockmap map;
	struct scan_block pages[NPAGES];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char name[64], err[256];

	if (!f || !(f->dir = fixture_dir()))
		return -1;
	f->base = fixture_path(f->dir, "16384");
	for (int s = 0; s < 3; s++) {
		snprintf(name, sizeof(name), s ? "16384.%d" : "16384", s);
		char *p = fixture_path(f->dir, name);
		int rc = fixture_write_blocks(p, (uint64_t)s * SEG, s < 2 ? SEG : NBLOCKS - 2 * SEG, BS, 0);
		free(p);
		if (rc < 0)
			return -1;
	}
	if (blockmap_open_segments(&f->map, f->base, BS, 0, err, sizeof(err)) < 0)
		return -1;
	/* runs of 1..5 neighbours with gaps of 1..3, one run across the first segment's end */
	for (uint64_t i = 0, b = 3; i < NPAGES; i++) {
		f->pages[i] = (struct scan_block){ .block = b, .ntuples = (uint32_t)(i % 7 == 0 ? 23 : 1) };
		b += (i % 5 == 4) ? 1 + i % 3 + 1 : 1;
		if (i == 40)
			b = 97;                     /* 97, 98, 99 | 100, 101 */
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	blockmap_close(&f->map);
	fixture_remove(f->dir);
	free(f->dir);
	free(f->base);
	free(f);
	return 0;
}

/* What reading each page's tuples gives, walked on the files' own blocks. */
static struct heappage_walk walk_of(struct fx *f)
{
	struct heappage_walk w = { 0 };
	static char buf[BS];

	for (size_t i = 0; i < NPAGES; i++) {
		unsigned file;
		off_t off;

		blockmap_locate(&f->map, f->pages[i].block, &file, &off);
		assert_int_equal(pread(f->map.files[file].fd, buf, BS, off), BS);
		heappage_walk(buf, BS, f->pages[i].ntuples, f->pages[i].lossy, &w);
	}
	return w;
}

static void same_walk(struct fx *f, const struct replay_result *res)
{
	struct heappage_walk want = walk_of(f);

	assert_int_equal(res->walk.bytes, want.bytes);
	assert_int_equal(res->walk.tuples, want.tuples);
	assert_true(res->walk.value == want.value);	/* each page walked where its own block was read to */
}

static struct replay_config config(struct fx *f, enum replay_model m, enum replay_method meth, unsigned eic)
{
	return (struct replay_config){
		.map = &f->map, .pages = f->pages, .npages = NPAGES, .model = m, .eic = eic,
		.method = meth, .combine_limit = 16, .pin_limit = 0, .io_workers = 3,
		.work_ns_per_page = 2000, .pool_blocks = (unsigned)(eic % 2 ? 0 : 300),
	};
}

/* Counting the ≤17 scan's advice with the same loop, no I/O. */
static int count_one(void *arg, size_t idx) { (void)idx; ++*(uint64_t *)arg; return 0; }
static int nothing(void *arg, size_t idx) { (void)arg; (void)idx; return 0; }

static void pg17(void **state)
{
	struct fx *f = *state;
	static const unsigned eics[] = { 0, 1, 4, 64 };
	struct replay_result res;
	char err[256];

	for (size_t k = 0; k < 4; k++) {
		struct replay_config c = config(f, REPLAY_PG13_17, REPLAY_SYNC, eics[k]);
		struct scan17_ops counting = { .read = nothing, .advise = count_one, .work = nothing };
		uint64_t want_advice = 0;

		assert_int_equal(bitmapscan17_run(f->pages, NPAGES, (int)eics[k], &counting, &want_advice, NULL), 0);
		assert_int_equal(replay_run(&c, &res, err, sizeof(err)), 0);
		assert_int_equal(res.reads, NPAGES);
		assert_int_equal(res.read_blocks, NPAGES);
		assert_int_equal(res.advices, want_advice);
		assert_true(eics[k] == 0 ? want_advice == 0 : want_advice == NPAGES - 1);
		assert_true(res.work_ms >= NPAGES * 2000 / 1e6);
		assert_true(res.elapsed_ms >= res.work_ms + res.wait_ms);
		assert_true(res.user_ms + res.system_ms >= 0);
		same_walk(f, &res);
	}
}

static void pg18(void **state)
{
	struct fx *f = *state;
	static const unsigned eics[] = { 0, 1, 16 };
	struct replay_result res;
	char err[256];

	for (int m = REPLAY_SYNC; m <= REPLAY_WORKER; m++) {
		for (size_t k = 0; k < 3; k++) {
			struct replay_config c = config(f, REPLAY_PG18, (enum replay_method)m, eics[k]);
			int rc = replay_run(&c, &res, err, sizeof(err));

			if (rc < 0 && m == REPLAY_IO_URING && strstr(err, "cannot start")) {
				skip();
			}
			assert_int_equal(rc, 0);
			assert_int_equal(res.read_blocks, NPAGES);
			assert_int_equal(res.reads, res.stream.ios);
			assert_true(res.reads < NPAGES);           /* neighbours were combined */
			assert_true(res.stream.max_ios_in_flight <= (eics[k] ? eics[k] : 1));
			assert_int_equal(res.advices, m == REPLAY_SYNC && eics[k] ? res.stream.advices : 0);
			assert_true(res.work_ms >= NPAGES * 2000 / 1e6);
			assert_int_equal(res.sums, 0);          /* no checksums asked for */
			same_walk(f, &res);
			c.verify_blocks = true;
			assert_int_equal(replay_run(&c, &res, err, sizeof(err)), 0);
			assert_int_not_equal(res.sums, 0);      /* whoever completed the reads verified them */
		}
	}
	/* Blocks 97..101 span the first segment's end: read as 97..99 and 100..; a
	 * map that does not know its segments would read past the file's end. */
	struct replay_config c = config(f, REPLAY_PG18, REPLAY_SYNC, 0);
	struct blockmap one = f->map;
	one.uniform_blocks = 0;
	c.map = &one;
	assert_int_equal(replay_run(&c, &res, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "short read of page 41 (block 97)"));
}

/* The pool's first blocks written before the clock, as the index phase
 * left the server's buffers: the reads then land in memory already there
 * and fault no fresh pages in; untouched, each of the 120 blocks read
 * faults its two 4 KiB pages in. */
static void pool_touched(void **state)
{
	struct fx *f = *state;
	struct replay_result fresh, used;
	struct replay_config c = config(f, REPLAY_PG13_17, REPLAY_SYNC, 4);
	char err[256];

	assert_int_equal(c.pool_blocks, 300);
	assert_int_equal(replay_run(&c, &fresh, err, sizeof(err)), 0);
	c.pool_touched = 300;
	assert_int_equal(replay_run(&c, &used, err, sizeof(err)), 0);
	assert_true(fresh.minor_faults >= used.minor_faults + NPAGES * BS / 4096 * 3 / 4);
	same_walk(f, &used);
	c.pool_touched = 1000;	/* more than the pool: all of it, the reads from its start */
	assert_int_equal(replay_run(&c, &used, err, sizeof(err)), 0);
	assert_true(fresh.minor_faults >= used.minor_faults + NPAGES * BS / 4096 * 3 / 4);
	c.pool_touched = 250;	/* the reads start at block 250 and wrap onto touched ones */
	assert_int_equal(replay_run(&c, &used, err, sizeof(err)), 0);
	assert_int_equal(used.reads, NPAGES);
	same_walk(f, &used);
}

/* io_uring at 64 with a ring of 64 entries (io_max_concurrency's default). */
static struct replay_config uring64(struct fx *f)
{
	struct replay_config c = config(f, REPLAY_PG18, REPLAY_IO_URING, 64);

	c.ring_entries = 64;
	return c;
}

/* io_uring on 18: a read staged while more than REPLAY_URING_INLINE are
 * unreaped goes to the kernel's workers (IOSQE_ASYNC), so one is marked
 * exactly when the ring ever held more than REPLAY_URING_INLINE + 1; the
 * first reads never are; with a ring of 3 entries (io_max_concurrency 3)
 * no more than 3 are ever unreaped, so none is marked, and every block is
 * still read where it belongs. */
static void uring_async(void **state)
{
	struct fx *f = *state;
	struct replay_result res;
	struct replay_config c = uring64(f);
	char err[256];
	int rc;

	c.work_ns_per_page = 20000;	/* the consumer is slow: the reads run ahead of it */
	rc = replay_run(&c, &res, err, sizeof(err));
	if (rc < 0 && strstr(err, "cannot start"))
		skip();
	assert_int_equal(rc, 0);
	assert_int_equal(res.read_blocks, NPAGES);
	assert_true(res.ring_max_unreaped <= 64);
	assert_true(res.ring_max_unreaped > REPLAY_URING_INLINE + 1);
	assert_true(res.async_reads > 0);
	assert_true(res.async_reads + REPLAY_URING_INLINE + 1 <= res.reads);
	same_walk(f, &res);
	c.ring_entries = 3;
	assert_int_equal(replay_run(&c, &res, err, sizeof(err)), 0);
	assert_int_equal(res.read_blocks, NPAGES);
	assert_true(res.ring_max_unreaped <= 3);
	assert_int_equal(res.async_reads, 0);
	assert_true(res.stream.max_ios_in_flight > 3);	/* the stream wanted more than the ring allows */
	same_walk(f, &res);
}

/* Stopped in the middle with reads in flight through io_uring: -EINTR,
 * said so, the reads still in flight reaped before the buffers go, and
 * the part done kept. */
static volatile sig_atomic_t stop_flag;

static void *raise_stop(void *arg)
{
	struct timespec t = { 0, 5 * 1000 * 1000 };

	(void)arg;
	nanosleep(&t, NULL);
	stop_flag = 1;
	return NULL;
}

static void uring_stopped(void **state)
{
	struct fx *f = *state;
	struct replay_result res;
	struct replay_config c = uring64(f);
	char err[256];
	pthread_t t;
	int rc;

	c.work_ns_per_page = 5 * 1000 * 1000;	/* 600 ms in all: the stop comes early */
	c.stop = &stop_flag;
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, raise_stop, NULL), 0);
	rc = replay_run(&c, &res, err, sizeof(err));
	pthread_join(t, NULL);
	if (rc < 0 && strstr(err, "cannot start"))
		skip();
	assert_int_equal(rc, -EINTR);
	assert_true(res.stopped);
	assert_string_equal(err, "interrupted");
	assert_true(res.read_blocks < NPAGES);
}

static void refused(void **state)
{
	struct fx *f = *state;
	struct replay_result res;
	struct replay_config c = config(f, REPLAY_PG18, REPLAY_WORKER, 4);
	struct scan_block past = { .block = NBLOCKS, .ntuples = 1 };
	char err[256];

	c.io_workers = 0;
	assert_int_equal(replay_run(&c, &res, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "io_workers"));
	c = config(f, REPLAY_PG18, REPLAY_SYNC, 4);
	c.combine_limit = 0;
	assert_int_equal(replay_run(&c, &res, err, sizeof(err)), -EINVAL);
	c = config(f, REPLAY_PG13_17, REPLAY_SYNC, 4);
	c.pages = &past;
	c.npages = 1;
	assert_int_equal(replay_run(&c, &res, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "past the relation"));
	assert_int_equal(replay_run(&(struct replay_config){ 0 }, &res, err, sizeof(err)), -EINVAL);
}

static void names(void **state)
{
	enum replay_method m;
	(void)state;

	assert_string_equal(replay_model_name(REPLAY_PG18), "18");
	assert_string_equal(replay_model_name(REPLAY_PG13_17), "13-17");
	assert_int_equal(replay_method_find("worker", &m), 0);
	assert_int_equal(m, REPLAY_WORKER);
	assert_string_equal(replay_method_name(REPLAY_IO_URING), "io_uring");
	assert_int_equal(replay_method_find("posix", &m), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pg17),
		cmocka_unit_test(pg18),
		cmocka_unit_test(pool_touched),
		cmocka_unit_test(uring_async),
		cmocka_unit_test(uring_stopped),
		cmocka_unit_test(refused),
		cmocka_unit_test(names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
