/*
 * replay_pages: which of a bitmap heap scan's pages the replay takes as
 * lossy, and the backend's work on each. PostgreSQL's TID bitmap (tidbitmap.c, 13 to 18 alike here) is
 * filled in the order the index scans give their tuples, block order for
 * this data set's indexes; each time its entries pass maxentries (work_mem
 * over 64 bytes an entry) it makes pages lossy in the order of its hash
 * table's buckets (murmurhash32 of the block, masked by the table's size),
 * backwards from where the round before stopped, never a chunk's first
 * page, until the entries are down to half. A lossy page's chunk (256
 * pages) becomes an entry of its own, and the chunk's first page, when the
 * bitmap holds it, turns lossy with it. Pages added after the last round
 * stay exact: with one round (the sparse query at 4MB) the last quarter of
 * the scan is exact, so the backend runs through it faster than through
 * the rest.
 *
 * replay_pages_tbm simulates that. Left out: the hash table's collisions
 * (an entry a few buckets past its hash's) and entries visited twice or
 * not at all while a round changes the table; the count it gives is checked
 * against EXPLAIN's (replay_pages_choose). replay_pages_model is the model
 * before it, kept for a count the simulation misses: EXPLAIN's count of
 * lossy pages taken in hash order over the whole scan.
 */
#ifndef BENCH_WORKLOADS_REPLAY_PAGES_H
#define BENCH_WORKLOADS_REPLAY_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/observe/relblocks.h"
#include "io/engines/bitmapscan.h"

#define REPLAY_PAGES_PER_CHUNK 256     /* tidbitmap's PAGES_PER_CHUNK for 8 kB blocks */
#define REPLAY_TBM_ENTRY_BYTES 64      /* tbm_calculate_entries: an entry and two pointers */
#define REPLAY_TBM_MISS        0.02    /* the simulation's lossy count this far from EXPLAIN's: not used */

/*
 * The scan's pages from RB (blocks ascending): every block with its rows,
 * lossy as the bitmap would make them at WORK_MEM_BYTES, each lossy page
 * with TUPLES_PER_PAGE tuples (at least its own rows). *OUT is malloc'd,
 * *LOSSY gets the lossy pages. 0, -EINVAL (blocks not ascending) or
 * -ENOMEM.
 */
int replay_pages_tbm(const struct relblocks *rb, long long work_mem_bytes, double tuples_per_page,
		     struct scan_block **out, int64_t *lossy);

/*
 * The scan's pages from RB: every block with its rows, LOSSY of them made
 * lossy in lossify order with TUPLES_PER_PAGE tuples each (at least their
 * own rows). *OUT is malloc'd. 0 or -ENOMEM.
 */
int replay_pages_model(const struct relblocks *rb, int64_t lossy, double tuples_per_page,
		       struct scan_block **out);

/*
 * The pages the replay takes: the simulation's when its lossy count is
 * within REPLAY_TBM_MISS of EXPLAIN's (LOSSY; WORK_MEM_BYTES <= 0: not
 * known), else the model's. *USED says whether the simulation's were
 * taken, *HOW says so for the records (static text), *SIMULATED gets the
 * simulation's count (-1 when not run).
 */
int replay_pages_choose(const struct relblocks *rb, int64_t lossy, long long work_mem_bytes,
			double tuples_per_page, struct scan_block **out, bool *used,
			const char **how, int64_t *simulated);

/*
 * The backend's work on a page as a part per page (*FIXED_NS) and a part
 * per tuple it examines (*PER_TUPLE_NS), from two warm runs over the same
 * N pages: at the session's work_mem, PER_PAGE_NS a page with EXAMINED
 * tuples in all (a lossy page's every tuple, an exact page's rows), and
 * with the bitmap exact, EXACT_NS a page with MATCHING tuples (the rows).
 * true when they split it (both parts positive); else false, with all of
 * PER_PAGE_NS on the page and nothing per tuple (EXACT_NS < 0: not run).
 */
bool replay_work_fit(double per_page_ns, double exact_ns, size_t n, double examined,
		     double matching, double *fixed_ns, double *per_tuple_ns);

#endif
