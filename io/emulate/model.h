/*
 * model: the emulated device's service model, pure arithmetic on times in
 * ns (no I/O, no clock of its own). The device is MEMBERS drives; a read's
 * bytes map to members by stripe units (raid0: unit k of a file on member
 * (k + file's offset) mod members; raid10: the same over mirrored pairs,
 * each read going to the pair's less busy drive). Each drive serves at most
 * PARALLEL requests at once, first come first served; a request takes the
 * latency (times 1 ± jitter, drawn from a seeded generator per drive), then
 * its bytes move over the drive's one transfer channel at BANDWIDTH (bytes
 * per second, 0: no limit). A read ends when its last member is done.
 * Writes are not modelled (they pass through). Not thread-safe: the caller
 * holds one lock around it.
 */
#ifndef IO_EMULATE_MODEL_H
#define IO_EMULATE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/rng.h"

#define MODEL_MAX_MEMBERS  64
#define MODEL_MAX_PARALLEL 4096
#define MODEL_MAX_LATENCY_NS (10ULL * 1000000000ULL)   /* 10 s */
#define MODEL_STRIPE_UNIT  4096                        /* stripes are multiples of it */
#define MODEL_MAX_STRIPE   (64ULL << 20)

enum model_layout { MODEL_RAID0 = 0, MODEL_RAID10 };

struct model_cfg {
	uint64_t latency_ns;
	double   jitter;              /* a fraction, 0 <= jitter < 1 */
	unsigned parallel;            /* requests a drive serves at once */
	unsigned members;             /* drives; even for raid10 */
	uint64_t stripe_bytes;        /* a multiple of MODEL_STRIPE_UNIT */
	enum model_layout layout;
	uint64_t bandwidth_bps;       /* per drive; 0: no limit */
	uint64_t seed;                /* the jitter's */
};

struct model_member {
	uint64_t   *free_ns;          /* min-heap: when each of its slots frees up */
	uint64_t    channel_free_ns;  /* when its transfer channel frees up */
	unsigned    inflight;         /* sub-requests arrived and not yet done */
	struct rng  rng;
};

struct model {
	struct model_cfg     cfg;
	unsigned             groups;  /* stripe targets: members, or pairs for raid10 */
	struct model_member  m[MODEL_MAX_MEMBERS];
};

/* One read as the model placed it: per member touched, its bytes and end. */
struct model_placement {
	unsigned n;                   /* members touched */
	unsigned member[MODEL_MAX_MEMBERS];
	uint64_t bytes[MODEL_MAX_MEMBERS];
	uint64_t end_ns[MODEL_MAX_MEMBERS];
	uint64_t done_ns;             /* the latest end */
};

/*
 * 0, or -EINVAL with ERR saying which figure is out of range (the bounds
 * above; raid10 with an odd number of members), or -ENOMEM.
 */
int model_init(struct model *md, const struct model_cfg *cfg, char *err, size_t errlen);
void model_free(struct model *md);

/*
 * Place a read of LEN bytes at OFFSET of the file whose placement offset is
 * FILE_KEY (any number: files start on different members), arriving at
 * NOW_NS: each member touched takes its part and says when it will be done.
 * The members' in-flight counts go up; model_done lowers one.
 */
void model_read(struct model *md, uint64_t file_key, uint64_t offset, uint64_t len,
		uint64_t now_ns, struct model_placement *out);
void model_done(struct model *md, unsigned member);

/* What one member can serve at most, in requests per second, of BYTES each
 * (the latency's mean, the parallelism and the bandwidth). */
double model_member_iops(const struct model_cfg *cfg, uint64_t bytes);

#endif
