/*
 * report_bound: what bound the heap phase, in plain words from the
 * summarized groups: the backend's CPU share, its read wait, the device's
 * queue depth, request sizes and read volume (readahead at 0, combined reads
 * on 18), the I/Os PostgreSQL kept in flight (pg_aios) and, under
 * io_method = worker, reads queued for the I/O workers; the index phase and
 * read_ahead_kb. Part of report_explain's per-series paragraphs.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/report.h"
#include "bench/report/report_bound.h"
#include "bench/report/report_words.h"

#define SHRUNK 0.25       /* requests "much smaller": under a quarter of those at 0 */

static const char *fmt_kib(char *buf, size_t len, double kib)
{
	if (kib >= 1024)
		snprintf(buf, len, "%.1f MiB", kib / 1024);
	else
		snprintf(buf, len, kib < 10 ? "%.1f KiB" : "%.0f KiB", kib);
	return buf;
}


/* The figure at OFF of group G. */
static double fig(const struct sweep_result *r, size_t g, size_t off)
{
	return *(const double *)((const char *)&r->groups[g] + off);
}

/* Lowest and highest of a figure over the series; its groups at those. */
static size_t span(const struct sweep_result *r, const size_t *idx, size_t n, size_t off,
		   size_t *lo, size_t *hi)
{
	size_t k = 0;

	*lo = *hi = RESULT_NONE;
	for (size_t i = 0; i < n; i++) {
		double v = fig(r, idx[i], off);

		if (isnan(v))
			continue;
		k++;
		if (*lo == RESULT_NONE || v < fig(r, *lo, off))
			*lo = idx[i];
		if (*hi == RESULT_NONE || v > fig(r, *hi, off))
			*hi = idx[i];
	}
	return k;
}

/* The group among IDX with the most I/Os in flight inside PostgreSQL when,
 * under io_method = worker or io_uring, they were clearly more than the
 * device's queue held (the reads queued for the I/O workers, or for the
 * kernel's io-wq threads), else RESULT_NONE. Under io_uring a read the
 * backend has not yet reaped counts in flight too. */
static size_t aio_queued(const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t at = RESULT_NONE;

	for (size_t i = 0; r->aio && i < n; i++) {
		const struct result_group *g = &r->groups[idx[i]];
		const char *method = result_group_setting(r, g, "io_method");

		/* under io_uring only reads past the first 4 in flight go to the
		 * kernel's threads: fewer than that on average says nothing of them */
		if (method && (!strcmp(method, "worker") ||
			       (!strcmp(method, "io_uring") && g->heap_aio_in_flight > 5)) &&
		    !isnan(g->heap_aio_in_flight) && !isnan(g->heap_queue_depth) &&
		    g->heap_aio_in_flight > 2 * g->heap_queue_depth + 1 &&
		    (at == RESULT_NONE || g->heap_aio_in_flight > r->groups[at].heap_aio_in_flight))
			at = idx[i];
	}
	return at;
}

/* Schedstat's run-queue time and the host's steal in the heap phase, when recorded. */
static void core_wait(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t lo, hi, slo, shi;
	double a, b;

	if (!span(r, idx, n, offsetof(struct result_group, heap_runqueue_s), &lo, &hi))
		return;
	a = r->groups[lo].heap_runqueue_s * 1e3, b = r->groups[hi].heap_runqueue_s * 1e3;
	if (fabs(a - b) < 0.5)
		fprintf(f, " Runnable but waiting for a core it spent %.0f ms of the heap phase (schedstat)", a);
	else
		fprintf(f, " Runnable but waiting for a core it spent %.0f-%.0f ms of the heap phase (schedstat)", a, b);
	if (span(r, idx, n, offsetof(struct result_group, heap_steal_pct), &slo, &shi)) {
		a = r->groups[slo].heap_steal_pct, b = r->groups[shi].heap_steal_pct;
		if (fabs(a - b) < 0.05)
			fprintf(f, "; the host took %.1f%% of the CPUs' time (steal)", a);
		else
			fprintf(f, "; the host took %.1f-%.1f%% of the CPUs' time (steal)", a, b);
	}
	fprintf(f, ".");
}

