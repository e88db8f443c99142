/*
 * verdict_doc: the run's verdict as a document (bench/report/document.h): the answer for
 * the storage with the lines that apply it, then per query the paired table
 * (observed heap phase, replay with PostgreSQL's advice, replay with
 * io_uring) and sentences made from those figures, the device's curve and
 * the cache check. Every sentence names the figures it rests on.
 */
#include "bench/report/verdict_doc.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/curve.h"
#include "bench/record/semantics.h"
#include "bench/report/verdict_box.h"

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
	double size = report_num_at(m, "device.size_bytes");
	char sz[32] = "not recorded";

	if (size > 0)
		snprintf(sz, sizeof(sz), "%.1f GiB", size / (1024.0 * 1024 * 1024));
	doc_table(d, 2, (const char *const[]){ "device", report_str_at(dev, "name", NULL) ?: "unknown" });
	doc_row(d, (const char *const[]){ "model", or_unknown(report_str_at(dev, "model", NULL)) });
	doc_row(d, (const char *const[]){ "vendor", or_unknown(report_str_at(dev, "vendor", NULL)) });
	doc_row(d, (const char *const[]){ "size", sz });
	doc_row(d, (const char *const[]){ "transport", or_unknown(report_str_at(dev, "transport", NULL)) });
	doc_row(d, (const char *const[]){ "rotational", !json_is_boolean(rot) ? "not in sysfs" : !json_is_true(rot) ? "no" :
		!strcmp(report_str_at(dev, "transport", NULL) ?: "", "virtio") ?
		"yes, says the kernel (a virtio disk says so unless its host tells otherwise)" : "yes (a spinning disk, says the kernel)" });
	doc_row(d, (const char *const[]){ "scheduler", or_unknown(report_str_at(dev, "scheduler", NULL)) });
	{
		char q[32], ra[32], ms[32];

		doc_num(q, sizeof(q), "%.0f", report_num_at(m, "device.nr_requests"));
		doc_num(ra, sizeof(ra), "%.0f KiB", report_num_at(m, "device.read_ahead_kb"));
		doc_num(ms, sizeof(ms), "%.0f KiB", report_num_at(m, "device.max_sectors_kb"));
		doc_row(d, (const char *const[]){ "queue depth (nr_requests)", q });
		doc_row(d, (const char *const[]){ "read-ahead", ra });
		doc_row(d, (const char *const[]){ "largest request", ms });
	}
	doc_row(d, (const char *const[]){ "file system", or_unknown(report_str_at(dev, "fstype", NULL)) });
	if (json_array_size(json_object_get(dev, "members")))
		doc_row(d, (const char *const[]){ "members", "an md or dm device: its members are in the records" });
	if (json_object_get(dev, "emulated")) {
		char *txt = json_dumps(json_object_get(dev, "emulated"), JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

		doc_row(d, (const char *const[]){ "emulated model", txt ? txt : "?" });
		free(txt);
	}
}

static void context(struct doc *d, const struct verdict *v)
{
	const struct report *r = NULL;
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
		 report_str_at(m, "server", "version") ?: "?",
		 report_str_at(json_object_get(m, "server"), "settings", "shared_buffers") ?: "?",
		 report_str_at(json_object_get(m, "server"), "settings", "work_mem") ?: "?",
		 report_num_at(m, "dataset.rows"), report_str_at(m, "host", "hostname") ?: "?",
		 report_num_at(m, "host.cpu_count"), report_str_at(json_object_get(m, "host"), "kernel", "release") ?: "?");
	doc_para(d, "Command: %s (started %s, revision %s).", line,
		 report_str_at(v->meta, "started_utc", NULL) ?: "?",
		 report_str_at(v->meta, "git_rev", NULL) ?: "?");
}

/* ---- the answer ---- */

static const char *value_of(const struct report *r, const struct report_group *g)
{
	return report_value(r, g, r->swept);
}

