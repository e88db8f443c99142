/*
 * report: loading and summarizing a sweep's records, and the helpers the
 * other parts share (report_explain.c, report_render.c, report_plot.c).
 * Groups follow the grid order (first setting slowest); their series,
 * speedups and decisions are report_series.c's. Reads records only; never
 * changes them.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/record/record.h"
#include "bench/judge/decision.h"
#include "bench/judge/result.h"
#include "io/stats.h"

#define EIC "effective_io_concurrency"
#define EXEC_MS "explain.execution_ms"
#define HEAP_MS "explain.bitmap.heap_phase.total_ms"
#define INDEX_MS "explain.bitmap.index_phase.total_ms"

int result_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *result_server_setting(const struct sweep_result *r, const char *name)
{
	return record_str_at(json_object_get(r->meta, "server"), "settings", name);
}

const char *result_group_setting(const struct sweep_result *r, const struct result_group *g, const char *name)
{
	for (size_t i = 0; i < r->nsettings; i++)
		if (!strcmp(r->settings[i].name, name))
			return r->settings[i].values[g->value[i]];
	return result_server_setting(r, name);
}

/* ---- meta.json ---- */

static int load_meta(const char *dir, struct sweep_result *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	json_error_t jerr;
	const char *cmd;

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	if (access(path, F_OK) < 0) {
		snprintf(err, errlen, "%s: no %s; give a result folder written by eicbench sweep",
			 dir, RECORD_META);
		return -ENOENT;
	}
	r->meta = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!r->meta)
		return result_bad(err, errlen, "%s line %d: not valid JSON: %s", path, jerr.line, jerr.text);
	if (!json_is_object(r->meta))
		return result_bad(err, errlen, "%s: must hold a JSON object", path);
	cmd = record_str_at(r->meta, "command", NULL);
	if (!cmd || strcmp(cmd, "sweep"))
		return result_bad(err, errlen, "%s holds the records of '%s', not of a sweep; "
				  "report reads folders written by eicbench sweep (meta.json \"command\": \"sweep\")",
				  dir, cmd ? cmd : "(no command)");
	r->version_num = (long)record_num_at(r->meta, "server.version_num");
	r->margin = record_num_at(r->meta, "plan.racing.margin") > 0 ?
		    record_num_at(r->meta, "plan.racing.margin") : DECISION_MARGIN;
	return 0;
}

static double parse_num(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	return end == s || *end || errno ? NAN : v;
}

static int load_setting(struct result_setting *s, const char *name, const json_t *vals,
			char *err, size_t errlen)
{
	const json_t *v;
	size_t i;

	s->name = name;
	if (!json_is_array(vals) || json_array_size(vals) == 0)
		return result_bad(err, errlen, "meta.json plan.grid.%s: need a non-empty array of values", name);
	s->values = calloc(json_array_size(vals), sizeof(*s->values));
	s->num = calloc(json_array_size(vals), sizeof(*s->num));
	if (!s->values || !s->num)
		return -ENOMEM;
	json_array_foreach(vals, i, v) {
		if (!json_is_string(v))
			return result_bad(err, errlen, "meta.json plan.grid.%s[%zu]: values must be strings", name, i);
		s->values[i] = json_string_value(v);
		s->num[i] = parse_num(s->values[i]);
	}
	s->nvalues = i;
	return 0;
}

static int add_setting(struct sweep_result *r, const char *name, const json_t *vals,
		       char *err, size_t errlen)
{
	int ret;

	if (!name || r->nsettings == RESULT_MAX_SETTINGS)
		return result_bad(err, errlen, "meta.json plan.grid_order: need 1 to %d setting names",
				  RESULT_MAX_SETTINGS);
	ret = load_setting(&r->settings[r->nsettings], name, vals, err, errlen);
	if (ret < 0)
		return ret;
	if (!strcmp(name, EIC)) {
		r->swept = r->nsettings;
		r->swept_is_eic = 1;
	}
	r->nsettings++;
	return 0;
}

