/*
 * verdict_doc: the run's verdict as a document (bench/report/document.h): the answer for
 * the storage with the lines that apply it, then per query its replay
 * trials beside its query trials (bench/report/prediction_doc.h) and the
 * sweep's own explanation, the device's curves and the cache check. Every
 * sentence names the figures it rests on.
 */
#include "bench/report/verdict_doc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/curve.h"
#include "bench/record/semantics.h"
#include "bench/report/prediction_doc.h"
#include "bench/report/verdict_box.h"
#include "bench/report/verdict_classes.h"

static const char *eic_name = "effective_io_concurrency";

/* ---- context ---- */

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "not in sysfs";
}

/* The device under the data directory, as sysfs described it. */
static void device_facts(struct doc *d, const json_t *m)
{
	const json_t *dev = json_object_get(m, "device"), *rot = json_object_get(dev, "rotational");
	double size = record_num_at(m, "device.size_bytes");
	char sz[32] = "not recorded";

	if (size > 0)
		snprintf(sz, sizeof(sz), "%.1f GiB", size / (1024.0 * 1024 * 1024));
	doc_table(d, 2, (const char *const[]){ "device", record_str_at(dev, "name", NULL) ?: "unknown" });
	doc_row(d, (const char *const[]){ "model", or_unknown(record_str_at(dev, "model", NULL)) });
	doc_row(d, (const char *const[]){ "vendor", or_unknown(record_str_at(dev, "vendor", NULL)) });
	doc_row(d, (const char *const[]){ "size", sz });
	doc_row(d, (const char *const[]){ "transport", or_unknown(record_str_at(dev, "transport", NULL)) });
	doc_row(d, (const char *const[]){ "rotational", !json_is_boolean(rot) ? "not in sysfs" : !json_is_true(rot) ? "no" :
		!strcmp(record_str_at(dev, "transport", NULL) ?: "", "virtio") ?
		"yes, says the kernel (a virtio disk says so unless its host tells otherwise)" : "yes (a spinning disk, says the kernel)" });
	doc_row(d, (const char *const[]){ "scheduler", or_unknown(record_str_at(dev, "scheduler", NULL)) });
	{
		char q[32], ra[32], ms[32];

		doc_num(q, sizeof(q), "%.0f", record_num_at(m, "device.nr_requests"));
		doc_num(ra, sizeof(ra), "%.0f KiB", record_num_at(m, "device.read_ahead_kb"));
		doc_num(ms, sizeof(ms), "%.0f KiB", record_num_at(m, "device.max_sectors_kb"));
		doc_row(d, (const char *const[]){ "queue depth (nr_requests)", q });
		doc_row(d, (const char *const[]){ "read-ahead", ra });
		doc_row(d, (const char *const[]){ "largest request", ms });
	}
	doc_row(d, (const char *const[]){ "file system", or_unknown(record_str_at(dev, "fstype", NULL)) });
	if (json_array_size(json_object_get(dev, "members")))
		doc_row(d, (const char *const[]){ "members", "an md or dm device: its members are in the records" });
	if (json_object_get(dev, "emulated")) {
		char *txt = json_dumps(json_object_get(dev, "emulated"), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

		doc_row(d, (const char *const[]){ "emulated model", txt ? txt : "?" });
		free(txt);
	}
}

static void context(struct doc *d, const struct run_result *v)
{
	const struct sweep_result *r = NULL;
	const json_t *m, *cl = json_object_get(v->meta, "command_line"), *a;
	char line[2048] = "", *p = line;
	size_t i;

	for (int k = 0; !r && k < v->nq; k++)
		if (v->q[k].have_rep)
			r = &v->q[k].rep;
	m = r->meta;
	json_array_foreach(cl, i, a)
		p += snprintf(p, sizeof(line) - (size_t)(p - line), "%s%s", i ? " " : "",
			      json_string_value(a) ?: "");
	device_facts(d, m);
	doc_para(d, "Server: PostgreSQL %s, shared_buffers %s, work_mem %s. Data set: %.0f rows. Host: %s, %.0f CPUs, kernel %s.",
		 record_str_at(m, "server", "version") ?: "?",
		 record_str_at(json_object_get(m, "server"), "settings", "shared_buffers") ?: "?",
		 record_str_at(json_object_get(m, "server"), "settings", "work_mem") ?: "?",
		 record_num_at(m, "dataset.rows"), record_str_at(m, "host", "hostname") ?: "?",
		 record_num_at(m, "host.cpu_count"), record_str_at(json_object_get(m, "host"), "kernel", "release") ?: "?");
	doc_para(d, "Command: %s (started %s, revision %s).", line,
		 record_str_at(v->meta, "started_utc", NULL) ?: "?",
		 record_str_at(v->meta, "git_rev", NULL) ?: "?");
}

/* ---- the answer ---- */

static const char *value_of(const struct sweep_result *r, const struct result_group *g)
{
	return result_value(r, g, r->swept);
}

static long pre13_equivalent(long distance)
{
	for (int old = 0; old <= SEMANTICS_PRE13_MAX; old++)
		if (semantics_convert_pre13(old) >= distance)
			return old;
	return -1;
}

static void apply_lines(struct doc *d, const struct run_result *v, const char *value)
{
	const struct sweep_result *r = &v->q[0].rep;
	const char *ts = record_str_at(json_object_get(r->meta, "plan"), "tablespace", "name");
	long n = strtol(value, NULL, 10), version = r->version_num;
	char code[1024];

	snprintf(code, sizeof(code),
		 "-- measured in %s; on your server, the tablespace on this device:\n"
		 "ALTER TABLESPACE %s SET (effective_io_concurrency = %s);\n"
		 "-- or for every tablespace without a value of its own:\n"
		 "ALTER SYSTEM SET effective_io_concurrency = %s;\n"
		 "SELECT pg_reload_conf();", ts && *ts ? ts : "pg_default", ts && *ts ? ts : "pg_default", value, value);
	doc_code(d, code);
	if (version >= 130000 && version < 180000 && n > 0 && pre13_equivalent(n) >= 0)
		doc_para(d, "On PostgreSQL 13 to 17 the value is the prefetch distance in pages. On 12 and older, which counted \"spindles\", the smallest value reaching a distance of %ld pages is %s = %ld (%ld pages).",
			 n, eic_name, pre13_equivalent(n), semantics_convert_pre13((int)pre13_equivalent(n)));
}

/* A knee stands only where a deeper point shows the plateau (older curve.json
 * files say nothing of it: their depths do). */
static int knee_stands(const json_t *e)
{
	const json_t *pl = json_object_get(e, "plateau"), *d;
	json_int_t knee = json_integer_value(json_object_get(e, "knee_depth"));
	size_t i;

	if (pl)
		return json_is_true(pl);
	json_array_foreach(json_object_get(e, "depths"), i, d)
		if (json_integer_value(d) > knee)
			return 1;
	return 0;
}

static void knee_sentence(FILE *f, const struct run_result *v)
{
	const json_t *e = json_array_get(json_object_get(v->device_curve, "engines"), 0);

	if (!e)
		return;
	if (!knee_stands(e)) {
		fprintf(f, " The device alone (random reads of the data set's blocks with O_DIRECT through %s) reached %.0f IOPS at depth %lld, the deepest measured, and no deeper point shows where it levels off: its curve has no knee here.",
			json_string_value(json_object_get(e, "engine")) ?: "io_uring",
			record_num_at(e, "peak_iops"), json_integer_value(json_object_get(e, "peak_depth")));
		return;
	}
	fprintf(f, " The device alone (random reads of the data set's blocks with O_DIRECT through %s) reached its peak of %.0f IOPS at depth %lld and %.0f%% of it at depth %lld, the knee of its curve.",
		json_string_value(json_object_get(e, "engine")) ?: "io_uring",
		record_num_at(e, "peak_iops"), json_integer_value(json_object_get(e, "peak_depth")),
		CURVE_KNEE_SHARE * 100, json_integer_value(json_object_get(e, "knee_depth")));
}

/* ---- per query ---- */

/* The value whose pairing is told: the query's recommendation, or its best
 * prefetching value when that is 0 (or none is recommended). */
static const char *told_value(const struct run_query *q)
{
	const struct result_series *se = &q->rep.series[0];
	const struct result_group *best = NULL;

	if (se->recommends && strcmp(value_of(&q->rep, &q->rep.groups[se->recommended]), "0"))
		return value_of(&q->rep, &q->rep.groups[se->recommended]);
	for (size_t k = 0; k < q->rep.ngroups; k++) {
		const struct result_group *g = &q->rep.groups[k];

		if (strcmp(value_of(&q->rep, g), "0") && (!best || g->median_ms < best->median_ms))
			best = g;
	}
	return best ? value_of(&q->rep, best) : NULL;
}

static void query_section(struct doc *d, const struct run_query *q, const struct run_result *v)
{
	json_t *paras;
	char path[PATH_MAX + 256], cap[128];
	size_t i;
	json_t *p;

	if (!q->have_rep) {
		doc_para(d, "The sweep of %s has no finished trials in %s.", q->name, q->sweep_dir);
		return;
	}
	doc_code(d, record_str_at(q->rep.meta, "plan", "query_text") ?: "");
	prediction_section(d, &q->rep, v->device_seq, told_value(q), q->replay_dir[0] != '\0');
	paras = report_explain(&q->rep);
	json_array_foreach(paras, i, p)
		doc_text(d, json_string_value(p));
	json_decref(paras);
	snprintf(path, sizeof(path), "%s/sweep.svg", q->sweep_dir);
	snprintf(cap, sizeof(cap), "Query %s: heap phase per value, median and its interval.", q->name);
	doc_image(d, path, cap);
	snprintf(path, sizeof(path), "%s/speedup-%s.svg", v->dir, q->name);
	snprintf(cap, sizeof(cap), "Query %s: speedup against 0, observed (with its interval) and predicted by its replay trials.", q->name);
	doc_image(d, path, cap);
}

/* ---- the device and the cache check ---- */

/* Which points were steady, and the rule; or that the curve did not ask. */
static void steady_sentence(FILE *f, const struct run_result *v)
{
	const json_t *p, *st = NULL;
	size_t i, n = 0, yes = 0;
	char not[256] = "";

	json_array_foreach(v->device_points, i, p) {
		const json_t *s = json_object_get(p, "steady");

		if (!json_is_object(s))
			continue;
		st = s;
		n++;
		if (json_is_true(json_object_get(s, "reached")))
			yes++;
		else if (strlen(not) < sizeof(not) - 16)
			snprintf(not + strlen(not), sizeof(not) - strlen(not), "%s%lld", not[0] ? ", " : "",
				 json_integer_value(json_object_get(p, "depth")));
	}
	if (!st) {
		fprintf(f, " Its points ran for a fixed time without the steadiness rule: whether their IOPS had settled is not known.");
		return;
	}
	fprintf(f, " A point is steady when its last %.0f windows of %.2g s were each within %.0f%% of their mean: %zu of %zu points were%s%s%s.",
		isfinite(record_num_at(st, "rule_windows")) ? record_num_at(st, "rule_windows") : 5,
		isfinite(record_num_at(st, "window_s")) ? record_num_at(st, "window_s") : 1,
		(isfinite(record_num_at(st, "rule_tolerance")) ? record_num_at(st, "rule_tolerance") : 0.05) * 100,
		yes, n, not[0] ? "; not steady at depth " : "",
		not, not[0] ? " (their IOPS are what the time allowed)" : "");
}

/* Sequential reads through the page cache per request size. */
static void seq_section(struct doc *d, const struct run_result *v)
{
	static const char *const heads[] = { "read size KiB", "MiB/s", "device requests", "request KiB",
		"device ms per request", "queue" };
	char c[6][32];
	const char *cells[6];
	size_t i;
	json_t *p;

	if (!v->device_seq || !json_array_size(v->device_seq))
		return;
	doc_para(d, "The device reading the table's files in order through the page cache (one pass per size, cold), as the kernel's readahead does for a scan in block order:");
	doc_table(d, 6, heads);
	json_array_foreach(v->device_seq, i, p) {
		doc_num(c[0], 32, "%.0f", record_num_at(p, "block_bytes") / 1024);
		doc_num(c[1], 32, "%.1f", record_num_at(p, "mib_s"));
		doc_num(c[2], 32, "%.0f", record_num_at(p, "disk.reads"));
		doc_num(c[3], 32, "%.0f", record_num_at(p, "disk.avg_read_kib"));
		doc_num(c[4], 32, "%.2f", record_num_at(p, "disk.read_await_ms"));
		doc_num(c[5], 32, "%.2f", record_num_at(p, "disk.avg_queue_depth"));
		for (int k = 0; k < 6; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
}

static void device_section(struct doc *d, const struct run_result *v)
{
	static const char *const heads[] = { "depth", "IOPS", "MiB/s", "p50 µs", "p99 µs", "p99.9 µs", "steady" };
	char c[7][32], *text = NULL, path[PATH_MAX + 32];
	const char *cells[7];
	size_t i, len = 0;
	json_t *p;
	FILE *f;

	if (!v->device_points)
		return;
	doc_details_open(d, "The device's own curve");
	doc_table(d, 7, heads);
	json_array_foreach(v->device_points, i, p) {
		const json_t *st = json_object_get(p, "steady");

		snprintf(c[0], 32, "%lld", json_integer_value(json_object_get(p, "depth")));
		doc_num(c[1], 32, "%.0f", record_num_at(p, "iops"));
		doc_num(c[2], 32, "%.1f", record_num_at(p, "mib_s"));
		doc_num(c[3], 32, "%.1f", record_num_at(p, "lat_ns.p50") / 1e3);
		doc_num(c[4], 32, "%.1f", record_num_at(p, "lat_ns.p99") / 1e3);
		doc_num(c[5], 32, "%.1f", json_number_value(json_object_get(json_object_get(p, "lat_ns"), "p99.9")) / 1e3);
		snprintf(c[6], 32, "%s", json_is_object(st) ? json_is_true(json_object_get(st, "reached")) ? "yes" : "no" : "-");
		for (int k = 0; k < 7; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
	f = open_memstream(&text, &len);
	if (f) {
		knee_sentence(f, v);
		steady_sentence(f, v);
		fclose(f);
		doc_text(d, text + (text[0] == ' '));
		free(text);
	}
	snprintf(path, sizeof(path), "%s/device.svg", v->dir);
	doc_image(d, path, "The device: IOPS and p99 latency against reads in flight, the knee marked.");
	seq_section(d, v);
	doc_details_close(d);
}

static void cache_section(struct doc *d, const struct run_result *v)
{
	const char *s;

	if (!v->cachecheck)
		return;
	doc_details_open(d, "Caches below this machine");
	if (!json_is_true(json_object_get(v->cachecheck, "ran"))) {
		doc_para(d, "The check did not run: %s.", record_str_at(v->cachecheck, "skipped", NULL) ?: "no reason recorded");
		doc_details_close(d);
		return;
	}
	doc_para(d, "%.0f blocks of the data set read with O_DIRECT, one at a time, then the same blocks again, then a fresh sample: median %.1f µs, %.1f µs re-read, %.1f µs fresh; median(fresh) / median(re-read) = %.2f (95%% bootstrap interval %.2f-%.2f; a cache below is said when the lower bound exceeds %.1f).",
		 record_num_at(v->cachecheck, "sample"),
		 record_num_at(v->cachecheck, "passes.first.median_ns") / 1e3,
		 record_num_at(v->cachecheck, "passes.reread.median_ns") / 1e3,
		 record_num_at(v->cachecheck, "passes.fresh.median_ns") / 1e3,
		 record_num_at(v->cachecheck, "ratio"),
		 json_number_value(json_array_get(json_object_get(v->cachecheck, "ci95"), 0)),
		 json_number_value(json_array_get(json_object_get(v->cachecheck, "ci95"), 1)),
		 record_num_at(v->cachecheck, "threshold"));
	if ((s = record_str_at(v->cachecheck, "sentence", NULL)) != NULL && *s)
		doc_para(d, "%c%s.", toupper((unsigned char)s[0]), s + 1);
	doc_details_close(d);
}

/* What the answer rests on and how to apply it (a details section). */
static void applying(struct doc *d, const struct run_result *v, const char *value)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	doc_details_shown(d, "Applying it");
	apply_lines(d, v, value);
	f = open_memstream(&text, &len);
	if (f) {
		knee_sentence(f, v);
		fclose(f);
		doc_text(d, text + (text[0] == ' '));
		free(text);
	}
	doc_details_close(d);
}

/* "eicbench run: vda on bench1, 2026-12-01 10:00 UTC, PostgreSQL 15.18": the
 * device, the host, the run's start and the server's version, so that a
 * forwarded page says whose it is. */
static void heading(struct doc *d, const struct run_result *v, const struct sweep_result *r)
{
	const char *started = record_str_at(v->meta, "started_utc", NULL);
	const char *host = record_str_at(v->meta, "host", "hostname") ?: record_str_at(r->meta, "host", "hostname");
	const char *version = record_str_at(r->meta, "server", "version") ?: "?";
	char when[32] = "start not recorded";

	if (started && strlen(started) >= 16 && started[10] == 'T')
		snprintf(when, sizeof(when), "%.10s %.5s UTC", started, started + 11);
	doc_heading(d, 1, "eicbench run: %s on %s, %s, PostgreSQL %.*s",
		    record_str_at(r->meta, "device", "name") ?: "device unknown", host ? host : "an unnamed host",
		    when, (int)strcspn(version, " "), version);
}

void verdict_document(const struct judgement *j, struct doc *d)
{
	const struct run_result *v = &j->run;
	const struct regret *g = &j->storage;
	const struct sweep_result *r = NULL;

	for (int k = 0; !r && k < v->nq; k++)
		if (v->q[k].have_rep)
			r = &v->q[k].rep;
	heading(d, v, r);
	if (j->decided)
		verdict_box(d, j);
	else
		doc_para(d, "No decision: %s.", j->why_none);
	if (j->decided && judge_answer(g) && g->d.decided)
		applying(d, v, judge_answer(g));
	if (j->decided) {
		doc_heading(d, 2, "The query classes");
		verdict_classes_table(d, j);
	}
	if (j->decided) {
		doc_details_open(d, "How sure, in figures");
		verdict_figures(d, v, g, &j->stability);
		doc_details_close(d);
	}
	doc_details_open(d, "How it was measured");
	context(d, v);
	doc_details_close(d);
	if (j->decided) {
		doc_details_open(d, "Rounds and racing");
		verdict_racing(d, v, g);
		doc_details_close(d);
	}
	for (int i = 0; i < v->nq; i++) {
		char head[128];

		snprintf(head, sizeof(head), "Query %s", v->q[i].name);
		doc_details_open(d, head);
		doc_para(d, "Query %s, on its own (its own best is per query; the answer for the storage is the verdict's).", v->q[i].name);
		query_section(d, &v->q[i], v);
		doc_details_close(d);
	}
	device_section(d, v);
	cache_section(d, v);
	if (v->missing[0]) {
		doc_details_open(d, "Not in the records");
		doc_para(d, "Left out: %s.", v->missing);
		doc_details_close(d);
	}
}
