/*
 * prediction: the replay against the query per value, the request check,
 * the error in parts and the additive split; see prediction.h.
 */
#include "bench/judge/prediction.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/judge/regret.h"

#define HEAP "explain.bitmap.heap_phase."

/* Does query trial T count (a heap-phase time, the plan of its settings)? */
static bool counts(const json_t *t)
{
	return !result_trial_priming(t) && isfinite(record_num_at(t, HEAP "total_ms")) &&
	       !json_is_false(json_object_get(json_object_get(t, "plan_check"), "ok"));
}

/* Trial T's heap phase in parts; total only when it was not split by phase. */
static void split_of(const json_t *t, struct prediction_split *s)
{
	const json_t *b = json_object_get(json_object_get(json_object_get(t, "phases"), "heap"), "backend");
	const char *from = json_string_value(json_object_get(b, "cpu_from"));
	double total = record_num_at(t, HEAP "total_ms");

	*s = (struct prediction_split){ total, NAN, NAN, NAN, record_num_at(t, HEAP "io_read_ms"), false };
	if (!json_is_object(b))
		return;
	s->from_schedstat = from && !strcmp(from, "schedstat");
	if (s->from_schedstat) {
		s->cpu_ms = record_num_at(b, "oncpu_s") * 1e3;
		s->runqueue_ms = record_num_at(b, "runqueue_s") * 1e3;
	} else {
		s->cpu_ms = record_num_at(b, "cpu_share") * total;
		s->runqueue_ms = 0;
	}
	if (s->cpu_ms > total)            /* ticks can count more than the phase */
		s->cpu_ms = total;
	if (s->cpu_ms + s->runqueue_ms > total)
		s->runqueue_ms = total - s->cpu_ms;
	s->wait_ms = total - s->cpu_ms - s->runqueue_ms;
}

static int by_total(const void *a, const void *b)
{
	double x = ((const struct prediction_split *)a)->total_ms, y = ((const struct prediction_split *)b)->total_ms;

	return x < y ? -1 : x > y;
}

/* The median run's parts: the middle one, or the two middle ones averaged. */
static void median_split(struct prediction_split *s, size_t n, struct prediction_split *out)
{
	const struct prediction_split *a, *b;

	*out = (struct prediction_split){ NAN, NAN, NAN, NAN, NAN, false };
	if (!n)
		return;
	qsort(s, n, sizeof(*s), by_total);
	a = &s[(n - 1) / 2];
	b = &s[n / 2];
	*out = (struct prediction_split){
		(a->total_ms + b->total_ms) / 2, (a->cpu_ms + b->cpu_ms) / 2,
		(a->runqueue_ms + b->runqueue_ms) / 2, (a->wait_ms + b->wait_ms) / 2,
		(a->io_read_ms + b->io_read_ms) / 2, a->from_schedstat && b->from_schedstat,
	};
}

/* The median of PATH over the records of ARR in group G (NULL: all). */
struct column {
	double *v;
	size_t  n;
};

static void add(struct column *c, double x)
{
	if (isfinite(x))
		c->v[c->n++] = x;
}

static double median(const struct column *c)
{
	return c->n ? stats_median(c->v, c->n) : NAN;
}

struct cols {
	struct column heap, trial_reqs, trial_kib, trial_qd, trial_pace, trial_busy, trial_cpu, trial_sys;
	struct column replay, replay_wait, replay_reqs, replay_kib, replay_qd, replay_pace, replay_busy,
		      replay_cpu, replay_sys, trial_irq, replay_irq;
	struct prediction_split *splits;
	size_t nsplits;
};

#define NCOLUMNS 19

/* C's columns, for allocating and freeing them alike. */
static void columns_of(struct cols *c, struct column *all[NCOLUMNS])
{
	struct column *list[NCOLUMNS] = { &c->heap, &c->trial_reqs, &c->trial_kib, &c->trial_qd,
		&c->trial_pace, &c->trial_busy, &c->trial_cpu, &c->trial_sys, &c->replay, &c->replay_wait,
		&c->replay_reqs, &c->replay_kib, &c->replay_qd, &c->replay_pace, &c->replay_busy,
		&c->replay_cpu, &c->replay_sys, &c->trial_irq, &c->replay_irq };

	memcpy(all, list, sizeof(list));
}

static int cols_alloc(struct cols *c, size_t n)
{
	struct column *all[NCOLUMNS];

	memset(c, 0, sizeof(*c));
	columns_of(c, all);
	for (size_t i = 0; i < NCOLUMNS; i++)
		if (!(all[i]->v = calloc(n ? n : 1, sizeof(double))))
			return -ENOMEM;
	c->splits = calloc(n ? n : 1, sizeof(*c->splits));
	return c->splits ? 0 : -ENOMEM;
}

static void cols_free(struct cols *c)
{
	struct column *all[NCOLUMNS];

	columns_of(c, all);
	for (size_t i = 0; i < NCOLUMNS; i++)
		free(all[i]->v);
	free(c->splits);
}

