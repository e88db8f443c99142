/*
 * test_sampler: windows over samples interpolate the counters linearly
 * (checked on samples written by hand), windows too short to split are
 * refused, and a live run samples this process's CPU and a real device. A
 * pid added while the sampler runs counts 0 before its first reading (by
 * hand, and live with a child that used CPU and then was killed: its
 * figures stay, no longer read, rather than going missing).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "io/clock.h"
#include "io/sampler.h"

/* Three samples 1 s apart: the disk reads 100 then 300 requests of 8 KiB,
 * its weighted time grows 200 then 600 ms; the pid uses 50 then 100 ticks. */
static void hand_samples(struct sampler *s)
{
	memset(s, 0, sizeof(*s));
	s->cfg.ndisks = 1;
	s->cfg.npids = 1;
	s->cfg.interval_ms = 100;
	s->n = s->cap = 3;
	s->samples = calloc(3, sizeof(*s->samples));
	for (int k = 0; k < 3; k++)
		s->samples[k].t_ns = (uint64_t)(k + 1) * 1000000000u;
	s->samples[1].disk[0].reads = 100;
	s->samples[2].disk[0].reads = 400;
	s->samples[1].disk[0].read_sectors = 1600;
	s->samples[2].disk[0].read_sectors = 6400;
	s->samples[1].disk[0].weighted_ms = 200;
	s->samples[2].disk[0].weighted_ms = 800;
	s->samples[1].utime[0] = 50;
	s->samples[2].utime[0] = 150;
	s->samples[2].stime[0] = 0;
	s->samples[1].oncpu_ns[0] = 500000000u;     /* 0.5 s, then 1 s more on a CPU */
	s->samples[2].oncpu_ns[0] = 1500000000u;
	s->samples[2].runqueue_ns[0] = 200000000u;  /* 0.2 s waiting for one in the second second */
}

static void interpolation(void **state)
{
	struct sampler s;
	struct disk_delta d;
	struct proc_delta p;
	double hz = (double)sysconf(_SC_CLK_TCK);

	(void)state;
	hand_samples(&s);
	/* the second second alone */
	assert_int_equal(sampler_disk_window(&s, 0, 2000000000u, 3000000000u, &d), 0);
	assert_int_equal(d.reads, 300);
	assert_float_equal(d.avg_read_kib, 8.0, 1e-9);
	assert_float_equal(d.avg_queue_depth, 0.6, 1e-9);
	/* half of each second: 50 + 150 reads, 100 + 300 weighted ms */
	assert_int_equal(sampler_disk_window(&s, 0, 1500000000u, 2500000000u, &d), 0);
	assert_int_equal(d.reads, 200);
	assert_float_equal(d.avg_queue_depth, 0.4, 1e-9);
	assert_int_equal(sampler_proc_window(&s, 0, 1500000000u, 2500000000u, &p), 0);
	assert_float_equal(p.user_s, 75.0 / hz, 1e-9);
	assert_float_equal(p.cpu_share, 75.0 / hz, 1e-9);
	assert_true(p.have_sched);
	assert_float_equal(p.oncpu_s, 0.25 + 0.5, 1e-9);
	assert_float_equal(p.runqueue_s, 0.1, 1e-9);
	/* a reading that would put more on the CPU than the window holds is clamped */
	s.samples[2].oncpu_ns[0] = 2600000000u;
	assert_int_equal(sampler_proc_window(&s, 0, 2000000000u, 3000000000u, &p), 0);
	assert_float_equal(p.oncpu_s, 1.0, 1e-9);
	assert_float_equal(p.runqueue_s, 0.0, 1e-9);
	s.samples[2].oncpu_ns[0] = 1500000000u;
	s.sched_missing[0] = true;
	assert_int_equal(sampler_proc_window(&s, 0, 2000000000u, 3000000000u, &p), 0);
	assert_false(p.have_sched);
	s.sched_missing[0] = false;
	/* clamped to the run */
	assert_int_equal(sampler_disk_window(&s, 0, 0, 9000000000u, &d), 0);
	assert_int_equal(d.reads, 400);
	assert_float_equal(d.elapsed_s, 2.0, 1e-9);
	/* the whole run is exact however short; a part of it under two intervals is too short */
	s.samples[1].t_ns = 1050000000u;
	s.samples[2].t_ns = 1100000000u;
	assert_int_equal(sampler_disk_window(&s, 0, 1000000000u, 1100000000u, &d), 0);
	assert_int_equal(d.reads, 400);
	assert_int_equal(sampler_disk_window(&s, 0, 1000000000u, 1090000000u, &d), -ERANGE);
	s.samples[1].t_ns = 2000000000u;
	s.samples[2].t_ns = 3000000000u;
	/* too short (under two intervals), empty, unknown disk or pid */
	assert_int_equal(sampler_disk_window(&s, 0, 2000000000u, 2150000000u, &d), -ERANGE);
	assert_int_equal(sampler_disk_window(&s, 0, 2500000000u, 2000000000u, &d), -ERANGE);
	assert_int_equal(sampler_disk_window(&s, 1, 1000000000u, 3000000000u, &d), -ENOENT);
	assert_int_equal(sampler_proc_window(&s, 3, 1000000000u, 3000000000u, &p), -ENOENT);
	free(s.samples);
}

