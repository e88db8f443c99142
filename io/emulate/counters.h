/*
 * counters: what the emulated device served, for the whole device and per
 * member: requests and bytes read and written, a histogram of read sizes
 * (powers of two), the time reads spent from arrival to done, the reads in
 * flight now and at most, and the time-weighted integral of in-flight reads
 * and the busy time (ns), integrated exactly at every arrival and
 * completion. Rendered in /proc/diskstats's format (one line per unit, so
 * the suite's samplers read the emulated device as they read a disk) and as
 * JSON. The caller holds the emulator's lock.
 */
#ifndef IO_EMULATE_COUNTERS_H
#define IO_EMULATE_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "io/emulate/model.h"

#define COUNTERS_SIZE_BUCKETS 13      /* <=4 KiB, <=8 KiB, ..., <=8 MiB, more */
#define COUNTERS_DEVICE_NAME  "emulated"  /* its diskstats name; members "emulated.m0", ... */

struct counters_unit {
	uint64_t reads, read_bytes, writes, write_bytes;
	uint64_t read_ns;             /* summed arrival-to-done time of finished reads */
	uint64_t inflight, max_inflight;
	uint64_t area_ns;             /* integral of inflight over time */
	uint64_t busy_ns;             /* time with at least one read in flight */
	uint64_t last_ns;             /* of the last integration */
	uint64_t sizes[COUNTERS_SIZE_BUCKETS];
};

/* How well the emulator kept to the model: answers against their due
 * times, and the backing reads (which delay an answer when slower). */
struct counters_timing {
	uint64_t answered;
	uint64_t late_ns, late_max_ns;  /* answer time less due time */
	uint64_t backing_ns;            /* summed backing read times */
	uint64_t backing_over;          /* backing reads that ended after the model's due time */
};

struct counters {
	uint64_t             start_ns;
	unsigned             nmembers;
	struct counters_timing timing;
	struct counters_unit dev;
	struct counters_unit member[MODEL_MAX_MEMBERS];
};

void counters_init(struct counters *c, unsigned nmembers, uint64_t now_ns);

/* The histogram bucket of a read of BYTES; the upper bound of bucket I (0:
 * none, the last). */
unsigned counters_size_bucket(uint64_t bytes);
uint64_t counters_bucket_max(unsigned i);

/* A read of BYTES arrives at U; one that arrived at ARRIVED is done. */
void counters_arrive(struct counters_unit *u, uint64_t bytes, uint64_t now_ns);
void counters_done(struct counters_unit *u, uint64_t arrived_ns, uint64_t now_ns);
void counters_write(struct counters_unit *u, uint64_t bytes);
/* An answer given at NOW for a read due at DUE; a backing read of BACKING_NS
 * that ended after the model's due time when OVER. */
void counters_answered(struct counters_timing *t, uint64_t due_ns, uint64_t now_ns);
void counters_backing(struct counters_timing *t, uint64_t backing_ns, bool over);

/* Bring every unit's integrals up to NOW (before reading them). */
void counters_settle(struct counters *c, uint64_t now_ns);

/*
 * The device and, when there are several, each member as /proc/diskstats
 * lines (major 0, minor the unit's index), into BUF: the length written
 * (cut at LEN).
 */
size_t counters_diskstats(const struct counters *c, char *buf, size_t len);

/* The counters as JSON: device and members, with the time-weighted mean in
 * flight over the time since start. */
json_t *counters_json(const struct counters *c, uint64_t now_ns);

#endif
