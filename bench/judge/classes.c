/*
 * classes: the classes an answer stands on, and their weights; see
 * classes.h.
 */
#include "bench/judge/classes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record_path.h"
#include "io/stats.h"

int class_weights_parse(const char *spec, struct class_weights *cw, char *err, size_t errlen)
{
	const char *p = spec;

	memset(cw, 0, sizeof(*cw));
	while (*p) {
		size_t n = strcspn(p, ","), k = strcspn(p, "=");
		char part[128], *end;
		double w;

		snprintf(part, sizeof(part), "%.*s", (int)(n < sizeof(part) - 1 ? n : sizeof(part) - 1), p);
		if (k >= n || k == 0 || k >= sizeof(cw->name[0])) {
			snprintf(err, errlen, "--weights '%s': '%s' is not CLASS=W; give CLASS=W,... with W from 0 to %d",
				 spec, part, CLASS_MAX_WEIGHT);
			return -EINVAL;
		}
		w = strtod(p + k + 1, &end);
		if (end == p + k + 1 || end != p + n || !(w >= 0 && w <= CLASS_MAX_WEIGHT)) {
			snprintf(err, errlen, "--weights '%s': the weight in '%s' is not a number from 0 to %d",
				 spec, part, CLASS_MAX_WEIGHT);
			return -EINVAL;
		}
		if (cw->n == CLASS_MAX_WEIGHTS) {
			snprintf(err, errlen, "--weights '%s': at most %d classes", spec, CLASS_MAX_WEIGHTS);
			return -EINVAL;
		}
		snprintf(cw->name[cw->n], sizeof(cw->name[0]), "%.*s", (int)k, p);
		for (size_t i = 0; i < cw->n; i++)
			if (!strcmp(cw->name[i], cw->name[cw->n])) {
				snprintf(err, errlen, "--weights '%s': '%s' given twice", spec, cw->name[i]);
				return -EINVAL;
			}
		cw->w[cw->n++] = w;
		p += n + (p[n] == ',');
	}
	if (!cw->n) {
		snprintf(err, errlen, "--weights '%s': give CLASS=W,... with W from 0 to %d", spec, CLASS_MAX_WEIGHT);
		return -EINVAL;
	}
	return 0;
}

json_t *class_weights_json(const struct class_weights *cw)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < cw->n; i++)
		json_object_set_new(o, cw->name[i], json_real(cw->w[i]));
	return o;
}

static double weight_in(const json_t *meta, const char *name)
{
	const json_t *w = json_object_get(record_at(meta, "plan.racing.weights"), name);

	return json_is_number(w) ? json_number_value(w) : 1;
}

double class_weight(const struct sweep_result *r, const char *name)
{
	return weight_in(r->meta, name);
}

int class_forced(const struct sweep_result *r)
{
	return json_is_true(record_at(r->meta, "plan.forced"));
}

int class_counts_meta(const json_t *meta, const char *name)
{
	return weight_in(meta, name) > 0 &&
	       (!json_is_true(record_at(meta, "plan.forced")) ||
		json_is_true(record_at(meta, "plan.racing.include_forced")));
}

int class_counts(const struct sweep_result *r, const char *name)
{
	return class_counts_meta(r->meta, name);
}

double class_page_share(const struct sweep_result *r)
{
	double pages = record_num_at(r->meta, "dataset.heap_bytes") / 8192, *x, m = NAN;
	size_t n = 0, i;
	json_t *t;

	if (!(pages > 0) || !json_array_size(r->trials))
		return NAN;
	x = malloc(json_array_size(r->trials) * sizeof(*x));
	if (!x)
		return NAN;
	json_array_foreach(r->trials, i, t) {
		double b = record_num_at(t, "explain.bitmap.exact_heap_blocks") +
			   record_num_at(t, "explain.bitmap.lossy_heap_blocks");

		if (isfinite(b))
			x[n++] = b;
	}
	if (n)
		m = stats_median(x, n) / pages;
	free(x);
	return m;
}

const char *class_planner_scan(const struct sweep_result *r)
{
	static const char *const scans[] = { "Bitmap Heap Scan", "Index Only Scan", "Index Scan", "Seq Scan", NULL };
	static const char *const parallel[] = { "Parallel Bitmap Heap Scan", "Parallel Index Only Scan",
		"Parallel Index Scan", "Parallel Seq Scan" };
	const char *plan = record_str_at(record_at(r->meta, "plan"), "planner_plan", NULL);
	const char *first = NULL;
	int which = -1;

	if (!plan || !*plan)
		return NULL;
	for (int s = 0; scans[s]; s++) {
		const char *at = strstr(plan, scans[s]);

		/* "Index Scan" is in "Bitmap Index Scan" too: a whole node name */
		while (at && at > plan && at[-1] != ',')
			at = strstr(at + 1, scans[s]);
		if (at && (!first || at < first))
			first = at, which = s;
	}
	if (which < 0)
		return "another plan";
	/* under a Gather, the scan is the workers' (parallel aware) */
	return strstr(plan, "Gather") && strstr(plan, "Gather") < first ? parallel[which] : scans[which];
}
