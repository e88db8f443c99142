/*
 * test_sysstat: parsing of real /proc text captured on a Debian 12 VM
 * (kernel 6.x, virtio disk), the differences between two snapshots, and a
 * live look at the device under "/" that checks shape only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/sysstat.h"
#include "tests/fixture.h"

#define put(root, rel, text) assert_int_equal(fixture_put(root, rel, text), 0)

static const char diskstats_a[] =
	"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"   7       1 loop1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	" 254       0 vda 29302 5488 1947762 6772 4497 5386 504264 1359 0 3212 8376 4188 40 105928 211 848 32\n"
	" 254       1 vda1 29000 5400 1940000 6700 4400 5300 500000 1300 0 3100 8200\n"
	" 253       0 zram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

static const char diskstats_b[] =
	" 254       0 vda 39216 13084 3669506 19516 11028 6551 4268744 8587 2 5856 28679 5466 40 2065360 450 3551 124\n";

static const char stat_a[] =
	"cpu  2169 0 1624 39778 326 0 23 7 0 0\n"
	"cpu0 958 0 586 20382 28 0 5 2 0 0\n"
	"cpu1 1210 0 1037 19395 298 0 17 5 0 0\n"
	"intr 1234 0 0\n"
	"ctxt 99\n";

static const char stat_b[] =
	"cpu  2269 0 1674 39828 426 0 23 7 0 0\n"
	"cpu0 1008 0 611 20407 78 0 5 2 0 0\n"
	"cpu1 1260 0 1062 19420 348 0 17 5 0 0\n";

/* comm holds a space and a ')': the parser must use the last ')'. */
static const char pstat[] =
	"3661 (my prog) x) R 3657 3657 2697 0 -1 4194304 103 0 0 0 250 75 0 0 20 0 1 0 "
	"22070 3133440 387 18446744073709551615 94647610228736 94647610248617 "
	"140724404669968 0 0 0 0 0 0 0 0 0 17 3 0 0 0 0 0\n";

static void test_disk_parse(void **state)
{
	struct disk_snap d;
	(void)state;

	assert_int_equal(sysstat_disk_parse(diskstats_a, "vda", &d), 0);
	assert_string_equal(d.name, "vda");
	assert_int_equal(d.reads, 29302);
	assert_int_equal(d.reads_merged, 5488);
	assert_int_equal(d.read_sectors, 1947762);
	assert_int_equal(d.read_ms, 6772);
	assert_int_equal(d.writes, 4497);
	assert_int_equal(d.in_flight, 0);
	assert_int_equal(d.io_ms, 3212);
	assert_int_equal(d.weighted_ms, 8376);
	assert_int_equal(sysstat_disk_parse(diskstats_a, "vda1", &d), 0);   /* short line */
	assert_int_equal(d.weighted_ms, 8200);
	assert_int_equal(sysstat_disk_parse(diskstats_a, "sda", &d), -ENOENT);
	assert_int_equal(sysstat_disk_parse(diskstats_a, "vd", &d), -ENOENT);
}

static void test_disk_diff(void **state)
{
	struct disk_snap a, b;
	struct disk_delta dd;
	(void)state;

	sysstat_disk_parse(diskstats_a, "vda", &a);
	sysstat_disk_parse(diskstats_b, "vda", &b);
	a.taken_ns = 1000000000;
	b.taken_ns = 3000000000;
	sysstat_disk_diff(&a, &b, &dd);
	assert_true(fabs(dd.elapsed_s - 2.0) < 1e-9);
	assert_int_equal(dd.reads, 39216 - 29302);
	assert_int_equal(dd.read_bytes, (uint64_t)(3669506 - 1947762) * 512);
	assert_true(fabs(dd.avg_read_kib - (3669506 - 1947762) * 512.0 / 9914 / 1024) < 1e-9);
	assert_true(fabs(dd.avg_queue_depth - (28679 - 8376) / 2000.0) < 1e-9);
	assert_true(fabs(dd.util_pct - (5856 - 3212) / 20.0) < 1e-9);
	assert_true(fabs(dd.read_await_ms - (19516 - 6772) / 9914.0) < 1e-9);
}

