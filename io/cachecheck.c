/*
 * cachecheck: three timed passes of O_DIRECT reads at depth 1 over a random
 * sample of blocks, and the ratio of medians with its bootstrap interval; see
 * cachecheck.h. Sampling is Floyd's algorithm (k distinct of n in k draws)
 * over an open-addressing set, then a Fisher-Yates shuffle.
 */
#include "io/cachecheck.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/blocks.h"
#include "io/clock.h"
#include "io/errmsg.h"
#include "io/rng.h"
#include "io/stats.h"

/* ---- drawing the blocks ---- */

struct set {
	uint64_t *slot;                /* UINT64_MAX = empty */
	size_t    mask;
};

/* Add V; false when it was there already. */
static bool set_add(struct set *s, uint64_t v)
{
	size_t i = (size_t)rng_mix64(v) & s->mask;

	while (s->slot[i] != UINT64_MAX) {
		if (s->slot[i] == v)
			return false;
		i = (i + 1) & s->mask;
	}
	s->slot[i] = v;
	return true;
}

int cachecheck_draw(uint64_t nblocks, size_t k, uint64_t seed, uint64_t *out)
{
	struct set s;
	struct rng r;
	size_t cap = 16;

	if (k > nblocks)
		return -EINVAL;
	while (cap < 2 * k)
		cap *= 2;
	if (!(s.slot = malloc(cap * sizeof(*s.slot))))
		return -ENOMEM;
	memset(s.slot, 0xff, cap * sizeof(*s.slot));
	s.mask = cap - 1;
	rng_seed(&r, seed);
	for (size_t i = 0; i < k; i++) {       /* Floyd: j runs over the last k numbers */
		uint64_t j = nblocks - k + i, t = rng_below(&r, j + 1);
		out[i] = set_add(&s, t) ? t : j;
		if (out[i] == j)
			set_add(&s, j);
	}
	for (size_t i = k; i > 1; i--) {       /* Floyd's order is not random: shuffle */
		size_t j = (size_t)rng_below(&r, i);
		uint64_t t = out[i - 1];
		out[i - 1] = out[j];
		out[j] = t;
	}
	free(s.slot);
	return 0;
}

/* ---- statistics ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least PCT percent at or below it. */
static uint64_t rank(const uint64_t *sorted, size_t n, double pct)
{
	size_t i = (size_t)ceil(pct * (double)n / 100.0 - 1e-9);   /* 99.9% of 1000 is 999 */

	return sorted[i ? i - 1 : 0];
}

void cachecheck_summarize(uint64_t *lat, size_t n, struct hist_summary *out)
{
	double sum = 0, ss = 0;

	*out = (struct hist_summary){ .count = n };
	if (n == 0)
		return;
	qsort(lat, n, sizeof(*lat), cmp_u64);
	for (size_t i = 0; i < n; i++)
		sum += (double)lat[i];
	out->mean_ns = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += ((double)lat[i] - out->mean_ns) * ((double)lat[i] - out->mean_ns);
	out->stddev_ns = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	out->min_ns = lat[0];
	out->max_ns = lat[n - 1];
	out->p50_ns = rank(lat, n, 50);
	out->p90_ns = rank(lat, n, 90);
	out->p99_ns = rank(lat, n, 99);
	out->p999_ns = rank(lat, n, 99.9);
}

/* The latencies as doubles for io/stats.h; NULL when out of memory. */
static double *as_doubles(const uint64_t *v, size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));

	for (size_t i = 0; d && i < n; i++)
		d[i] = (double)v[i];
	return d;
}

int cachecheck_ratio(const uint64_t *reread, size_t n_reread, const uint64_t *fresh,
		     size_t n_fresh, uint64_t seed, unsigned resamples,
		     double *ratio, double *lo, double *hi)
{
	double *r = as_doubles(reread, n_reread), *f = as_doubles(fresh, n_fresh);
	struct stats_interval ci;
	int rc = -ENOMEM;

	if (r && f) {
		rc = -EINVAL;
		if (n_reread && n_fresh && stats_median(r, n_reread) > 0 && resamples >= 10 &&
		    resamples <= INT_MAX)
			rc = stats_ratio_interval(f, n_fresh, r, n_reread, CACHECHECK_LEVEL, (int)resamples,
						  seed, ratio, &ci);
	}
	if (rc == 0) {
		*lo = ci.lo;
		*hi = ci.hi;
	}
	free(r);
	free(f);
	return rc;
}

/* ---- the passes ---- */

struct reader {
	const struct cachecheck_config *cfg;
	struct blockmap map;
	void           *buf;           /* one block, aligned for O_DIRECT */
	char           *err;
	size_t          errlen;
};

