/*
 * bitmap_figures: a bitmap-scan trial's figures from its samples and
 * EXPLAIN; and the check of its plan against the first of its settings.
 * See bitmap_figures.h and workload_bitmap.h.
 */
#include "bench/workloads/bitmap_figures.h"

#include <string.h>

#include "bench/record/record.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/workload_bitmap.h"

void bitmap_measure_free(struct bitmap_measure *m)
{
	sampler_free(&m->sm);
	pgaios_free(&m->aios);
	pgstats_io_free(&m->io0);
	pgstats_io_free(&m->io1);
	explain_free(&m->fig);
	json_decref(m->plan);
	json_decref(m->in_force);
	memset(m, 0, sizeof(*m));
}

/* ---- the device, the CPUs, the backend, over a window ---- */

static json_t *disk_window(const struct sampler *sm, int i, const char *name,
			   uint64_t t0, uint64_t t1)
{
	struct disk_delta d;

	if (sampler_disk_window(sm, i, t0, t1, &d) < 0)
		return json_null();
	return record_disk_json(name, &d);
}

static json_t *cpu_window(const struct sampler *sm, uint64_t t0, uint64_t t1)
{
	struct cpu_delta d;

	if (sampler_cpu_window(sm, t0, t1, &d) < 0)
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:f}", "user_pct", d.user_pct,
			 "system_pct", d.system_pct, "iowait_pct", d.iowait_pct,
			 "idle_pct", d.idle_pct, "steal_pct", d.steal_pct);
}

/*
 * The backend over [T0, T1]: its time on a CPU and waiting on a run queue
 * from schedstat (ns, so cpu_share is exact and never above 1: "cpu_from"
 * says "schedstat"), and the user/system split from its ticks (10 ms each:
 * a split, not a total). Without schedstat the share is the ticks'.
 */
static json_t *backend_window(const struct sampler *sm, pid_t pid, uint64_t t0, uint64_t t1)
{
	struct proc_delta d;
	double span_s;

	if (pid <= 0 || sampler_proc_window(sm, 0, t0, t1, &d) < 0)
		return json_null();
	span_s = (double)(t1 - t0) / 1e9;
	if (t0 < sampler_first_ns(sm) || t1 > sampler_last_ns(sm))
		span_s = (double)((t1 > sampler_last_ns(sm) ? sampler_last_ns(sm) : t1) -
				  (t0 < sampler_first_ns(sm) ? sampler_first_ns(sm) : t0)) / 1e9;
	if (!d.have_sched)
		return json_pack("{s:i, s:f, s:f, s:f, s:s}", "pid", (int)pid, "user_s", d.user_s,
				 "system_s", d.system_s, "cpu_share", d.cpu_share, "cpu_from", "ticks");
	return json_pack("{s:i, s:f, s:f, s:f, s:s, s:f, s:f, s:f}", "pid", (int)pid,
			 "user_s", d.user_s, "system_s", d.system_s,
			 "cpu_share", span_s > 0 ? d.oncpu_s / span_s : 0.0, "cpu_from", "schedstat",
			 "oncpu_s", d.oncpu_s, "runqueue_s", d.runqueue_s, "offcpu_s",
			 span_s - d.oncpu_s > 0 ? span_s - d.oncpu_s : 0.0);
}

static json_t *members_window(const struct runner *r, const struct sampler *sm,
			      uint64_t t0, uint64_t t1)
{
	json_t *o = json_object();

	for (int i = 0; i < r->nmembers; i++)
		json_object_set_new(o, r->members[i], disk_window(sm, i + 1, r->members[i], t0, t1));
	return o;
}

static json_t *workers_window(const struct bitmap_measure *m, uint64_t t0, uint64_t t1)
{
	if (m->procs_ret != 0 || m->procs_added == 0)
		return json_null();
	return pgprocs_cpu_json(&m->procs, &m->sm, m->procs_first, m->procs_added, t0, t1);
}

static json_t *aios_window(const struct bitmap_measure *m, uint64_t t0, uint64_t t1)
{
	return m->aios_ret == 0 ? pgaios_window_json(&m->aios, t0, t1) : json_null();
}

/* Where the backend ran and where the device's interrupts went. */
static json_t *placement_window(const struct bitmap_measure *m, uint64_t t0, uint64_t t1)
{
	return m->pid > 0 ? record_placement_window(&m->sm, 0, t0, t1) : json_null();
}

