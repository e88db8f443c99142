/*
 * probe_points: open, check, record and run a plan's points; see
 * probe_points.h.
 */
#include "bench/probe/probe_points.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/stop.h"
#include "bench/observe/memhold.h"
#include "bench/pg/lock.h"
#include "bench/record/record.h"
#include "io/cache.h"
#include "io/curve.h"
#include "io/emulate/control.h"
#include "io/irqcpu.h"

/* Everything one run of the plan holds open. */
struct session {
	const struct probe_plan *plan;
	const struct probe_hooks *hooks;
	struct probe_out *out;
	struct blockmap   map;
	uint64_t         *owned_list;
	const uint64_t   *list;
	size_t            list_len;
	struct device_info dev;
	struct irqcpu_irqs irqs;           /* the device's interrupts, n 0: not followed */
	struct probe_steady steady;
	uint32_t          bs;              /* the block size the files are open with */
	bool              flat[PROBE_PLAN_MAX_ENGINES];    /* stopped going deeper: IOPS stopped rising */
	unsigned          n[PROBE_PLAN_MAX_ENGINES];       /* IOPS per engine and depth, */
	unsigned          depth[PROBE_PLAN_MAX_ENGINES][PROBE_PLAN_MAX_DEPTHS];  /* for the knee */
	double            iops[PROBE_PLAN_MAX_ENGINES][PROBE_PLAN_MAX_DEPTHS];
	char             *err;
	size_t            errlen;
};

static bool stopped(const struct probe_plan *p)
{
	return p->stop && *p->stop;
}

/* ---- checking the plan against the files ---- */

static int open_files(struct session *s)
{
	const struct probe_plan *p = s->plan;
	char fs[32];
	int rc;

	/* a FUSE mount whose emulator was killed: say so, and how to clean it */
	for (unsigned i = 0; i < p->npaths; i++)
		if (emulate_check_reachable(p->meta_extra ? "the relation's file" : "--file", p->paths[i],
					    s->err, s->errlen) < 0)
			return -EINVAL;
	rc = blockmap_open(&s->map, p->paths, p->npaths, s->bs,
			   p->direct ? O_DIRECT : 0, s->err, s->errlen);

	if (rc == -EINVAL && p->direct) {
		sysstat_fstype_for_path(p->paths[0], fs, sizeof(fs));
		snprintf(s->err, s->errlen,
			 "--direct: the %s file system under %s refuses O_DIRECT; run without --direct (buffered reads)",
			 fs, p->paths[0]);
	}
	if (rc == -ENOMEM || rc == -EIO)
		return rc;
	return rc < 0 ? -EINVAL : 0;
}

static int check_direct_bs(struct session *s)
{
	long lbs = s->dev.logical_block_size;

	if (!s->plan->direct || !s->dev.name[0] || lbs <= 0 || s->bs % lbs == 0)
		return 0;
	snprintf(s->err, s->errlen,
		 "--bs: %u is not a multiple of the logical block size %ld of %s, which --direct needs",
		 s->bs, lbs, s->dev.disk);
	return -EINVAL;
}

static int load_list(struct session *s)
{
	const struct probe_plan *p = s->plan;
	int rc;

	if (p->kind != BLOCKS_REPLAY)
		return 0;
	if (p->replay_file) {
		rc = blocks_load_list(p->replay_file, s->map.nblocks, &s->owned_list,
				      &s->list_len, s->err, s->errlen);
		s->list = s->owned_list;
		return rc == -ENOMEM ? rc : rc < 0 ? -EINVAL : 0;
	}
	for (size_t i = 0; i < p->list_len; i++) {
		if (p->list[i] >= s->map.nblocks) {
			snprintf(s->err, s->errlen,
				 "block list entry %zu: block %" PRIu64 " is past the end (blocks 0..%" PRIu64 ")",
				 i + 1, p->list[i], s->map.nblocks - 1);
			return -EINVAL;
		}
	}
	s->list = p->list;
	s->list_len = p->list_len;
	return s->list_len ? 0 : (snprintf(s->err, s->errlen, "the block list is empty"), -EINVAL);
}

/* ---- the result folder ---- */

