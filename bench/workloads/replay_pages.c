/*
 * replay_pages: the scan's lossy pages, simulated or modelled; see
 * replay_pages.h. The simulation keeps a state per page of the scan and an
 * entry flag per chunk; a round sorts the exact pages by the order the hash
 * table's iterator would meet them.
 */
#include "bench/workloads/replay_pages.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define SH_INITIAL_SIZE 256            /* simplehash's size for tidbitmap's 128 elements */
#define SH_FILL         0.9            /* simplehash grows at this fill */

/* MurmurHash3's 32-bit finalizer, which tidbitmap's hash table hashes block numbers with. */
static uint32_t mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static uint32_t lossy_tuples(uint32_t own, double tuples_per_page)
{
	return tuples_per_page > own ? (uint32_t)llround(tuples_per_page) : own;
}

/* ---- the simulation ---- */

enum { NOT_YET, EXACT, LOSSY };

struct slot { uint32_t key; uint32_t bucket; size_t idx; };

struct tbm {
	const struct relblocks *rb;
	uint8_t   *state;                /* per page of the scan */
	size_t    *head;                 /* per chunk: its first page's index + 1 while exact, else 0 */
	bool      *chunk;                /* per chunk: lossy, an entry of its own */
	struct slot *order;              /* a round's exact pages */
	long long  entries, max;
	uint64_t   size;                 /* the hash table's buckets */
	uint32_t   start;                /* the bucket the next round begins at */
};

/* An entry more: the hash table doubles first when it is full enough. */
static void insert(struct tbm *t)
{
	if (t->entries >= (long long)((double)t->size * SH_FILL))
		t->size *= 2;
	t->entries++;
}

static void make_lossy(struct tbm *t, size_t i)
{
	uint64_t c = t->rb->blocks[i] / REPLAY_PAGES_PER_CHUNK;

	t->state[i] = LOSSY;
	t->entries--;
	if (t->chunk[c])
		return;
	t->chunk[c] = true;
	if (t->head[c]) {		/* the chunk's first page, exact: the chunk takes its entry */
		t->state[t->head[c] - 1] = LOSSY;
		t->head[c] = 0;
	} else
		insert(t);
}

/* Backwards from the round's first bucket, as the iterator meets them. */
static int by_visit(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? 1 : x->idx > y->idx ? -1 : 0;
}

/* tbm_lossify over the pages added so far (0 .. UPTO). */
static void round_of(struct tbm *t, size_t upto)
{
	uint32_t mask = (uint32_t)(t->size - 1);
	size_t n = 0;

	for (size_t i = 0; i <= upto; i++)
		if (t->state[i] == EXACT && t->rb->blocks[i] % REPLAY_PAGES_PER_CHUNK) {
			uint32_t b = mix32((uint32_t)t->rb->blocks[i]) & mask;

			t->order[n++] = (struct slot){ .key = (t->start - b) & mask, .bucket = b, .idx = i };
		}
	qsort(t->order, n, sizeof(*t->order), by_visit);
	for (size_t k = 0; k < n; k++) {
		make_lossy(t, t->order[k].idx);
		if (t->entries <= t->max / 2) {
			t->start = (t->order[k].bucket - 1) & mask;
			return;
		}
	}
	t->max = 2 * t->entries;	/* it cannot get under: the limit is raised */
}

static void add(struct tbm *t, size_t i)
{
	uint64_t b = t->rb->blocks[i], c = b / REPLAY_PAGES_PER_CHUNK;

	if (b % REPLAY_PAGES_PER_CHUNK == 0 && t->chunk[c]) {
		t->state[i] = LOSSY;	/* the chunk's entry holds its first page */
		return;
	}
	t->state[i] = EXACT;
	if (b % REPLAY_PAGES_PER_CHUNK == 0)
		t->head[c] = i + 1;
	insert(t);
	if (t->entries > t->max)
		round_of(t, i);
}

static void tbm_free(struct tbm *t)
{
	free(t->state);
	free(t->head);
	free(t->chunk);
	free(t->order);
}

int replay_pages_tbm(const struct relblocks *rb, long long work_mem_bytes, double tuples_per_page,
		     struct scan_block **out, int64_t *lossy)
{
	size_t n = rb->nblocks, chunks = n ? rb->blocks[n - 1] / REPLAY_PAGES_PER_CHUNK + 1 : 1;
	long long max = work_mem_bytes / REPLAY_TBM_ENTRY_BYTES;
	struct tbm t = { .rb = rb, .max = max < 16 ? 16 : max, .size = SH_INITIAL_SIZE,
			 .state = calloc(n ? n : 1, 1), .head = calloc(chunks, sizeof(size_t)),
			 .chunk = calloc(chunks, sizeof(bool)), .order = calloc(n ? n : 1, sizeof(struct slot)) };
	struct scan_block *p = calloc(n ? n : 1, sizeof(*p));