/* Device, CPUs, backend, workers and I/Os in flight over [T0, T1]. */
static json_t *window_json(const struct runner *r, const struct bitmap_measure *m,
			   uint64_t t0, uint64_t t1)
{
	return json_pack("{s:f, s:f, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "from_ms", ((double)t0 - (double)m->sent_ns) / 1e6,
			 "to_ms", ((double)t1 - (double)m->sent_ns) / 1e6,
			 "disk", r->disk[0] ? disk_window(&m->sm, 0, r->disk, t0, t1) : json_null(),
			 "members", members_window(r, &m->sm, t0, t1),
			 "cpu", cpu_window(&m->sm, t0, t1),
			 "backend", backend_window(&m->sm, m->pid, t0, t1),
			 "workers", workers_window(m, t0, t1),
			 "aios", aios_window(m, t0, t1),
			 "placement", placement_window(m, t0, t1));
}

/*
 * The phases in time: the heap phase ends when the executor does (taken as
 * the moment the result arrived) and lasts the heap phase's time from
 * EXPLAIN plus the execution outside the node: that is spent between the
 * rows the node returns (the executor's loop and EXPLAIN's clocks around
 * each row, 36-55 ms for blog's 1M rows on 10M), so it falls in the heap
 * phase. The index phase comes right before it. Too short a phase for the
 * samples, or no per-node times: not split, and the record says why.
 */
static json_t *phases_json(const struct runner *r, const struct bitmap_measure *m)
{
	const struct explain_bitmap *b = &m->fig.bitmap;
	uint64_t heap_ns, index_ns, other_ns, min_ns = 2 * (uint64_t)m->sm.cfg.interval_ms * 1000000u;
	uint64_t done = m->done_ns;
	const char *why = NULL;

	if (!b->phases)
		why = "EXPLAIN gave no per-node times for the two phases (parallel workers, or no children)";
	heap_ns = why ? 0 : (uint64_t)(b->heap_phase.total_ms * 1e6);
	index_ns = why ? 0 : (uint64_t)(b->index_phase.total_ms * 1e6);
	other_ns = why || !(b->other_ms > 0) ? 0 : (uint64_t)(b->other_ms * 1e6);
	if (!why && (heap_ns < min_ns || index_ns < min_ns))
		why = "a phase was shorter than two sampling intervals";
	if (!why && heap_ns + other_ns + index_ns > done - m->sent_ns)
		why = "the phases' times from EXPLAIN exceed the time the query took";
	if (why)
		return json_pack("{s:b, s:s}", "split", 0, "why", why);
	heap_ns += other_ns;
	return json_pack("{s:b, s:o, s:o}", "split", 1,
			 "index", window_json(r, m, done - heap_ns - index_ns, done - heap_ns),
			 "heap", window_json(r, m, done - heap_ns, done));
}

/* The samples as a time line: times and counters relative to the first. */
static json_t *samples_json(const struct bitmap_measure *m)
{
	const struct sampler *sm = &m->sm;
	const struct sampler_sample *x = sm->samples;
	json_t *t = json_array(), *disks = json_object(), *ticks = json_array();

	for (int i = 0; i < sm->cfg.ndisks; i++) {
		json_t *reads = json_array(), *kib = json_array(), *wms = json_array();

		for (size_t k = 0; k < sm->n; k++) {
			json_array_append_new(reads, json_integer((json_int_t)(x[k].disk[i].reads - x[0].disk[i].reads)));
			json_array_append_new(kib, json_integer((json_int_t)((x[k].disk[i].read_sectors -
									      x[0].disk[i].read_sectors) / 2)));
			json_array_append_new(wms, json_integer((json_int_t)(x[k].disk[i].weighted_ms -
									     x[0].disk[i].weighted_ms)));
		}
		json_object_set_new(disks, sm->cfg.disks[i], json_pack("{s:o, s:o, s:o}", "reads", reads,
								       "read_kib", kib, "weighted_ms", wms));
	}
	for (size_t k = 0; k < sm->n; k++) {
		json_array_append_new(t, json_real(((double)x[k].t_ns - (double)m->sent_ns) / 1e6));
		if (sm->cfg.npids && m->pid > 0)
			json_array_append_new(ticks, json_integer((json_int_t)(x[k].utime[0] + x[k].stime[0] -
									       x[0].utime[0] - x[0].stime[0])));
	}
	return json_pack("{s:i, s:f, s:o, s:o, s:o}", "interval_ms", sm->cfg.interval_ms,
			 "max_gap_ms", (double)sm->max_gap_ns / 1e6, "t_ms", t, "disks", disks,
			 "backend_ticks", ticks);
}

