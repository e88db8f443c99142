/*
 * cachecheck: is there a cache below this machine (a virtual disk's host, a
 * RAID controller, a SAN) that still holds blocks read a moment ago? Over a
 * set of files opened O_DIRECT (this machine's page cache plays no part), one
 * read at a time, each timed: a random sample of blocks (first pass), then
 * the same blocks again (re-read) in turn with a fresh sample disjoint from
 * the first (fresh): re-read block i, fresh block i, ..., so that drift in
 * the device's speed affects both alike. The statistic is the ratio of the
 * fresh reads' median latency to the re-reads' median, with a 95% percentile
 * bootstrap interval; a cache below serves re-reads when the interval's
 * lower bound exceeds the threshold (1.5 by default). Bounded in time: the
 * first pass gets a third of max_s, the re-reads and fresh reads together
 * the rest, reading as many blocks each as the first pass managed. Never
 * prints.
 */
#ifndef IO_CACHECHECK_H
#define IO_CACHECHECK_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/hist.h"

#define CACHECHECK_SAMPLE     4000    /* blocks per pass */
#define CACHECHECK_MIN_READS  50      /* per pass, for a statistic */
#define CACHECHECK_MAX_S      10.0    /* the three passes together */
#define CACHECHECK_THRESHOLD  1.5
#define CACHECHECK_RESAMPLES  1000
#define CACHECHECK_LEVEL      0.95    /* of the ratio's interval */
#define CACHECHECK_NO_DIRECT  (-EOPNOTSUPP)  /* the files refuse O_DIRECT: the check is skipped */

enum cachecheck_pass { CACHECHECK_FIRST, CACHECHECK_REREAD, CACHECHECK_FRESH, CACHECHECK_PASSES };

struct cachecheck_config {
	const char *const *paths;          /* one address space of blocks, as a blockmap */
	unsigned           npaths;
	uint32_t           block_bytes;
	uint64_t           sample;         /* blocks per pass; 0 = CACHECHECK_SAMPLE */
	uint64_t           seed;           /* which blocks, and the bootstrap */
	double             max_s;          /* 0 = CACHECHECK_MAX_S */
	double             threshold;      /* 0 = CACHECHECK_THRESHOLD */
	const volatile sig_atomic_t *stop; /* may be NULL */
};

struct cachecheck_result {
	uint64_t            file_blocks;   /* blocks in the files */
	uint64_t            sample;        /* blocks planned per pass */
	struct hist_summary pass[CACHECHECK_PASSES];  /* exact order statistics, ns */
	double              median_ns[CACHECHECK_PASSES];
	double              ratio, ratio_lo, ratio_hi;  /* fresh median / re-read median, 95% */
	double              threshold;
	unsigned            resamples;
	bool                cache_below;   /* ratio_lo > threshold */
	bool                cut_short;     /* the time bound ended a pass early */
	double              elapsed_s;
};

/*
 * Run the check. 0; CACHECHECK_NO_DIRECT when the files (their file system)
 * refuse O_DIRECT; -EINVAL for files too small (fewer than
 * 2 * CACHECHECK_MIN_READS blocks); -ETIMEDOUT when the time bound left fewer
 * than CACHECHECK_MIN_READS reads in a pass; -EINTR when stopped; other
 * -errno from open or read. ERR says what happened.
 */
int cachecheck_run(const struct cachecheck_config *cfg, struct cachecheck_result *res,
		   char *err, size_t errlen);

/*
 * One sentence from the figures (no trailing period), e.g. "re-reads took a
 * median of 12.1 µs against 37.4 µs for fresh reads, 3.09x faster (95%
 * interval 2.80-3.41, above the 1.5x threshold): a cache below this machine
 * holds recently read blocks; cold trials may not be cold for the device".
 */
void cachecheck_describe(const struct cachecheck_result *r, char *buf, size_t len);

/* The parts, for tests. */

/* K distinct blocks below NBLOCKS (K <= NBLOCKS) in random order. 0 or -ENOMEM. */
int cachecheck_draw(uint64_t nblocks, size_t k, uint64_t seed, uint64_t *out);

/* The exact summary of N latencies (sorted in place). */
void cachecheck_summarize(uint64_t *lat_ns, size_t n, struct hist_summary *out);

/*
 * median(FRESH) / median(REREAD) and its percentile bootstrap interval at
 * 95% from RESAMPLES (at least 10) resamples of each set, as every ratio of
 * medians in the suite is bounded (io/stats.h: one resampling, one quantile
 * rule). 0, -EINVAL (an empty set or a
 * zero median) or -ENOMEM.
 */
int cachecheck_ratio(const uint64_t *reread, size_t n_reread, const uint64_t *fresh,
		     size_t n_fresh, uint64_t seed, unsigned resamples,
		     double *ratio, double *lo, double *hi);

#endif
