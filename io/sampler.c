/*
 * sampler: the samples, taken by an io/ticker.h thread (and at once by
 * sampler_add_pid(), under the same lock), and windows over them; see
 * sampler.h.
 */
#include "io/sampler.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/clock.h"

/* Room for one more sample. */
static struct sampler_sample *new_sample(struct sampler *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		void *p = realloc(s->samples, cap * sizeof(*s->samples));

		if (!p)
			return NULL;
		s->samples = p;
		s->cap = cap;
	}
	memset(&s->samples[s->n], 0, sizeof(s->samples[0]));
	return &s->samples[s->n];
}

/* Pid J's CPU ticks and scheduler times into X; one not read yet stays 0,
 * one that ended keeps its last reading. */
static void take_pid(struct sampler *s, int j, struct sampler_sample *x,
		     const struct sampler_sample *prev)
{
	struct proc_snap p;
	struct sched_snap q;

	x->cpu_of[j] = -1;
	if (sysstat_proc_read(s->cfg.pids[j], &p) == 0) {
		x->utime[j] = p.utime;
		x->stime[j] = p.stime;
		x->cpu_of[j] = (int16_t)(p.processor < IRQCPU_MAX_CPUS ? p.processor : -1);
		if (sysstat_sched_read(s->cfg.pids[j], &q) == 0) {
			x->oncpu_ns[j] = q.oncpu_ns;
			x->runqueue_ns[j] = q.runqueue_ns;
		} else {
			s->sched_missing[j] = true;   /* a kernel without schedstat */
		}
		if (s->pid_first[j] == SAMPLER_NEVER)
			s->pid_first[j] = s->n;
	} else if (prev && s->pid_first[j] != SAMPLER_NEVER) {
		x->utime[j] = prev->utime[j];
		x->stime[j] = prev->stime[j];
		x->oncpu_ns[j] = prev->oncpu_ns[j];
		x->runqueue_ns[j] = prev->runqueue_ns[j];
	}
}

/* One sample (under the lock while the thread runs). */
static int take(struct sampler *s)
{
	struct sampler_sample *x = new_sample(s), *prev;

	if (!x)
		return -ENOMEM;
	prev = s->n ? &s->samples[s->n - 1] : NULL;	/* after new_sample() moved them */
	for (int i = 0; i < s->cfg.ndisks; i++)
		if (sysstat_disk_read_file(s->cfg.disk_file, s->cfg.disks[i], &x->disk[i]) < 0) {
			s->disk_missing[i] = true;
			if (prev)
				x->disk[i] = prev->disk[i];
		}
	if (sysstat_cpu_read(&x->cpu) < 0 && prev)
		x->cpu = prev->cpu;
	if (s->cfg.irqs.n && !s->irqs_missing) {
		struct irqcpu_counts c;

		if (irqcpu_read(NULL, &s->cfg.irqs, &c) == 0) {
			memcpy(x->irqs, c.per_cpu, sizeof(x->irqs));
			if (c.ncpu > s->irq_ncpu)
				s->irq_ncpu = c.ncpu;
		} else {
			s->irqs_missing = true;
		}
	}
	/* the processes last, right before the time stamp they are read at */
	for (int j = 0; j < s->cfg.npids; j++)
		take_pid(s, j, x, prev);
	x->t_ns = clock_now_ns();
	if (prev && x->t_ns - prev->t_ns > s->max_gap_ns)
		s->max_gap_ns = x->t_ns - prev->t_ns;
	s->n++;
	return 0;
}

static int tick(void *arg)
{
	struct sampler *s = arg;
	int rc;

	pthread_mutex_lock(&s->lock);
	rc = take(s);
	pthread_mutex_unlock(&s->lock);
	return s->error = rc;
}

int sampler_start(struct sampler *s, const struct sampler_cfg *cfg)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (s->cfg.interval_ms <= 0)
		s->cfg.interval_ms = 100;
	if (s->cfg.npids < 0 || s->cfg.npids > SAMPLER_MAX_PIDS ||
	    s->cfg.ndisks < 0 || s->cfg.ndisks > SAMPLER_MAX_DISKS)
		return -EINVAL;
	for (int j = 0; j < SAMPLER_MAX_PIDS; j++)
		s->pid_first[j] = SAMPLER_NEVER;
	if ((rc = take(s)) < 0)
		return rc;
	if ((rc = pthread_mutex_init(&s->lock, NULL)) != 0)
		return -rc;
	s->running = true;
	rc = ticker_start(&s->ticker, (uint64_t)s->cfg.interval_ms * 1000000u, tick, s);
	if (rc < 0) {
		s->running = false;
		pthread_mutex_destroy(&s->lock);
	}
	return rc;
}

