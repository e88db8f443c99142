/*
 * report_explain: the suite's explanation in plain words, per series, every
 * sentence carrying the figures it rests on: the heap phase's fastest median
 * with its interval, speedups against 0 and 1 with theirs, how much of the
 * query the index phase was, the recommendation (the smallest value whose
 * interval overlaps the fastest's) and which values are indistinguishable;
 * then what bound the heap phase (report_bound.c), runs whose time went at
 * the device, the cache check, and what the value means on the server's
 * version. Reads the summarized groups only.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/record/record.h"
#include "bench/report/report.h"
#include "bench/report/report_bound.h"
#include "bench/report/report_words.h"
#include "bench/record/semantics.h"

/* "1.95 s (95% interval 1.80-2.10 s, 6 runs)" */
static void put_median(FILE *f, const struct result_group *g)
{
	char a[32], b[64];

	fprintf(f, "%s (", report_fmt_ms(a, sizeof(a), g->median_ms));
	if (g->runs > 1)
		fprintf(f, "%.0f%% interval %s, ", g->ci.coverage * 100,
			report_explain_range(b, sizeof(b), g->ci.lo, g->ci.hi, report_fmt_ms));
	fprintf(f, "%zu run%s)", g->runs, g->runs == 1 ? "" : "s");
}

/* "2.19x (95% interval 1.90-2.50x)"; the bootstrap interval only when
 * both sides have the runs a 95% interval needs. */
static void put_speedup(FILE *f, double x, const struct stats_interval *ci,
			const struct result_group *a, const struct result_group *b)
{
	fprintf(f, "%.2fx", x);
	if (!isnan(ci->lo) && ci->hi > ci->lo && a->runs >= RESULT_RUNS_FOR_95 &&
	    b->runs >= RESULT_RUNS_FOR_95)
		fprintf(f, " (95%% interval %.2f-%.2fx)", ci->lo, ci->hi);
}

static void explain_against(FILE *f, const struct sweep_result *r, const struct result_group *fa)
{
	size_t zero = result_find(r, fa, "0"), one = result_find(r, fa, "1");
	const char *v = result_value(r, fa, r->swept);
	char a[32];

	if (zero != RESULT_NONE && strcmp(v, "0")) {
		fprintf(f, " Against 0, no prefetching (%s), that is ",
			report_fmt_ms(a, sizeof(a), r->groups[zero].median_ms));
		put_speedup(f, fa->speedup_vs_0, &fa->ci_vs_0, fa, &r->groups[zero]);
		fprintf(f, ".");
	}
	if (one != RESULT_NONE && strcmp(v, "1")) {
		fprintf(f, " Against 1, the default before 18 (%s), ",
			report_fmt_ms(a, sizeof(a), r->groups[one].median_ms));
		put_speedup(f, fa->speedup_vs_1, &fa->ci_vs_1, fa, &r->groups[one]);
		fprintf(f, ".");
	}
}

/* The executor's time outside both phases, when it is more than a sliver. */
static void explain_other(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	double hi = -INFINITY, share = 0;
	char a[32];

	for (size_t i = 0; i < n; i++) {
		const struct result_group *g = &r->groups[idx[i]];

		if (!isnan(g->other_ms) && g->other_ms > hi)
			hi = g->other_ms, share = g->other_ms / g->exec_ms;
	}
	if (isinf(hi) || share < 0.02)
		return;
	fprintf(f, " Up to %s (%.0f%% of the query) went to the executor outside both phases (starting up from a cold cache, shutting down).",
		report_fmt_ms(a, sizeof(a), hi), share * 100);
}

static void explain_index_share(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, slo = INFINITY, shi = -INFINITY;
	char a[64];

	for (size_t i = 0; i < n; i++) {
		const struct result_group *g = &r->groups[idx[i]];

		if (isnan(g->index_ms))
			continue;
		lo = fmin(lo, g->index_ms), hi = fmax(hi, g->index_ms);
		slo = fmin(slo, g->index_share), shi = fmax(shi, g->index_share);
	}
	if (isinf(lo))
		return;
	fprintf(f, " The index phase before it (the bitmap index scans) took %s, %.0f-%.0f%% of the whole query",
		report_explain_range(a, sizeof(a), lo, hi, report_fmt_ms), slo * 100, shi * 100);
	if (r->version_num >= 130000 && r->version_num < 180000)
		fprintf(f, "; up to 17 effective_io_concurrency does not act on it.");
	else
		fprintf(f, ".");
	explain_other(f, r, idx, n);
}

