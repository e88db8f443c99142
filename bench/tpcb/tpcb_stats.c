/*
 * tpcb_stats: per-thread counting, merging after the join, live counters
 * for -P, aggregate-log sums and the Poisson schedule; see tpcb_stats.h.
 */
#include "bench/tpcb/tpcb_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int tpcb_stats_init(struct tpcb_stats *s, int ncmds, int nscripts)
{
	memset(s, 0, sizeof(*s));
	hist_init(&s->latency);
	s->stmt = calloc((size_t)(ncmds > 0 ? ncmds : 1), sizeof(*s->stmt));
	s->script = calloc((size_t)(nscripts > 0 ? nscripts : 1), sizeof(*s->script));
	s->ncmds = ncmds;
	s->nscripts = nscripts;
	if (!s->stmt || !s->script) {
		tpcb_stats_free(s);
		return -ENOMEM;
	}
	return 0;
}

void tpcb_stats_free(struct tpcb_stats *s)
{
	free(s->stmt);
	free(s->script);
	s->stmt = NULL;
	s->script = NULL;
}

/* D in its script's own counts. */
static void script_add(struct tpcb_stats *s, const struct tpcb_done *d, uint64_t lat)
{
	struct tpcb_script_stats *t;

	if (d->script < 0 || d->script >= s->nscripts)
		return;
	t = &s->script[d->script];
	if (d->outcome == TPCB_SKIPPED) {
		t->skipped++;
		return;
	}
	if (d->tries > 1) {
		t->retried++;
		t->retries += (uint64_t)(d->tries - 1);
	}
	if (d->outcome == TPCB_FAILED) {
		t->failed++;
		t->ser_failures += d->fail == TPCB_FAIL_SERIALIZATION;
		t->dl_failures += d->fail == TPCB_FAIL_DEADLOCK;
		return;
	}
	t->committed++;
	t->lat_sum_ns += (double)lat;
	t->lat_sum2_ns += (double)lat * (double)lat;
}

static void count_tries(uint64_t *retried, uint64_t *retries, int tries)
{
	if (tries > 1) {
		(*retried)++;
		*retries += (uint64_t)(tries - 1);
	}
}

void tpcb_stats_add(struct tpcb_stats *s, const struct tpcb_done *d,
		    uint64_t late_ns, bool throttled)
{
	uint64_t lat = d->end_ns - d->sched_ns, lag = d->start_ns - d->sched_ns;

	script_add(s, d, lat);
	if (d->outcome == TPCB_SKIPPED) {
		s->skipped++;
		return;
	}
	count_tries(&s->retried, &s->retries, d->tries);
	if (d->outcome == TPCB_FAILED) {
		s->failed++;
		s->ser_failures += d->fail == TPCB_FAIL_SERIALIZATION;
		s->dl_failures += d->fail == TPCB_FAIL_DEADLOCK;
		return;
	}
	s->committed++;
	hist_add(&s->latency, lat);
	if (late_ns && lat > late_ns)
		s->late++;
	if (throttled) {
		s->lag_count++;
		s->lag_sum_ns += (double)lag;
		if (lag > s->lag_max_ns)
			s->lag_max_ns = lag;
	}
}

void tpcb_stats_merge(struct tpcb_stats *dst, const struct tpcb_stats *src)
{
	dst->committed += src->committed;
	dst->failed += src->failed;
	dst->ser_failures += src->ser_failures;
	dst->dl_failures += src->dl_failures;
	dst->retried += src->retried;
	dst->retries += src->retries;
	dst->skipped += src->skipped;
	dst->late += src->late;
	dst->lag_count += src->lag_count;
	dst->lag_sum_ns += src->lag_sum_ns;
	if (src->lag_max_ns > dst->lag_max_ns)
		dst->lag_max_ns = src->lag_max_ns;
	hist_merge(&dst->latency, &src->latency);
	for (int i = 0; i < dst->ncmds && i < src->ncmds; i++) {
		dst->stmt[i].count += src->stmt[i].count;
		dst->stmt[i].failures += src->stmt[i].failures;
		dst->stmt[i].retries += src->stmt[i].retries;
		dst->stmt[i].sum_ns += src->stmt[i].sum_ns;
	}
	for (int i = 0; i < dst->nscripts && i < src->nscripts; i++) {
		struct tpcb_script_stats *a = &dst->script[i];
		const struct tpcb_script_stats *b = &src->script[i];

		a->committed += b->committed;
		a->failed += b->failed;
		a->ser_failures += b->ser_failures;
		a->dl_failures += b->dl_failures;
		a->skipped += b->skipped;
		a->retried += b->retried;
		a->retries += b->retries;
		a->lat_sum_ns += b->lat_sum_ns;
		a->lat_sum2_ns += b->lat_sum2_ns;
	}
}

/* ---- live counters ------------------------------------------------------ */

#define STORE(pub, own, f) __atomic_store(&(pub)->f, &(own)->f, __ATOMIC_RELAXED)