static long pre13_equivalent(long distance)
{
	for (int old = 0; old <= SEMANTICS_PRE13_MAX; old++)
		if (semantics_convert_pre13(old) >= distance)
			return old;
	return -1;
}

static void apply_lines(struct doc *d, const struct verdict *v, const char *value)
{
	const struct report *r = &v->q[0].rep;
	const char *ts = report_str_at(json_object_get(r->meta, "plan"), "tablespace", "name");
	long n = strtol(value, NULL, 10), version = r->version_num;
	char code[1024];

	snprintf(code, sizeof(code),
		 "-- the tablespace measured (%s) only, as in the verdict:\n"
		 "ALTER TABLESPACE %s SET (effective_io_concurrency = %s);\n"
		 "-- or for every tablespace without a value of its own:\n"
		 "ALTER SYSTEM SET effective_io_concurrency = %s;\n"
		 "SELECT pg_reload_conf();", ts && *ts ? ts : "pg_default", ts && *ts ? ts : "pg_default", value, value);
	doc_code(d, code);
	if (version >= 130000 && version < 180000 && n > 0 && pre13_equivalent(n) >= 0)
		doc_para(d, "On PostgreSQL 13 to 17 the value is the prefetch distance in pages. On 12 and older, which counted \"spindles\", the smallest value reaching a distance of %ld pages is %s = %ld (%ld pages).",
			 n, eic_name, pre13_equivalent(n), semantics_convert_pre13((int)pre13_equivalent(n)));
}

static void knee_sentence(FILE *f, const struct verdict *v)
{
	const json_t *e = json_array_get(json_object_get(v->device_curve, "engines"), 0);

	if (!e)
		return;
	fprintf(f, " The device alone (random reads of the data set's blocks with O_DIRECT through %s) reached its peak of %.0f IOPS at depth %lld and %.0f%% of it at depth %lld, the knee of its curve.",
		json_string_value(json_object_get(e, "engine")) ?: "io_uring",
		report_num_at(e, "peak_iops"), json_integer_value(json_object_get(e, "peak_depth")),
		CURVE_KNEE_SHARE * 100, json_integer_value(json_object_get(e, "knee_depth")));
}

/* ---- per query ---- */

static void pair_table(struct doc *d, const struct verdict_query *q)
{
	static const char *const heads[] = { "effective_io_concurrency", "runs", "heap ms", "x vs 0", "replay ms",
		"predicted x", "io_uring ms", "accounted", "heap CPU s", "index ms" };
	size_t idx[q->rep.ngroups + 1], n = report_series_groups(&q->rep, 0, idx);

	doc_table(d, 10, heads);
	for (size_t k = 0; k < n; k++) {
		const char *value = value_of(&q->rep, &q->rep.groups[idx[k]]);
		struct verdict_pair p;
		char c[10][32];
		const char *cells[10];

		if (verdict_pair(q, value, &p) < 0)
			continue;
		snprintf(c[0], 32, "%s", value);
		snprintf(c[1], 32, "%zu", p.g->runs);
		doc_num(c[2], 32, "%.1f", p.heap_ms);
		doc_num(c[3], 32, "%.2f", p.speedup);
		doc_num(c[4], 32, "%.1f", p.replay_ms);
		doc_num(c[5], 32, "%.2f", p.predicted);
		doc_num(c[6], 32, "%.1f", p.uring_ms);
		doc_num(c[7], 32, "%.0f%%", p.accounted * 100);
		doc_num(c[8], 32, "%.2f", p.heap_cpu_s);
		doc_num(c[9], 32, "%.1f", p.g->index_ms);
		for (int i = 0; i < 10; i++)
			cells[i] = c[i];
		doc_row(d, cells);
	}
}

/* The value whose pairing is told: the query's recommendation, or its best
 * prefetching value when that is 0 (or none is recommended). */
