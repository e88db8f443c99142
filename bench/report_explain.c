/*
 * report_explain: the suite's explanation in plain words, per series: which
 * value was fastest and by how much against 0 and 1, the recommendation
 * (the smallest value within 5% of the fastest median) and whether the
 * spread of the runs makes the difference significant, whether the device
 * or the CPU bound the runs and why prefetching helped or hurt, and what the
 * value means on the server's version. Reads the summarized groups only.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report.h"

#define SHRUNK 0.25       /* requests "much smaller": under a quarter of those at 0 */

static const char *fmt_ms(char *buf, size_t len, double ms)
{
	if (isnan(ms))
		snprintf(buf, len, "n/a");
	else if (ms < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else
		snprintf(buf, len, ms < 10000 ? "%.2f s" : "%.1f s", ms / 1000);
	return buf;
}

static const char *fmt_kib(char *buf, size_t len, double kib)
{
	if (kib >= 1024)
		snprintf(buf, len, "%.1f MiB", kib / 1024);
	else
		snprintf(buf, len, kib < 10 ? "%.1f KiB" : "%.0f KiB", kib);
	return buf;
}

/* "14-18 KiB" from LO and HI formatted by FMT; one figure when they agree. */
static const char *fmt_range(char *buf, size_t len, double lo, double hi,
			     const char *(*fmt)(char *, size_t, double))
{
	char a[32], b[32];
	const char *ua, *ub;

	fmt(a, sizeof(a), lo);
	fmt(b, sizeof(b), hi);
	ua = strrchr(a, ' ');
	ub = strrchr(b, ' ');
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else if (ua && ub && !strcmp(ua, ub))
		snprintf(buf, len, "%.*s-%s", (int)(ua - a), a, b);
	else
		snprintf(buf, len, "%s-%s", a, b);
	return buf;
}

static const char *value_of(const struct report *r, size_t g)
{
	return report_value(r, &r->groups[g], r->swept);
}

/* "4, 16 and 64" from the swept values of groups IDX[0..n). */
static void put_values(FILE *f, const struct report *r, const size_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", value_of(r, idx[i]));
}

/* ---- which value won, by how much ---- */

static size_t best_prefetching(const struct report *r, const size_t *idx, size_t n)
{
	size_t best = REPORT_NONE;

	for (size_t i = 0; i < n; i++)
		if (strcmp(value_of(r, idx[i]), "0") &&
		    (best == REPORT_NONE || r->groups[idx[i]].median_ms < r->groups[best].median_ms))
			best = idx[i];
	return best;
}

static void explain_zero_won(FILE *f, const struct report *r, const size_t *idx, size_t n,
			     const struct report_group *fa)
{
	size_t one = report_find(r, fa, "1"), best = best_prefetching(r, idx, n);
	char a[32];

	fprintf(f, " No prefetching (0) was fastest");
	if (one != REPORT_NONE)
		fprintf(f, ": %.2fx as fast as 1 (%s)", fa->speedup_vs_1,
			fmt_ms(a, sizeof(a), r->groups[one].median_ms));
	if (best != REPORT_NONE && best != one)
		fprintf(f, "%s %.2fx as fast as the best prefetching value, %s (%s)",
			one != REPORT_NONE ? " and" : ":", r->groups[best].median_ms / fa->median_ms,
			value_of(r, best), fmt_ms(a, sizeof(a), r->groups[best].median_ms));
	fprintf(f, ".");
}

static void explain_speedups(FILE *f, const struct report *r, const size_t *idx, size_t n,
			     const struct report_group *fa)
{
	size_t zero = report_find(r, fa, "0"), one = report_find(r, fa, "1");
	const char *v = report_value(r, fa, r->swept);
	char a[32];

	if (!strcmp(v, "0")) {
		explain_zero_won(f, r, idx, n, fa);
		return;
	}
	if (zero != REPORT_NONE)
		fprintf(f, " That is %.2fx as fast as 0, no prefetching (%s)", fa->speedup_vs_0,
			fmt_ms(a, sizeof(a), r->groups[zero].median_ms));
	if (one != REPORT_NONE && strcmp(v, "1"))
		fprintf(f, "%s %.2fx as fast as 1, the default before 18 (%s)",
			zero != REPORT_NONE ? " and" : " That is", fa->speedup_vs_1,
			fmt_ms(a, sizeof(a), r->groups[one].median_ms));
	if (zero != REPORT_NONE || (one != REPORT_NONE && strcmp(v, "1")))
		fprintf(f, ".");
	else
		fprintf(f, " Neither 0 nor 1 was in the sweep, so there is no speedup against them.");
}

static void explain_recommendation(FILE *f, const struct report *r, const struct report_series *se,
				   const size_t *idx)
{
	const struct report_group *fa = &r->groups[se->fastest], *rec = &r->groups[se->recommended];
	const char *name = r->settings[r->swept].name;
	char a[32];

	if (rec != fa)
		fprintf(f, " Recommended: %s = %s, the smallest value whose median (%s) is within %.0f%% of the fastest (%.1f%% slower).",
			name, value_of(r, se->recommended), fmt_ms(a, sizeof(a), rec->median_ms),
			REPORT_WITHIN * 100, (rec->median_ms / fa->median_ms - 1) * 100);
	else if (idx[0] == se->fastest)
		fprintf(f, " Recommended: %s = %s, the fastest and the smallest value tried.",
			name, value_of(r, se->fastest));
	else
		fprintf(f, " Recommended: %s = %s, the fastest; no smaller value came within %.0f%% of its median.",
			name, value_of(r, se->fastest), REPORT_WITHIN * 100);
}

static void explain_spread(FILE *f, const struct report *r, const struct report_series *se,
			   const size_t *idx, size_t n)
{
	const struct report_group *fa = &r->groups[se->fastest];
	size_t over[n + 1], k = 0;
	char a[64];

	if (fa->runs < 2) {
		fprintf(f, " With one run at %s there is no spread to judge the differences by; repeat the sweep with more runs per value.",
			value_of(r, se->fastest));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct report_group *g = &r->groups[idx[i]];

		if (idx[i] != se->fastest && g->min_ms <= fa->max_ms && g->max_ms >= fa->min_ms)
			over[k++] = idx[i];
	}
	fmt_range(a, sizeof(a), fa->min_ms, fa->max_ms, fmt_ms);
	if (k == 0) {
		fprintf(f, " No other value's runs overlap those at %s (%s): its lead is larger than the spread between runs%s.",
			value_of(r, se->fastest), a, se->recommended == se->fastest ? "" :
			", but under 5%, so the smaller value is recommended");
		return;
	}
	fprintf(f, " The runs at ");
	put_values(f, r, over, k);
	fprintf(f, " overlap those at %s (%s), so the differences between them are not significant.",
		value_of(r, se->fastest), a);
}

static void explain_result(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n)
{
	const struct report_series *se = &r->series[s];
	const struct report_group *fa = &r->groups[se->fastest];
	char label[256], a[32];

	report_series_label(r, s, label, sizeof(label));
	fprintf(f, "Query %s%s%s: the fastest median was %s at %s = %s (%zu run%s).",
		r->queries[se->query], *label ? " with " : "", label,
		fmt_ms(a, sizeof(a), fa->median_ms), r->settings[r->swept].name,
		value_of(r, se->fastest), fa->runs, fa->runs == 1 ? "" : "s");
	if (r->swept_is_eic)
		explain_speedups(f, r, idx, n, fa);
	explain_recommendation(f, r, se, idx);
	explain_spread(f, r, se, idx, n);
}

/* ---- what bound the runs ---- */

static void explain_cpu(FILE *f, const struct report *r, const size_t *idx, size_t n)
{
	size_t hot[n + 1], nhot = 0, ncpu = 0;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		double c = r->groups[idx[i]].cpu_share;

		if (isnan(c))
			continue;
		ncpu++;
		lo = fmin(lo, c), hi = fmax(hi, c);
		if (c >= REPORT_CPU_BOUND)
			hot[nhot++] = idx[i];
	}
	if (ncpu == 0)
		return;
	if (nhot == ncpu)
		fprintf(f, " The backend used %.0f-%.0f%% of a core at every value: one core was busy, so the runs were bound by CPU (including system calls), not by the device.",
			lo * 100, hi * 100);
	else if (nhot) {
		fprintf(f, " The backend used %.0f%% of a core or more at ", REPORT_CPU_BOUND * 100);
		put_values(f, r, hot, nhot);
		fprintf(f, ", so those runs were bound by CPU; elsewhere it used as little as %.0f%% and waited for reads.",
			lo * 100);
	} else
		fprintf(f, " The backend used at most %.0f%% of a core and waited for reads the rest of the time: the runs were bound by the device.",
			hi * 100);
}