	for (size_t i = 1; i < n; i++)
		if (rb->blocks[i] <= rb->blocks[i - 1]) {
			tbm_free(&t);
			free(p);
			return -EINVAL;
		}
	if (!t.state || !t.head || !t.chunk || !t.order || !p) {
		tbm_free(&t);
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		add(&t, i);
	*lossy = 0;
	for (size_t i = 0; i < n; i++) {
		bool l = t.state[i] == LOSSY;

		p[i] = (struct scan_block){ .block = rb->blocks[i], .lossy = l,
			.ntuples = l ? lossy_tuples(rb->ntuples[i], tuples_per_page) : rb->ntuples[i] };
		*lossy += l;
	}
	tbm_free(&t);
	*out = p;
	return 0;
}

/* ---- the model before it ---- */

struct order { uint32_t key; size_t idx; };

static int by_key(const void *a, const void *b)
{
	const struct order *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key ? 1 : x->idx < y->idx ? -1 : x->idx > y->idx;
}

int replay_pages_model(const struct relblocks *rb, int64_t lossy, double tuples_per_page,
		       struct scan_block **out)
{
	struct scan_block *p = calloc(rb->nblocks ? rb->nblocks : 1, sizeof(*p));
	struct order *o = calloc(rb->nblocks ? rb->nblocks : 1, sizeof(*o));
	size_t n = 0;

	if (!p || !o) {
		free(p), free(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rb->nblocks; i++) {
		p[i] = (struct scan_block){ .block = rb->blocks[i], .ntuples = rb->ntuples[i] };
		if (rb->blocks[i] % REPLAY_PAGES_PER_CHUNK)	/* a chunk's first page stays exact */
			o[n++] = (struct order){ .key = mix32((uint32_t)rb->blocks[i]), .idx = i };
	}
	qsort(o, n, sizeof(*o), by_key);
	for (size_t k = 0; lossy > 0 && k < n; k++, lossy--) {
		struct scan_block *b = &p[o[k].idx];

		b->lossy = true;
		b->ntuples = lossy_tuples(b->ntuples, tuples_per_page);
	}
	free(o);
	*out = p;
	return 0;
}

int replay_pages_choose(const struct relblocks *rb, int64_t lossy, long long work_mem_bytes,
			double tuples_per_page, struct scan_block **out, bool *used,
			const char **how, int64_t *simulated)
{
	struct scan_block *sim = NULL;
	int rc;

	*simulated = -1;
	*used = false;
	if (work_mem_bytes > 0) {
		rc = replay_pages_tbm(rb, work_mem_bytes, tuples_per_page, &sim, simulated);
		if (rc == -ENOMEM)
			return rc;
		if (rc == 0 && llabs(*simulated - lossy) <= REPLAY_TBM_MISS * (double)lossy) {
			*out = sim;
			*used = true;
			*how = "simulated: the bitmap filled in block order, pages made lossy in its hash table's order each time its entries passed work_mem's share, as tidbitmap does; EXPLAIN's count agrees";
			return 0;
		}
		free(sim);
	}
	*how = work_mem_bytes > 0 ?
		"EXPLAIN's count, in tidbitmap's lossify order over the whole scan (murmurhash32 of the block; a chunk's first page stays exact): the simulation's count was not EXPLAIN's" :
		"EXPLAIN's count, in tidbitmap's lossify order over the whole scan (murmurhash32 of the block; a chunk's first page stays exact)";
	return replay_pages_model(rb, lossy, tuples_per_page, out);
}

/* ---- the work ---- */

bool replay_work_fit(double per_page_ns, double exact_ns, size_t n, double examined,
		     double matching, double *fixed_ns, double *per_tuple_ns)
{
	double b = exact_ns >= 0 && examined > matching ?
		   (per_page_ns - exact_ns) * (double)n / (examined - matching) : 0;
	double a = n ? (exact_ns * (double)n - b * matching) / (double)n : 0;

	if (b > 0 && a > 0) {
		*fixed_ns = a;
		*per_tuple_ns = b;
		return true;
	}
	*fixed_ns = per_page_ns;
	*per_tuple_ns = 0;
	return false;
}