/* A module's figures, or why it has none. */
static json_t *or_why(json_t *ok, int ret, const char *why)
{
	if (ret == 0)
		return ok;
	json_decref(ok);
	return ret == PGSTATS_NOT_AVAILABLE ? pgstats_not_available_json(why) :
	       json_pack("{s:b, s:s}", "available", 0, "error", why);
}

void bitmap_figures_add(const struct runner *r, const struct bitmap_measure *m, json_t *rec)
{
	uint64_t t0 = sampler_first_ns(&m->sm), t1 = sampler_last_ns(&m->sm);

	json_object_set_new(rec, "in_force", m->in_force ? json_incref(m->in_force) : json_null());
	json_object_set_new(rec, "explain", explain_to_json(&m->fig));
	json_object_set_new(rec, "disk", r->disk[0] ? disk_window(&m->sm, 0, r->disk, t0, t1) : json_null());
	json_object_set_new(rec, "members", members_window(r, &m->sm, t0, t1));
	json_object_set_new(rec, "cpu", cpu_window(&m->sm, t0, t1));
	json_object_set_new(rec, "backend", backend_window(&m->sm, m->pid, t0, t1));
	json_object_set_new(rec, "placement", placement_window(m, t0, t1));
	json_object_set_new(rec, "workers", workers_window(m, t0, t1));
	json_object_set_new(rec, "phases", phases_json(r, m));
	json_object_set_new(rec, "samples", samples_json(m));
	json_object_set_new(rec, "pg_stat_io", or_why(m->io_ret == 0 ? pgstats_io_delta_json(&m->io0, &m->io1) :
						      NULL, m->io_ret, m->io_why));
	json_object_set_new(rec, "pg_aios", or_why(m->aios_ret == 0 ? pgaios_json(&m->aios, m->sent_ns) : NULL,
						   m->aios_ret, m->aios_why));
	json_object_set_new(rec, "plan", json_incref(m->plan));
}

/* ---- the plan is the same in every trial ---- */

/* The settings of RECORD apart from effective_io_concurrency, as one key. */
static void ref_key(const json_t *record, char *buf, size_t len)
{
	const char *name;
	json_t *v;
	size_t used = 0;

	buf[0] = '\0';
	json_object_foreach(json_object_get(record, "settings"), name, v)
		if (strcmp(name, SWEEP_EIC) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s=%s;", name,
						 json_string_value(v) ?: "");
}

static void differ(json_t *diffs, const char *what, const json_t *want, const json_t *got)
{
	if (!json_equal(want, got))
		json_array_append_new(diffs, json_pack("{s:s, s:O, s:O}", "figure", what,
						       "reference", want, "here", got));
}

int bitmap_plan_check(json_t *record, json_t *refs)
{
	static const char *const what[] = { "relation", "exact_heap_blocks", "lossy_heap_blocks" };
	const json_t *bm = json_object_get(json_object_get(record, "explain"), "bitmap");
	const json_t *rows = json_object_get(json_object_get(record, "explain"), "top_rows");
	json_t *ref, *diffs;
	char key[1024];

	ref_key(record, key, sizeof(key));
	ref = json_object_get(refs, key);
	if (!ref) {
		ref = json_pack("{s:O?, s:O?, s:O?, s:O?, s:s?}", "relation", json_object_get(bm, "relation"),
				"exact_heap_blocks", json_object_get(bm, "exact_heap_blocks"),
				"lossy_heap_blocks", json_object_get(bm, "lossy_heap_blocks"),
				"top_rows", rows, "trial_key",
				json_string_value(json_object_get(record, "trial_key")));
		json_object_set_new(refs, key, ref);
		json_object_set_new(record, "plan_check", json_pack("{s:b, s:s}", "ok", 1, "reference", "this trial"));
		return 0;
	}
	diffs = json_array();
	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
		differ(diffs, what[i], json_object_get(ref, what[i]), json_object_get(bm, what[i]));
	differ(diffs, "top_rows", json_object_get(ref, "top_rows"), rows);
	json_object_set_new(record, "plan_check", json_pack("{s:b, s:O, s:o}", "ok", json_array_size(diffs) == 0,
							    "reference", json_object_get(ref, "trial_key"),
							    "differences", diffs));
	return json_array_size(json_object_get(json_object_get(record, "plan_check"), "differences")) > 0;
}
