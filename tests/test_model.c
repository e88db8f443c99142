/*
 * test_model: the emulated device's service model and its counters, with
 * times worked out by hand: stripes to members (raid0, raid10's less busy
 * drive), slots first come first served, the transfer channel, seeded
 * jitter within its bounds, the bounds refused, and the counters'
 * time-weighted in-flight integral and diskstats lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/emulate/counters.h"
#include "io/emulate/model.h"
#include "io/sysstat.h"

#define MS 1000000ULL

static struct model_cfg cfg(unsigned parallel, unsigned members, uint64_t stripe)
{
	return (struct model_cfg){ .latency_ns = MS, .parallel = parallel, .members = members,
				   .stripe_bytes = stripe, .layout = MODEL_RAID0, .seed = 1 };
}

static void init_ok(struct model *md, const struct model_cfg *c)
{
	char err[256];

	if (model_init(md, c, err, sizeof(err)) != 0)
		fail_msg("model_init: %s", err);
}

/* Stripe unit k of a file with key 0 is on member k mod 4. */
static void test_raid0_stripes(void **state)
{
	struct model_cfg c = cfg(1, 4, 65536);
	struct model md;
	struct model_placement pl;

	(void)state;
	init_ok(&md, &c);
	for (unsigned k = 0; k < 8; k++) {
		model_read(&md, 0, (uint64_t)k * 65536 + 8192, 8192, 0, &pl);
		assert_int_equal(pl.n, 1);
		assert_int_equal(pl.member[0], k % 4);
	}
	/* the same unit with key 1 is on the next member */
	model_read(&md, 1, 0, 8192, 10 * MS, &pl);
	assert_int_equal(pl.member[0], 1);
	model_free(&md);
}

/* A read across two stripe units takes both members, done when both are. */
static void test_raid0_split(void **state)
{
	struct model_cfg c = cfg(1, 4, 65536);
	struct model md;
	struct model_placement pl;

	(void)state;
	init_ok(&md, &c);
	model_read(&md, 0, 65536 - 4096, 8192, 0, &pl);
	assert_int_equal(pl.n, 2);
	assert_int_equal(pl.member[0], 0);
	assert_int_equal(pl.member[1], 1);
	assert_int_equal(pl.bytes[0], 4096);
	assert_int_equal(pl.bytes[1], 4096);
	assert_int_equal(pl.done_ns, MS);
	/* 512 KiB over 4 members of 64 KiB units: 128 KiB each */
	model_read(&md, 0, 0, 512 << 10, 5 * MS, &pl);
	assert_int_equal(pl.n, 4);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(pl.bytes[i], 128 << 10);
	model_free(&md);
}

/* Two slots: the third read waits for the first to finish. */
static void test_slots_fifo(void **state)
{
	struct model_cfg c = cfg(2, 1, 65536);
	struct model md;
	struct model_placement pl;
	const uint64_t want[] = { MS, MS, 2 * MS, 2 * MS, 3 * MS };

	(void)state;
	init_ok(&md, &c);
	for (unsigned i = 0; i < 5; i++) {
		model_read(&md, 0, 0, 8192, 0, &pl);
		assert_int_equal(pl.done_ns, want[i]);
	}
	assert_int_equal(md.m[0].inflight, 5);
	model_done(&md, 0);
	assert_int_equal(md.m[0].inflight, 4);
	/* arriving after the slots freed: served at once */
	model_read(&md, 0, 0, 8192, 10 * MS, &pl);
	assert_int_equal(pl.done_ns, 11 * MS);
	model_free(&md);
}

/* 8192 bytes at 8.192 MB/s is 1 ms of transfer, one at a time per member. */
static void test_bandwidth_channel(void **state)
{
	struct model_cfg c = cfg(4, 1, 65536);
	struct model md;
	struct model_placement pl;

	(void)state;
	c.bandwidth_bps = 8192000;
	init_ok(&md, &c);
	for (unsigned i = 0; i < 3; i++) {
		model_read(&md, 0, 0, 8192, 0, &pl);
		assert_int_equal(pl.done_ns, (2 + i) * MS);
	}
	assert_true(model_member_iops(&c, 8192) > 999 && model_member_iops(&c, 8192) < 1001);
	c.bandwidth_bps = 0;
	assert_true(model_member_iops(&c, 8192) > 3999 && model_member_iops(&c, 8192) < 4001);
	model_free(&md);
}

