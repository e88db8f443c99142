/*
 * readstream: the look-ahead, combining and distance rules of PostgreSQL
 * 18's read_stream.c for a stream with per-buffer data (a bitmap heap
 * scan's, so never its all-cached fast path); see readstream.h. Pages are
 * indices into the sequence; a read in flight is (first page, pages). The
 * pins the backend may add follow bufmgr's estimate: at least
 * READSTREAM_REFCOUNT_ENTRIES held, plus the page the consumer holds.
 */
#include "io/engines/readstream.h"

#include <errno.h>
#include <stdlib.h>

#define INVALID UINT64_MAX

struct rs {
	const struct scan_block *p;
	size_t                   n;
	const struct readstream_cfg *cfg;
	const struct readstream_ops *ops;
	void     *arg;
	size_t    next_cb;              /* the next page the callback gives */
	unsigned  distance;
	unsigned  pinned;
	unsigned  held;                 /* pins the consumer holds during look-ahead */
	size_t    pending_idx;
	unsigned  pending_n;
	unsigned  max_ios, max_pinned;
	bool      synchronous;
	size_t   *io_idx;               /* reads in flight, oldest first (a ring) */
	unsigned *io_n;
	unsigned  io_head, io_count;
	uint64_t  seq_blocknum, seq_until;
	struct readstream_stats *st;
};