/* Read one block with O_DIRECT; its latency in *NS. */
static int read_block(struct reader *rd, uint64_t block, uint64_t *ns)
{
	uint32_t bs = rd->map.block_bytes;
	unsigned file;
	off_t off;
	ssize_t n;
	uint64_t t0;

	blockmap_locate(&rd->map, block, &file, &off);
	do {
		t0 = clock_now_ns();
		n = pread(rd->map.files[file].fd, rd->buf, bs, off);
		*ns = clock_now_ns() - t0;
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EINVAL)
		return errmsg_set(rd->err, rd->errlen, CACHECHECK_NO_DIRECT,
			    "%s: O_DIRECT reads of %u bytes are refused", rd->map.files[file].path, bs);
	if (n < 0)
		return errmsg_set(rd->err, rd->errlen, -errno, "%s: read of block %" PRIu64 ": %s",
			    rd->map.files[file].path, block, strerror(errno));
	if (n != (ssize_t)bs)
		return errmsg_set(rd->err, rd->errlen, -EIO, "%s: short read of block %" PRIu64,
			    rd->map.files[file].path, block);
	return 0;
}

/*
 * Block i of each of the NLISTS lists in turn, for i in 0..n, each read timed
 * into the list's LAT[i], until done or BUDGET_NS is spent; *DONE is the
 * number of i reached. Lists read in turn see the same drift in the
 * device's speed.
 */
static int read_pass(struct reader *rd, const uint64_t *const *lists, uint64_t *const *lat,
		     int nlists, size_t n, uint64_t budget_ns, size_t *done)
{
	uint64_t end = clock_now_ns() + budget_ns;
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		if (rd->cfg->stop && *rd->cfg->stop)
			return errmsg_set(rd->err, rd->errlen, -EINTR, "interrupted");
		for (int l = 0; l < nlists; l++)
			if ((rc = read_block(rd, lists[l][i], &lat[l][i])) < 0)
				return rc;
		if (clock_now_ns() >= end) {
			i++;
			break;
		}
	}
	*done = i;
	return 0;
}

/* The files with O_DIRECT; CACHECHECK_NO_DIRECT when only that is refused. */
static int open_direct(struct reader *rd)
{
	const struct cachecheck_config *c = rd->cfg;
	struct blockmap plain;
	char sub[512];
	int rc = blockmap_open(&rd->map, c->paths, c->npaths, c->block_bytes, O_DIRECT,
			       rd->err, rd->errlen);

	if (rc != -EINVAL)
		return rc;
	if (blockmap_open(&plain, c->paths, c->npaths, c->block_bytes, 0, sub, sizeof(sub)) < 0)
		return errmsg_set(rd->err, rd->errlen, -EINVAL, "%s", sub);
	blockmap_close(&plain);
	return errmsg_set(rd->err, rd->errlen, CACHECHECK_NO_DIRECT,
		    "the file system under %s refuses O_DIRECT", c->paths[0]);
}

struct samples {
	uint64_t *blocks;              /* 2k: first sample, then the fresh one */
	uint64_t *lat[CACHECHECK_PASSES];
	size_t    n[CACHECHECK_PASSES];
};

/*
 * The first sample; then re-reads of it and the fresh sample in turn (re-read
 * block i, fresh block i, ...), so that a device getting faster or slower
 * during the check cannot pass for a cache or hide one.
 */
static int run_passes(struct reader *rd, struct samples *s, size_t k, uint64_t budget_ns)
{
	const uint64_t *first[] = { s->blocks }, *second[] = { s->blocks, s->blocks + k };
	uint64_t *lat1[] = { s->lat[CACHECHECK_FIRST] };
	uint64_t *lat2[] = { s->lat[CACHECHECK_REREAD], s->lat[CACHECHECK_FRESH] };
	int rc = read_pass(rd, first, lat1, 1, k, budget_ns, &s->n[CACHECHECK_FIRST]);

	if (rc == 0)
		rc = read_pass(rd, second, lat2, 2, s->n[CACHECHECK_FIRST], 2 * budget_ns,
			       &s->n[CACHECHECK_REREAD]);
	s->n[CACHECHECK_FRESH] = s->n[CACHECHECK_REREAD];
	if (rc == 0 && (s->n[CACHECHECK_REREAD] < CACHECHECK_MIN_READS ||
			s->n[CACHECHECK_FRESH] < CACHECHECK_MIN_READS))
		rc = errmsg_set(rd->err, rd->errlen, -ETIMEDOUT,
			  "only %zu re-reads and %zu fresh reads within the time bound; at least %d each are needed",
			  s->n[CACHECHECK_REREAD], s->n[CACHECHECK_FRESH], CACHECHECK_MIN_READS);
	return rc;
}

/* The statistic, then the summaries (which sort the latencies). */
static int conclude(const struct cachecheck_config *c, struct samples *s, size_t k,
		    struct cachecheck_result *res, char *err, size_t errlen)
{
	int rc = cachecheck_ratio(s->lat[CACHECHECK_REREAD], s->n[CACHECHECK_REREAD],
				  s->lat[CACHECHECK_FRESH], s->n[CACHECHECK_FRESH], c->seed,
				  CACHECHECK_RESAMPLES, &res->ratio, &res->ratio_lo, &res->ratio_hi);

