/*
 * test_probe: the probe loop's bookkeeping, driven by a scripted
 * asynchronous engine that reads nothing: each commit finishes a seeded
 * random number of the reads in flight (at least the one asked for), in
 * random order. Every read must be counted once and timed once, from the
 * system call that submitted it to the clock read after the call that reaped
 * it (bounded from both sides by the engine's own clock reads); each turn
 * submits every free slot in one call (so a batch of completions means fewer
 * calls than reads); a failed read stops the loop and
 * everything still in flight is reaped before the probe returns. The
 * context switches per read are the process's own: a commit that sleeps is
 * one wait per read at depth 1, a commit that does not is none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/blocks.h"
#include "io/clock.h"
#include "io/engine.h"
#include "io/probe.h"
#include "io/rng.h"

#define BS      8192
#define NBLOCKS 1000
#define MAXD    64

/* What the scripted engine saw of one slot's current read. */
struct slot_times {
	uint64_t queue_ns;        /* the last queue() before the commit that submitted it, left */
	uint64_t submit_ns;       /* the commit() that submitted it, entered */
	bool     queued, inflight;
};

struct script {
	struct rng        rng;
	unsigned          depth;
	struct slot_times t[MAXD];
	struct engine_io *inflight[MAXD];
	unsigned          ninflight;
	struct engine_io *ready[MAXD];
	unsigned          nready;
	unsigned          fail_at;      /* the n-th completion comes back short; 0 = never */
	unsigned          completions;
	/* the checks */
	uint64_t          lat_lo_ns, lat_hi_ns;   /* sums of each read's bounds */
	uint64_t          reads, commits;
	unsigned          not_full;     /* commits that left a slot empty while reads remained */
	uint64_t          limit;        /* reads the probe was told to issue */
	uint64_t          queued_total;
	uint64_t          last_queue_ns;  /* the last queue() left */
	struct engine_io *open[MAXD];
	unsigned          nopen;
};

static struct script S;
static long commit_sleep_ns;      /* each commit sleeps this long; 0: never */

/* Close the upper bound of reads reaped earlier: the probe timed them
 * before this engine call. */
static void close_open(uint64_t now)
{
	for (unsigned i = 0; i < S.nopen; i++)
		S.lat_hi_ns += now - S.t[S.open[i]->slot].queue_ns;
	S.nopen = 0;
}

static int s_queue(struct engine *e, struct engine_io *io)
{
	uint64_t now = clock_now_ns();
	struct slot_times *t = &S.t[io->slot];

	(void)e;
	close_open(now);
	assert_false(t->queued || t->inflight);
	*t = (struct slot_times){ .queued = true };
	S.queued_total++;
	S.last_queue_ns = clock_now_ns();
	return ENGINE_QUEUED;
}

/* Submit what was queued, then finish between wait_nr and all of the
 * reads in flight, at random. */
static int s_commit(struct engine *e, unsigned wait_nr)
{
	uint64_t now = clock_now_ns();
	struct engine_io *ios = e->setup.ios;
	unsigned n;

	close_open(now);
	S.commits++;
	for (unsigned i = 0; i < S.depth; i++) {
		struct slot_times *t = &S.t[i];
		if (t->queued) {
			t->queued = false;
			t->inflight = true;
			t->queue_ns = S.last_queue_ns;
			t->submit_ns = now;
			S.inflight[S.ninflight++] = &ios[i];
		}
	}
	if (S.ninflight < S.depth && S.queued_total < S.limit)
		S.not_full++;
	if (S.ninflight == 0)
		return 0;
	n = wait_nr + (unsigned)rng_below(&S.rng, S.ninflight - wait_nr + 1);
	while (n-- > 0) {
		unsigned k = (unsigned)rng_below(&S.rng, S.ninflight);
		struct engine_io *io = S.inflight[k];
		S.inflight[k] = S.inflight[--S.ninflight];
		S.completions++;
		io->result = S.completions == S.fail_at ? BS / 2 : (int64_t)io->nblocks * BS;
		S.ready[S.nready++] = io;
	}
	if (commit_sleep_ns > 0) {
		struct timespec ts = { 0, commit_sleep_ns };
		nanosleep(&ts, NULL);
	}
	return 0;
}

static int s_reap(struct engine *e, struct engine_io **done, unsigned max)
{
	unsigned n = S.nready < max ? S.nready : max;
	uint64_t now;

	(void)e;
	for (unsigned i = 0; i < n; i++) {
		struct engine_io *io = S.ready[i];
		done[i] = io;
		S.t[io->slot].inflight = false;
		S.open[S.nopen++] = io;
	}
	memmove(S.ready, S.ready + n, (S.nready - n) * sizeof(S.ready[0]));
	S.nready -= n;
	now = clock_now_ns();
	for (unsigned i = 0; i < n; i++) {
		S.lat_lo_ns += now - S.t[done[i]->slot].submit_ns;
		S.reads++;
	}
	return (int)n;
}