static void explain_queue(FILE *f, const struct report *r, const size_t *idx, size_t n)
{
	size_t first = REPORT_NONE, top = REPORT_NONE;

	for (size_t i = 0; i < n; i++) {
		double q = r->groups[idx[i]].queue_depth;

		if (isnan(q))
			continue;
		if (first == REPORT_NONE)
			first = idx[i];
		if (top == REPORT_NONE || q > r->groups[top].queue_depth)
			top = idx[i];
	}
	if (top == REPORT_NONE)
		return;
	if (r->groups[top].queue_depth < REPORT_LOW_QUEUE)
		fprintf(f, " The device's average queue depth stayed at or below %.2f: it was barely used concurrently%s.",
			r->groups[top].queue_depth,
			r->swept_is_eic ? ", so prefetching did not keep reads in flight together" : "");
	else
		fprintf(f, " The device's average queue depth went from %.2f at %s to %.2f at %s: reads were in flight together.",
			r->groups[first].queue_depth, value_of(r, first),
			r->groups[top].queue_depth, value_of(r, top));
}

static void explain_shrunk(FILE *f, const struct report *r, int slower)
{
	long ra = (long)report_num_at(r->meta, "device.read_ahead_kb");

	if (!slower) {
		fprintf(f, " Prefetching made the requests smaller, but kept more of them in flight, and that paid off here.");
		return;
	}
	if (r->version_num && r->version_num < 180000)
		fprintf(f, " The large requests at 0 show the kernel's readahead at work (read_ahead_kb %ld): this is a dense, ascending scan. The per-block posix_fadvise(WILLNEED) advice that prefetching gives defeated that readahead: many small requests, each after a system call, instead of a few large ones, so prefetching was slower here.",
			ra);
	else
		fprintf(f, " The large requests at 0 show the kernel's readahead at work (read_ahead_kb %ld); with prefetching the reads were smaller and readahead no longer helped, so prefetching was slower here.",
			ra);
}