/* The pid on CPU 0 for the first second (0.5 s on it), on CPU 1 for the
 * second (1 s); the device's interrupts land on CPU 1, 100 then 200. */
static void placement(void **state)
{
	struct sampler s;
	struct irqcpu_placement p;
	(void)state;

	hand_samples(&s);
	s.cfg.irqs = (struct irqcpu_irqs){ .n = 1, .irq = { 36 } };
	s.irq_ncpu = 2;
	s.samples[0].cpu_of[0] = 1;
	s.samples[1].cpu_of[0] = 0;
	s.samples[2].cpu_of[0] = 1;
	s.samples[1].irqs[1] = 100;
	s.samples[2].irqs[1] = 300;
	assert_int_equal(sampler_placement_window(&s, 0, 1000000000u, 3000000000u, &p), 0);
	assert_true(p.have_reader && p.have_irqs);
	assert_int_equal(p.ncpu, 2);
	assert_float_equal(p.share[0], 1.0 / 3, 1e-9);
	assert_float_equal(p.share[1], 2.0 / 3, 1e-9);
	assert_int_equal(p.irqs[0], 0);
	assert_int_equal(p.irqs[1], 300);
	assert_float_equal(irqcpu_on_irq_cpu(&p), 2.0 / 3, 1e-9);
	/* 0.8 s of the first second, 0.2 s of the second: each interval by its
	 * overlap (0.4 s and 0.2 s on a CPU), the interrupts interpolated */
	assert_int_equal(sampler_placement_window(&s, 0, 1200000000u, 2200000000u, &p), 0);
	assert_float_equal(p.share[0], 0.4 / 0.6, 1e-9);
	assert_int_equal(p.irqs[1], 120);
	/* the second second alone */
	assert_int_equal(sampler_placement_window(&s, 0, 2000000000u, 3000000000u, &p), 0);
	assert_float_equal(p.share[1], 1.0, 1e-9);
	assert_float_equal(irqcpu_on_irq_cpu(&p), 1.0, 1e-9);
	/* without schedstat, by ticks: 50 then 100 */
	s.sched_missing[0] = true;
	assert_int_equal(sampler_placement_window(&s, 0, 1000000000u, 3000000000u, &p), 0);
	assert_float_equal(p.share[0], 50.0 / 150, 1e-9);
	s.sched_missing[0] = false;
	/* a CPU not known is left out; an interrupt count that failed, no interrupts */
	s.samples[1].cpu_of[0] = -1;
	s.irqs_missing = true;
	assert_int_equal(sampler_placement_window(&s, 0, 1000000000u, 3000000000u, &p), 0);
	assert_float_equal(p.share[1], 1.0, 1e-9);
	assert_false(p.have_irqs);
	assert_true(isnan(irqcpu_on_irq_cpu(&p)));
	/* a pid never on a CPU in the window: no reader */
	memset(s.samples[2].oncpu_ns, 0, sizeof(s.samples[2].oncpu_ns));
	s.samples[1].oncpu_ns[0] = 0;
	assert_int_equal(sampler_placement_window(&s, 0, 1000000000u, 3000000000u, &p), 0);
	assert_false(p.have_reader);
	assert_int_equal(sampler_placement_window(&s, 3, 1000000000u, 3000000000u, &p), -ENOENT);
	free(s.samples);
}