/* Which values are within the margin of the fastest, which out. */
static void explain_recommendation(FILE *f, const struct sweep_result *r, const struct result_series *se,
				   const size_t *idx, size_t n)
{
	const char *name = r->settings[r->swept].name, *best = report_explain_value(r, se->fastest);
	const struct result_group *rec = se->recommended == RESULT_NONE ? NULL : &r->groups[se->recommended];
	bool in[n + 1], out[n + 1];
	size_t nin = 0, nout = 0;
	double pct = r->margin * 100;

	for (size_t i = 0; i < n; i++) {
		in[i] = idx[i] != se->fastest && r->groups[idx[i]].indistinguishable;
		out[i] = idx[i] != se->fastest && r->groups[idx[i]].out;
		nin += in[i], nout += out[i];
	}
	if (se->min_runs < 2 || !rec)
		return;		/* no spread: explain_confidence says so */
	if (se->all_overlap) {
		fprintf(f, " No value is shown slower than the fastest by more than %.0f%%: paired within rounds, every value's regret has a lower bound within the margin, so these runs support no change from the server's default. More rounds narrow the bounds (--until-separated).",
			pct);
		return;
	}
	fprintf(f, " %s %s = %s", r->per_query ? "This query's own best (for it alone; the run's answer is the verdict's):" :
		se->decided ? "Recommended:" : "Provisional:", name, report_explain_value(r, se->recommended));
	if (rec->indistinguishable)
		fprintf(f, ", the smallest value within %.0f%% of the fastest%s%s (regret %.2fx, its upper bound %.2fx, paired within rounds).",
			pct, se->recommended == se->fastest ? "" : ", ", se->recommended == se->fastest ? "" : best,
			rec->regret, rec->regret_hi);
	else
		fprintf(f, ": no value is shown within %.0f%% of the fastest yet (this one's regret %.2fx, upper bound %.2fx).",
			pct, rec->regret, rec->regret_hi);
	if (!se->decided && !r->per_query)
		fprintf(f, " It is not decided: a smaller value is not yet shown outside the margin, or this one not yet within it.");
	if (nin) {
		fprintf(f, " ");
		report_explain_set(f, r, idx, n, in);
		fprintf(f, " %s within the margin of %s", nin == 1 ? "is" : "are", best);
	}
	if (nout) {
		fprintf(f, "%s", nin ? "; " : " ");
		report_explain_set(f, r, idx, n, out);
		fprintf(f, " %s slower by more than the margin (the lower bound of the regret is above %.2fx)",
			nout == 1 ? "is" : "are", 1 + r->margin);
	}
	if (nin || nout)
		fprintf(f, ".");
}

static void explain_confidence(FILE *f, const struct result_series *se, const struct result_group *fa)
{
	if (se->min_runs >= RESULT_RUNS_FOR_95)
		return;
	if (fa->runs < 2) {
		fprintf(f, " With one run per value there is no spread to judge the differences by: this is no recommendation; repeat with --runs %d or more.",
			RESULT_RUNS_FOR_95);
		return;
	}
	fprintf(f, " With %zu run%s at the fewest, the intervals are the runs' min..max and hold the median with %.0f%% confidence only, not 95%%: take this as provisional, or run %d or more per value (--runs %d, or --until-separated).",
		se->min_runs, se->min_runs == 1 ? "" : "s", fa->ci.coverage * 100,
		RESULT_RUNS_FOR_95, RESULT_RUNS_FOR_95);
}