/* plan.grid in the order of plan.grid_order, else in the object's order. */
static int load_grid(struct sweep_result *r, char *err, size_t errlen)
{
	const json_t *plan = json_object_get(r->meta, "plan");
	const json_t *grid = json_object_get(plan, "grid"), *order = json_object_get(plan, "grid_order");
	const char *name;
	json_t *v;
	size_t i;
	int ret = 0;

	if (!json_is_object(grid) || json_object_size(grid) == 0)
		return result_bad(err, errlen, "meta.json plan.grid: need an object of 1 to %d settings, each an array of values",
				  RESULT_MAX_SETTINGS);
	if (json_is_array(order))
		json_array_foreach(order, i, v) {
			name = json_string_value(v);
			if (ret == 0)
				ret = add_setting(r, name, json_object_get(grid, name ? name : ""), err, errlen);
		}
	else
		json_object_foreach((json_t *)grid, name, v)
			if (ret == 0)
				ret = add_setting(r, name, v, err, errlen);
	if (ret == 0 && r->nsettings == 0)
		ret = result_bad(err, errlen, "meta.json plan.grid_order: no settings");
	if (!r->swept_is_eic && r->nsettings)
		r->swept = r->nsettings - 1;
	return ret;
}

/* ---- trials into groups ---- */

/* Index of query NAME, added when new; RESULT_NONE when there are too many. */
static size_t query_index(struct sweep_result *r, const char *name)
{
	for (size_t i = 0; i < r->nqueries; i++)
		if (!strcmp(r->queries[i], name))
			return i;
	if (r->nqueries == RESULT_MAX_QUERIES)
		return RESULT_NONE;
	r->queries[r->nqueries] = name;
	return r->nqueries++;
}

/* The combination of record T's settings and query as one number (query
 * slowest, then the grid order); RESULT_NONE for a value outside the grid. */
static size_t settings_key(struct sweep_result *r, const json_t *t)
{
	const json_t *set = json_object_get(t, "settings");
	const char *q = record_str_at(t, "query", NULL);
	size_t key, s, i;

	key = query_index(r, q ? q : r->nqueries ? r->queries[0] : "");
	for (s = 0; key != RESULT_NONE && s < r->nsettings; s++) {
		const char *v = json_string_value(json_object_get(set, r->settings[s].name));

		for (i = 0; v && i < r->settings[s].nvalues; i++)
			if (!strcmp(v, r->settings[s].values[i]))
				break;
		if (!v || i == r->settings[s].nvalues)
			return RESULT_NONE;
		key = key * r->settings[s].nvalues + i;
	}
	return key;
}

/* The combination of trial T; RESULT_NONE when it primed, has no time, its
 * plan differed or a value is outside the grid. */
static size_t trial_key(struct sweep_result *r, const json_t *t)
{
	if (result_trial_priming(t) || isnan(record_num_at(t, r->heap_phase ? HEAP_MS : EXEC_MS)))
		return RESULT_NONE;
	if (json_is_false(json_object_get(json_object_get(t, "plan_check"), "ok")))
		return RESULT_NONE;
	return settings_key(r, t);
}

static void key_to_group(const struct sweep_result *r, size_t key, struct result_group *g)
{
	for (size_t s = r->nsettings; s-- > 0;) {
		g->value[s] = key % r->settings[s].nvalues;
		key /= r->settings[s].nvalues;
	}
	g->query = key;
}

static const struct figure {
	const char *path;
	size_t offset;
	double scale;
} figures[] = {
	{ "explain.io_read_ms", offsetof(struct result_group, io_read_ms), 1 },
	{ "disk.avg_queue_depth", offsetof(struct result_group, queue_depth), 1 },
	{ "disk.avg_read_kib", offsetof(struct result_group, avg_req_kib), 1 },
	{ "disk.read_await_ms", offsetof(struct result_group, await_ms), 1 },
	{ "backend.cpu_share", offsetof(struct result_group, cpu_share), 1 },
	{ "disk.read_bytes", offsetof(struct result_group, read_mib), 1.0 / 1048576 },
	{ INDEX_MS, offsetof(struct result_group, index_ms), 1 },
	{ "explain.bitmap.other_ms", offsetof(struct result_group, other_ms), 1 },
	{ "explain.bitmap.heap_phase.io_read_ms", offsetof(struct result_group, heap_io_read_ms), 1 },
	{ "phases.heap.disk.avg_queue_depth", offsetof(struct result_group, heap_queue_depth), 1 },
	{ "phases.heap.disk.avg_read_kib", offsetof(struct result_group, heap_req_kib), 1 },
	{ "phases.heap.disk.read_await_ms", offsetof(struct result_group, heap_await_ms), 1 },
	{ "phases.heap.disk.read_bytes", offsetof(struct result_group, heap_read_mib), 1.0 / 1048576 },
	{ "phases.heap.backend.cpu_share", offsetof(struct result_group, heap_cpu_share), 1 },
	{ "phases.heap.aios.in_flight_mean", offsetof(struct result_group, heap_aio_in_flight), 1 },
	{ "phases.heap.backend.runqueue_s", offsetof(struct result_group, heap_runqueue_s), 1 },
	{ "phases.heap.cpu.steal_pct", offsetof(struct result_group, heap_steal_pct), 1 },
	{ "phases.index.disk.read_bytes", offsetof(struct result_group, index_read_mib), 1.0 / 1048576 },
	{ "phases.index.disk.avg_read_kib", offsetof(struct result_group, index_req_kib), 1 },
	{ "phases.index.backend.cpu_share", offsetof(struct result_group, index_cpu_share), 1 },
	{ "explain.bitmap.exact_heap_blocks", offsetof(struct result_group, exact_blocks), 1 },
	{ "explain.bitmap.lossy_heap_blocks", offsetof(struct result_group, lossy_blocks), 1 },
	{ "explain.top_rows", offsetof(struct result_group, rows), 1 },
};