int probe_points_folder(const struct probe_plan *p, const struct device_info *dev,
			uint64_t file_blocks, int argc, char **argv,
			char *dir, size_t dirlen, char *err, size_t errlen)
{
	const struct device_info none = { .name = "" };
	const struct record_head head = { .command = "probe", .argc = argc, .argv = argv,
		.device = true, .dev = dev ? dev : &none };
	json_t *meta;
	int rc = lock_hold_new_folder("probe", p->out, dir, dirlen, err, errlen);

	if (rc < 0)
		return rc;
	if (!(meta = record_meta_new(&head, NULL))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	json_object_set_new(meta, "file_blocks", file_blocks ? json_integer((json_int_t)file_blocks) : json_null());
	json_object_set_new(meta, "options", probe_plan_json(p));
	if (p->meta_extra)
		json_object_update(meta, (json_t *)p->meta_extra);
	rc = record_meta_write(dir, meta, err, errlen);
	json_decref(meta);
	return rc == -EINVAL ? -EIO : rc;
}

/* ---- points ---- */

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

json_t *probe_points_json(const struct probe_plan *p, const char *disk,
			     const struct probe_result *r, const char *cold)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:b, s:s, s:I, s:s, s:I, s:I, s:I, s:f, s:f, s:f, s:f,"
			 " s:o, s:{s:f, s:f}, s:{s:f, s:f}, s:o, s:o, s:b}",
			 "engine", r->engine, "depth", (int)r->depth, "combine", (int)r->combine,
			 "block_bytes", (int)r->block_bytes, "direct", r->direct,
			 "pattern", p->pattern, "seed", (json_int_t)p->seed, "cold", cold,
			 "ios", (json_int_t)r->ios, "blocks", (json_int_t)r->blocks,
			 "bytes", (json_int_t)r->bytes, "elapsed_s", r->elapsed_s, "iops", r->iops,
			 "mib_s", r->mib_s, "inflight", r->inflight,
			 "lat_ns", lat_json(&r->lat),
			 "cpu_us_per_io", "user", r->cpu_user_us_per_io, "sys", r->cpu_sys_us_per_io,
			 "switches_per_io", "sleeps", r->sleeps_per_io, "preemptions", r->preemptions_per_io,
			 "disk", r->have_disk && disk ? record_disk_json(disk, &r->disk) : json_null(),
			 "steady", steady_json(p, r), "stopped", r->stopped);
}


/* Make the next point cold; the method used, or NULL with err filled. */
static const char *make_cold(struct session *s)
{
	const struct probe_plan *p = s->plan;
	int rc;

	if (!p->cold)
		return "none";
	/* Only the probed files: the rest of the page cache is not ours to drop. */
	for (unsigned i = 0; i < p->npaths; i++) {
		rc = cache_evict_file(p->paths[i], NULL);
		if (rc < 0) {
			snprintf(s->err, s->errlen, "cannot evict %s from the page cache: %s",
				 p->paths[i], strerror(-rc));
			return NULL;
		}
	}
	return "evict";
}

static void probe_config_for(const struct session *s, const struct engine_ops *e,
			     unsigned depth, struct probe_config *c)
{
	const struct probe_plan *p = s->plan;

	*c = (struct probe_config){
		.engine = e, .map = &s->map, .depth = depth, .combine = p->combine,
		.count = p->count, .duration_ns = (uint64_t)llround(p->duration_s * 1e9),
		.steady = p->steady ? &s->steady : NULL,
		.disk_name = s->dev.name[0] ? s->dev.name : NULL,
		.disk_file = s->dev.name[0] ? s->dev.stats_file : NULL, .stop = p->stop,
	};
	if (p->kind == BLOCKS_RANDOM)
		blocks_random(&c->seq, s->map.nblocks, p->seed);
	else if (p->kind == BLOCKS_SEQ)
		blocks_seq(&c->seq, s->map.nblocks);
	else
		blocks_replay(&c->seq, s->list, s->list_len);
	if ((p->kind == BLOCKS_REPLAY && !c->count && !c->duration_ns) || p->one_pass)
		c->count = blocks_pass_len(&c->seq);   /* one pass over the list or the file */
}

/* The interrupts each CPU took for the device during the point (B less
 * A), or null when they are not followed. */
static json_t *interrupts_json(const struct irqcpu_counts *a, const struct irqcpu_counts *b)
{
	json_t *per = json_array();

	if (!a || !b) {
		json_decref(per);
		return json_null();
	}
	for (int c = 0; c < b->ncpu; c++)
		json_array_append_new(per, json_integer((json_int_t)(b->per_cpu[c] - (c < a->ncpu ? a->per_cpu[c] : 0))));
	return json_pack("{s:o}", "per_cpu", per);
}

/* Show and record one finished point. */
static int record_point(struct session *s, const struct probe_result *r, const char *cold,
			const struct irqcpu_counts *a, const struct irqcpu_counts *b)
{
	json_t *obj = probe_points_json(s->plan, s->dev.name[0] ? s->dev.name : NULL, r, cold);
	int rc;

	if (!obj)
		return snprintf(s->err, s->errlen, "out of memory"), -ENOMEM;
	json_object_set_new(obj, "interrupts", interrupts_json(a, b));
	if (s->hooks && s->hooks->point)
		s->hooks->point(s->hooks->arg, s->plan, r, obj);
	rc = record_append(s->out->dir, PROBE_POINTS_FILE, obj, s->err, s->errlen);
	json_decref(obj);
	return rc < 0 ? -EIO : 0;
}