static void explain_result(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	const struct result_series *se = &r->series[s];
	const struct result_group *fa = &r->groups[se->fastest];
	char label[256];

	result_series_label(r, s, label, sizeof(label));
	fprintf(f, "Query %s%s%s: ", r->queries[se->query], *label ? " with " : "", label);
	if (r->heap_phase)
		fprintf(f, "the heap phase, the part of the bitmap heap scan effective_io_concurrency acts on, was fastest at %s = %s: ",
			r->settings[r->swept].name, report_explain_value(r, se->fastest));
	else
		fprintf(f, "the execution time (the records hold no per-phase times) was shortest at %s = %s: ",
			r->settings[r->swept].name, report_explain_value(r, se->fastest));
	put_median(f, fa);
	fprintf(f, ".");
	if (r->swept_is_eic)
		explain_against(f, r, fa);
	if (r->heap_phase)
		explain_index_share(f, r, idx, n);
	explain_recommendation(f, r, se, idx, n);
	explain_confidence(f, se, fa);
}

/* ---- what the value means on this version ---- */

static void explain_pre13_values(FILE *f, const struct sweep_result *r)
{
	const struct result_setting *s = &r->settings[r->swept];
	const char *sep = "";

	fprintf(f, " Here that made ");
	for (size_t i = 0; i < s->nvalues; i++, sep = ", ")
		if (!isnan(s->num[i]) && s->num[i] >= 0 && s->num[i] <= SEMANTICS_PRE13_MAX)
			fprintf(f, "%s%s -> %ld", sep, s->values[i], semantics_convert_pre13((int)s->num[i]));
	fprintf(f, " pages.");
}

static void explain_io_method(FILE *f, const struct sweep_result *r)
{
	const char *m = result_server_setting(r, "io_method");

	for (size_t s = 0; s < r->nsettings; s++) {
		if (strcmp(r->settings[s].name, "io_method"))
			continue;
		fprintf(f, "io_method, varied in this sweep (");
		for (size_t i = 0; i < r->settings[s].nvalues; i++)
			fprintf(f, "%s%s", i ? ", " : "", r->settings[s].values[i]);
		fprintf(f, "),");
		return;
	}
	fprintf(f, "io_method (%s),", m ? m : "worker by default");
}

static void explain_old_post(FILE *f)
{
	static const int post[] = { 20, 100, 1000 };
	const size_t n = sizeof(post) / sizeof(post[0]);

	fprintf(f, " The seed post's ");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%d", i == 0 ? "" : i + 1 == n ? " and " : ", ", post[i]);
	fprintf(f, " on 9.6 are distances of about ");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%ld", i == 0 ? "" : i + 1 == n ? " and " : ", ", semantics_convert_pre13(post[i]));
	fprintf(f, " pages in the terms of 13 and later, where %d is the maximum: a converted value above it cannot be set, %d is the closest.",
		SEMANTICS_PRE13_MAX, SEMANTICS_PRE13_MAX);
}

static void explain_semantics(FILE *f, const struct sweep_result *r)
{
	const char *v = record_str_at(r->meta, "server", "version");
	long n = r->version_num;

	if (n <= 0) {
		fprintf(f, "The records do not say which PostgreSQL version ran, so what the value meant is unknown.");
	} else if (n < 130000) {
		fprintf(f, "On PostgreSQL %s the value counts \"spindles\": a bitmap heap scan prefetches n*H(n) pages ahead (H(n) = 1 + 1/2 + ... + 1/n).",
			v ? v : "before 13");
		if (r->swept_is_eic)
			explain_pre13_values(f, r);
	} else if (n < 180000) {
		fprintf(f, "On PostgreSQL %s the value is the prefetch distance in pages: a bitmap heap scan gives posix_fadvise(WILLNEED) advice for up to that many pages ahead of the one it reads (0 turns prefetching off; the default is 1).",
			v ? v : "13-17");
	} else {
		fprintf(f, "On PostgreSQL %s bitmap heap scans read through read streams with asynchronous I/O: effective_io_concurrency caps the reads in flight (default 16) and ",
			v ? v : "18");
		explain_io_method(f, r);
		fprintf(f, " decides how they are issued; sequential reads get no advice.");
	}
	explain_old_post(f);
}

/* ---- paragraphs ---- */

typedef void (*para_fn)(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n);

static void para_result(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	explain_result(f, r, s, idx, n);
}

static void para_bound(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	report_explain_bound(f, r, s, idx, n);
}

/* The check of the run whose step the sweep is (bench/cmd/run_steps.c: the run checks
 * once, its sweeps do not), when it ran; NULL else. Free with json_decref. */