/* DISK's share of its time busy, and its reads a second while busy. */
static void device(const json_t *disk, struct column *pace, struct column *busy)
{
	double reads = record_num_at(disk, "reads"), util = record_num_at(disk, "util_pct") / 100,
	       secs = record_num_at(disk, "elapsed_s");

	if (!(reads > 0) || !(util > 0) || !(secs > 0))
		return;
	add(pace, reads / (util * secs));
	add(busy, util);
}

/* Is round ROUND of VALUE one the disturbance rule flagged? */
static bool flagged(const struct regret *f, const char *value, int round)
{
	for (size_t i = 0; f && i < f->nflags; i++)
		if (f->flags[i].round == round && !strcmp(f->values[f->flags[i].v], value))
			return true;
	return false;
}

/* The query trials of group G that count, and of them the flagged ones. */
static size_t flagged_of(const struct sweep_result *r, size_t g, const struct regret *f, const char *value,
			 size_t *all)
{
	const json_t *t;
	size_t i, n = 0;

	*all = 0;
	json_array_foreach(r->trials, i, t)
		if (counts(t) && result_group_of(r, t) == g) {
			(*all)++;
			n += flagged(f, value, (int)json_integer_value(json_object_get(t, "round")));
		}
	return n;
}

/* The trials of group G; query trials of a flagged round left out when
 * SKIP_FLAGGED (the replay trials are not judged by the rule). */
static void gather(const struct sweep_result *r, size_t g, struct cols *c, const char **model,
		   const struct regret *f, const char *value, bool skip_flagged)
{
	const json_t *t;
	size_t i;

	json_array_foreach(r->trials, i, t) {
		if (!counts(t) || result_group_of(r, t) != g)
			continue;
		if (skip_flagged && flagged(f, value, (int)json_integer_value(json_object_get(t, "round"))))
			continue;
		add(&c->heap, record_num_at(t, HEAP "total_ms"));
		add(&c->trial_reqs, record_num_at(t, "phases.heap.disk.reads"));
		add(&c->trial_kib, record_num_at(t, "phases.heap.disk.avg_read_kib"));
		add(&c->trial_qd, record_num_at(t, "phases.heap.disk.avg_queue_depth"));
		device(json_object_get(json_object_get(json_object_get(t, "phases"), "heap"), "disk"),
		       &c->trial_pace, &c->trial_busy);
		add(&c->trial_cpu, record_num_at(t, "phases.heap.backend.oncpu_s") * 1e3);
		add(&c->trial_sys, record_num_at(t, "phases.heap.backend.system_s") * 1e3);
		add(&c->trial_irq, record_num_at(t, "phases.heap.placement.on_irq_cpu"));
		split_of(t, &c->splits[c->nsplits++]);
	}
	json_array_foreach(r->companions, i, t) {
		const char *w = json_string_value(json_object_get(t, "workload"));

		if (!w || strcmp(w, "replay") || result_group_of(r, t) != g)
			continue;
		add(&c->replay, record_num_at(t, "replay.elapsed_ms"));
		add(&c->replay_wait, record_num_at(t, "replay.wait_ms"));
		add(&c->replay_reqs, record_num_at(t, "disk.reads"));
		add(&c->replay_kib, record_num_at(t, "disk.avg_read_kib"));
		add(&c->replay_qd, record_num_at(t, "disk.avg_queue_depth"));
		device(json_object_get(t, "disk"), &c->replay_pace, &c->replay_busy);
		add(&c->replay_cpu, record_num_at(t, "replay.cpu.oncpu_ms"));
		add(&c->replay_sys, record_num_at(t, "replay.cpu.system_ms"));
		add(&c->replay_irq, record_num_at(t, "replay.placement.on_irq_cpu"));
		if (!*model)
			*model = record_str_at(t, "replay", "model");
	}
}

/* The error's parts from the medians; the rest is what they leave. */
static void error_parts(struct prediction_value *v)
{
	struct prediction_error_parts *e = &v->parts;

	*e = (struct prediction_error_parts){ NAN, NAN, NAN, NAN };
	if (!isfinite(v->error) || !(v->trial_reqs > 0) || !(v->replay_reqs > 0) ||
	    !(v->trial_pace > 0) || !(v->replay_pace > 0) || !(v->trial_busy > 0) || !(v->replay_busy > 0))
		return;
	e->requests = log(v->replay_reqs / v->trial_reqs);
	e->pace = -log(v->replay_pace / v->trial_pace);
	e->busy = -log(v->replay_busy / v->trial_busy);
	e->rest = v->error - e->requests - e->pace - e->busy;
}