static const char *told_value(const struct verdict_query *q)
{
	const struct report_series *se = &q->rep.series[0];
	const struct report_group *best = NULL;

	if (se->recommends && strcmp(value_of(&q->rep, &q->rep.groups[se->recommended]), "0"))
		return value_of(&q->rep, &q->rep.groups[se->recommended]);
	for (size_t k = 0; k < q->rep.ngroups; k++) {
		const struct report_group *g = &q->rep.groups[k];

		if (strcmp(value_of(&q->rep, g), "0") && (!best || g->median_ms < best->median_ms))
			best = g;
	}
	return best ? value_of(&q->rep, best) : NULL;
}

/*
 * Split the heap phase's change between the backend's CPU and the rest of
 * its time (off the CPU: waiting for reads), from the two named figures,
 * and set the wait at 0 beside the replay's plain reads of the same blocks.
 */
static void cpu_and_wait(FILE *f, const char *value, const struct verdict_pair *p,
			 const struct verdict_pair *z)
{
	double wait_v = p->heap_ms / 1e3 - p->heap_cpu_s, wait_0 = z->heap_ms / 1e3 - z->heap_cpu_s;
	double cpu_d = z->heap_cpu_s - p->heap_cpu_s, wait_d = wait_0 - wait_v;
	double all = fabs(cpu_d + wait_d);
	char a[32];

	fprintf(f, " The backend's CPU in the heap phase was %.2f s at %s and %.2f s at 0 (%.0f%% and %.0f%% of a core)",
		p->heap_cpu_s, value, z->heap_cpu_s, p->g->heap_cpu_share * 100, z->g->heap_cpu_share * 100);
	if (wait_v < 0 || wait_0 < 0) {	/* more CPU than time: not the backend's alone */
		fprintf(f, ".");
		return;
	}
	fprintf(f, "; the rest of the phase, off the CPU (waiting for reads, or for a core on a busy machine), was %.2f s at %s and %.2f s at 0.",
		wait_v, value, wait_0);
	if (all > 0.05)
		fprintf(f, " The %.2f s %s are %.2f s %s CPU and %.2f s %s time off the CPU.", all,
			cpu_d + wait_d >= 0 ? "saved" : "lost", fabs(cpu_d), cpu_d >= 0 ? "less" : "more",
			fabs(wait_d), wait_d >= 0 ? "less" : "more");
	if (isfinite(p->replay0_ms) && wait_0 > 1.2 * p->replay0_ms / 1e3)
		fprintf(f, " At 0 the query spent %.2f s off the CPU, more than the %s the replay's plain reads of the same blocks took with no work between them: inside the query, reading them (or waiting for a core) took longer.",
			wait_0, report_fmt_ms(a, sizeof(a), p->replay0_ms));
}