static json_t *run_cache_check(const struct sweep_result *r)
{
	char parent[sizeof(r->dir)], path[sizeof(r->dir) + 64];
	char *slash;
	json_t *cc;

	snprintf(parent, sizeof(parent), "%s", r->dir);
	while ((slash = strrchr(parent, '/')) && slash[1] == '\0' && slash != parent)
		*slash = '\0';
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(parent, sizeof(parent), ".");
	if (!record_folder_is(parent, "run"))
		return NULL;
	snprintf(path, sizeof(path), "%s/cache-check/cachecheck.json", parent);
	cc = json_load_file(path, 0, NULL);
	if (!json_is_true(json_object_get(cc, "ran"))) {
		json_decref(cc);
		return NULL;
	}
	return cc;
}

/* The check for caches below this machine found one: the sweep's own, else its run's. */
static bool cache_found(const struct sweep_result *r)
{
	const json_t *cc = json_object_get(json_object_get(r->meta, "plan"), "cache_check");
	json_t *run;
	bool found;

	if (json_is_object(cc))
		return json_is_true(json_object_get(cc, "ran")) && json_is_true(json_object_get(cc, "cache_below"));
	run = run_cache_check(r);
	found = json_is_true(json_object_get(run, "cache_below"));
	json_decref(run);
	return found;
}

/* Runs whose time went at the device (report.c's find_stall), named with
 * the figures that show it. */
static void para_stall(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	char a[32], b[32], label[256];
	const char *l = result_series_label(r, s, label, sizeof(label));

	for (size_t i = 0; i < n; i++) {
		const struct result_group *g = &r->groups[idx[i]];

		if (isnan(g->stall_ms))
			continue;
		fprintf(f, " One run at %s%s%s%s took %s, %.1fx the median of its value (%s), and the device's average wait per read in it was %.1f ms against %.2f ms in the value's other runs: that run's time went at the device, not in PostgreSQL.",
			report_explain_value(r, idx[i]), *l ? " (" : "", l, *l ? ")" : "",
			report_fmt_ms(a, sizeof(a), g->stall_ms), g->stall_ms / g->median_ms,
			report_fmt_ms(b, sizeof(b), g->median_ms), g->stall_await_ms, g->others_await_ms);
		if (g->stall_first)
			fprintf(f, " It was the sweep's first trial: if something below this machine kept what that trial read%s, every later trial read faster than the device alone would, and was not cold for the device.",
				cache_found(r) ? " (the check for caches below found such a cache)" : "");
		fprintf(f, " A median is little moved by one run; the interval is wider for it.");
	}
}

/* Append what FN writes, without its leading blank, to OUT when not empty. */
static int add_para(json_t *out, para_fn fn, const struct sweep_result *r, size_t s,
		    const size_t *idx, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = 0;

	if (!f)
		return -ENOMEM;
	fn(f, r, s, idx, n);
	if (fclose(f) != 0)
		ret = -ENOMEM;
	else if (len && json_array_append_new(out, json_string(buf + (buf[0] == ' '))) < 0)
		ret = -ENOMEM;
	free(buf);
	return ret;
}

/* The query's series side by side: each one's fastest against the
 * query's fastest, and which to run with (bench/report/result_across.c). */