void sampler_stop(struct sampler *s)
{
	if (!s->running)
		return;
	ticker_stop(&s->ticker);
	pthread_mutex_destroy(&s->lock);
	s->running = false;
	if (s->error == 0)
		s->error = take(s);
}

int sampler_add_pid(struct sampler *s, pid_t pid)
{
	int j, rc;

	if (pid <= 0 || !s->running)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	j = s->cfg.npids;
	if (j == SAMPLER_MAX_PIDS) {
		pthread_mutex_unlock(&s->lock);
		return -ENOSPC;
	}
	s->cfg.pids[j] = pid;
	s->pid_first[j] = SAMPLER_NEVER;
	s->sched_missing[j] = false;
	s->cfg.npids++;
	rc = take(s);
	pthread_mutex_unlock(&s->lock);
	return rc < 0 ? rc : j;
}

uint64_t sampler_pid_since_ns(const struct sampler *s, int j)
{
	if (j < 0 || j >= s->cfg.npids || s->pid_first[j] == SAMPLER_NEVER)
		return 0;
	return s->samples[s->pid_first[j]].t_ns;
}

void sampler_free(struct sampler *s)
{
	sampler_stop(s);
	free(s->samples);
	s->samples = NULL;
	s->n = s->cap = 0;
}

uint64_t sampler_first_ns(const struct sampler *s)
{
	return s->n ? s->samples[0].t_ns : 0;
}

uint64_t sampler_last_ns(const struct sampler *s)
{
	return s->n ? s->samples[s->n - 1].t_ns : 0;
}

/* The counter at time T, linear between the samples around it. */
#define AT(s, k, t, field) interp(s, k, t, \
	(double)(s)->samples[k].field, (double)(s)->samples[(k) + 1].field)

static double interp(const struct sampler *s, size_t k, uint64_t t, double a, double b)
{
	double span = (double)(s->samples[k + 1].t_ns - s->samples[k].t_ns);

	if (span <= 0)
		return b;
	return a + (b - a) * ((double)t - (double)s->samples[k].t_ns) / span;
}

/* The sample K with t_k <= T <= t_{k+1} (so K < n - 1); T is clamped to
 * the run. */
static size_t find(const struct sampler *s, uint64_t *t)
{
	size_t lo = 0, hi = s->n - 1;

	if (*t < s->samples[0].t_ns)
		*t = s->samples[0].t_ns;
	if (*t > s->samples[hi].t_ns)
		*t = s->samples[hi].t_ns;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->samples[mid].t_ns <= *t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Clamp the window and check it spans two intervals at least, unless it
 * is the whole run (first to last sample: no interpolation at all). */
static int window(const struct sampler *s, uint64_t *t0, uint64_t *t1, size_t *k0, size_t *k1)
{
	if (s->n < 2 || *t1 <= *t0)
		return -ERANGE;
	*k0 = find(s, t0);
	*k1 = find(s, t1);
	if (*t0 == s->samples[0].t_ns && *t1 == s->samples[s->n - 1].t_ns)
		return 0;
	if (*t1 - *t0 < 2 * (uint64_t)s->cfg.interval_ms * 1000000u)
		return -ERANGE;
	return 0;
}

static uint64_t round_u64(double v)
{
	return v <= 0 ? 0 : (uint64_t)llround(v);
}

static void disk_at(const struct sampler *s, int i, size_t k, uint64_t t, struct disk_snap *d)
{
	*d = s->samples[k].disk[i];
	d->reads = round_u64(AT(s, k, t, disk[i].reads));
	d->reads_merged = round_u64(AT(s, k, t, disk[i].reads_merged));
	d->read_sectors = round_u64(AT(s, k, t, disk[i].read_sectors));
	d->read_ms = round_u64(AT(s, k, t, disk[i].read_ms));
	d->writes = round_u64(AT(s, k, t, disk[i].writes));
	d->write_sectors = round_u64(AT(s, k, t, disk[i].write_sectors));
	d->io_ms = round_u64(AT(s, k, t, disk[i].io_ms));
	d->weighted_ms = round_u64(AT(s, k, t, disk[i].weighted_ms));
	d->taken_ns = t;
}

int sampler_disk_window(const struct sampler *s, int i, uint64_t t0, uint64_t t1,
			struct disk_delta *out)
{
	struct disk_snap a, b;
	size_t k0, k1;
	int rc;

	memset(out, 0, sizeof(*out));
	if (i < 0 || i >= s->cfg.ndisks || s->disk_missing[i])
		return -ENOENT;
	if ((rc = window(s, &t0, &t1, &k0, &k1)) < 0)
		return rc;
	disk_at(s, i, k0, t0, &a);
	disk_at(s, i, k1, t1, &b);
	sysstat_disk_diff(&a, &b, out);
	return 0;
}

static void cpu_at(const struct sampler *s, size_t k, uint64_t t, struct cpu_snap *c)
{
	*c = s->samples[k].cpu;
	c->user = round_u64(AT(s, k, t, cpu.user));
	c->nice = round_u64(AT(s, k, t, cpu.nice));
	c->system = round_u64(AT(s, k, t, cpu.system));
	c->idle = round_u64(AT(s, k, t, cpu.idle));
	c->iowait = round_u64(AT(s, k, t, cpu.iowait));
	c->irq = round_u64(AT(s, k, t, cpu.irq));
	c->softirq = round_u64(AT(s, k, t, cpu.softirq));
	c->steal = round_u64(AT(s, k, t, cpu.steal));
}

int sampler_cpu_window(const struct sampler *s, uint64_t t0, uint64_t t1,
		       struct cpu_delta *out)
{
	struct cpu_snap a, b;
	size_t k0, k1;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = window(s, &t0, &t1, &k0, &k1)) < 0)
		return rc;
	cpu_at(s, k0, t0, &a);
	cpu_at(s, k1, t1, &b);
	sysstat_cpu_diff(&a, &b, out);
	return 0;
}

