/*
 * test_engines: every engine, at depths 1, 2, 8 and 64, buffered and
 * O_DIRECT, over random, sequential and replayed sequences on a segmented
 * fixture (three files), must return each requested block's own bytes; counts
 * and histogram totals must agree, and the time-averaged reads in flight stay
 * within the depth. readstream combines adjacent blocks (16 at most) and
 * its read count must be the one the combining gives. Steady runs end when
 * the rule holds, or at the duration when it cannot. io_uring engines are
 * skipped (not failed) where the kernel refuses io_uring.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/blocks.h"
#include "io/engine.h"
#include "io/probe.h"
#include "tests/fixture.h"

#define BS       8192
#define SEG      100                /* blocks per segment */
#define NBLOCKS  250                /* 100 + 100 + 50 */
#define COUNT    400
#define COMBINE  16

struct fx {
	char *dir, *base;
	uint64_t list[64];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char name[64];

	f->dir = fixture_dir();
	if (!f->dir)
		return -1;
	f->base = fixture_path(f->dir, "24576");
	for (int s = 0; s < 3; s++) {
		snprintf(name, sizeof(name), s ? "24576.%d" : "24576", s);
		char *p = fixture_path(f->dir, name);
		int rc = fixture_write_blocks(p, (uint64_t)s * SEG, s < 2 ? SEG : NBLOCKS - 2 * SEG,
					      BS, 0);
		free(p);
		if (rc < 0)
			return -1;
	}
	for (int i = 0; i < 64; i++)
		f->list[i] = (uint64_t)(i * 37 + 11) % NBLOCKS;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	fixture_remove(f->dir);
	free(f->dir);
	free(f->base);
	free(f);
	return 0;
}

static void make_seq(struct blocks *b, int kind, const struct fx *f)
{
	if (kind == 0)
		blocks_random(b, NBLOCKS, 1234);
	else if (kind == 1)
		blocks_seq(b, NBLOCKS);
	else
		blocks_replay(b, f->list, 64);
}

/* One engine over every depth, sequence and mode; false if unavailable. */
static bool run_engine(const struct fx *f, const struct engine_ops *ops, int flags)
{
	static const unsigned depths[] = { 1, 2, 8, 64 };
	struct blockmap m;
	char err[256];

	assert_int_equal(blockmap_open_segments(&m, f->base, BS, flags, err, sizeof(err)), 0);
	assert_int_equal(m.nblocks, NBLOCKS);
	for (size_t d = 0; d < 4; d++) {
		for (int kind = 0; kind < 3; kind++) {
			struct probe_config cfg = {
				.engine = ops, .map = &m, .depth = depths[d], .count = COUNT,
				.combine = COMBINE, .verify = fixture_check_block,
			};
			struct probe_result res;
			make_seq(&cfg.seq, kind, f);
			int rc = probe_run(&cfg, &res, err, sizeof(err));
			if (rc < 0 && res.failed == PROBE_FAILED_ENGINE_INIT &&
			    (rc == -ENOSYS || rc == -EPERM)) {
				blockmap_close(&m);
				return false;
			}
			if (rc < 0)
				fail_msg("%s depth %u kind %d direct %d: %s", ops->name,
					 depths[d], kind, flags != 0, err);
			assert_int_equal(res.blocks, COUNT);
			if (ops->flags & ENGINE_COMBINE)
				assert_true(res.ios <= COUNT && res.ios >= COUNT / COMBINE);
			else
				assert_int_equal(res.ios, COUNT);
			assert_int_equal(res.lat.count, res.ios);
			assert_int_equal(res.bytes, (uint64_t)COUNT * BS);
			assert_int_equal(res.direct, flags != 0);
			assert_true(res.inflight > 0 && res.inflight <= depths[d] + 1e-9);
		}
	}
	blockmap_close(&m);
	return true;
}

/* The engine NAME, buffered then O_DIRECT; skipped where it is unavailable. */
static void each_mode(void **state, const char *name)
{
	const struct fx *f = *state;
	const struct engine_ops *ops = engine_find(name);

	assert_non_null(ops);
	if (!run_engine(f, ops, 0)) {
		fprintf(stderr, "# %s unavailable here: skipped\n", name);
		skip();
	}
	assert_true(run_engine(f, ops, O_DIRECT));
}

static void test_psync(void **state) { each_mode(state, "psync"); }
static void test_fadvise(void **state) { each_mode(state, "fadvise"); }
static void test_io_uring(void **state) { each_mode(state, "io_uring"); }
static void test_readstream(void **state) { each_mode(state, "readstream"); }

/* Every engine of the table has its test above. */
static void test_every_engine_tested(void **state)
{
	static const char *const tested[] = { "psync", "fadvise", "io_uring", "readstream" };
	unsigned i;

	(void)state;
	for (i = 0; engine_table[i]; i++) {
		assert_true(i < sizeof(tested) / sizeof(tested[0]));
		assert_string_equal(engine_table[i]->name, tested[i]);
	}
	assert_int_equal(i, sizeof(tested) / sizeof(tested[0]));
}

/*
 * readstream over the sequence 0..249 (files of 100, 100, 50 blocks), 400
 * blocks: one pass is 7 + 7 + 4 reads, then 0..149 is 7 + 4 more, the last
 * cut to 6 blocks by the count.
 */