static void pair_words(struct doc *d, const struct verdict_query *q)
{
	const char *value = told_value(q);
	const json_t *rel = json_object_get(q->replay_meta, "relation");
	struct verdict_pair p, z;
	char a[32], b[32], c[32], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!value || verdict_pair(q, value, &p) < 0 || !p.g0 || verdict_pair(q, "0", &z) < 0)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	fprintf(f, "At %s the heap phase took %s against %s at 0: %.2fx %s.", value,
		report_fmt_ms(a, sizeof(a), p.heap_ms), report_fmt_ms(b, sizeof(b), z.heap_ms),
		p.speedup >= 1 ? p.speedup : 1 / p.speedup, p.speedup >= 1 ? "faster" : "slower");
	if (isfinite(p.replay_ms) && isfinite(p.replay0_ms)) {
		fprintf(f, " Replayed outside the database, its %.0f heap blocks took %s with the advice PostgreSQL gives at %s against %s with plain reads: the device predicts %.2fx %s",
			report_num_at(rel, "blocks"), report_fmt_ms(a, sizeof(a), p.replay_ms), value,
			report_fmt_ms(b, sizeof(b), p.replay0_ms),
			p.predicted >= 1 ? p.predicted : 1 / p.predicted, p.predicted >= 1 ? "faster" : "slower");
		if (isfinite(p.uring_ms))
			fprintf(f, "; with %s reads in flight through io_uring they took %s", value,
				report_fmt_ms(c, sizeof(c), p.uring_ms));
		fprintf(f, ".");
		if ((p.predicted - 1) * (p.speedup - 1) < 0 && fabs(p.predicted - p.speedup) > 0.1)
			fprintf(f, " The replay and the query disagree: the device alone would have been %.2fx %s, the query was %.2fx %s.",
				p.predicted >= 1 ? p.predicted : 1 / p.predicted, p.predicted >= 1 ? "faster" : "slower",
				p.speedup >= 1 ? p.speedup : 1 / p.speedup, p.speedup >= 1 ? "faster" : "slower");
		if (isfinite(p.accounted))
			fprintf(f, " The device's own change accounts for %.0f%% of the %s %s (%s of %s).",
				p.accounted * 100, p.speedup >= 1 ? "time saved" : "time lost",
				p.speedup >= 1 ? "by prefetching" : "to prefetching",
				report_fmt_ms(a, sizeof(a), fabs(p.replay0_ms - p.replay_ms)),
				report_fmt_ms(b, sizeof(b), fabs(z.heap_ms - p.heap_ms)));
	} else
		fprintf(f, " The replay of its heap blocks is not in the records, so the device's share cannot be told.");
	if (p.heap_cpu_s > 0 && z.heap_cpu_s > 0)
		cpu_and_wait(f, value, &p, &z);
	if (fclose(f) == 0)
		doc_text(d, text);
	free(text);
}

static void query_section(struct doc *d, const struct verdict_query *q, const struct verdict *v)
{
	json_t *paras;
	char path[PATH_MAX + 256], cap[128];
	size_t i;
	json_t *p;

	if (!q->have_rep) {
		doc_para(d, "The sweep of %s has no finished trials in %s.", q->name, q->sweep_dir);
		return;
	}
	doc_code(d, report_str_at(q->rep.meta, "plan", "query_text") ?: "");
	pair_table(d, q);
	doc_para(d, "heap ms and x vs 0: the sweep's heap-phase medians (EXPLAIN ANALYZE, cold); replay ms: the same heap blocks read outside the database as PostgreSQL reads them at that value (plain reads at 0, the posix_fadvise window above); predicted x: the replay's speedup against 0; io_uring ms: the same blocks read by io_uring with that many reads in flight, through the page cache as PostgreSQL reads (the kernel's readahead included); accounted: the replay's share of the time saved (or lost) against 0; heap CPU s: the backend's CPU in the heap phase.");
	pair_words(d, q);
	paras = report_explain(&q->rep);
	json_array_foreach(paras, i, p)
		doc_text(d, json_string_value(p));
	json_decref(paras);
	snprintf(path, sizeof(path), "%s/sweep.svg", q->sweep_dir);
	snprintf(cap, sizeof(cap), "Query %s: heap phase per value, median and its interval.", q->name);
	doc_image(d, path, cap);
	snprintf(path, sizeof(path), "%s/speedup-%s.svg", v->dir, q->name);
	snprintf(cap, sizeof(cap), "Query %s: speedup against 0, observed (with its interval) and predicted by the replay.", q->name);
	doc_image(d, path, cap);
}

/* ---- the device and the cache check ---- */