/* 0 done, 1 the engine cannot start here (ERR says why), -errno failed. */
static int run_point(struct session *s, unsigned engine, unsigned depth)
{
	const struct engine_ops *e = s->plan->engines[engine];
	struct probe_config cfg;
	struct probe_result *res = malloc(sizeof(*res));
	const char *cold = make_cold(s);
	struct irqcpu_counts ia, ib;
	bool have_irqs;
	int rc;

	if (!cold || !res) {
		free(res);
		return cold ? -ENOMEM : -EIO;
	}
	probe_config_for(s, e, depth, &cfg);
	have_irqs = s->irqs.n && irqcpu_read(NULL, &s->irqs, &ia) == 0;
	rc = probe_run(&cfg, res, s->err, s->errlen);
	have_irqs = have_irqs && irqcpu_read(NULL, &s->irqs, &ib) == 0;
	if (rc < 0)
		rc = res->failed == PROBE_FAILED_ENGINE_INIT ? 1 : -EIO;
	else if ((rc = record_point(s, res, cold, have_irqs ? &ia : NULL, have_irqs ? &ib : NULL)) == 0 &&
		 !res->stopped) {
		unsigned k = s->n[engine]++;

		s->depth[engine][k] = depth;
		s->iops[engine][k] = res->iops;
		s->flat[engine] = s->plan->until_plateau && curve_flat(s->iops[engine], k + 1);
	}
	free(res);
	return rc;
}

static void say_unavailable(const struct session *s, const struct engine_ops *e)
{
	fprintf(stderr, "eicbench probe: %s is not available here (%s)%s; skipping its points\n",
		e->name, s->err,
		e->init == engine_uring.init ? ": io_uring may be disabled (sysctl kernel.io_uring_disabled) or blocked by a seccomp filter" : "");
}

/* Every depth, every engine; psync once, at depth 1 (it has no depth). */
static int run_grid(struct session *s, unsigned *ran)
{
	const struct probe_plan *p = s->plan;
	bool skip[PROBE_PLAN_MAX_ENGINES] = { false }, psync_done = false;
	int rc;

	for (unsigned d = 0; d < p->ndepths && !stopped(p); d++) {
		for (unsigned i = 0; i < p->nengines && !stopped(p); i++) {
			const struct engine_ops *e = p->engines[i];

			if (skip[i] || s->flat[i] || (e == &engine_psync && psync_done))
				continue;
			rc = run_point(s, i, e == &engine_psync ? 1 : p->depths[d]);
			psync_done |= e == &engine_psync && rc == 0;
			if (rc == 1) {
				say_unavailable(s, e);
				skip[i] = true;
				continue;
			}
			if (rc != 0)
				return rc;
			(*ran)++;
		}
	}
	return 0;
}

/* One engine's peak and knee, for curve.json; NULL when it has none. */
static json_t *knee_json(const char *engine, const unsigned *depths, const double *iops,
			 unsigned n, bool flat)
{
	json_t *d = json_array(), *v = json_array();
	struct curve_knee k;

	if (curve_find_knee(depths, iops, n, CURVE_KNEE_SHARE, &k) < 0) {
		json_decref(d);
		json_decref(v);
		return NULL;
	}
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

/* Each engine's knee (engines with two depths or more), kept in curve.json. */
static int record_knees(struct session *s)
{
	json_t *all = json_array(), *doc, *one;
	char path[PATH_MAX + 16], *text;
	int rc = -ENOMEM;

	for (unsigned e = 0; all && e < s->plan->nengines; e++) {
		if (s->n[e] < 2)
			continue;
		one = knee_json(s->plan->engines[e]->name, s->depth[e], s->iops[e], s->n[e], s->flat[e]);
		if (!one || json_array_append_new(all, one) < 0) {
			json_decref(all);
			return snprintf(s->err, s->errlen, "out of memory"), -ENOMEM;
		}
	}
	if (!all)
		return snprintf(s->err, s->errlen, "out of memory"), -ENOMEM;
	s->out->knees = json_incref(all);
	doc = json_pack("{s:f, s:s, s:o}", "share", CURVE_KNEE_SHARE,
			"knee", "the smallest depth whose IOPS reaches share x the peak across depths",
			"engines", all);
	snprintf(path, sizeof(path), "%s/%s", s->out->dir, PROBE_CURVE_FILE);
	if (doc && (text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))) {
		rc = record_write_file_atomic(path, text, strlen(text), s->err, s->errlen);
		free(text);
	}
	json_decref(doc);
	return rc < 0 ? -EIO : 0;
}

/* The knee's figures for one grid: none kept from the one before. */
static void reset_curve(struct session *s)
{
	memset(s->flat, 0, sizeof(s->flat));
	memset(s->n, 0, sizeof(s->n));
}