static void s_cleanup(struct engine *e)
{
	(void)e;
	close_open(clock_now_ns());
	assert_int_equal(S.ninflight, 0);     /* nothing left in flight */
	assert_int_equal(S.nready, 0);        /* nor finished and unreaped */
}

static const struct engine_ops scripted = {
	.name = "scripted",
	.queue = s_queue,
	.commit = s_commit,
	.reap = s_reap,
	.cleanup = s_cleanup,
};

static void map_init(struct blockmap *m, struct blockmap_file *f)
{
	*f = (struct blockmap_file){ .path = "none", .fd = -1, .nblocks = NBLOCKS };
	*m = (struct blockmap){
		.files = f, .nfiles = 1, .block_bytes = BS, .nblocks = NBLOCKS,
		.uniform_blocks = NBLOCKS,
	};
}

static int run(unsigned depth, uint64_t count, uint64_t seed, unsigned fail_at,
	       struct probe_result *res, char *err, size_t errlen)
{
	struct blockmap m;
	struct blockmap_file f;
	struct probe_config cfg = {
		.engine = &scripted, .map = &m, .depth = depth, .count = count,
	};

	map_init(&m, &f);
	blocks_random(&cfg.seq, NBLOCKS, seed);
	memset(&S, 0, sizeof(S));
	rng_seed(&S.rng, seed);
	S.depth = depth;
	S.limit = count;
	S.fail_at = fail_at;
	return probe_run(&cfg, res, err, errlen);
}

/* Every read counted once and timed between its bounds, at every depth. */
static void test_every_read_timed_once(void **state)
{
	static const unsigned depths[] = { 1, 2, 3, 8, 64 };
	struct probe_result *res = malloc(sizeof(*res));
	char err[256];
	(void)state;

	for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			uint64_t count = 500 + seed * 37;
			assert_int_equal(run(depths[d], count, seed, 0, res, err, sizeof(err)), 0);
			assert_int_equal(res->ios, count);
			assert_int_equal(res->blocks, count);
			assert_int_equal(res->lat.count, count);
			assert_int_equal(S.reads, count);
			assert_int_equal(S.queued_total, count);
			/* the histogram's exact sum lies between the engine's bounds */
			uint64_t sum = (uint64_t)llround(res->lat.mean_ns * (double)count);
			assert_true(sum + count >= S.lat_lo_ns);
			assert_true(sum <= S.lat_hi_ns + count);
			assert_true(res->lat.min_ns <= res->lat.max_ns);
			/* one commit per turn, each with every slot it could fill */
			assert_int_equal(S.not_full, 0);
			assert_true(S.commits <= count);
		}
	}
	free(res);
}

/* Completions that come many at a time mean fewer calls than reads. */
static void test_batches_take_fewer_calls(void **state)
{
	struct probe_result *res = malloc(sizeof(*res));
	char err[256];
	(void)state;

	assert_int_equal(run(64, 4000, 5, 0, res, err, sizeof(err)), 0);
	assert_int_equal(res->ios, 4000);
	assert_true(S.commits < 4000 / 4);
	free(res);
}

/* A short read fails the point; what was in flight is reaped first
 * (s_cleanup checks that nothing is left). */
static void test_failure_drains(void **state)
{
	struct probe_result *res = malloc(sizeof(*res));
	char err[256];
	(void)state;

	assert_int_equal(run(16, 1000, 7, 100, res, err, sizeof(err)), -EIO);
	assert_int_equal(res->failed, PROBE_FAILED_IO);
	assert_non_null(strstr(err, "short read"));
	assert_true(res->ios < 100);
	free(res);
}

/* A commit that sleeps puts the process to sleep once a read at depth 1;
 * one that does not, almost never. */
static void test_switches_counted(void **state)
{
	struct probe_result *res = malloc(sizeof(*res));
	char err[256];
	(void)state;

	commit_sleep_ns = 200000;
	assert_int_equal(run(1, 300, 9, 0, res, err, sizeof(err)), 0);
	commit_sleep_ns = 0;
	assert_int_equal(res->ios, 300);
	assert_true(res->sleeps_per_io >= 0.95 && res->sleeps_per_io <= 1.2);
	assert_true(res->preemptions_per_io >= 0 && res->preemptions_per_io < 1);
	assert_int_equal(run(1, 300, 9, 0, res, err, sizeof(err)), 0);
	assert_true(res->sleeps_per_io < 0.2);
	free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_read_timed_once),
		cmocka_unit_test(test_batches_take_fewer_calls),
		cmocka_unit_test(test_failure_drains),
		cmocka_unit_test(test_switches_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