static void test_cpu(void **state)
{
	struct cpu_snap a, b;
	struct cpu_delta d;
	(void)state;

	assert_int_equal(sysstat_cpu_parse(stat_a, &a), 0);
	assert_int_equal(a.ncpu, 2);
	assert_int_equal(a.user, 2169);
	assert_int_equal(a.steal, 7);
	assert_int_equal(sysstat_cpu_parse(stat_b, &b), 0);
	sysstat_cpu_diff(&a, &b, &d);       /* 100 user, 50 sys, 50 idle, 100 iowait */
	assert_true(fabs(d.user_pct - 33.333333) < 1e-3);
	assert_true(fabs(d.system_pct - 16.666667) < 1e-3);
	assert_true(fabs(d.idle_pct - 16.666667) < 1e-3);
	assert_true(fabs(d.iowait_pct - 33.333333) < 1e-3);
	assert_true(fabs(d.steal_pct) < 1e-9);
	b.steal += 30;                      /* 30 ticks of 330 taken by the host */
	sysstat_cpu_diff(&a, &b, &d);
	assert_true(fabs(d.steal_pct - 30.0 / 330 * 100) < 1e-6);
	assert_int_equal(sysstat_cpu_parse("intr 1 2 3\n", &a), -EINVAL);
}

/* /proc/PID/schedstat: on-CPU ns, run-queue ns, timeslices; a live read of
 * this thread's grows with the CPU it burns. */
static void test_sched(void **state)
{
	struct sched_snap a, b;
	uint64_t x = 1;
	(void)state;

	assert_int_equal(sysstat_sched_parse("188670323 24507219 416\n", &a), 0);
	assert_int_equal(a.oncpu_ns, 188670323);
	assert_int_equal(a.runqueue_ns, 24507219);
	assert_int_equal(a.slices, 416);
	assert_int_equal(sysstat_sched_parse("18446744073709551615 0 1\n", &a), 0);
	assert_true(a.oncpu_ns == UINT64_MAX);
	assert_int_equal(sysstat_sched_parse("12 34\n", &a), -EINVAL);
	assert_int_equal(sysstat_sched_parse("12 34 x\n", &a), -EINVAL);
	assert_int_equal(sysstat_sched_parse("", &a), -EINVAL);
	assert_int_equal(sysstat_sched_read(0, &a), 0);
	for (volatile int i = 0; i < 20000000; i++)
		x = x * 6364136223846793005ULL + 1;
	assert_int_equal(sysstat_sched_read(getpid(), &b), 0);
	assert_int_equal(sysstat_sched_read(0, &b), 0);
	assert_true(b.oncpu_ns > a.oncpu_ns);
	assert_true(b.taken_ns > a.taken_ns);
	assert_true(x != 0);
	assert_int_equal(sysstat_sched_read(999999999, &b), -ENOENT);
}

static void test_proc(void **state)
{
	struct proc_snap a, b;
	struct proc_delta d;
	(void)state;

	assert_int_equal(sysstat_proc_parse(pstat, &a), 0);
	assert_int_equal(a.utime, 250);
	assert_int_equal(a.stime, 75);
	assert_int_equal(a.processor, 3);
	/* a stat cut before the CPU it ran on: the times, and no CPU */
	assert_int_equal(sysstat_proc_parse("1 (x) S 0 0 0 0 -1 0 0 0 0 0 7 8 0 0", &a), 0);
	assert_int_equal(a.utime, 7);
	assert_int_equal(a.processor, -1);
	assert_int_equal(sysstat_proc_parse("garbage", &a), -EINVAL);
	a = (struct proc_snap){ .utime = 100, .stime = 50, .taken_ns = 0 };
	b = (struct proc_snap){ .utime = 300, .stime = 150, .taken_ns = 4000000000 };
	sysstat_proc_diff(&a, &b, &d);
	assert_true(d.user_s > 0 && d.system_s > 0);
	assert_true(fabs(d.cpu_share - (d.user_s + d.system_s) / 4.0) < 1e-9);
}

