/*
 * probe_show: a probe's table, knees and cache check on the terminal; see
 * probe_show.h.
 */
#include "bench/cmd/probe_show.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cmd/cmd.h"
#include "bench/probe/probe_cache.h"
#include "io/cachecheck.h"
#include "io/curve.h"

/* ---- points ---- */

static void print_header(void *arg, const struct probe_plan *p)
{
	FILE *f = ((struct probe_show *)arg)->table;

	fprintf(f, "%-10s %5s %9s %8s | %8s %8s %8s %8s %8s | %6s %6s | %6s | %9s %7s %6s%s\n",
		"engine", "depth", "IOPS", "MiB/s", "lat mean", "p50", "p99", "p99.9", "max",
		"usr", "sys", "in flt", "dev reqs", "avg KiB", "aqu-sz", p->steady ? " | steady" : "");
	fprintf(f, "%-10s %5s %9s %8s | %44s | %13s | %6s |\n", "", "", "", "",
		"latency, µs", "CPU µs per IO", "");
}

static void print_row(FILE *f, const struct probe_result *r)
{
	const struct hist_summary *l = &r->lat;

	fprintf(f, "%-10s %5u %9.0f %8.1f | %8.1f %8.1f %8.1f %8.1f %8.1f | %6.2f %6.2f | %6.2f | ",
		r->engine, r->depth, r->iops, r->mib_s, l->mean_ns / 1e3, l->p50_ns / 1e3,
		l->p99_ns / 1e3, l->p999_ns / 1e3, l->max_ns / 1e3,
		r->cpu_user_us_per_io, r->cpu_sys_us_per_io, r->inflight);
	if (r->have_disk)
		fprintf(f, "%9" PRIu64 " %7.1f %6.2f", r->disk.reads, r->disk.avg_read_kib,
			r->disk.avg_queue_depth);
	else
		fprintf(f, "%9s %7s %6s", "-", "-", "-");
	if (r->steady_mode)
		fprintf(f, " | %s after %.0f s", r->steady ? "yes" : "no", r->elapsed_s);
	fprintf(f, "%s\n", r->stopped ? "  (interrupted)" : "");
	fflush(f);
}

static void show_point(void *arg, const struct probe_plan *p, const struct probe_result *r,
		       const json_t *rec)
{
	struct probe_show *sh = arg;
	char *line;

	(void)p;
	print_row(sh->table, r);
	if (sh->json && (line = json_dumps(rec, JSON_COMPACT))) {
		printf("%s\n", line);
		fflush(stdout);
		free(line);
	}
}

void probe_show_hooks(struct probe_show *sh, const struct probe_plan *plan, struct probe_hooks *hooks)
{
	*sh = (struct probe_show){ .table = plan->json ? stderr : stdout, .json = plan->json };
	*hooks = (struct probe_hooks){ .arg = sh, .begin = print_header, .point = show_point };
}

/* Each engine's peak and knee under the table. */
static void print_knees(FILE *f, const json_t *knees)
{
	const json_t *k;
	size_t i;

	json_array_foreach(knees, i, k)
		fprintf(f, "%s: peak %.0f IOPS at depth %u; knee at depth %u (%.0f IOPS, the smallest depth reaching %.0f%% of the peak)\n",
			json_string_value(json_object_get(k, "engine")),
			json_number_value(json_object_get(k, "peak_iops")),
			(unsigned)json_integer_value(json_object_get(k, "peak_depth")),
			(unsigned)json_integer_value(json_object_get(k, "knee_depth")),
			json_number_value(json_object_get(k, "knee_iops")), CURVE_KNEE_SHARE * 100);
}

/* ---- the cache check ---- */

static double num(const json_t *o, const char *path1, const char *path2)
{
	const json_t *v = json_object_get(o, path1);

	if (path2)
		v = json_object_get(v, path2);
	return json_number_value(v);
}

static void print_passes(FILE *f, const json_t *passes)
{
	static const char *const keys[] = { "first", "reread", "fresh" };
	static const char *const names[] = { "first", "re-read", "fresh" };

	fprintf(f, "%-8s %7s %9s %9s %9s %9s\n", "pass", "reads", "mean µs", "p50 µs",
		"p90 µs", "p99 µs");
	for (int p = 0; p < 3; p++) {
		const json_t *s = json_object_get(passes, keys[p]);
		fprintf(f, "%-8s %7.0f %9.1f %9.1f %9.1f %9.1f\n", names[p], num(s, "reads", NULL),
			num(s, "mean_ns", NULL) / 1e3, num(s, "p50_ns", NULL) / 1e3,
			num(s, "p90_ns", NULL) / 1e3, num(s, "p99_ns", NULL) / 1e3);
	}
}

static void print_record(FILE *f, const json_t *obj)
{
	const json_t *ci = json_object_get(obj, "ci95");
	const char *sentence = json_string_value(json_object_get(obj, "sentence"));

	print_passes(f, json_object_get(obj, "passes"));
	fprintf(f, "statistic: median(fresh) / median(re-read) = %.2f, 95%% bootstrap interval %.2f-%.2f; a cache below when the interval's lower bound exceeds %.1f\n",
		num(obj, "ratio", NULL), json_number_value(json_array_get(ci, 0)),
		json_number_value(json_array_get(ci, 1)), num(obj, "threshold", NULL));
	if (json_is_true(json_object_get(obj, "cut_short")))
		fprintf(f, "(the %.0f s bound ended a pass early: fewer reads than the %.0f planned)\n",
			CACHECHECK_MAX_S, num(obj, "sample", NULL));
	if (sentence && *sentence)
		fprintf(f, "%c%s.\n", sentence[0] == 'r' ? 'R' : sentence[0], sentence + 1);
}

/* The check's record on the terminal; its exit status. */
static int show_cache(const struct probe_plan *p, const struct probe_out *out)
{
	const json_t *obj = out->cache;
	const char *reason = json_string_value(json_object_get(obj, "reason"));
	const char *why = json_string_value(json_object_get(obj, "skipped"));
	char *text;

	if (p->json && (text = json_dumps(obj, JSON_COMPACT))) {
		printf("%s\n", text);
		fflush(stdout);
		free(text);
	}
	if (json_is_true(json_object_get(obj, "ran")))
		print_record(p->json ? stderr : stdout, obj);
	else if (reason && !strcmp(reason, "no_direct"))
		fprintf(stderr, "eicbench probe: --cache-check: %s: the check needs O_DIRECT so that this machine's page cache plays no part; skipped (recorded in %s/%s)\n",
			why, out->dir, PROBE_CACHE_FILE);
	else
		fprintf(stderr, "eicbench probe: --cache-check: %s; skipped (recorded in %s/%s)\n",
			why ? why : "failed", out->dir, PROBE_CACHE_FILE);
	return cmd_exit_code(probe_cache_status(obj));
}

int probe_show_end(int rc, const struct probe_plan *plan, const struct probe_out *out,
		   const char *err)
{
	if (rc < 0)
		return cmd_fail("probe", rc, err);
	if (out->cache)
		return show_cache(plan, out);
	print_knees(plan->json ? stderr : stdout, out->knees);
	return 0;
}