static unsigned umin(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* How many more pins bufmgr grants (GetAdditionalPinLimit), at least one
 * when the stream holds none. */
static unsigned pin_budget(const struct rs *s)
{
	unsigned held = s->pinned + s->held, est, limit;

	if (!s->cfg->pin_limit)
		return UINT32_MAX;
	est = held > READSTREAM_REFCOUNT_ENTRIES ? held : READSTREAM_REFCOUNT_ENTRIES;
	limit = est > s->cfg->pin_limit ? 0 : s->cfg->pin_limit - est;
	return limit == 0 && s->pinned == 0 ? 1 : limit;
}

/* Does the pending read call for advice (io_method = sync)? */
static bool wants_advice(struct rs *s)
{
	uint64_t first = s->p[s->pending_idx].block;

	if (!s->cfg->advice)
		return false;
	if (first == s->seq_blocknum)
		return s->seq_until != INVALID;
	s->seq_until = first;               /* a jump: advice until the reads catch up */
	return s->pinned > 0;
}

/* Leading pages of the pending read that one read covers (StartReadBuffers):
 * up to the first page already in shared buffers and the segment's end. */
static unsigned read_len(const struct rs *s, unsigned want)
{
	uint64_t first = s->p[s->pending_idx].block;
	unsigned k = 1;

	if (s->cfg->seg_blocks) {
		uint64_t left = s->cfg->seg_blocks - first % s->cfg->seg_blocks;
		if (left < want)
			want = (unsigned)left;
	}
	while (k < want && !s->p[s->pending_idx + k].cached)
		k++;
	return k;
}

/* read_stream_start_pending_read: 1 started (a read or a hit), 0 not (no pins), -errno. */
static int start_pending(struct rs *s)
{
	bool advice = wants_advice(s);
	unsigned budget = pin_budget(s), n = s->pending_n;
	int rc;

	if (budget < n) {
		if (s->distance > s->pinned + budget)
			s->distance = s->pinned + budget;
		if (s->pinned > 0)
			return 0;
		n = budget;
	}
	if (s->p[s->pending_idx].cached) {
		n = 1;
		s->st->hits++;
		if (s->distance > 1)
			s->distance--;
	} else {
		unsigned slot = (s->io_head + s->io_count) % s->max_ios;

		n = read_len(s, n);
		if ((rc = s->ops->start(s->arg, s->pending_idx, n, advice, s->synchronous)) < 0)
			return rc;
		s->io_idx[slot] = s->pending_idx;
		s->io_n[slot] = n;
		s->io_count++;
		s->st->ios++;
		s->st->io_blocks += n;
		s->st->advices += advice;
		if (s->io_count > s->st->max_ios_in_flight)
			s->st->max_ios_in_flight = s->io_count;
		s->seq_blocknum = s->p[s->pending_idx].block + n;
	}
	s->pinned += n;
	if (s->pinned > s->st->max_pinned_seen)
		s->st->max_pinned_seen = s->pinned;
	s->pending_idx += n;
	s->pending_n -= n;
	return 1;
}

/* Does page I extend the pending read? */
static bool extends(const struct rs *s, size_t i)
{
	return s->pending_n > 0 &&
	       s->p[s->pending_idx].block + s->pending_n == s->p[i].block;
}

/* The loop of read_stream_look_ahead, before its final start. */
static int look_ahead_loop(struct rs *s)
{
	int rc;

	while (s->io_count < s->max_ios && s->pinned + s->pending_n < s->distance) {
		size_t i;

		if (s->pending_n == s->cfg->combine_limit) {
			if ((rc = start_pending(s)) <= 0)
				return rc;
			continue;
		}
		if (s->next_cb == s->n) {
			s->distance = 0;            /* end of the stream */
			break;
		}
		i = s->next_cb++;
		if (extends(s, i)) {
			s->pending_n++;
			continue;
		}
		while (s->pending_n > 0) {
			rc = start_pending(s);
			if (rc < 0)
				return rc;
			if (rc == 0 || s->io_count == s->max_ios) {
				s->next_cb--;       /* unget: the pins or the reads ran out */
				return 1;
			}
		}
		s->pending_idx = i;
		s->pending_n = 1;
	}
	return 0;
}

static int look_ahead(struct rs *s)
{
	int rc = look_ahead_loop(s);

	if (rc == 0 && s->pending_n > 0 &&
	    (s->pending_n == s->cfg->combine_limit ||
	     (s->pending_n >= s->distance && s->pinned == 0) || s->distance == 0) &&
	    s->io_count < s->max_ios)
		rc = start_pending(s);
	if (rc >= 0 && s->ops->submit)
		rc = s->ops->submit(s->arg);
	if (s->distance > s->st->max_distance)
		s->st->max_distance = s->distance;
	return rc < 0 ? rc : 0;
}

/* read_stream_next_buffer for page I (the oldest pinned): wait for its read
 * if one starts there, then look ahead again. */
static int next_buffer(struct rs *s, size_t i)
{
	int rc;

	if (s->pinned == 0) {
		s->held = 0;
		if ((rc = look_ahead(s)) < 0)
			return rc;
		if (s->pinned == 0)
			return -EIO;        /* the stream ended before its pages did */
	}
	if (s->io_count > 0 && s->io_idx[s->io_head] == i) {
		uint64_t first = s->p[i].block;
		unsigned d = s->distance * 2;

		if ((rc = s->ops->wait(s->arg, i, s->io_n[s->io_head])) < 0)
			return rc;
		s->io_head = (s->io_head + 1) % s->max_ios;
		s->io_count--;
		s->distance = umin(d, s->max_pinned);
		if (s->distance > s->st->max_distance)
			s->st->max_distance = s->distance;
		if (s->cfg->advice && first == s->seq_until)
			s->seq_until = INVALID;
	}
	s->pinned--;
	s->held = 1;
	return look_ahead(s);
}

unsigned readstream_max_pinned(const struct readstream_cfg *cfg)
{
	unsigned combine = cfg->combine_limit ? cfg->combine_limit : 1;
	uint64_t pins = ((uint64_t)cfg->max_ios + 1) * combine;

	if (cfg->pin_limit && pins > cfg->pin_limit)
		pins = cfg->pin_limit;
	if (pins > (uint64_t)(INT16_MAX - combine))
		pins = INT16_MAX - combine;
	return pins ? (unsigned)pins : 1;
}

static int setup(struct rs *s, const struct readstream_cfg *cfg)
{
	if (cfg->combine_limit < 1 || cfg->combine_limit > 128)
		return -EINVAL;
	s->max_pinned = readstream_max_pinned(cfg);
	s->synchronous = cfg->max_ios == 0;
	s->max_ios = cfg->max_ios ? cfg->max_ios : 1;
	s->distance = 1;
	s->seq_blocknum = s->seq_until = INVALID;
	s->io_idx = calloc(s->max_ios, sizeof(*s->io_idx));
	s->io_n = calloc(s->max_ios, sizeof(*s->io_n));
	s->st->max_pinned = s->max_pinned;
	return s->io_idx && s->io_n ? 0 : -ENOMEM;
}

int readstream_run(const struct scan_block *pages, size_t n, const struct readstream_cfg *cfg,
		   const struct readstream_ops *ops, void *arg,
		   const volatile sig_atomic_t *stop, struct readstream_stats *stats)
{
	struct readstream_stats own = { 0 };
	struct rs s = { .p = pages, .n = n, .cfg = cfg, .ops = ops, .arg = arg,
			.st = stats ? stats : &own };
	int rc;

	*s.st = (struct readstream_stats){ 0 };
	rc = setup(&s, cfg);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (stop && *stop)
			rc = -EINTR;
		else if ((rc = next_buffer(&s, i)) == 0)
			rc = ops->work(arg, i);
	}
	free(s.io_idx);
	free(s.io_n);
	return rc;
}