static void judge(struct prediction_value *v, const struct cols *c)
{
	double ratio = NAN;
	struct stats_interval ci = { NAN, NAN, NAN };

	v->query_runs = c->heap.n;
	v->replay_runs = c->replay.n;
	v->heap_ms = median(&c->heap);
	v->replay_ms = median(&c->replay);
	v->replay_wait_ms = median(&c->replay_wait);
	v->trial_reqs = median(&c->trial_reqs);
	v->trial_req_kib = median(&c->trial_kib);
	v->trial_qd = median(&c->trial_qd);
	v->replay_reqs = median(&c->replay_reqs);
	v->replay_req_kib = median(&c->replay_kib);
	v->replay_qd = median(&c->replay_qd);
	v->trial_pace = median(&c->trial_pace);
	v->trial_pace_lo = stats_min(c->trial_pace.v, c->trial_pace.n);
	v->trial_pace_hi = stats_max(c->trial_pace.v, c->trial_pace.n);
	v->trial_busy = median(&c->trial_busy);
	v->replay_pace = median(&c->replay_pace);
	v->replay_busy = median(&c->replay_busy);
	v->trial_cpu_ms = median(&c->trial_cpu);
	v->trial_sys_ms = median(&c->trial_sys);
	v->replay_cpu_ms = median(&c->replay_cpu);
	v->replay_sys_ms = median(&c->replay_sys);
	v->trial_on_irq = median(&c->trial_irq);
	v->replay_on_irq = median(&c->replay_irq);
	v->checked = isfinite(v->trial_reqs) && isfinite(v->replay_reqs) && v->trial_reqs > 0;
	v->req_diff = v->checked ? v->replay_reqs / v->trial_reqs - 1 : NAN;
	v->usable = v->checked && fabs(v->req_diff) <= PREDICTION_MAX_REQ_DIFF;
	v->error = v->error_lo = v->error_hi = v->coverage = NAN;
	if (c->heap.n && c->replay.n &&
	    stats_ratio_interval(c->replay.v, c->replay.n, c->heap.v, c->heap.n, RESULT_LEVEL,
				 RESULT_RESAMPLES, 17, &ratio, &ci) == 0 && ratio > 0) {
		v->error = log(ratio);
		v->error_lo = ci.lo > 0 ? log(ci.lo) : NAN;
		v->error_hi = ci.hi > 0 ? log(ci.hi) : NAN;
		v->coverage = ci.coverage;
	}
	error_parts(v);
}

int prediction_build(const struct sweep_result *r, size_t series, struct prediction *out)
{
	size_t idx[r->ngroups + 1], n = series < r->nseries ? result_series_groups(r, series, idx) : 0;
	int ret = 0;

	struct regret *f;
	char err[256];

	memset(out, 0, sizeof(*out));
	out->zero = RESULT_NONE;
	if (!r->companions || !json_array_size(r->companions))
		return -ENOENT;
	/* the runs the decision leaves out as disturbed are left out here too */
	f = calloc(1, sizeof(*f));
	if (f) {
		const struct sweep_result *reps[1] = { r };
		size_t ser[1] = { series };
		const char *names[1] = { "query" };

		if (regret_build(reps, ser, names, 1, regret_margin_of(r), f, err, sizeof(err)) < 0) {
			free(f);
			f = NULL;
		}
	}
	for (size_t k = 0; ret == 0 && k < n && out->nvalues < PREDICTION_MAX_VALUES; k++) {
		struct prediction_value *v = &out->v[out->nvalues];
		struct cols c;
		size_t all, nflagged;

		ret = cols_alloc(&c, json_array_size(r->trials) + json_array_size(r->companions));
		if (ret == 0) {
			v->group = idx[k];
			v->value = result_value(r, &r->groups[idx[k]], r->swept);
			nflagged = flagged_of(r, idx[k], f, v->value, &all);
			/* all of them flagged: kept, as the decision keeps them then */
			v->flagged_out = nflagged < all ? nflagged : 0;
			gather(r, idx[k], &c, &out->model, f, v->value, v->flagged_out > 0);
			judge(v, &c);
			median_split(c.splits, c.nsplits, &v->split);
			out->replays += c.replay.n;
			if (!strcmp(v->value, "0"))
				out->zero = out->nvalues;
			out->nvalues++;
		}
		cols_free(&c);
	}
	if (f) {
		regret_free(f);
		free(f);
	}
	return ret < 0 ? ret : out->replays ? 0 : -ENOENT;
}

void prediction_change(const struct prediction *p, size_t i, struct prediction_split *d)
{
	const struct prediction_split *a, *z;

	*d = (struct prediction_split){ NAN, NAN, NAN, NAN, NAN, false };
	if (p->zero == RESULT_NONE || i >= p->nvalues)
		return;
	a = &p->v[i].split;
	z = &p->v[p->zero].split;
	*d = (struct prediction_split){
		a->total_ms - z->total_ms, a->cpu_ms - z->cpu_ms, a->runqueue_ms - z->runqueue_ms,
		a->wait_ms - z->wait_ms, a->io_read_ms - z->io_read_ms,
		a->from_schedstat && z->from_schedstat,
	};
}