static void explain_cpu(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n,
			size_t off, const char *where)
{
	bool hot[n + 1];
	size_t nhot = 0, ncpu = 0, lo, hi;

	for (size_t i = 0; i < n; i++) {
		double c = fig(r, idx[i], off);

		hot[i] = !isnan(c) && c >= REPORT_CPU_BOUND;
		nhot += hot[i];
		ncpu += !isnan(c);
	}
	if (!span(r, idx, n, off, &lo, &hi))
		return;
	if (nhot == ncpu)
		fprintf(f, " %s the backend used %.0f-%.0f%% of a core at every value: it was bound by CPU (system calls included), not by the device.",
			where, fig(r, lo, off) * 100, fig(r, hi, off) * 100);
	else if (nhot) {
		fprintf(f, " %s the backend used %.0f%% of a core or more at ", where, REPORT_CPU_BOUND * 100);
		report_explain_set(f, r, idx, n, hot);
		fprintf(f, " (bound by CPU there); at %s it used %.0f%% and waited for reads the rest of the time.",
			report_explain_value(r, lo), fig(r, lo, off) * 100);
	} else
		fprintf(f, " %s the backend used at most %.0f%% of a core (at %s) and waited for reads the rest of the time%s.",
			where, fig(r, hi, off) * 100, report_explain_value(r, hi),
			aio_queued(r, idx, n) == RESULT_NONE ? ": it was bound by the device" : "");
	if (off == offsetof(struct result_group, heap_cpu_share))
		core_wait(f, r, idx, n);
}

static void explain_wait(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t lo, hi;
	char a[32], b[32];

	if (!r->heap_phase || span(r, idx, n, offsetof(struct result_group, heap_io_read_ms), &lo, &hi) < 2)
		return;
	fprintf(f, " Its wait for reads (EXPLAIN's I/O read time of the heap phase) went from %s at %s to %s at %s.",
		report_fmt_ms(a, sizeof(a), r->groups[hi].heap_io_read_ms), report_explain_value(r, hi),
		report_fmt_ms(b, sizeof(b), r->groups[lo].heap_io_read_ms), report_explain_value(r, lo));
}

static void explain_queue(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n, size_t off)
{
	size_t lo, hi;

	if (!span(r, idx, n, off, &lo, &hi))
		return;
	if (fig(r, hi, off) < REPORT_LOW_QUEUE)
		fprintf(f, " The device's average queue depth stayed at or below %.2f: it barely had two reads in flight at once%s.",
			fig(r, hi, off), r->swept_is_eic ? ", whatever the value" : "");
	else
		fprintf(f, " The device's average queue depth went from %.2f at %s to %.2f at %s.",
			fig(r, lo, off), report_explain_value(r, lo), fig(r, hi, off), report_explain_value(r, hi));
}

/* The heap phase much faster where the device held many more reads at
 * once (the queue depth at QOFF), each no faster (the time per read at
 * WOFF: about as long, or longer, waiting in the device's queue): its
 * latency was hidden by reads in flight. WHERE says over what the figures
 * were measured. */
static void explain_hidden(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n,
			   size_t qoff, size_t woff, const char *where)
{
	size_t lo, hi;
	double qa, qb, wa, wb;
	const struct result_group *a, *b;

	if (!span(r, idx, n, qoff, &lo, &hi))
		return;
	a = &r->groups[lo], b = &r->groups[hi];
	qa = fig(r, lo, qoff), qb = fig(r, hi, qoff), wa = fig(r, lo, woff), wb = fig(r, hi, woff);
	if (!(qb >= REPORT_LOW_QUEUE && qb >= 2 * qa && a->median_ms >= REPORT_HIDDEN_X * b->median_ms))
		return;
	if (!isnan(wa) && !isnan(wb) && wb < 0.5 * wa)
		return;		/* the reads themselves got faster: nothing was hidden */
	fprintf(f, " The device's latency was hidden by reads in flight: at %s it held %.2f reads at once on average (its queue depth, measured %s) against %.2f at %s",
		report_explain_value(r, hi), qb, where, qa, report_explain_value(r, lo));
	if (!isnan(wa) && !isnan(wb) && wb > REPORT_ABOUT_X * wa)
		fprintf(f, ", and though each read took longer there (%.2f ms against %.2f ms, waiting in the device's queue), the heap phase took %.2fx less time.",
			wb, wa, a->median_ms / b->median_ms);
	else {
		if (!isnan(wa) && !isnan(wb))
			fprintf(f, ", while each read took about as long at the device (%.2f ms at %s, %.2f ms at %s)",
				wb, report_explain_value(r, hi), wa, report_explain_value(r, lo));
		fprintf(f, ", so the heap phase took %.2fx less time.", a->median_ms / b->median_ms);
	}
}