/* The values of PATH over the trials T[0..n) into BUF, absent ones skipped;
 * returns how many. */
static size_t values_of(const json_t *const *t, size_t n, const char *path, double *buf)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		buf[k] = record_num_at(t[i], path);
		k += !isnan(buf[k]);
	}
	return k;
}

/* The median of PATH over the trials, skipping absent figures. */
static double median_of(const json_t *const *t, size_t n, const char *path, double *buf)
{
	size_t k = values_of(t, n, path, buf);

	return k ? stats_median(buf, k) : NAN;
}

/* The index phase's share of each run's execution, as a median. */
static double index_share(const json_t *const *t, size_t n, double *buf)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		buf[k] = record_num_at(t[i], INDEX_MS) / record_num_at(t[i], EXEC_MS);
		k += isfinite(buf[k]);
	}
	return k ? stats_median(buf, k) : NAN;
}

static void no_bitmap(struct result_group *g, const json_t *const *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *has = json_object_get(json_object_get(t[i], "explain"), "has");

		if (!json_is_false(json_object_get(has, "bitmap_heap_scan")))
			continue;
		g->no_bitmap++;
		if (!g->top_node)
			g->top_node = record_str_at(json_object_get(t[i], "explain"), "top_node", NULL);
	}
}

/*
 * A run far slower than its value's median whose reads were as much slower
 * at the device (diskstats' wait per read, over the heap phase when it was
 * split): its time went at the device, not in PostgreSQL. When it was the
 * sweep's first trial, the first to read the data set, a cache below this
 * machine is the likely reason the others were faster.
 */
static void find_stall(const struct sweep_result *r, struct result_group *g, const json_t *const *t,
		       size_t n, double *buf)
{
	const char *time = r->heap_phase ? HEAP_MS : EXEC_MS;
	size_t slow = RESULT_NONE, k = 0;

	g->stall_ms = g->stall_await_ms = g->others_await_ms = NAN;
	for (size_t i = 0; i < n; i++)
		if (record_num_at(t[i], time) > RESULT_STALL_X * g->median_ms &&
		    (slow == RESULT_NONE || record_num_at(t[i], time) > record_num_at(t[slow], time)))
			slow = i;
	if (slow == RESULT_NONE)
		return;
	for (size_t i = 0; i < n; i++) {
		double w = record_num_at(t[i], r->split ? "phases.heap.disk.read_await_ms" : "disk.read_await_ms");

		if (i != slow && isfinite(w))
			buf[k++] = w;
	}
	if (!k)
		return;
	g->others_await_ms = stats_median(buf, k);
	g->stall_await_ms = record_num_at(t[slow], r->split ? "phases.heap.disk.read_await_ms" : "disk.read_await_ms");
	g->stall_ms = record_num_at(t[slow], time);
	g->stall_first = record_num_at(t[slow], "index") == 1;
	if (!(g->stall_await_ms > RESULT_STALL_X * g->others_await_ms))
		g->stall_ms = NAN;
}

