/*
 * counters: integration at each event, the diskstats lines and the JSON;
 * see counters.h.
 */
#include "io/emulate/counters.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void counters_init(struct counters *c, unsigned nmembers, uint64_t now_ns)
{
	memset(c, 0, sizeof(*c));
	c->start_ns = now_ns;
	c->nmembers = nmembers;
	c->dev.last_ns = now_ns;
	for (unsigned i = 0; i < nmembers; i++)
		c->member[i].last_ns = now_ns;
}

unsigned counters_size_bucket(uint64_t bytes)
{
	unsigned i = 0;

	while (i < COUNTERS_SIZE_BUCKETS - 1 && bytes > counters_bucket_max(i))
		i++;
	return i;
}

uint64_t counters_bucket_max(unsigned i)
{
	return i < COUNTERS_SIZE_BUCKETS - 1 ? (uint64_t)4096 << i : 0;
}

static void integrate(struct counters_unit *u, uint64_t now)
{
	if (now > u->last_ns) {
		u->area_ns += u->inflight * (now - u->last_ns);
		if (u->inflight)
			u->busy_ns += now - u->last_ns;
		u->last_ns = now;
	}
}

void counters_arrive(struct counters_unit *u, uint64_t bytes, uint64_t now_ns)
{
	integrate(u, now_ns);
	u->reads++;
	u->read_bytes += bytes;
	u->sizes[counters_size_bucket(bytes)]++;
	if (++u->inflight > u->max_inflight)
		u->max_inflight = u->inflight;
}

void counters_done(struct counters_unit *u, uint64_t arrived_ns, uint64_t now_ns)
{
	integrate(u, now_ns);
	if (u->inflight)
		u->inflight--;
	u->read_ns += now_ns > arrived_ns ? now_ns - arrived_ns : 0;
}

void counters_write(struct counters_unit *u, uint64_t bytes)
{
	u->writes++;
	u->write_bytes += bytes;
}

void counters_answered(struct counters_timing *t, uint64_t due_ns, uint64_t now_ns)
{
	uint64_t late = now_ns > due_ns ? now_ns - due_ns : 0;

	t->answered++;
	t->late_ns += late;
	if (late > t->late_max_ns)
		t->late_max_ns = late;
}

void counters_backing(struct counters_timing *t, uint64_t backing_ns, bool over)
{
	t->backing_ns += backing_ns;
	t->backing_over += over;
}

void counters_settle(struct counters *c, uint64_t now_ns)
{
	integrate(&c->dev, now_ns);
	for (unsigned i = 0; i < c->nmembers; i++)
		integrate(&c->member[i], now_ns);
}

/* One diskstats line; the kernel's fields in its order, times in ms. */
static int line(char *buf, size_t len, unsigned minor, const char *name,
		const struct counters_unit *u)
{
	return snprintf(buf, len, "%4u %7u %s %" PRIu64 " 0 %" PRIu64 " %" PRIu64 " %" PRIu64
			" 0 %" PRIu64 " 0 %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			0u, minor, name, u->reads, u->read_bytes / 512, u->read_ns / 1000000,
			u->writes, u->write_bytes / 512, u->inflight, u->busy_ns / 1000000,
			u->area_ns / 1000000);
}

size_t counters_diskstats(const struct counters *c, char *buf, size_t len)
{
	size_t n = 0;
	char name[32];
	int k;

	k = line(buf, len, 0, COUNTERS_DEVICE_NAME, &c->dev);
	n = k > 0 ? (size_t)k : 0;
	for (unsigned i = 0; c->nmembers > 1 && i < c->nmembers && n < len; i++) {
		snprintf(name, sizeof(name), "%s.m%u", COUNTERS_DEVICE_NAME, i);
		k = line(buf + n, len - n, i + 1, name, &c->member[i]);
		n += k > 0 ? (size_t)k : 0;
	}
	return n < len ? n : len;
}

static json_t *unit_json(const struct counters_unit *u, double elapsed_ns)
{
	json_t *sizes = json_array();

	for (unsigned i = 0; i < COUNTERS_SIZE_BUCKETS; i++)
		if (u->sizes[i])
			json_array_append_new(sizes, json_pack("{s:o, s:I}", "max_bytes",
				counters_bucket_max(i) ? json_integer((json_int_t)counters_bucket_max(i)) : json_null(),
				"reads", (json_int_t)u->sizes[i]));
	return json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:I, s:I, s:f, s:o}",
			 "reads", (json_int_t)u->reads, "read_bytes", (json_int_t)u->read_bytes,
			 "writes", (json_int_t)u->writes, "write_bytes", (json_int_t)u->write_bytes,
			 "mean_read_ms", u->reads ? (double)u->read_ns / 1e6 / (double)(u->reads - u->inflight ? u->reads - u->inflight : 1) : 0.0,
			 "mean_inflight", elapsed_ns > 0 ? (double)u->area_ns / elapsed_ns : 0.0,
			 "max_inflight", (json_int_t)u->max_inflight, "inflight", (json_int_t)u->inflight,
			 "busy_s", (double)u->busy_ns / 1e9, "read_sizes", sizes);
}

json_t *counters_json(const struct counters *c, uint64_t now_ns)
{
	double elapsed = now_ns > c->start_ns ? (double)(now_ns - c->start_ns) : 0;
	json_t *members = json_array(), *o;

	for (unsigned i = 0; i < c->nmembers; i++)
		json_array_append_new(members, unit_json(&c->member[i], elapsed));
	const struct counters_timing *t = &c->timing;

	o = json_pack("{s:f, s:o, s:o, s:{s:I, s:f, s:f, s:f, s:I}}", "elapsed_s", elapsed / 1e9,
		      "device", unit_json(&c->dev, elapsed), "members", members,
		      "timing", "answered", (json_int_t)t->answered,
		      "answer_late_mean_us", t->answered ? (double)t->late_ns / 1e3 / (double)t->answered : 0.0,
		      "answer_late_max_us", (double)t->late_max_ns / 1e3,
		      "backing_read_mean_us", c->dev.reads ? (double)t->backing_ns / 1e3 / (double)c->dev.reads : 0.0,
		      "backing_slower_than_model", (json_int_t)t->backing_over);
	return o;
}
