/*
 * record_host: the facts a record carries about where and how it was made,
 * as JSON: the host (name, kernel, CPU model and count, memory in bytes,
 * whether its host takes free memory back: free page reporting),
 * the git revision of the build, the command line (redacted), UTC stamps,
 * the device under the data directory and what it did between two
 * /proc/diskstats snapshots, and the head of meta.json built from them.
 * Absent values are null, never guessed.
 */
#include "bench/record/record.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bench/cli/redact.h"

#ifndef EICBENCH_GIT_REV
#define EICBENCH_GIT_REV "unknown"
#endif

/* The first "model name" of /proc/cpuinfo, or "unknown". */
static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* Null without a reporting balloon; else its order and count (null unknown). */
static json_t *page_reporting_json(void)
{
	struct page_reporting p;

	if (sysstat_page_reporting_read(NULL, &p) < 0 || !p.on)
		return json_null();
	return json_pack("{s:b, s:o, s:o}", "on", 1,
			 "order", p.order >= 0 ? json_integer(p.order) : json_null(),
			 "reported_kib", p.reported_kib >= 0 ? json_integer(p.reported_kib) : json_null());
}

static json_t *host_json(void)
{
	char name[256] = "unknown", model[256];
	struct utsname u;
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	gethostname(name, sizeof(name) - 1);
	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	cpu_model(model, sizeof(model));
	return json_pack("{s:s, s:{s:s, s:s, s:s, s:s}, s:s, s:I, s:I, s:o}",
			 "hostname", name,
			 "kernel", "sysname", u.sysname, "release", u.release,
			 "version", u.version, "machine", u.machine,
			 "cpu_model", model,
			 "cpu_count", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
			 "memory_bytes", (json_int_t)pages * (json_int_t)page,
			 "free_page_reporting", page_reporting_json());
}

static json_t *argv_json(int argc, char *const argv[])
{
	json_t *a = json_array();

	for (int i = 0; a && i < argc; i++) {
		char *r = redact_arg(argv[i]);

		if (!r || json_array_append_new(a, json_string(r)) < 0) {
			free(r);
			json_decref(a);
			return NULL;
		}
		free(r);
	}
	return a;
}

void record_utc_iso(time_t when, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&when, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

json_t *record_disk_json(const char *device, const struct disk_delta *d)
{
	return json_pack("{s:s, s:f, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f}",
			 "device", device, "elapsed_s", d->elapsed_s,
			 "reads", (json_int_t)d->reads, "reads_merged", (json_int_t)d->reads_merged,
			 "read_bytes", (json_int_t)d->read_bytes, "writes", (json_int_t)d->writes,
			 "write_bytes", (json_int_t)d->write_bytes, "avg_read_kib", d->avg_read_kib,
			 "avg_queue_depth", d->avg_queue_depth, "util_pct", d->util_pct,
			 "read_await_ms", d->read_await_ms);
}

int record_meta_host(json_t *meta, int argc, char *const argv[], time_t started)
{
	char stamp[32];
	int rc = 0;

	record_utc_iso(started, stamp, sizeof(stamp));
	rc |= json_object_set_new(meta, "host", host_json());
	rc |= json_object_set_new(meta, "git_rev", json_string(EICBENCH_GIT_REV));
	rc |= json_object_set_new(meta, "command_line", argv_json(argc, argv));
	rc |= json_object_set_new(meta, "started_utc", json_string(stamp));
	return rc ? -ENOMEM : 0;
}

static json_t *str_or_null(const char *s)
{
	return s[0] ? json_string(s) : json_null();
}

static json_t *long_or_null(long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* A published device's model.json (an emulated device's model), or null. */
static json_t *published_model(const struct device_info *d)
{
	char path[SYSSTAT_PATH_MAX + 16];
	json_t *m;

	snprintf(path, sizeof(path), "%s/model.json", d->published);
	m = json_load_file(path, 0, NULL);
	return m ? m : json_null();
}

json_t *record_device_json(const struct device_info *d)
{
	json_t *members = json_array(), *o;

	for (int i = 0; i < d->nmembers; i++)
		json_array_append_new(members, json_string(d->members[i]));
	o = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", str_or_null(d->name),
			 "disk", str_or_null(d->disk),
			 "model", str_or_null(d->model),
			 "vendor", str_or_null(d->vendor),
			 "transport", str_or_null(d->transport),
			 "size_bytes", d->size_bytes < 0 ? json_null() : json_integer(d->size_bytes),
			 "scheduler", str_or_null(d->scheduler),
			 "rotational", d->rotational < 0 ? json_null() : json_boolean(d->rotational),
			 "nr_requests", long_or_null(d->nr_requests),
			 "read_ahead_kb", long_or_null(d->read_ahead_kb),
			 "max_sectors_kb", long_or_null(d->max_sectors_kb),
			 "logical_block_size", long_or_null(d->logical_block_size),
			 "fstype", str_or_null(d->fstype),
			 "members", members);
	if (o && d->published[0]) {
		json_object_set_new(o, "published", json_string(d->published));
		json_object_set_new(o, "emulated", published_model(d));
	}
	return o;
}

json_t *record_device_at(const char *path, struct device_info *dev)
{
	struct device_info mine;

	if (!dev)
		dev = &mine;
	if (!path || sysstat_device_for_path(path, dev) < 0) {
		dev->name[0] = '\0';
		return json_null();
	}
	return record_device_json(dev);
}

json_t *record_meta_new(const struct record_head *h, struct device_info *dev)
{
	json_t *meta = json_object();
	char dsn[1024];
	int rc;

	if (!meta)
		return NULL;
	rc = json_object_set_new(meta, "command", json_string(h->command));
	rc |= record_meta_host(meta, h->argc, h->argv, time(NULL));
	if (h->datadir)
		rc |= json_object_set_new(meta, "datadir", json_string(h->datadir));
	else if (h->dsn) {
		redact_dsn(h->dsn, dsn, sizeof(dsn));
		rc |= json_object_set_new(meta, "dsn", json_string(dsn));
	}
	if (h->device && h->dev)
		rc |= json_object_set_new(meta, "device", h->dev->name[0] ? record_device_json(h->dev) : json_null());
	else if (h->device)
		rc |= json_object_set_new(meta, "device", record_device_at(h->device_path, dev));
	if (rc) {
		json_decref(meta);
		return NULL;
	}
	return meta;
}

json_t *record_placement_window(const struct sampler *sm, int j, uint64_t t0, uint64_t t1)
{
	struct irqcpu_placement p;
	json_t *share, *irqs;
	double on;

	if (sampler_placement_window(sm, j, t0, t1, &p) < 0)
		return json_null();
	share = p.have_reader ? json_array() : json_null();
	irqs = p.have_irqs ? json_array() : json_null();
	on = irqcpu_on_irq_cpu(&p);
	for (int c = 0; c < p.ncpu && c < IRQCPU_MAX_CPUS; c++) {
		if (p.have_reader)
			json_array_append_new(share, json_real(round(p.share[c] * 1000) / 1000));
		if (p.have_irqs)
			json_array_append_new(irqs, json_integer((json_int_t)p.irqs[c]));
	}
	return json_pack("{s:o, s:o, s:o}", "on_irq_cpu", isnan(on) ? json_null() : json_real(round(on * 1000) / 1000),
			 "reader_share", share, "irqs", irqs);
}