static void test_readstream_reads(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_config cfg = {
		.engine = engine_find("readstream"), .map = &m, .depth = 4, .count = COUNT,
		.combine = COMBINE, .verify = fixture_check_block,
	};
	int rc;

	assert_non_null(cfg.engine);
	assert_int_equal(blockmap_open_segments(&m, f->base, BS, O_DIRECT, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	rc = probe_run(&cfg, &res, err, sizeof(err));
	blockmap_close(&m);
	if (rc < 0 && res.failed == PROBE_FAILED_ENGINE_INIT) {
		fprintf(stderr, "# readstream unavailable here (%s): skipped\n", err);
		skip();
	}
	assert_int_equal(rc, 0);
	assert_int_equal(res.ios, 29);
	assert_int_equal(res.blocks, COUNT);
	assert_int_equal(res.combine, COMBINE);
}

static void test_combine_limits(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_config cfg = {
		.engine = engine_find("readstream"), .map = &m, .depth = 4096, .count = 10,
		.combine = PROBE_MAX_COMBINE,
	};

	assert_int_equal(blockmap_open_segments(&m, f->base, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	assert_int_equal(res.failed, PROBE_FAILED_SETUP);
	assert_non_null(strstr(err, "MiB of buffers"));
	cfg.depth = 1;
	cfg.combine = PROBE_MAX_COMBINE + 1;
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	blockmap_close(&m);
}

/* A rule any positive IOPS meets ends the point at its third window. */
static void test_steady_reached(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_steady rule = {
		.window_ns = 10 * 1000 * 1000, .min_ns = 0, .windows = 3, .tolerance = 1e9,
	};
	struct probe_config cfg = {
		.engine = engine_find("psync"), .map = &m, .depth = 1,
		.duration_ns = 5ull * 1000 * 1000 * 1000, .steady = &rule,
	};

	assert_int_equal(blockmap_open_segments(&m, f->base, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), 0);
	assert_true(res.steady_mode);
	assert_true(res.steady);
	assert_int_equal(res.nwindows, 3);
	for (unsigned i = 0; i < res.nwindows; i++)
		assert_true(res.window_iops[i] > 0);
	assert_true(res.elapsed_s < 5);
	blockmap_close(&m);
}

/* A rule nothing meets runs to the duration: at most duration / window windows. */
static void test_steady_not_reached(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_steady rule = {
		.window_ns = 10 * 1000 * 1000, .min_ns = 0, .windows = 2, .tolerance = -1,
	};
	struct probe_config cfg = {
		.engine = engine_find("psync"), .map = &m, .depth = 1,
		.duration_ns = 50 * 1000 * 1000, .steady = &rule,
	};

	assert_int_equal(blockmap_open_segments(&m, f->base, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), 0);
	assert_false(res.steady);
	assert_true(res.nwindows >= 1 && res.nwindows <= 5);
	assert_true(res.elapsed_s >= 0.05);
	cfg.duration_ns = 0;
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	blockmap_close(&m);
}

static void test_duration_mode(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_config cfg = {
		.engine = engine_find("psync"), .map = &m, .depth = 1,
		.duration_ns = 20 * 1000 * 1000, .verify = fixture_check_block,
	};

	assert_int_equal(blockmap_open_segments(&m, f->base, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), 0);
	assert_true(res.ios > 0);
	assert_int_equal(res.lat.count, res.ios);
	blockmap_close(&m);
}

static void test_verify_catches_wrong_block(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_config cfg = {
		.engine = engine_find("psync"), .map = &m, .depth = 1, .count = 10,
		.verify = fixture_check_block,
	};

	/* Segment 1 alone: its block 0 holds the number 100, not 0. */
	char *seg1 = fixture_path(f->dir, "24576.1");
	const char *paths[1] = { seg1 };

	assert_int_equal(blockmap_open(&m, paths, 1, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EIO);
	assert_int_equal(res.failed, PROBE_FAILED_VERIFY);
	assert_non_null(strstr(err, "block 0"));
	blockmap_close(&m);
	free(seg1);
}

static void test_bad_config(void **state)
{
	const struct fx *f = *state;
	struct blockmap m;
	struct probe_result res;
	char err[256];
	struct probe_config cfg = { .engine = engine_find("io_uring"), .map = &m, .count = 1 };

	assert_non_null(cfg.engine);
	assert_null(engine_find("libaio"));
	assert_int_equal(blockmap_open_segments(&m, f->base, BS, 0, err, sizeof(err)), 0);
	blocks_seq(&cfg.seq, m.nblocks);
	cfg.depth = 0;
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	assert_int_equal(res.failed, PROBE_FAILED_SETUP);
	cfg.depth = PROBE_MAX_DEPTH + 1;
	assert_int_equal(probe_run(&cfg, &res, err, sizeof(err)), -EINVAL);
	blockmap_close(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_engine_tested),
		cmocka_unit_test(test_psync),
		cmocka_unit_test(test_fadvise),
		cmocka_unit_test(test_io_uring),
		cmocka_unit_test(test_readstream),
		cmocka_unit_test(test_readstream_reads),
		cmocka_unit_test(test_combine_limits),
		cmocka_unit_test(test_steady_reached),
		cmocka_unit_test(test_steady_not_reached),
		cmocka_unit_test(test_duration_mode),
		cmocka_unit_test(test_verify_catches_wrong_block),
		cmocka_unit_test(test_bad_config),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