void tpcb_live_add(struct tpcb_live *pub, struct tpcb_live *own,
		   const struct tpcb_done *d)
{
	double lat_ms = (double)(d->end_ns - d->sched_ns) * 1e-6;

	if (d->outcome == TPCB_SKIPPED) {
		own->skipped++;
		STORE(pub, own, skipped);
		return;
	}
	count_tries(&own->retried, &own->retries, d->tries);
	if (d->outcome == TPCB_FAILED) {
		own->failed++;
	} else {
		own->committed++;
		own->lat_sum_ms += lat_ms;
		own->lat_sum2_ms += lat_ms * lat_ms;
		own->lag_sum_ms += (double)(d->start_ns - d->sched_ns) * 1e-6;
	}
	STORE(pub, own, committed);
	STORE(pub, own, failed);
	STORE(pub, own, retried);
	STORE(pub, own, retries);
	STORE(pub, own, lat_sum_ms);
	STORE(pub, own, lat_sum2_ms);
	STORE(pub, own, lag_sum_ms);
}

#define GATHER(acc, pub, f, T) do {				\
		T v_;						\
		__atomic_load(&(pub)->f, &v_, __ATOMIC_RELAXED);	\
		(acc)->f += v_;					\
	} while (0)

void tpcb_live_gather(struct tpcb_live *acc, const struct tpcb_live *pub)
{
	GATHER(acc, pub, committed, uint64_t);
	GATHER(acc, pub, failed, uint64_t);
	GATHER(acc, pub, skipped, uint64_t);
	GATHER(acc, pub, retried, uint64_t);
	GATHER(acc, pub, retries, uint64_t);
	GATHER(acc, pub, lat_sum_ms, double);
	GATHER(acc, pub, lat_sum2_ms, double);
	GATHER(acc, pub, lag_sum_ms, double);
}

void tpcb_live_progress(const struct tpcb_live *prev, const struct tpcb_live *cur,
			double interval_s, double elapsed_s, struct tpcb_progress *out)
{
	double n = (double)(cur->committed - prev->committed);
	double sum = cur->lat_sum_ms - prev->lat_sum_ms;
	double sum2 = cur->lat_sum2_ms - prev->lat_sum2_ms;
	double mean = n > 0 ? sum / n : 0, var = n > 0 ? sum2 / n - mean * mean : 0;

	*out = (struct tpcb_progress){
		.elapsed_s = elapsed_s,
		.tps = interval_s > 0 ? n / interval_s : 0,
		.lat_ms = mean,
		.stddev_ms = var > 0 ? sqrt(var) : 0,
		.lag_ms = n > 0 ? (cur->lag_sum_ms - prev->lag_sum_ms) / n : 0,
		.failed = cur->failed - prev->failed,
		.skipped = cur->skipped - prev->skipped,
		.retried = cur->retried - prev->retried,
		.retries = cur->retries - prev->retries,
	};
}

/* ---- aggregate log -------------------------------------------------------- */

void tpcb_agg_reset(struct tpcb_agg *a, int64_t start_s)
{
	memset(a, 0, sizeof(*a));
	a->start_s = start_s;
}

static void minmax(double *lo, double *hi, double v, bool first)
{
	if (first || v < *lo)
		*lo = v;
	if (first || v > *hi)
		*hi = v;
}

void tpcb_agg_add(struct tpcb_agg *a, const struct tpcb_done *d, bool throttled)
{
	double lat = (double)(d->end_ns - d->sched_ns) / 1e3;
	double lag = (double)(d->start_ns - d->sched_ns) / 1e3;

	if (d->outcome == TPCB_SKIPPED) {
		a->skipped++;
		return;
	}
	count_tries(&a->retried, &a->retries, d->tries);
	if (d->outcome == TPCB_FAILED) {
		a->ser_failures += d->fail == TPCB_FAIL_SERIALIZATION;
		a->dl_failures += d->fail == TPCB_FAIL_DEADLOCK;
		return;
	}
	minmax(&a->lat_min, &a->lat_max, lat, a->count == 0);
	a->lat_sum += lat;
	a->lat_sum2 += lat * lat;
	if (throttled) {
		minmax(&a->lag_min, &a->lag_max, lag, a->count == 0);
		a->lag_sum += lag;
		a->lag_sum2 += lag * lag;
	}
	a->count++;
}

/* ---- -R schedule -------------------------------------------------------- */

void tpcb_schedule_init(struct tpcb_schedule *s, const struct tpcb_prng *rng, double rate,
			uint64_t start_ns)
{
	s->rng = *rng;
	s->mean_us = 1e6 / rate;
	s->next_ns = start_ns;
}

uint64_t tpcb_schedule_next(struct tpcb_schedule *s)
{
	s->next_ns += (uint64_t)tpcb_rand_poisson(&s->rng, s->mean_us) * 1000;
	return s->next_ns;
}
