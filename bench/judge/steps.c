/*
 * steps: loading a confsweep's folder; see steps.h.
 */
#include "bench/judge/steps.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/stats.h"
#include "bench/record/record_path.h"

/* The combination a record belongs to: its step, else its settings. */
static void group_name(const json_t *t, char *buf, size_t len)
{
	const char *step = json_string_value(json_object_get(t, "step")), *k;
	json_t *v;
	size_t used = 0;

	if (step) {
		snprintf(buf, len, "%s", step);
		return;
	}
	buf[0] = '\0';
	json_object_foreach(json_object_get(t, "settings"), k, v)
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s=%s",
					 used ? " " : "", k, json_string_value(v) ?: "");
}

/* The groups in plan order: the steps as listed, else the trial keys' order. */
static void plan_groups(struct steps_result *s)
{
	const json_t *plan = json_object_get(s->meta, "plan"), *e;
	size_t i;

	json_array_foreach(json_object_get(plan, "steps"), i, e)
		if (s->ng < STEPS_MAX_GROUPS)
			snprintf(s->g[s->ng++].name, RECORD_KEY_MAX, "%s",
				 json_string_value(json_object_get(e, "name")) ?: "?");
}

static struct step_group *find(struct steps_result *s, const char *name)
{
	for (int i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].name, name))
			return &s->g[i];
	if (s->ng == STEPS_MAX_GROUPS)
		return NULL;
	snprintf(s->g[s->ng].name, RECORD_KEY_MAX, "%s", name);
	return &s->g[s->ng++];
}

/* A log line without its time stamp and pid, kept once with a count. */
static void note_warning(struct steps_result *s, const char *line)
{
	const char *p = strstr(line, "WARNING:") ?: strstr(line, "ERROR:") ?: strstr(line, "FATAL:") ?:
			strstr(line, "LOG:") ?: line;

	for (int i = 0; i < s->nwarn; i++)
		if (!strncmp(s->warn[i], p, sizeof(s->warn[i]) - 1)) {
			s->warn_n[i]++;
			return;
		}
	if (s->nwarn < STEPS_MAX_WARN) {
		snprintf(s->warn[s->nwarn], sizeof(s->warn[0]), "%s", p);
		s->warn_n[s->nwarn++] = 1;
	}
}

static int add_trial(struct steps_result *s, const json_t *t)
{
	char name[RECORD_KEY_MAX];
	struct step_group *g;
	double v = record_num_at(t, s->main->path);
	const json_t *line;
	size_t i;

	if (isnan(v))
		return 0;
	group_name(t, name, sizeof(name));
	if (!(g = find(s, name)))
		return 0;
	if (!(g->v = realloc(g->v, (g->n + 1) * sizeof(double))))
		return -ENOMEM;
	g->v[g->n++] = v;
	g->warnings += (long)json_integer_value(json_object_get(t, "warnings"));
	json_array_foreach(json_object_get(t, "log"), i, line)
		if (json_string_value(line) && record_log_is_warning(json_string_value(line)))
			note_warning(s, json_string_value(line));
	return 0;
}

/* Median, min, max of the main figure; p50/p99 and transactions medians. */
static void summarize(struct steps_result *s)
{
	size_t ntr = json_array_size(s->trials);
	double *buf = malloc((ntr + 1) * 3 * sizeof(double));

	for (int k = 0; buf && k < s->ng; k++) {
		struct step_group *g = &s->g[k];
		size_t a = 0, b = 0, c = 0, i;
		char name[RECORD_KEY_MAX];
		json_t *t;

		g->median = g->n ? stats_median(g->v, g->n) : NAN;
		g->min = g->n ? stats_min(g->v, g->n) : NAN;
		g->max = g->n ? stats_max(g->v, g->n) : NAN;
		json_array_foreach(s->trials, i, t) {
			group_name(t, name, sizeof(name));
			if (strcmp(name, g->name))
				continue;
			buf[a] = record_num_at(t, "tpcb.latency_ms.p50"), a += !isnan(buf[a]);
			buf[ntr + b] = record_num_at(t, "tpcb.latency_ms.p99"), b += !isnan(buf[ntr + b]);
			buf[2 * ntr + c] = record_num_at(t, "tpcb.transactions"), c += !isnan(buf[2 * ntr + c]);
		}
		g->p50 = a ? stats_median(buf, a) : NAN;
		g->p99 = b ? stats_median(buf + ntr, b) : NAN;
		g->transactions = c ? stats_median(buf + 2 * ntr, c) : NAN;
	}
	free(buf);
}

int steps_load(const char *dir, struct steps_result *s, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	const char *wl;
	size_t i;
	json_t *t;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	s->meta = json_load_file(path, 0, NULL);
	wl = json_string_value(json_object_get(json_object_get(s->meta, "plan"), "workload"));
	if (!s->meta || !wl || !(s->figures = record_figures(wl, &s->summary))) {
		snprintf(err, errlen, "%s: not a confsweep's folder (no meta.json naming a workload eicbench knows)", dir);
		return -EINVAL;
	}
	s->main = &s->figures[0];
	ret = record_load(dir, RECORD_TRIALS, &s->trials, &s->torn, err, errlen);
	if (ret < 0)
		return ret == -ENOENT ? (snprintf(err, errlen, "%s: no finished run yet", dir), -EINVAL) : ret;
	plan_groups(s);
	json_array_foreach(s->trials, i, t)
		if ((ret = add_trial(s, t)) < 0)
			return ret;
	summarize(s);
	return 0;
}

void steps_free(struct steps_result *s)
{
	for (int k = 0; k < s->ng; k++)
		free(s->g[k].v);
	json_decref(s->meta);
	json_decref(s->trials);
}