/* window() for pid J, which must have been read. */
static int pid_window(const struct sampler *s, int j, uint64_t *t0, uint64_t *t1, size_t *k0, size_t *k1)
{
	if (j < 0 || j >= s->cfg.npids || s->pid_first[j] == SAMPLER_NEVER)
		return -ENOENT;
	return window(s, t0, t1, k0, k1);
}

int sampler_proc_window(const struct sampler *s, int j, uint64_t t0, uint64_t t1,
			struct proc_delta *out)
{
	double hz = (double)sysconf(_SC_CLK_TCK), elapsed_s;
	size_t k0, k1;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = pid_window(s, j, &t0, &t1, &k0, &k1)) < 0)
		return rc;
	/* in doubles: a tick is 10 ms, too coarse to round inside a window */
	out->user_s = (AT(s, k1, t1, utime[j]) - AT(s, k0, t0, utime[j])) / hz;
	out->system_s = (AT(s, k1, t1, stime[j]) - AT(s, k0, t0, stime[j])) / hz;
	elapsed_s = (double)(t1 - t0) / 1e9;
	out->cpu_share = (out->user_s + out->system_s) / elapsed_s;
	out->have_sched = !s->sched_missing[j];
	if (out->have_sched) {
		double on = (AT(s, k1, t1, oncpu_ns[j]) - AT(s, k0, t0, oncpu_ns[j])) / 1e9;
		double rq = (AT(s, k1, t1, runqueue_ns[j]) - AT(s, k0, t0, runqueue_ns[j])) / 1e9;

		out->oncpu_s = on < 0 ? 0 : on > elapsed_s ? elapsed_s : on;
		out->runqueue_s = rq < 0 ? 0 : rq > elapsed_s - out->oncpu_s ? elapsed_s - out->oncpu_s : rq;
	}
	return 0;
}

int sampler_placement_window(const struct sampler *s, int j, uint64_t t0, uint64_t t1,
			     struct irqcpu_placement *out)
{
	double total = 0;
	size_t k0, k1;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = pid_window(s, j, &t0, &t1, &k0, &k1)) < 0)
		return rc;
	/* the intervals (t[k-1], t[k]] that overlap (t0, t1], each by its overlap */
	for (size_t k = k0 + 1; k < s->n && s->samples[k - 1].t_ns < t1; k++) {
		const struct sampler_sample *a = &s->samples[k - 1], *b = &s->samples[k];
		uint64_t lo = a->t_ns > t0 ? a->t_ns : t0, hi = b->t_ns < t1 ? b->t_ns : t1;
		double used = s->sched_missing[j] ?
			      (double)(b->utime[j] + b->stime[j] - a->utime[j] - a->stime[j]) :
			      (double)(b->oncpu_ns[j] - a->oncpu_ns[j]);
		int c = b->cpu_of[j];

		if (c < 0 || hi <= lo || b->t_ns <= a->t_ns || k <= s->pid_first[j])
			continue;
		used *= (double)(hi - lo) / (double)(b->t_ns - a->t_ns);
		out->share[c] += used;
		total += used;
		if (c + 1 > out->ncpu)
			out->ncpu = c + 1;
	}
	if (total > 0) {
		out->have_reader = 1;
		for (int c = 0; c < out->ncpu; c++)
			out->share[c] /= total;
	}
	if (s->cfg.irqs.n && !s->irqs_missing) {
		out->have_irqs = 1;
		for (int c = 0; c < s->irq_ncpu; c++)
			out->irqs[c] = round_u64(AT(s, k1, t1, irqs[c]) - AT(s, k0, t0, irqs[c]));
		if (s->irq_ncpu > out->ncpu)
			out->ncpu = s->irq_ncpu;
	}
	return 0;
}