/* Readahead's large requests at 0 may also read pages the scan never needed. */
static void explain_volume(FILE *f, const struct report *r, size_t z,
			   const size_t *idx, size_t n)
{
	double hi = -INFINITY, at0 = r->groups[z].read_mib;

	for (size_t i = 0; i < n; i++)
		if (idx[i] != z && !isnan(r->groups[idx[i]].read_mib))
			hi = fmax(hi, r->groups[idx[i]].read_mib);
	if (isnan(at0) || isinf(hi) || at0 < hi * 1.3)
		return;
	fprintf(f, " At 0 the device read %.0f MiB, against at most %.0f MiB with prefetching: readahead also fetched pages the scan did not need.",
		at0, hi);
}

static void explain_requests(FILE *f, const struct report *r, const struct report_series *se,
			     const size_t *idx, size_t n)
{
	size_t z = report_find(r, &r->groups[se->first], "0");
	double lo = INFINITY, hi = -INFINITY, at0;
	char a[32], b[64];

	if (!r->swept_is_eic || z == REPORT_NONE || isnan(r->groups[z].avg_req_kib))
		return;
	at0 = r->groups[z].avg_req_kib;
	for (size_t i = 0; i < n; i++)
		if (idx[i] != z && !isnan(r->groups[idx[i]].avg_req_kib))
			lo = fmin(lo, r->groups[idx[i]].avg_req_kib),
			hi = fmax(hi, r->groups[idx[i]].avg_req_kib);
	if (isinf(lo))
		return;
	fprintf(f, " The device was read in requests of %s on average at 0 and %s with prefetching",
		fmt_kib(a, sizeof(a), at0), fmt_range(b, sizeof(b), lo, hi, fmt_kib));
	if (hi < at0 * SHRUNK) {
		fprintf(f, ".");
		explain_shrunk(f, r, se->fastest == z);
		explain_volume(f, r, z, idx, n);
	} else
		fprintf(f, "%s.", hi <= at0 * 2 && lo >= at0 / 2 ?
			": prefetching did not change how the device was read" : "");
}