static int summarize(const struct sweep_result *r, struct result_group *g, const json_t *const *t,
		     size_t n, double *buf)
{
	size_t f, k = values_of(t, n, r->heap_phase ? HEAP_MS : EXEC_MS, buf);

	g->runs = k;
	g->times = malloc((k + 1) * sizeof(*g->times));
	g->rounds = malloc((k + 1) * sizeof(*g->rounds));
	if (!g->times || !g->rounds)
		return -ENOMEM;
	memcpy(g->times, buf, k * sizeof(*buf));
	for (size_t i = 0, j = 0; i < n; i++)
		if (!isnan(record_num_at(t[i], r->heap_phase ? HEAP_MS : EXEC_MS)))
			g->rounds[j++] = (int)json_integer_value(json_object_get(t[i], "round"));
	g->median_ms = stats_median(buf, k);
	g->min_ms = stats_min(buf, k);
	g->max_ms = stats_max(buf, k);
	stats_median_interval(buf, k, RESULT_LEVEL, &g->ci);
	g->exec_ms = median_of(t, n, EXEC_MS, buf);
	g->exec_min_ms = stats_min(buf, values_of(t, n, EXEC_MS, buf));
	g->exec_max_ms = stats_max(buf, values_of(t, n, EXEC_MS, buf));
	for (f = 0; f < sizeof(figures) / sizeof(figures[0]); f++)
		*(double *)((char *)g + figures[f].offset) =
			median_of(t, n, figures[f].path, buf) * figures[f].scale;
	g->index_share = index_share(t, n, buf);
	for (size_t i = 0; i < n; i++)
		g->split_runs += json_is_true(json_object_get(json_object_get(t[i], "phases"), "split"));
	no_bitmap(g, t, n);
	find_stall(r, g, t, n, buf);
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* One group per distinct key among KEYS (sorted), in key order. */
static int make_groups(struct sweep_result *r, const size_t *keys, size_t ntrials)
{
	const json_t **t = malloc((ntrials + 1) * sizeof(*t));
	double *buf = malloc((ntrials + 1) * sizeof(*buf));
	size_t *sorted = malloc((ntrials + 1) * sizeof(*sorted));
	size_t i, j, n, k;
	int ret = 0;

	r->groups = calloc(ntrials + 1, sizeof(*r->groups));
	if (!t || !buf || !sorted || !r->groups) {
		free(t), free(buf), free(sorted);
		return -ENOMEM;
	}
	memcpy(sorted, keys, ntrials * sizeof(*keys));
	qsort(sorted, ntrials, sizeof(*sorted), cmp_size);
	for (i = 0; ret == 0 && i < ntrials && sorted[i] != RESULT_NONE; i = j) {
		for (j = i; j < ntrials && sorted[j] == sorted[i]; j++)
			;
		for (k = 0, n = 0; k < ntrials; k++)
			if (keys[k] == sorted[i])
				t[n++] = json_array_get(r->trials, k);
		key_to_group(r, sorted[i], &r->groups[r->ngroups]);
		ret = summarize(r, &r->groups[r->ngroups++], t, n, buf);
	}
	free(t), free(buf), free(sorted);
	return ret;
}

/* The heap phase is the measure when every timed trial has one. */
static void choose_measure(struct sweep_result *r)
{
	size_t i, timed = 0, heap = 0;
	json_t *t;

	size_t split = 0;

	json_array_foreach(r->trials, i, t) {
		timed += !isnan(record_num_at(t, EXEC_MS));
		heap += !isnan(record_num_at(t, EXEC_MS)) && !isnan(record_num_at(t, HEAP_MS));
		split += !isnan(record_num_at(t, EXEC_MS)) &&
			 json_is_true(json_object_get(json_object_get(t, "phases"), "split"));
		r->aio |= !isnan(record_num_at(t, "phases.heap.aios.in_flight_mean"));
	}
	r->heap_phase = timed > 0 && heap == timed;
	r->split = r->heap_phase && split == timed;
}

static int group_trials(struct sweep_result *r)
{
	size_t n = json_array_size(r->trials), i;
	size_t *keys = malloc((n + 1) * sizeof(*keys));
	int ret;

	if (!keys)
		return -ENOMEM;
	choose_measure(r);
	for (i = 0; i < n; i++) {
		const json_t *t = json_array_get(r->trials, i);

		keys[i] = trial_key(r, t);
		if (result_trial_priming(t))
			r->priming++;
		else if (json_is_false(json_object_get(json_object_get(t, "plan_check"), "ok")))
			r->mismatched++;
		else
			r->skipped += keys[i] == RESULT_NONE;
	}
	ret = make_groups(r, keys, n);
	free(keys);
	return ret;
}

int result_trial_priming(const json_t *t)
{
	return json_is_true(json_object_get(t, "priming"));
}

size_t result_trial_group(const struct sweep_result *r, const json_t *t)
{
	size_t key = trial_key((struct sweep_result *)r, t);

	for (size_t i = 0; key != RESULT_NONE && i < r->ngroups; i++) {
		size_t k = r->groups[i].query;

		for (size_t s = 0; s < r->nsettings; s++)
			k = k * r->settings[s].nvalues + r->groups[i].value[s];
		if (k == key)
			return i;
	}
	return RESULT_NONE;
}

double result_trial_ms(const struct sweep_result *r, const json_t *t)
{
	return record_num_at(t, r->heap_phase ? HEAP_MS : EXEC_MS);
}

static void note_ignored(struct sweep_result *r, const char *torn_msg)
{
	size_t planned = json_array_size(json_object_get(json_object_get(r->meta, "plan"), "trial_keys"));
	size_t done = json_array_size(r->trials), used = 0;

	if (r->torn)
		used = snprintf(r->note, sizeof(r->note), "%s.", torn_msg);
	if (r->skipped && used < sizeof(r->note))
		used += snprintf(r->note + used, sizeof(r->note) - used,
				 "%s%zu trial(s) ignored: no execution time, or settings outside the grid.",
				 used ? " " : "", r->skipped);
	if (r->mismatched && used < sizeof(r->note))
		used += snprintf(r->note + used, sizeof(r->note) - used,
				 "%s%zu trial(s) left out: their plan read other blocks or returned other rows than the first trial of their settings (plan_check in trials.jsonl says what differed).",
				 used ? " " : "", r->mismatched);
	if (done < planned && used < sizeof(r->note))
		snprintf(r->note + used, sizeof(r->note) - used,
			 "%sOnly %zu of the %zu planned trials are recorded: the sweep was interrupted (eicbench sweep --resume finishes it).",
			 used ? " " : "", done, planned);
}

size_t result_group_of(const struct sweep_result *r, const json_t *rec)
{
	struct result_group g = { 0 };
	size_t key;

	/* only the queries the trials named: a record naming another is no group */
	key = settings_key((struct sweep_result *)r, rec);
	if (key == RESULT_NONE)
		return RESULT_NONE;
	key_to_group(r, key, &g);
	for (size_t i = 0; i < r->ngroups; i++) {
		size_t s = 0;

		if (r->groups[i].query != g.query)
			continue;
		while (s < r->nsettings && r->groups[i].value[s] == g.value[s])
			s++;
		if (s == r->nsettings)
			return i;
	}
	return RESULT_NONE;
}

/* Records that name a workload of their own (a companion's) move to r->companions. */
static void split_companions(struct sweep_result *r)
{
	json_t *mine = json_array(), *t;
	size_t i;

	r->companions = json_array();
	json_array_foreach(r->trials, i, t)
		json_array_append(json_object_get(t, "workload") ? r->companions : mine, t);
	json_decref(r->trials);
	r->trials = mine;
}

int result_load(const char *dir, struct sweep_result *r, char *err, size_t errlen)
{
	char msg[512] = "";
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	ret = load_meta(dir, r, err, errlen);
	if (ret == 0)
		ret = load_grid(r, err, errlen);
	if (ret < 0)
		return ret;
	if (record_str_at(r->meta, "plan", "query"))
		query_index(r, record_str_at(r->meta, "plan", "query"));
	ret = record_load(dir, RECORD_TRIALS, &r->trials, &r->torn, msg, sizeof(msg));
	if (ret == -ENOENT)
		snprintf(err, errlen, "%s: no %s; the sweep has not recorded a trial yet", dir, RECORD_TRIALS);
	else if (ret < 0)
		snprintf(err, errlen, "%s", msg);
	if (ret < 0)
		return ret;
	split_companions(r);
	ret = group_trials(r);
	if (ret == 0 && r->ngroups == 0)
		return result_bad(err, errlen, "%s/%s: no finished trials with an execution time and settings from the grid (%zu record(s)); run or resume the sweep first",
				  dir, RECORD_TRIALS, json_array_size(r->trials));
	if (ret == 0)
		ret = result_make_series(r);
	note_ignored(r, msg);
	return ret;
}

void result_free(struct sweep_result *r)
{
	for (size_t s = 0; s < RESULT_MAX_SETTINGS; s++) {
		free(r->settings[s].values);
		free(r->settings[s].num);
	}
	for (size_t i = 0; i < r->ngroups; i++) {
		free(r->groups[i].times);
		free(r->groups[i].rounds);
	}
	free(r->groups);
	free(r->series);
	free(r->pred);
	free(r->pred_ok);
	json_decref(r->trials);
	json_decref(r->companions);
	json_decref(r->meta);
	memset(r, 0, sizeof(*r));
}
