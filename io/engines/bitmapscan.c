/*
 * bitmapscan: PostgreSQL 13-17's bitmap heap scan loop (BitmapHeapNext with
 * its prefetch iterator) over a page sequence; see bitmapscan.h. The ramp's
 * iterator runs over page indices, so each advice names the page it is for.
 */
#include "io/engines/bitmapscan.h"

#include <errno.h>

#include "io/blocks.h"
#include "io/engines/fadvise.h"

/* BitmapPrefetch: advice for every page the ramp asks for now. */
static int prefetch(struct fadvise_ramp *r, const struct scan_block *pages,
		    const struct scan17_ops *ops, void *arg)
{
	uint64_t idx;
	int rc;

	while (fadvise_ramp_take(r, &idx))
		if (!pages[idx].cached && (rc = ops->advise(arg, (size_t)idx)) < 0)
			return rc;
	return 0;
}

/* One page: keep the iterator level, read it, the page step, its tuples. */
static int one_page(struct fadvise_ramp *r, bool prefetching, const struct scan_block *pages,
		    size_t i, const struct scan17_ops *ops, void *arg)
{
	int rc;

	if (prefetching)
		fadvise_ramp_before_read(r);
	if (!pages[i].cached && (rc = ops->read(arg, i)) < 0)
		return rc;
	if (pages[i].ntuples == 0)
		return 0;
	if (prefetching) {
		fadvise_ramp_after_read(r);
		if ((rc = prefetch(r, pages, ops, arg)) < 0)
			return rc;
		/* Each tuple taken after the first, and the look that finds no more. */
		for (uint32_t t = 0; t < pages[i].ntuples; t++) {
			fadvise_ramp_tuple(r);
			if ((rc = prefetch(r, pages, ops, arg)) < 0)
				return rc;
		}
	}
	return ops->work(arg, i);
}

int bitmapscan17_run(const struct scan_block *pages, size_t n, int max,
		     const struct scan17_ops *ops, void *arg,
		     const volatile sig_atomic_t *stop)
{
	struct fadvise_ramp r;
	struct blocks order;
	int rc;

	if (max < 0)
		return -EINVAL;
	blocks_seq(&order, n ? n : 1);
	fadvise_ramp_init(&r, &order, max, n);
	for (size_t i = 0; i < n; i++) {
		if (stop && *stop)
			return -EINTR;
		if ((rc = one_page(&r, max > 0, pages, i, ops, arg)) < 0)
			return rc;
	}
	return 0;
}