static void explain_shrunk(FILE *f, const struct sweep_result *r, int zero_fastest)
{
	long ra = (long)record_num_at(r->meta, "device.read_ahead_kb");

	if (!zero_fastest)
		fprintf(f, " Prefetching made the requests smaller but kept more of them in flight, and here that was faster.");
	else if (r->version_num && r->version_num < 180000)
		fprintf(f, " The large requests at 0 are the kernel's readahead (read_ahead_kb %ld) on an ascending scan; one posix_fadvise(WILLNEED) per block broke it up into small requests, each after a system call, and that was slower here.",
			ra);
	else
		fprintf(f, " The large requests at 0 are the kernel's readahead (read_ahead_kb %ld); with prefetching the requests were smaller and that was slower here.",
			ra);
}

/* Readahead's large requests at 0 may also read pages the scan never needed. */
static void explain_volume(FILE *f, const struct sweep_result *r, size_t z, const size_t *idx,
			   size_t n, size_t off)
{
	double hi = -INFINITY, at0 = fig(r, z, off);

	for (size_t i = 0; i < n; i++)
		if (idx[i] != z && !isnan(fig(r, idx[i], off)))
			hi = fmax(hi, fig(r, idx[i], off));
	if (isnan(at0) || isinf(hi) || at0 < hi * 1.3)
		return;
	fprintf(f, " At 0 the device read %.0f MiB, against at most %.0f MiB with prefetching: readahead also read pages the scan did not need.",
		at0, hi);
}

/* A size setting as the server shows it ("128kB", "1MB", "8") in KiB; NAN
 * when it is none of those. Bare numbers are 8 kB blocks. */
static double setting_kib(const char *v)
{
	char *end;
	double x = v ? strtod(v, &end) : NAN;

	if (!v || end == v || x < 0)
		return NAN;
	if (!*end)
		return x * 8;
	if (!strcmp(end, "kB"))
		return x;
	if (!strcmp(end, "MB"))
		return x * 1024;
	return NAN;
}

/* On 18, requests at 0 (AT0 KiB) no larger than io_combine_limit, where
 * the device's readahead would have made them larger? */
static bool combined_at0(const struct sweep_result *r, double at0)
{
	const char *v = result_server_setting(r, "io_combine_limit");
	double limit = setting_kib(v);
	long ra = (long)record_num_at(r->meta, "device.read_ahead_kb");

	return r->version_num >= 180000 && !isnan(limit) && !isnan(at0) && ra > 0 &&
	       at0 <= limit * 1.25 && ra >= 2 * limit;
}

/* Then say it: the read stream's combined reads, without readahead. */
static void explain_combined(FILE *f, const struct sweep_result *r, double at0)
{
	const char *v = result_server_setting(r, "io_combine_limit");
	long ra = (long)record_num_at(r->meta, "device.read_ahead_kb");
	char a[32];

	if (!combined_at0(r, at0))
		return;
	double limit = setting_kib(v);

	fprintf(f, " At 0 the requests were no larger than io_combine_limit (%s): the read stream's combined reads of up to %s, with no sign of the kernel's readahead (read_ahead_kb %ld), which would have made them larger. With io_combine_limit = 1 the reads are single blocks again, which readahead can follow; --set io_combine_limit=1,%s tells whether that is faster here.",
		v, fmt_kib(a, sizeof(a), limit), ra, v);
}

static void explain_requests(FILE *f, const struct sweep_result *r, const struct result_series *se,
			     const size_t *idx, size_t n, size_t off, size_t vol_off)
{
	size_t z = result_find(r, &r->groups[se->first], "0");
	double lo = INFINITY, hi = -INFINITY, at0;
	char a[32], b[64];

	if (!r->swept_is_eic || z == RESULT_NONE || isnan(fig(r, z, off)))
		return;
	at0 = fig(r, z, off);
	for (size_t i = 0; i < n; i++)
		if (idx[i] != z && !isnan(fig(r, idx[i], off)))
			lo = fmin(lo, fig(r, idx[i], off)), hi = fmax(hi, fig(r, idx[i], off));
	if (isinf(lo))
		return;
	fprintf(f, " The device was read in requests of %s on average at 0 and %s with prefetching",
		fmt_kib(a, sizeof(a), at0), report_explain_range(b, sizeof(b), lo, hi, fmt_kib));
	if (hi < at0 * SHRUNK) {
		fprintf(f, ".");
		explain_shrunk(f, r, se->fastest == z);
		explain_volume(f, r, z, idx, n, vol_off);
	} else
		fprintf(f, "%s.", hi <= at0 * 2 && lo >= at0 / 2 ?
			": prefetching did not change how the device was read" : "");
	explain_combined(f, r, at0);
}