static void live(void **state)
{
	struct sampler_cfg cfg = { .npids = 2, .pids = { getpid(), 999999999 }, .interval_ms = 20 };
	struct device_info dev;
	struct sampler s;
	struct proc_delta p;
	struct cpu_delta c;
	volatile double x = 0;
	uint64_t end;

	(void)state;
	if (sysstat_device_for_path("/var/tmp", &dev) == 0) {
		cfg.disks[0] = dev.name;
		cfg.ndisks = 1;
	}
	assert_int_equal(sampler_start(&s, &cfg), 0);
	end = clock_now_ns() + 300000000u;
	while (clock_now_ns() < end)
		x += sqrt(x + 1.0);
	sampler_stop(&s);
	sampler_stop(&s);		/* a second stop is harmless */
	assert_int_equal(s.error, 0);
	assert_true(s.n >= 3);
	assert_int_equal(sampler_proc_window(&s, 0, sampler_first_ns(&s), sampler_last_ns(&s), &p), 0);
	assert_true(p.cpu_share > 0.0 && p.cpu_share < 1.5);
	assert_true(p.have_sched);
	assert_true(p.oncpu_s > 0.0);
	assert_true(p.oncpu_s + p.runqueue_s <= (double)(sampler_last_ns(&s) - sampler_first_ns(&s)) / 1e9 + 1e-9);
	assert_int_equal(sampler_proc_window(&s, 1, sampler_first_ns(&s), sampler_last_ns(&s), &p), -ENOENT);
	assert_int_equal(sampler_cpu_window(&s, sampler_first_ns(&s), sampler_last_ns(&s), &c), 0);
	/* the five shares are the whole of the CPUs' time, steal among them */
	assert_true(fabs(c.user_pct + c.system_pct + c.idle_pct + c.iowait_pct +
			 c.steal_pct - 100.0) < 0.01);
	if (cfg.ndisks) {
		struct disk_delta d;

		assert_int_equal(sampler_disk_window(&s, 0, sampler_first_ns(&s), sampler_last_ns(&s), &d), 0);
		assert_true(d.elapsed_s > 0.2);
	}
	sampler_free(&s);
}

/*
 * Pid 1 was added at the third sample (1 s apart) with 100 ticks then:
 * before that it counts 0, so the whole run holds its 100 ticks, a window
 * before its first reading holds none, and half the interval before that
 * reading holds half of them.
 */
static void added_pid_by_hand(void **state)
{
	struct sampler s;
	struct proc_delta p;
	double hz = (double)sysconf(_SC_CLK_TCK);

	(void)state;
	hand_samples(&s);
	s.cfg.npids = 2;
	s.pid_first[1] = 2;
	s.samples[2].utime[1] = 100;
	assert_int_equal(sampler_pid_since_ns(&s, 1), 3000000000u);
	assert_int_equal(sampler_proc_window(&s, 1, 0, UINT64_MAX, &p), 0);
	assert_float_equal(p.user_s, 100 / hz, 1e-9);
	assert_float_equal(p.cpu_share, 100 / hz / 2.0, 1e-9);
	assert_int_equal(sampler_proc_window(&s, 1, 1000000000u, 2000000000u, &p), 0);
	assert_float_equal(p.user_s, 0.0, 1e-12);
	assert_int_equal(sampler_proc_window(&s, 1, 2500000000u, 3000000000u, &p), 0);
	assert_float_equal(p.user_s, 50 / hz, 1e-9);
	/* never read: no figures */
	s.pid_first[1] = SAMPLER_NEVER;
	assert_int_equal(sampler_pid_since_ns(&s, 1), 0);
	assert_int_equal(sampler_proc_window(&s, 1, 0, UINT64_MAX, &p), -ENOENT);
	free(s.samples);
}