static void device_section(struct doc *d, const struct verdict *v)
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
		doc_num(c[1], 32, "%.0f", report_num_at(p, "iops"));
		doc_num(c[2], 32, "%.1f", report_num_at(p, "mib_s"));
		doc_num(c[3], 32, "%.1f", report_num_at(p, "lat_ns.p50") / 1e3);
		doc_num(c[4], 32, "%.1f", report_num_at(p, "lat_ns.p99") / 1e3);
		doc_num(c[5], 32, "%.1f", json_number_value(json_object_get(json_object_get(p, "lat_ns"), "p99.9")) / 1e3);
		snprintf(c[6], 32, "%s", json_is_object(st) ? json_is_true(json_object_get(st, "reached")) ? "yes" : "no" : "-");
		for (int k = 0; k < 7; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
	f = open_memstream(&text, &len);
	if (f) {
		knee_sentence(f, v);
		fprintf(f, " A point is steady when its last 5 one-second windows were within 5%% of their mean; the latencies are per read, submission to completion.");
		fclose(f);
		doc_text(d, text + (text[0] == ' '));
		free(text);
	}
	snprintf(path, sizeof(path), "%s/device.svg", v->dir);
	doc_image(d, path, "The device: IOPS and p99 latency against reads in flight, the knee marked.");
	doc_details_close(d);
}

static void cache_section(struct doc *d, const struct verdict *v)
{
	const char *s;

	if (!v->cachecheck)
		return;
	doc_details_open(d, "Caches below this machine");
	if (!json_is_true(json_object_get(v->cachecheck, "ran"))) {
		doc_para(d, "The check did not run: %s.", report_str_at(v->cachecheck, "skipped", NULL) ?: "no reason recorded");
		doc_details_close(d);
		return;
	}
	doc_para(d, "%.0f blocks of the data set read with O_DIRECT, one at a time, then the same blocks again, then a fresh sample: median %.1f µs, %.1f µs re-read, %.1f µs fresh; median(fresh) / median(re-read) = %.2f (95%% bootstrap interval %.2f-%.2f; a cache below is said when the lower bound exceeds %.1f).",
		 report_num_at(v->cachecheck, "sample"),
		 report_num_at(v->cachecheck, "passes.first.median_ns") / 1e3,
		 report_num_at(v->cachecheck, "passes.reread.median_ns") / 1e3,
		 report_num_at(v->cachecheck, "passes.fresh.median_ns") / 1e3,
		 report_num_at(v->cachecheck, "ratio"),
		 json_number_value(json_array_get(json_object_get(v->cachecheck, "ci95"), 0)),
		 json_number_value(json_array_get(json_object_get(v->cachecheck, "ci95"), 1)),
		 report_num_at(v->cachecheck, "threshold"));
	if ((s = report_str_at(v->cachecheck, "sentence", NULL)) != NULL && *s)
		doc_para(d, "%c%s.", toupper((unsigned char)s[0]), s + 1);
	doc_details_close(d);
}

/* What the answer rests on and how to apply it (a details section). */
static void applying(struct doc *d, const struct verdict *v, const char *value)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	doc_details_open(d, "Applying it");
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

void verdict_document(const struct verdict *v, struct doc *d)
{
	const struct report *r = NULL;
	struct regret g;
	char err[512];
	int have;

	for (int k = 0; !r && k < v->nq; k++)
		if (v->q[k].have_rep)
			r = &v->q[k].rep;
	doc_heading(d, 1, "eicbench run: %s, PostgreSQL %.*s",
		    report_str_at(r->meta, "device", "name") ?: "device unknown",
		    (int)strcspn(report_str_at(r->meta, "server", "version") ?: "?", " "),
		    report_str_at(r->meta, "server", "version") ?: "?");
	have = verdict_regret(v, &g, err, sizeof(err)) == 0;
	if (have)
		verdict_box(d, v, &g);
	else
		doc_para(d, "No decision: %s.", err);
	doc_details_open(d, "How it was measured");
	context(d, v);
	doc_details_close(d);
	if (have) {
		doc_details_open(d, "Rounds and racing");
		verdict_racing(d, v, &g);
		doc_details_close(d);
		if (verdict_answer(&g))
			applying(d, v, verdict_answer(&g));
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
	regret_free(&g);
}