static void explain_plan(FILE *f, const struct sweep_result *r, const struct result_series *se,
			 const size_t *idx, size_t n)
{
	const struct result_group *fa = &r->groups[se->fastest];
	const char *wm = result_server_setting(r, "work_mem");
	size_t nb = 0, runs = 0, with = RESULT_NONE;

	for (size_t i = 0; i < n; i++) {
		nb += r->groups[idx[i]].no_bitmap;
		runs += r->groups[idx[i]].runs;
		if (r->groups[idx[i]].no_bitmap && with == RESULT_NONE)
			with = idx[i];
	}
	if (nb)
		fprintf(f, " In %zu of %zu trials the plan had no Bitmap Heap Scan (top node %s)%s.",
			nb, runs, r->groups[with].top_node ? r->groups[with].top_node : "unknown",
			r->version_num && r->version_num < 180000 ?
			": up to 17 effective_io_concurrency only drives bitmap heap scans, so those times say nothing about it" :
			": it is not the plan this sweep meant to measure");
	if (fa->lossy_blocks > fa->exact_blocks)
		fprintf(f, " The bitmap was mostly lossy (%.0f exact and %.0f lossy heap blocks): work_mem (%s) could not hold it page by page, so every row of a lossy page was rechecked, which costs CPU in the heap phase.",
			fa->exact_blocks, fa->lossy_blocks, wm ? wm : "its setting");
}

/* Every group of the series had its samples split by phase. */
static bool all_split(const struct sweep_result *r, const size_t *idx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r->groups[idx[i]].split_runs < r->groups[idx[i]].runs)
			return false;
	return n > 0;
}

/* The first reason a trial of the folder gives for not splitting. */
static const char *split_why(const struct sweep_result *r)
{
	size_t i;
	json_t *t;

	json_array_foreach(r->trials, i, t) {
		const char *why = record_str_at(t, "phases", "why");

		if (why)
			return why;
	}
	return "the records have no samples taken during the query";
}

/* Reads PostgreSQL had in flight that had not reached the device: under
 * io_method = worker they wait for an I/O worker, each reading one at a
 * time; under io_uring, past the first 4 in flight, PostgreSQL 18 marks its
 * buffered reads IOSQE_ASYNC and the kernel's io-wq threads perform them,
 * blocking, at most min(io_max_concurrency, 4 per CPU) of them. */
static void explain_aio_queued(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t at = aio_queued(r, idx, n);
	const struct result_group *g;
	const char *workers, *method, *conc;
	long long cpus;

	if (at == RESULT_NONE)
		return;
	g = &r->groups[at];
	method = result_group_setting(r, g, "io_method");
	fprintf(f, " At %s, %.1f reads were in flight inside PostgreSQL but %.2f at the device:",
		report_explain_value(r, at), g->heap_aio_in_flight, g->heap_queue_depth);
	if (method && !strcmp(method, "io_uring")) {
		conc = result_group_setting(r, g, "io_max_concurrency");
		cpus = (long long)json_integer_value(json_object_get(json_object_get(r->meta, "host"), "cpu_count"));
		fprintf(f, " past the first 4 in flight PostgreSQL 18 hands each buffered read to the kernel's io-wq threads (IOSQE_ASYNC), which perform one read at a time each, blocking");
		if (conc && cpus > 0) {
			long long c = 1, most;

			while (c < atoll(conc))	/* the kernel's ring size: a power of two */
				c *= 2;
			most = c < 4 * cpus ? c : 4 * cpus;
			fprintf(f, ", at most %lld of them here (the ring's %lld entries, io_max_concurrency %s rounded up to a power of two, or 4 per CPU, whichever is smaller)",
				most, c, conc);
		}
		fprintf(f, "; the others waited for one of those threads, or had finished and waited for the backend to reap them, not for the device.");
		return;
	}
	workers = result_group_setting(r, g, "io_workers");
	fprintf(f, " most waited inside the server for %s%s I/O workers (io_workers), each of which performs one read at a time, not for the device.",
		workers ? "one of its " : "its", workers ? workers : "");
}

