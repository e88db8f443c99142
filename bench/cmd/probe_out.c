/*
 * cmd_probe_out: what "eicbench probe" shows and keeps of a point: a table
 * row (on stdout, or stderr with --json) and a JSON object (points.jsonl,
 * and stdout with --json), both from the same struct probe_result; and after
 * the points, each engine's peak and knee (io/curve.h) in words and as JSON.
 */
#include "bench/cmd/probe.h"

#include <inttypes.h>
#include <math.h>

#include "bench/record/record.h"
#include "io/curve.h"

static json_t *lat_json(const struct hist_summary *l)
{
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I}",
			 "min", (json_int_t)l->min_ns, "mean", l->mean_ns, "stddev", l->stddev_ns,
			 "p50", (json_int_t)l->p50_ns, "p90", (json_int_t)l->p90_ns,
			 "p99", (json_int_t)l->p99_ns, "p99.9", (json_int_t)l->p999_ns,
			 "max", (json_int_t)l->max_ns);
}

/* The windows of a steady point and whether the rule was met; null otherwise. */
static json_t *steady_json(const struct probe_plan *p, const struct probe_result *r)
{
	json_t *w = json_array();

	if (!r->steady_mode) {
		json_decref(w);
		return json_null();
	}
	for (unsigned i = 0; i < r->nwindows; i++)
		json_array_append_new(w, json_real(r->window_iops[i]));
	return json_pack("{s:b, s:f, s:i, s:f, s:o}", "reached", r->steady,
			 "window_s", p->window_s > 0 ? p->window_s : 1.0, "rule_windows", CURVE_STEADY_WINDOWS,
			 "rule_tolerance", CURVE_STEADY_TOLERANCE, "window_iops", w);
}

json_t *probe_cmd_point_json(const struct probe_plan *p, const char *disk,
			     const struct probe_result *r, const char *cold)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:b, s:s, s:I, s:s, s:I, s:I, s:I, s:f, s:f, s:f, s:f,"
			 " s:o, s:{s:f, s:f}, s:o, s:o, s:b}",
			 "engine", r->engine, "depth", (int)r->depth, "combine", (int)r->combine,
			 "block_bytes", (int)r->block_bytes, "direct", r->direct,
			 "pattern", p->pattern, "seed", (json_int_t)p->seed, "cold", cold,
			 "ios", (json_int_t)r->ios, "blocks", (json_int_t)r->blocks,
			 "bytes", (json_int_t)r->bytes, "elapsed_s", r->elapsed_s, "iops", r->iops,
			 "mib_s", r->mib_s, "inflight", r->inflight,
			 "lat_ns", lat_json(&r->lat),
			 "cpu_us_per_io", "user", r->cpu_user_us_per_io, "sys", r->cpu_sys_us_per_io,
			 "disk", r->have_disk && disk ? record_disk_json(disk, &r->disk) : json_null(),
			 "steady", steady_json(p, r), "stopped", r->stopped);
}

void probe_cmd_print_header(FILE *f, const struct probe_plan *p)
{
	fprintf(f, "%-10s %5s %9s %8s | %8s %8s %8s %8s %8s | %6s %6s | %6s | %9s %7s %6s%s\n",
		"engine", "depth", "IOPS", "MiB/s", "lat mean", "p50", "p99", "p99.9", "max",
		"usr", "sys", "in flt", "dev reqs", "avg KiB", "aqu-sz", p->steady ? " | steady" : "");
	fprintf(f, "%-10s %5s %9s %8s | %44s | %13s | %6s |\n", "", "", "", "",
		"latency, µs", "CPU µs per IO", "");
}

void probe_cmd_print_row(FILE *f, const struct probe_result *r)
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

/* One engine's peak and knee: a line on F, an object for curve.json. */
static json_t *knee_json(FILE *f, const char *engine, const unsigned *depths,
			 const double *iops, unsigned n, bool flat)
{
	json_t *d = json_array(), *v = json_array();
	struct curve_knee k;

	if (curve_find_knee(depths, iops, n, CURVE_KNEE_SHARE, &k) < 0) {
		json_decref(d);
		json_decref(v);
		return NULL;
	}
	if (k.plateau)
		fprintf(f, "%s: peak %.0f IOPS at depth %u; knee at depth %u (%.0f IOPS, the smallest depth reaching %.0f%% of the peak)%s\n",
			engine, iops[k.peak], depths[k.peak], depths[k.knee], iops[k.knee],
			CURVE_KNEE_SHARE * 100, flat ? "; deeper points stopped adding IOPS" : "");
	else
		fprintf(f, "%s: %.0f IOPS at depth %u, the deepest measured: no knee, IOPS may still rise deeper\n",
			engine, iops[k.peak], depths[k.peak]);
	for (unsigned i = 0; i < n; i++) {
		json_array_append_new(d, json_integer(depths[i]));
		json_array_append_new(v, json_real(iops[i]));
	}
	return json_pack("{s:s, s:o, s:o, s:i, s:f, s:o, s:o, s:b, s:b}", "engine", engine,
			 "depths", d, "iops", v, "peak_depth", (int)depths[k.peak],
			 "peak_iops", iops[k.peak],
			 "knee_depth", k.plateau ? json_integer((int)depths[k.knee]) : json_null(),
			 "knee_iops", k.plateau ? json_real(iops[k.knee]) : json_null(),
			 "plateau", k.plateau, "stopped_rising", flat);
}

json_t *probe_cmd_knees(FILE *f, const struct probe_plan *p, const struct probe_curve *c)
{
	json_t *all = json_array(), *one;

	for (unsigned e = 0; all && e < p->nengines; e++) {
		if (c->n[e] < 2)
			continue;
		one = knee_json(f, p->engines[e]->name, c->depth[e], c->iops[e], c->n[e], c->flat[e]);
		if (!one || json_array_append_new(all, one) < 0) {
			json_decref(all);
			return NULL;
		}
	}
	return all;
}