/* --sizes: the grid again at each block size, the files opened anew. */
static int run_sizes(struct session *s, unsigned *ran)
{
	const struct probe_plan *p = s->plan;
	int rc = 0;

	for (unsigned k = 0; rc == 0 && k < p->nsizes && !stopped(p); k++) {
		if (k) {
			blockmap_close(&s->map);
			s->bs = p->sizes[k];
			if ((rc = open_files(s)) || (rc = check_direct_bs(s)))
				return rc;
		}
		reset_curve(s);
		rc = run_grid(s, ran);
	}
	reset_curve(s);	/* no knee across sizes */
	return rc;
}

/*
 * Buffered cold points read through a page cache just evicted: where the
 * host takes freed memory back, pause that for them (bench/observe/memhold.h),
 * giving back twice the files' size first, and say so in meta.json.
 */
static void hold_memory(struct session *s, struct pagereport_hold *h)
{
	const struct probe_plan *p = s->plan;
	char path[PATH_MAX + 16], why[512];
	json_t *pause, *meta;

	*h = (struct pagereport_hold){ .fd = -1 };
	if (!p->cold || p->direct)
		return;
	pause = memhold_take(h, "probe", "the cold points", p->keep_page_reporting,
			     s->map.nblocks * (uint64_t)s->bs);
	if (!pause)
		return;
	snprintf(path, sizeof(path), "%s/%s", s->out->dir, RECORD_META);
	if ((meta = json_load_file(path, 0, NULL)) && memhold_record(meta, pause) &&
	    record_meta_write(s->out->dir, meta, why, sizeof(why)) < 0)
		fprintf(stderr, "eicbench probe: %s\n", why);
	json_decref(meta);
	json_decref(pause);
}

static int run_points(struct session *s)
{
	unsigned ran = 0;
	int rc;

	if (s->hooks && s->hooks->begin)
		s->hooks->begin(s->hooks->arg, s->plan);
	if ((rc = s->plan->nsizes ? run_sizes(s, &ran) : run_grid(s, &ran)) != 0)
		return rc;
	if (stopped(s->plan)) {
		snprintf(s->err, s->errlen, "interrupted; the points so far are in %s", s->out->dir);
		return -EINTR;
	}
	if (ran == 0) {
		snprintf(s->err, s->errlen, "no engine could run");
		return -EIO;
	}
	return record_knees(s);
}

static int prepare(struct session *s, int argc, char **argv)
{
	int rc = open_files(s);

	if (rc)
		return rc;
	json_decref(record_device_at(s->plan->paths[0], &s->dev));
	if (s->dev.name[0])
		(void)irqcpu_disk_irqs(NULL, s->dev.name, &s->irqs);   /* none followed (n 0) when not found */
	if ((rc = check_direct_bs(s)) || (rc = load_list(s)))
		return rc;
	return probe_points_folder(s->plan, &s->dev, s->map.nblocks, argc, argv,
				   s->out->dir, sizeof(s->out->dir), s->err, s->errlen);
}

int probe_points_run(const struct probe_plan *plan, const struct probe_hooks *hooks,
		     int argc, char **argv, struct probe_out *out, char *err, size_t errlen)
{
	struct session *s;
	struct pagereport_hold hold = { .fd = -1 };
	int rc;

	if (memhold_check_env(err, errlen) < 0)
		return -EINVAL;
	if (!(s = calloc(1, sizeof(*s))))
		return snprintf(err, errlen, "out of memory"), -ENOMEM;
	*s = (struct session){ .plan = plan, .hooks = hooks, .out = out, .err = err, .errlen = errlen,
		.bs = plan->block_bytes,
		.steady = { .window_ns = (uint64_t)llround(plan->window_s * 1e9), .min_ns = 0,
			    .windows = CURVE_STEADY_WINDOWS, .tolerance = CURVE_STEADY_TOLERANCE } };
	if ((rc = prepare(s, argc, argv)) == 0) {
		fprintf(stderr, "eicbench probe: %s, %" PRIu64 " blocks of %u bytes%s; results in %s\n",
			plan->paths[0], s->map.nblocks, plan->block_bytes,
			plan->direct ? ", O_DIRECT" : "", out->dir);
		hold_memory(s, &hold);
		if (plan->stop)
			cli_catch_stop(false);	/* a wait for completions ends at once */
		rc = run_points(s);
		if (plan->stop)
			cli_catch_stop(true);
		pagereport_release(&hold);
	}
	if (s->map.files)
		blockmap_close(&s->map);
	free(s->owned_list);
	free(s);
	return rc;
}

void probe_out_free(struct probe_out *o)
{
	json_decref(o->knees);
	json_decref(o->cache);
	o->knees = o->cache = NULL;
}