static void para_across(FILE *f, const struct sweep_result *r, size_t q, const size_t *idx, size_t n)
{
	struct result_across a;
	char lab[256], t[32], setting[160];
	const struct result_group *best;

	(void)idx, (void)n;
	if (result_across(r, q, &a) < 0 || a.n < 2)
		return;
	best = &r->groups[r->series[a.series[a.best]].fastest];
	if (a.setting != RESULT_NONE)
		snprintf(setting, sizeof(setting), "%s", r->settings[a.setting].name);
	else
		snprintf(setting, sizeof(setting), "the other settings");
	fprintf(f, "Across %s%s%s: the fastest was %s with %s = %s, %s.", setting,
		r->nqueries > 1 ? ", query " : "", r->nqueries > 1 ? r->queries[q] : "",
		result_series_label(r, a.series[a.best], lab, sizeof(lab)), r->settings[r->swept].name,
		result_value(r, best, r->swept), report_fmt_ms(t, sizeof(t), best->median_ms));
	for (size_t k = 0; k < a.n; k++) {
		const struct result_group *g = &r->groups[r->series[a.series[k]].fastest];

		if (k == a.best)
			continue;
		fprintf(f, " %s's fastest, %s at %s, took %.2fx as long", result_series_label(r, a.series[k], lab, sizeof(lab)),
			report_fmt_ms(t, sizeof(t), g->median_ms), result_value(r, g, r->swept), a.ratio[k]);
		if (isnan(a.ci[k].coverage))
			fprintf(f, " (no interval: too few runs).");
		else
			fprintf(f, " (%.0f%% interval %.2f-%.2fx): %s.", a.ci[k].coverage * 100, a.ci[k].lo, a.ci[k].hi,
				a.indist[k] ? "indistinguishable" : "slower");
	}
	if (a.pick == RESULT_NONE) {
		fprintf(f, " With one run a value there is no interval to tell them apart: no recommendation across them.");
		return;
	}
	{
		const struct result_series *ps = &r->series[a.series[a.pick]];
		size_t rec = ps->recommends ? ps->recommended : ps->fastest;

		if (a.min_runs < RESULT_RUNS_FOR_95)
			fprintf(f, " With %zu runs at the fewest this is provisional.", a.min_runs);
		fprintf(f, " Recommended: %s, with %s = %s%s.", result_series_label(r, a.series[a.pick], lab, sizeof(lab)),
			r->settings[r->swept].name, result_value(r, &r->groups[rec], r->swept),
			a.kept_own ? ": the server's own setting (or the default), indistinguishable from the fastest, so nothing to change there" : "");
	}
}

static void para_semantics(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	(void)s, (void)idx, (void)n;
	explain_semantics(f, r);
}

/* What the check for caches below this machine found before the first trial. */
static void para_cache(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	const json_t *cc = json_object_get(json_object_get(r->meta, "plan"), "cache_check");
	const char *line = json_string_value(json_object_get(cc, "sentence"));

	(void)s, (void)idx, (void)n;
	if (!json_is_object(cc)) {	/* not asked for: --no-cache-check, --warm */
		json_t *run = run_cache_check(r);

		if (run)
			fprintf(f, "The check for caches below this machine ran once for the whole run, before its first sweep (its own section in the run's report).");
		json_decref(run);
		return;
	}
	if (!json_is_true(json_object_get(cc, "ran"))) {
		fprintf(f, "The check for caches below this machine did not run: %s.",
			json_string_value(json_object_get(cc, "skipped")) ?: "no reason recorded");
		return;
	}
	if (line && *line)
		fprintf(f, "Before the first trial, the check for caches below this machine read %.0f blocks with O_DIRECT, then again, then fresh ones: %c%s.",
			record_num_at(cc, "sample"), tolower((unsigned char)line[0]), line + 1);
}

static void para_note(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	(void)s, (void)idx, (void)n;
	if (r->note[0])
		fprintf(f, "Note: %s", r->note);
}

json_t *report_explain(const struct sweep_result *r)
{
	json_t *out = json_array();
	size_t *idx = malloc((r->ngroups + 1) * sizeof(*idx)), n;
	int ret = out && idx ? 0 : -ENOMEM;

	for (size_t s = 0; ret == 0 && s < r->nseries; s++) {
		n = result_series_groups(r, s, idx);
		ret = add_para(out, para_result, r, s, idx, n);
		if (ret == 0)
			ret = add_para(out, para_bound, r, s, idx, n);
		if (ret == 0)
			ret = add_para(out, para_stall, r, s, idx, n);
	}
	for (size_t q = 0; ret == 0 && q < r->nqueries; q++)
		ret = add_para(out, para_across, r, q, idx, 0);
	if (ret == 0)
		ret = add_para(out, para_cache, r, 0, idx, 0);
	if (ret == 0)
		ret = add_para(out, para_semantics, r, 0, idx, 0);
	if (ret == 0)
		ret = add_para(out, para_note, r, 0, idx, 0);
	free(idx);
	if (ret < 0)
		json_decref(out);
	return ret < 0 ? NULL : out;
}