static void explain_plan(FILE *f, const struct report *r, const struct report_series *se,
			 const size_t *idx, size_t n)
{
	const struct report_group *fa = &r->groups[se->fastest];
	const char *wm = report_str_at(json_object_get(r->meta, "server"), "settings", "work_mem");
	size_t nb = 0, runs = 0, with = REPORT_NONE;

	for (size_t i = 0; i < n; i++) {
		nb += r->groups[idx[i]].no_bitmap;
		runs += r->groups[idx[i]].runs;
		if (r->groups[idx[i]].no_bitmap && with == REPORT_NONE)
			with = idx[i];
	}
	if (nb)
		fprintf(f, " In %zu of %zu trials the plan had no Bitmap Heap Scan (top node %s)%s.",
			nb, runs, r->groups[with].top_node ? r->groups[with].top_node : "unknown",
			r->version_num && r->version_num < 180000 ?
			": up to 17 effective_io_concurrency only drives bitmap heap scans, so those times say nothing about it" :
			": it is not the plan this sweep meant to measure");
	if (fa->lossy_blocks > fa->exact_blocks)
		fprintf(f, " The bitmap was mostly lossy (%.0f exact and %.0f lossy heap blocks): work_mem (%s) could not hold it page by page, so every row of a lossy page was rechecked.",
			fa->exact_blocks, fa->lossy_blocks, wm ? wm : "its setting");
}

/* ---- what the value means on this version ---- */

static void explain_pre13_values(FILE *f, const struct report *r)
{
	const struct report_setting *s = &r->settings[r->swept];
	const char *sep = "";

	fprintf(f, " Here that made ");
	for (size_t i = 0; i < s->nvalues; i++, sep = ", ")
		if (!isnan(s->num[i]) && s->num[i] >= 0 && s->num[i] <= REPORT_PRE13_MAX)
			fprintf(f, "%s%s -> %ld", sep, s->values[i], report_convert_pre13((int)s->num[i]));
	fprintf(f, " pages.");
}

static void explain_io_method(FILE *f, const struct report *r)
{
	const char *m = report_str_at(json_object_get(r->meta, "server"), "settings", "io_method");

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
		fprintf(f, "%s%ld", i == 0 ? "" : i + 1 == n ? " and " : ", ", report_convert_pre13(post[i]));
	fprintf(f, " pages in the terms of 13 and later, where %d is the maximum: a converted value above it cannot be set, %d is the closest.",
		REPORT_PRE13_MAX, REPORT_PRE13_MAX);
}

static void explain_semantics(FILE *f, const struct report *r)
{
	const char *v = report_str_at(r->meta, "server", "version");
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

typedef void (*para_fn)(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n);

static void para_result(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n)
{
	explain_result(f, r, s, idx, n);
}

static void para_bound(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n)
{
	explain_cpu(f, r, idx, n);
	explain_queue(f, r, idx, n);
	explain_requests(f, r, &r->series[s], idx, n);
	explain_plan(f, r, &r->series[s], idx, n);
}

/* Append what FN writes, without its leading blank, to OUT when not empty. */
static int add_para(json_t *out, para_fn fn, const struct report *r, size_t s,
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

static void para_semantics(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n)
{
	(void)s, (void)idx, (void)n;
	explain_semantics(f, r);
}

static void para_note(FILE *f, const struct report *r, size_t s, const size_t *idx, size_t n)
{
	(void)s, (void)idx, (void)n;
	if (r->note[0])
		fprintf(f, "Note: %s", r->note);
}

json_t *report_explain(const struct report *r)
{
	json_t *out = json_array();
	size_t *idx = malloc((r->ngroups + 1) * sizeof(*idx)), n;
	int ret = out && idx ? 0 : -ENOMEM;

	for (size_t s = 0; ret == 0 && s < r->nseries; s++) {
		n = report_series_groups(r, s, idx);
		ret = add_para(out, para_result, r, s, idx, n);
		if (ret == 0)
			ret = add_para(out, para_bound, r, s, idx, n);
	}
	if (ret == 0)
		ret = add_para(out, para_semantics, r, 0, idx, 0);
	if (ret == 0)
		ret = add_para(out, para_note, r, 0, idx, 0);
	free(idx);
	if (ret < 0)
		json_decref(out);
	return ret < 0 ? NULL : out;
}