/* A child that used 50 ms of CPU, says so on FD, and waits to be killed. */
static void burn_then_wait(int fd)
{
	struct timespec ts;
	volatile double x = 0;

	do {
		x += sqrt(x + 1.0);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec == 0 && ts.tv_nsec < 50000000);
	if (write(fd, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

static void added_pid_live(void **state)
{
	struct sampler_cfg cfg = { .npids = 1, .pids = { getpid() }, .interval_ms = 10 };
	struct sampler s;
	struct proc_delta p;
	double hz = (double)sysconf(_SC_CLK_TCK);
	int fds[2], j, ghost;
	size_t k0;
	pid_t child;
	char c;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(sampler_start(&s, &cfg), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		burn_then_wait(fds[1]);
	assert_int_equal(read(fds[0], &c, 1), 1);
	j = sampler_add_pid(&s, child);
	assert_int_equal(j, 1);
	ghost = sampler_add_pid(&s, 999999999);	/* no such process */
	assert_int_equal(ghost, 2);
	assert_int_equal(sampler_add_pid(&s, 0), -EINVAL);
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, NULL, 0), child);
	clock_sleep_ms(30);
	sampler_stop(&s);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(s.error, 0);
	assert_int_equal(s.cfg.npids, 3);
	assert_int_equal(sampler_add_pid(&s, getpid()), -EINVAL);	/* stopped */
	/* read first by the sample sampler_add_pid() took, 0 before it */
	k0 = s.pid_first[1];
	assert_true(k0 >= 1 && k0 < s.n - 1);
	assert_true(sampler_pid_since_ns(&s, 1) > sampler_first_ns(&s));
	for (size_t k = 0; k < k0; k++)
		assert_true(s.samples[k].utime[1] == 0 && s.samples[k].stime[1] == 0);
	assert_true(s.samples[k0].utime[1] + s.samples[k0].stime[1] > 0);
	/* gone after it was read: its last reading stays to the end */
	assert_true(s.samples[s.n - 1].utime[1] >= s.samples[k0].utime[1]);
	assert_int_equal(sampler_proc_window(&s, 1, 0, UINT64_MAX, &p), 0);
	assert_float_equal(p.user_s + p.system_s,
			   (double)(s.samples[s.n - 1].utime[1] + s.samples[s.n - 1].stime[1]) / hz, 1e-9);
	assert_int_equal(sampler_proc_window(&s, ghost, 0, UINT64_MAX, &p), -ENOENT);
	sampler_free(&s);
}

/* The list fills up at SAMPLER_MAX_PIDS. */
static void added_pid_full(void **state)
{
	struct sampler_cfg cfg = { .npids = SAMPLER_MAX_PIDS - 1, .interval_ms = 1000 };
	struct sampler s;

	(void)state;
	for (int j = 0; j < cfg.npids; j++)
		cfg.pids[j] = getpid();
	assert_int_equal(sampler_start(&s, &cfg), 0);
	assert_int_equal(sampler_add_pid(&s, getpid()), SAMPLER_MAX_PIDS - 1);
	assert_int_equal(sampler_add_pid(&s, getpid()), -ENOSPC);
	sampler_free(&s);
	cfg.npids = SAMPLER_MAX_PIDS + 1;
	assert_int_equal(sampler_start(&s, &cfg), -EINVAL);
	sampler_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interpolation),
		cmocka_unit_test(placement),
		cmocka_unit_test(live),
		cmocka_unit_test(added_pid_by_hand),
		cmocka_unit_test(added_pid_live),
		cmocka_unit_test(added_pid_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