/* On 18: the I/Os PostgreSQL had in flight (pg_aios) beside the device's queue. */
static void explain_aio(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t lo, hi;

	if (!r->aio || !span(r, idx, n, offsetof(struct result_group, heap_aio_in_flight), &lo, &hi))
		return;
	fprintf(f, " Inside PostgreSQL, pg_aios counted %.1f I/Os in flight on average at %s and %.1f at %s",
		fig(r, lo, offsetof(struct result_group, heap_aio_in_flight)), report_explain_value(r, lo),
		fig(r, hi, offsetof(struct result_group, heap_aio_in_flight)), report_explain_value(r, hi));
	if (!isnan(fig(r, hi, offsetof(struct result_group, heap_queue_depth))))
		fprintf(f, " (the device's queue %.2f there)", fig(r, hi, offsetof(struct result_group, heap_queue_depth)));
	fprintf(f, ".");
	explain_aio_queued(f, r, idx, n);
}

static void explain_bound(FILE *f, const struct sweep_result *r, const struct result_series *se,
			  const size_t *idx, size_t n)
{
	if (r->split && all_split(r, idx, n)) {
		explain_cpu(f, r, idx, n, offsetof(struct result_group, heap_cpu_share), "In the heap phase");
		explain_wait(f, r, idx, n);
		explain_queue(f, r, idx, n, offsetof(struct result_group, heap_queue_depth));
		explain_hidden(f, r, idx, n, offsetof(struct result_group, heap_queue_depth),
			       offsetof(struct result_group, heap_await_ms), "in the heap phase");
		explain_aio(f, r, idx, n);
		explain_requests(f, r, se, idx, n, offsetof(struct result_group, heap_req_kib),
				 offsetof(struct result_group, heap_read_mib));
	} else {
		fprintf(f, " The device and CPU figures below cover the whole query, index phase included: they could not be split by phase (%s).",
			split_why(r));
		explain_cpu(f, r, idx, n, offsetof(struct result_group, cpu_share), "Over the whole query");
		explain_wait(f, r, idx, n);
		explain_queue(f, r, idx, n, offsetof(struct result_group, queue_depth));
		explain_hidden(f, r, idx, n, offsetof(struct result_group, queue_depth),
			       offsetof(struct result_group, await_ms), "over the whole query");
		explain_requests(f, r, se, idx, n, offsetof(struct result_group, avg_req_kib),
				 offsetof(struct result_group, read_mib));
	}
	explain_plan(f, r, se, idx, n);
}

/* The index phase: how it read, and that the setting left it alone. */
static void explain_index(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n)
{
	size_t lo, hi;
	char a[32], b[32];

	if (!r->split || !all_split(r, idx, n) ||
	    !span(r, idx, n, offsetof(struct result_group, index_read_mib), &lo, &hi))
		return;
	fprintf(f, " In the index phase the device read %.0f-%.0f MiB",
		fig(r, lo, offsetof(struct result_group, index_read_mib)),
		fig(r, hi, offsetof(struct result_group, index_read_mib)));
	if (span(r, idx, n, offsetof(struct result_group, index_req_kib), &lo, &hi))
		fprintf(f, " in requests of %s to %s", fmt_kib(a, sizeof(a), r->groups[lo].index_req_kib),
			fmt_kib(b, sizeof(b), r->groups[hi].index_req_kib));
	if (span(r, idx, n, offsetof(struct result_group, index_cpu_share), &lo, &hi))
		fprintf(f, ", the backend using %.0f-%.0f%% of a core",
			r->groups[lo].index_cpu_share * 100, r->groups[hi].index_cpu_share * 100);
	fprintf(f, ".");
}

/* read_ahead_kb decides what 0 means; far from the usual 128 it may not transfer. */
static void explain_readahead(FILE *f, const struct sweep_result *r, const struct result_series *se)
{
	long ra = (long)record_num_at(r->meta, "device.read_ahead_kb");
	size_t z = result_find(r, &r->groups[se->first], "0");

	if (ra <= 0 || z == RESULT_NONE)
		return;
	if (combined_at0(r, isnan(r->groups[z].heap_req_kib) ? r->groups[z].avg_req_kib : r->groups[z].heap_req_kib))
		return;		/* said with the requests: readahead did not show */
	fprintf(f, " At 0 only the kernel's readahead reads ahead; here read_ahead_kb is %ld", ra);
	if (ra >= 4 * 128 || ra <= 128 / 4)
		fprintf(f, ", %s the usual default of 128: the result at 0 may not carry over to a machine with the default", ra > 128 ? "far above" : "far below");
	fprintf(f, ".");
}

void report_explain_bound(FILE *f, const struct sweep_result *r, size_t s, const size_t *idx, size_t n)
{
	explain_bound(f, r, &r->series[s], idx, n);
	explain_index(f, r, idx, n);
	explain_readahead(f, r, &r->series[s]);
}