/* raid10: unit 0 on pair 0; reads go to the drive with fewer in flight. */
static void test_raid10_less_busy(void **state)
{
	struct model_cfg c = cfg(1, 4, 65536);
	struct model md;
	struct model_placement pl;
	unsigned used[4] = { 0 };

	(void)state;
	c.layout = MODEL_RAID10;
	init_ok(&md, &c);
	for (unsigned i = 0; i < 4; i++) {
		model_read(&md, 0, 0, 8192, 0, &pl);
		used[pl.member[0]]++;
	}
	assert_int_equal(used[0], 2);
	assert_int_equal(used[1], 2);
	assert_int_equal(used[2] + used[3], 0);
	model_read(&md, 0, 65536, 8192, 0, &pl);	/* unit 1: pair 1 */
	assert_true(pl.member[0] == 2 || pl.member[0] == 3);
	model_free(&md);
}

/* Jitter: within ±j of the latency, the same draws from the same seed. */
static void test_jitter_seeded(void **state)
{
	struct model_cfg c = cfg(4096, 1, 65536);
	struct model a, b;
	struct model_placement pa, pb;
	double sum = 0;

	(void)state;
	c.jitter = 0.1;
	init_ok(&a, &c);
	init_ok(&b, &c);
	for (unsigned i = 0; i < 4000; i++) {
		model_read(&a, 0, 0, 8192, 0, &pa);
		model_read(&b, 0, 0, 8192, 0, &pb);
		assert_int_equal(pa.done_ns, pb.done_ns);
		assert_true(pa.done_ns >= 900000 && pa.done_ns <= 1100000);
		sum += (double)pa.done_ns;
	}
	assert_true(sum / 4000 > 0.99 * MS && sum / 4000 < 1.01 * MS);
	model_free(&a);
	model_free(&b);
}

static void test_bounds_refused(void **state)
{
	struct model md;
	char err[256];
	struct model_cfg c;

	(void)state;
	c = cfg(0, 1, 65536);
	assert_int_equal(model_init(&md, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "parallel 0"));
	c = cfg(1, 0, 65536);
	assert_int_equal(model_init(&md, &c, err, sizeof(err)), -EINVAL);
	c = cfg(1, 3, 65536);
	c.layout = MODEL_RAID10;
	assert_int_equal(model_init(&md, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "even"));
	c = cfg(1, 2, 6144);
	assert_int_equal(model_init(&md, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "4 KiB"));
	c = cfg(1, 1, 65536);
	c.latency_ns = 11000 * MS;
	assert_int_equal(model_init(&md, &c, err, sizeof(err)), -EINVAL);
}

/* Two reads overlapping for 1 ms: the integral is 3 ms, busy 2 ms. */
static void test_counters_integral(void **state)
{
	struct counters c;
	char buf[512];
	struct disk_snap d;

	(void)state;
	counters_init(&c, 2, 0);
	counters_arrive(&c.dev, 8192, 0);
	counters_arrive(&c.dev, 65536, MS);
	counters_done(&c.dev, 0, 2 * MS);
	counters_done(&c.dev, MS, 2 * MS);
	counters_settle(&c, 4 * MS);
	assert_int_equal(c.dev.area_ns, 3 * MS);
	assert_int_equal(c.dev.busy_ns, 2 * MS);
	assert_int_equal(c.dev.max_inflight, 2);
	assert_int_equal(c.dev.read_ns, 3 * MS);
	assert_int_equal(c.dev.sizes[counters_size_bucket(8192)], 1);
	assert_int_equal(counters_size_bucket(4096), 0);
	assert_int_equal(counters_size_bucket(65536), 4);
	counters_diskstats(&c, buf, sizeof(buf));
	/* the suite reads these lines as it reads /proc/diskstats */
	assert_int_equal(sysstat_disk_parse(buf, COUNTERS_DEVICE_NAME, &d), 0);
	assert_int_equal(d.reads, 2);
	assert_int_equal(d.read_sectors, (8192 + 65536) / 512);
	assert_int_equal(d.weighted_ms, 3);
	assert_int_equal(d.io_ms, 2);
	assert_int_equal(sysstat_disk_parse(buf, COUNTERS_DEVICE_NAME ".m1", &d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid0_stripes),
		cmocka_unit_test(test_raid0_split),
		cmocka_unit_test(test_slots_fifo),
		cmocka_unit_test(test_bandwidth_channel),
		cmocka_unit_test(test_raid10_less_busy),
		cmocka_unit_test(test_jitter_seeded),
		cmocka_unit_test(test_bounds_refused),
		cmocka_unit_test(test_counters_integral),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