	if (rc < 0)
		return errmsg_set(err, errlen, rc, "no statistic: a median latency of 0 ns");
	for (int p = 0; p < CACHECHECK_PASSES; p++) {
		size_t n = s->n[p];
		cachecheck_summarize(s->lat[p], n, &res->pass[p]);
		res->median_ns[p] = ((double)s->lat[p][(n - 1) / 2] + (double)s->lat[p][n / 2]) / 2;
	}
	res->resamples = CACHECHECK_RESAMPLES;
	res->cache_below = res->ratio_lo > res->threshold;
	res->cut_short = s->n[CACHECHECK_FIRST] < k ||
			 s->n[CACHECHECK_REREAD] < s->n[CACHECHECK_FIRST] ||
			 s->n[CACHECHECK_FRESH] < s->n[CACHECHECK_FIRST];
	return 0;
}

static int sample_and_read(struct reader *rd, struct cachecheck_result *res)
{
	const struct cachecheck_config *c = rd->cfg;
	uint64_t want = c->sample ? c->sample : CACHECHECK_SAMPLE;
	size_t k = (size_t)(want < rd->map.nblocks / 2 ? want : rd->map.nblocks / 2);
	double max_s = c->max_s > 0 ? c->max_s : CACHECHECK_MAX_S;
	struct samples s = { .blocks = malloc(2 * k * sizeof(uint64_t)) };
	int rc = 0;

	res->sample = k;
	if (k < CACHECHECK_MIN_READS)
		rc = errmsg_set(rd->err, rd->errlen, -EINVAL,
			  "%s holds %" PRIu64 " blocks of %u bytes; the check needs at least %d",
			  c->paths[0], rd->map.nblocks, rd->map.block_bytes, 2 * CACHECHECK_MIN_READS);
	for (int p = 0; p < CACHECHECK_PASSES; p++)
		if (!(s.lat[p] = malloc((k ? k : 1) * sizeof(uint64_t))))
			rc = -ENOMEM;
	if (rc == 0 && (!s.blocks || posix_memalign(&rd->buf, 4096, rd->map.block_bytes)))
		rc = -ENOMEM;
	if (rc == 0 && (rc = cachecheck_draw(rd->map.nblocks, 2 * k, c->seed, s.blocks)) == 0 &&
	    (rc = run_passes(rd, &s, k, (uint64_t)(max_s / CACHECHECK_PASSES * 1e9))) == 0)
		rc = conclude(c, &s, k, res, rd->err, rd->errlen);
	if (rc == -ENOMEM)
		errmsg_set(rd->err, rd->errlen, rc, "out of memory for a sample of %zu blocks", k);
	for (int p = 0; p < CACHECHECK_PASSES; p++)
		free(s.lat[p]);
	free(s.blocks);
	return rc;
}

int cachecheck_run(const struct cachecheck_config *cfg, struct cachecheck_result *res,
		   char *err, size_t errlen)
{
	struct reader rd = { .cfg = cfg, .err = err, .errlen = errlen };
	uint64_t t0 = clock_now_ns();
	int rc;

	*res = (struct cachecheck_result){
		.threshold = cfg->threshold > 0 ? cfg->threshold : CACHECHECK_THRESHOLD,
	};
	if ((rc = open_direct(&rd)) < 0)
		return rc;
	res->file_blocks = rd.map.nblocks;
	rc = sample_and_read(&rd, res);
	res->elapsed_s = (double)(clock_now_ns() - t0) / 1e9;
	free(rd.buf);
	blockmap_close(&rd.map);
	return rc;
}

void cachecheck_describe(const struct cachecheck_result *r, char *buf, size_t len)
{
	int n = snprintf(buf, len, "re-reads took a median of %.1f µs against %.1f µs for fresh reads, ",
			 r->median_ns[CACHECHECK_REREAD] / 1e3, r->median_ns[CACHECHECK_FRESH] / 1e3);

	if (n < 0 || (size_t)n >= len)
		return;
	buf += n;
	len -= (size_t)n;
	if (r->cache_below)
		snprintf(buf, len, "%.2fx faster (95%% interval %.2f-%.2f, above the %.1fx threshold): a cache below this machine holds recently read blocks; cold trials may not be cold for the device",
			 r->ratio, r->ratio_lo, r->ratio_hi, r->threshold);
	else if (r->ratio_lo > 1)
		snprintf(buf, len, "%.2fx faster (95%% interval %.2f-%.2f), below the %.1fx this check takes as a cache below this machine: no clear sign of one",
			 r->ratio, r->ratio_lo, r->ratio_hi, r->threshold);
	else
		snprintf(buf, len, "a ratio of %.2f (95%% interval %.2f-%.2f; a cache would show above %.1f): no sign of a cache below this machine holding recently read blocks (one that held all of these files would not show here)",
			 r->ratio, r->ratio_lo, r->ratio_hi, r->threshold);
}
