/*
 * model: members, stripes, slots and the transfer channel; see model.h.
 * Each member's slots are a binary min-heap of the times they free up, so
 * a request takes the earliest (FIFO over PARALLEL servers) in O(log P).
 */
#include "io/emulate/model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/errmsg.h"

static int check_cfg(const struct model_cfg *c, char *err, size_t errlen)
{
	if (c->latency_ns > MODEL_MAX_LATENCY_NS)
		return errmsg_set(err, errlen, -EINVAL, "latency %llu ns is above 10 s",
				  (unsigned long long)c->latency_ns);
	if (!(c->jitter >= 0 && c->jitter < 1))
		return errmsg_set(err, errlen, -EINVAL, "jitter %g is outside 0..1 (0%%..99%%)", c->jitter);
	if (c->parallel < 1 || c->parallel > MODEL_MAX_PARALLEL)
		return errmsg_set(err, errlen, -EINVAL, "parallel %u is outside 1..%d", c->parallel,
				  MODEL_MAX_PARALLEL);
	if (c->members < 1 || c->members > MODEL_MAX_MEMBERS)
		return errmsg_set(err, errlen, -EINVAL, "members %u is outside 1..%d", c->members,
				  MODEL_MAX_MEMBERS);
	if (c->layout == MODEL_RAID10 && c->members % 2)
		return errmsg_set(err, errlen, -EINVAL, "raid10 needs an even number of members, not %u",
				  c->members);
	if (c->stripe_bytes < MODEL_STRIPE_UNIT || c->stripe_bytes % MODEL_STRIPE_UNIT ||
	    c->stripe_bytes > MODEL_MAX_STRIPE)
		return errmsg_set(err, errlen, -EINVAL, "stripe %llu bytes is not a multiple of 4 KiB from 4 KiB to 64 MiB",
				  (unsigned long long)c->stripe_bytes);
	return 0;
}

int model_init(struct model *md, const struct model_cfg *cfg, char *err, size_t errlen)
{
	int rc = check_cfg(cfg, err, errlen);
	uint64_t seed = cfg->seed;

	if (rc < 0)
		return rc;
	memset(md, 0, sizeof(*md));
	md->cfg = *cfg;
	md->groups = cfg->layout == MODEL_RAID10 ? cfg->members / 2 : cfg->members;
	for (unsigned i = 0; i < cfg->members; i++) {
		md->m[i].free_ns = calloc(cfg->parallel, sizeof(uint64_t));
		if (!md->m[i].free_ns) {
			model_free(md);
			return errmsg_set(err, errlen, -ENOMEM, "out of memory for %u slots", cfg->parallel);
		}
		rng_seed(&md->m[i].rng, rng_splitmix64(&seed));
	}
	return 0;
}

void model_free(struct model *md)
{
	for (unsigned i = 0; i < MODEL_MAX_MEMBERS; i++) {
		free(md->m[i].free_ns);
		md->m[i].free_ns = NULL;
	}
}

/* Replace the heap's root (its earliest slot) with V and sift it down. */
static void heap_replace_root(uint64_t *h, unsigned n, uint64_t v)
{
	unsigned i = 0;

	for (;;) {
		unsigned l = 2 * i + 1, r = l + 1, s = i;
		uint64_t sv = v;

		if (l < n && h[l] < sv)
			s = l, sv = h[l];
		if (r < n && h[r] < sv)
			s = r;
		if (s == i)
			break;
		h[i] = h[s];
		i = s;
	}
	h[i] = v;
}

static uint64_t jittered(struct model *md, struct model_member *m)
{
	double lat = (double)md->cfg.latency_ns, j = md->cfg.jitter;

	if (j > 0)
		lat *= 1.0 + j * (2.0 * rng_double(&m->rng) - 1.0);
	return lat > 0 ? (uint64_t)(lat + 0.5) : 0;
}

/* Member M serves BYTES arriving at NOW: when it is done. */
static uint64_t serve(struct model *md, unsigned mi, uint64_t bytes, uint64_t now)
{
	struct model_member *m = &md->m[mi];
	uint64_t start = m->free_ns[0] > now ? m->free_ns[0] : now;
	uint64_t end = start + jittered(md, m);

	if (md->cfg.bandwidth_bps) {
		uint64_t xfer = (uint64_t)((double)bytes * 1e9 / (double)md->cfg.bandwidth_bps + 0.5);

		if (m->channel_free_ns > end)
			end = m->channel_free_ns;
		end += xfer;
		m->channel_free_ns = end;
	}
	heap_replace_root(m->free_ns, md->cfg.parallel, end);
	m->inflight++;
	return end;
}

/* The member of stripe group G that takes a read: for raid10 the less busy
 * of the pair (fewer in flight, then the earlier free slot). */
static unsigned pick(const struct model *md, unsigned g)
{
	unsigned a, b;

	if (md->cfg.layout != MODEL_RAID10)
		return g;
	a = 2 * g, b = a + 1;
	if (md->m[b].inflight != md->m[a].inflight)
		return md->m[b].inflight < md->m[a].inflight ? b : a;
	return md->m[b].free_ns[0] < md->m[a].free_ns[0] ? b : a;
}

void model_read(struct model *md, uint64_t file_key, uint64_t offset, uint64_t len,
		uint64_t now_ns, struct model_placement *out)
{
	uint64_t per_group[MODEL_MAX_MEMBERS] = { 0 };
	uint64_t stripe = md->cfg.stripe_bytes, pos = offset, end = offset + len;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		end = offset + 1;	/* a read at the end of a file still costs a request */
	while (pos < end) {
		uint64_t unit = pos / stripe, stop = (unit + 1) * stripe;

		if (stop > end)
			stop = end;
		per_group[(unit + file_key) % md->groups] += len ? stop - pos : 0;
		pos = stop;
	}
	for (unsigned g = 0; g < md->groups; g++) {
		unsigned mi;

		if (!per_group[g] && !(len == 0 && g == (offset / stripe + file_key) % md->groups))
			continue;
		mi = pick(md, g);
		out->member[out->n] = mi;
		out->bytes[out->n] = per_group[g];
		out->end_ns[out->n] = serve(md, mi, per_group[g], now_ns);
		if (out->end_ns[out->n] > out->done_ns)
			out->done_ns = out->end_ns[out->n];
		out->n++;
	}
}

void model_done(struct model *md, unsigned member)
{
	if (member < md->cfg.members && md->m[member].inflight)
		md->m[member].inflight--;
}

double model_member_iops(const struct model_cfg *cfg, uint64_t bytes)
{
	double xfer_s = cfg->bandwidth_bps ? (double)bytes / (double)cfg->bandwidth_bps : 0;
	double slots = (double)cfg->parallel / ((double)cfg->latency_ns / 1e9 + xfer_s);

	if (xfer_s > 0 && 1.0 / xfer_s < slots)
		return 1.0 / xfer_s;
	return slots;
}