static void test_fstype(void **state)
{
	static const char mountinfo[] =
		"22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		"23 22 0:21 / /proc rw,nosuid - proc proc rw\n"
		"31 22 8:17 / /mnt/new\\040ssd rw shared:9 - xfs /dev/sdb1 rw,attr2\n";
	char t[32];

	(void)state;
	sysstat_fstype_parse(mountinfo, 253, 0, t, sizeof(t));
	assert_string_equal(t, "ext4");
	sysstat_fstype_parse(mountinfo, 8, 17, t, sizeof(t));
	assert_string_equal(t, "xfs");
	sysstat_fstype_parse(mountinfo, 8, 1, t, sizeof(t));
	assert_string_equal(t, "unknown");
	sysstat_fstype_parse("", 8, 1, t, sizeof(t));
	assert_string_equal(t, "unknown");
}

/* A sysfs tree as this VM's: a console, then a balloon offering reporting
 * (bit 5 of its features); the counts where the kernel keeps them. */
static void test_page_reporting(void **state)
{
	char *root = fixture_dir();
	struct page_reporting p;
	(void)state;

	assert_non_null(root);
	assert_int_equal(sysstat_page_reporting_read(root, &p), -ENOENT);
	assert_false(p.on);
	put(root, "bus/virtio/devices/virtio3/device", "0x0003\n");
	put(root, "bus/virtio/devices/virtio3/features", "0000011111000000\n");
	assert_int_equal(sysstat_page_reporting_read(root, &p), 0);
	assert_false(p.on);           /* a console's bit 5 says nothing */
	/* a balloon without reporting (statistics and deflate on OOM only) */
	put(root, "bus/virtio/devices/virtio0/device", "0x0005\n");
	put(root, "bus/virtio/devices/virtio0/features", "0110000000000000000000000000000010\n");
	assert_int_equal(sysstat_page_reporting_read(root, &p), 0);
	assert_false(p.on);
	assert_int_equal(p.order, -1);
	/* with reporting, the order and the count not yet published */
	put(root, "bus/virtio/devices/virtio0/features", "0110010100000000000000000000000010\n");
	assert_int_equal(sysstat_page_reporting_read(root, &p), 0);
	assert_true(p.on);
	assert_int_equal(p.order, -1);
	assert_int_equal(p.reported_kib, -1);
	put(root, "module/page_reporting/parameters/page_reporting_order", "9\n");
	put(root, "module/page_reporting/parameters/reported_kib", "225383320\n");
	assert_int_equal(sysstat_page_reporting_read(root, &p), 0);
	assert_true(p.on);
	assert_int_equal(p.order, 9);
	assert_int_equal(p.reported_kib, 225383320LL);
	fixture_remove(root);
	free(root);
}

static void test_live(void **state)
{
	struct device_info info;
	struct disk_snap snap;
	struct cpu_snap cpu;
	struct proc_snap ps;
	int rc;
	(void)state;

	assert_int_equal(sysstat_cpu_read(&cpu), 0);
	assert_true(cpu.ncpu >= 1);
	assert_int_equal(sysstat_proc_read(getpid(), &ps), 0);
	rc = sysstat_device_for_path("/var/tmp", &info);
	if (rc == -ENODEV)                  /* overlay, tmpfs: no block device */
		return;
	assert_int_equal(rc, 0);
	assert_true(info.name[0] != '\0' && info.disk[0] != '\0');
	assert_true(info.logical_block_size >= 512);
	assert_true(info.rotational == 0 || info.rotational == 1);
	assert_null(strchr(info.scheduler, '['));
	assert_int_equal(sysstat_disk_read(info.name, &snap), 0);
	assert_true(snap.taken_ns > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disk_parse),
		cmocka_unit_test(test_disk_diff),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_sched),
		cmocka_unit_test(test_fstype),
		cmocka_unit_test(test_page_reporting),
		cmocka_unit_test(test_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
