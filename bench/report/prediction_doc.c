/*
 * prediction_doc: a sweep's replay trials in words (bench/judge/prediction.h
 * holds the figures): the prediction beside the observation with its error
 * and the request check, the error in parts that say whose it is (the
 * device's pace or the replay's), the observed change against 0 split into parts
 * that add up, and sentences made only from those figures (a value whose
 * requests the replay did not reproduce is said to be so and is explained
 * by nothing the replay measured). Used by the sweep's report and by a
 * run's verdict, which adds the device's sequential reads.
 */
#include "bench/report/prediction_doc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BIG_ERROR 0.1823              /* ln(1.2): the replay off by more than 20% */

static const char *signed_pct(char *buf, size_t len, double frac)
{
	snprintf(buf, len, "%+.0f%%", frac * 100);
	return buf;
}

/* ---- the tables ---- */

static void prediction_table(struct doc *d, const struct prediction *p)
{
	static const char *const heads[] = { "effective_io_concurrency", "runs", "heap ms", "replay ms",
		"ln(replay/heap)", "interval", "query reqs", "KiB", "queue", "replay reqs", "KiB", "queue",
		"requests" };

	doc_table(d, 13, heads);
	for (size_t i = 0; i < p->nvalues; i++) {
		const struct prediction_value *v = &p->v[i];
		char c[13][48];
		const char *cells[13];

		snprintf(c[0], 48, "%s", v->value);
		if (v->flagged_out)
			snprintf(c[1], 48, "%zu/%zu (+%zu flagged)", v->query_runs, v->replay_runs, v->flagged_out);
		else
			snprintf(c[1], 48, "%zu/%zu", v->query_runs, v->replay_runs);
		doc_num(c[2], 48, "%.1f", v->heap_ms);
		doc_num(c[3], 48, "%.1f", v->replay_ms);
		doc_num(c[4], 48, "%+.2f", v->error);
		if (isfinite(v->error_lo) && isfinite(v->error_hi))
			snprintf(c[5], 48, "%+.2f..%+.2f", v->error_lo, v->error_hi);
		else
			snprintf(c[5], 48, "-");
		doc_num(c[6], 48, "%.0f", v->trial_reqs);
		doc_num(c[7], 48, "%.0f", v->trial_req_kib);
		doc_num(c[8], 48, "%.2f", v->trial_qd);
		doc_num(c[9], 48, "%.0f", v->replay_reqs);
		doc_num(c[10], 48, "%.0f", v->replay_req_kib);
		doc_num(c[11], 48, "%.2f", v->replay_qd);
		if (!v->checked)
			snprintf(c[12], 48, "not known");
		else
			snprintf(c[12], 48, "%s %+.0f%%", v->usable ? "same" : "DIFFER", v->req_diff * 100);
		for (int k = 0; k < 13; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
}

static void split_table(struct doc *d, const struct sweep_result *r, const struct prediction *p)
{
	static const char *const heads[] = { "effective_io_concurrency", "heap ms", "change", "waiting for reads",
		"on the CPU", "waiting for a core", "I/O read time (EXPLAIN)", "steal %" };

	doc_table(d, 8, heads);
	for (size_t i = 0; i < p->nvalues; i++) {
		const struct prediction_split *s = &p->v[i].split;
		struct prediction_split ch;
		char c[8][48];
		const char *cells[8];

		prediction_change(p, i, &ch);
		doc_num(c[7], 48, "%.1f", r->groups[p->v[i].group].heap_steal_pct);
		snprintf(c[0], 48, "%s", p->v[i].value);
		doc_num(c[1], 48, "%.1f", s->total_ms);
		if (i == p->zero) {
			snprintf(c[2], 48, "(0)");
			doc_num(c[3], 48, "%.1f", s->wait_ms);
			doc_num(c[4], 48, "%.1f", s->cpu_ms);
			doc_num(c[5], 48, "%.1f", s->runqueue_ms);
			doc_num(c[6], 48, "%.1f", s->io_read_ms);
		} else {
			doc_num(c[2], 48, "%+.1f", ch.total_ms);
			doc_num(c[3], 48, "%+.1f", ch.wait_ms);
			doc_num(c[4], 48, "%+.1f", ch.cpu_ms);
			doc_num(c[5], 48, "%+.1f", ch.runqueue_ms);
			doc_num(c[6], 48, "%+.1f", ch.io_read_ms);
		}
		for (int k = 0; k < 8; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
}

static bool any_parts(const struct prediction *p)
{
	for (size_t i = 0; i < p->nvalues; i++)
		if (isfinite(p->v[i].parts.rest))
			return true;
	return false;
}

static void parts_table(struct doc *d, const struct prediction *p)
{
	static const char *const heads[] = { "effective_io_concurrency", "ln(replay/heap)", "requests",
		"device pace", "busy share", "rest", "query reads/s busy", "range", "replay reads/s busy",
		"query busy %", "replay busy %", "query on the interrupts' CPU %", "replay on it %" };

	doc_table(d, 13, heads);
	for (size_t i = 0; i < p->nvalues; i++) {
		const struct prediction_value *v = &p->v[i];
		char c[13][48];
		const char *cells[13];

		snprintf(c[0], 48, "%s", v->value);
		doc_num(c[1], 48, "%+.2f", v->error);
		doc_num(c[2], 48, "%+.2f", v->parts.requests);
		doc_num(c[3], 48, "%+.2f", v->parts.pace);
		doc_num(c[4], 48, "%+.2f", v->parts.busy);
		doc_num(c[5], 48, "%+.2f", v->parts.rest);
		doc_num(c[6], 48, "%.0f", v->trial_pace);
		if (isfinite(v->trial_pace_lo))
			snprintf(c[7], 48, "%.0f-%.0f", v->trial_pace_lo, v->trial_pace_hi);
		else
			snprintf(c[7], 48, "-");
		doc_num(c[8], 48, "%.0f", v->replay_pace);
		doc_num(c[9], 48, "%.0f", v->trial_busy * 100);
		doc_num(c[10], 48, "%.0f", v->replay_busy * 100);
		doc_num(c[11], 48, "%.0f", v->trial_on_irq * 100);
		doc_num(c[12], 48, "%.0f", v->replay_on_irq * 100);
		for (int k = 0; k < 13; k++)
			cells[k] = c[k];
		doc_row(d, cells);
	}
}

/* ---- the sentences ---- */

/* The sequential point whose device requests are nearest KIB in size, or NULL. */
static const json_t *seq_nearest(const json_t *seq, double kib)
{
	const json_t *best = NULL, *p;
	double gap = INFINITY;
	size_t i;

	if (!(kib > 0))
		return NULL;
	json_array_foreach(seq, i, p) {
		double k = record_num_at(p, "disk.avg_read_kib"), d;

		if (!(k > 0) || json_is_true(json_object_get(p, "stopped")))
			continue;
		d = fabs(log(k / kib));
		if (d < gap) {
			gap = d;
			best = p;
		}
	}
	return best;
}

/* At 0: the query's own read wait beside the replay's, and the device's
 * sequential figure nearest the query's request size. */
static void at_zero(FILE *f, const struct prediction *p, const json_t *seq_points)
{
	const struct prediction_value *z = &p->v[p->zero];
	const json_t *seq = seq_nearest(seq_points, z->trial_req_kib);
	char a[32], b[32];

	if (!isfinite(z->split.io_read_ms) || !isfinite(z->replay_wait_ms))
		return;
	fprintf(f, " At 0 the query's heap phase spent %s in reads (EXPLAIN's I/O read time)",
		report_fmt_ms(a, sizeof(a), z->split.io_read_ms));
	if (isfinite(z->trial_reqs))
		fprintf(f, ", in %.0f device requests of %.0f KiB", z->trial_reqs, z->trial_req_kib);
	fprintf(f, "; its replay spent %s in reads", report_fmt_ms(b, sizeof(b), z->replay_wait_ms));
	if (isfinite(z->replay_reqs))
		fprintf(f, ", in %.0f requests of %.0f KiB", z->replay_reqs, z->replay_req_kib);
	fprintf(f, " (%.2fx the query's read time).", z->replay_wait_ms / z->split.io_read_ms);
	if (seq && z->trial_reqs > 0)
		fprintf(f, " The device alone, reading the table's files in order through the page cache %.0f KiB at a time, moved %.0f MiB/s in requests of %.0f KiB, %.2f ms each at the device; the query's %.0f requests would take %s at that pace.",
			record_num_at(seq, "block_bytes") / 1024, record_num_at(seq, "mib_s"),
			record_num_at(seq, "disk.avg_read_kib"), record_num_at(seq, "disk.read_await_ms"),
			z->trial_reqs, report_fmt_ms(a, sizeof(a), z->trial_reqs * record_num_at(seq, "disk.read_await_ms") /
						      (record_num_at(seq, "disk.avg_queue_depth") > 1 ?
						       record_num_at(seq, "disk.avg_queue_depth") : 1)));
}

/* The values whose requests the replay did not reproduce, with by how much. */
static void unchecked(FILE *f, const struct prediction *p)
{
	size_t n = 0;
	char a[16];

	for (size_t i = 0; i < p->nvalues; i++) {
		const struct prediction_value *v = &p->v[i];

		if (!v->checked || v->usable)
			continue;
		fprintf(f, "%s %s (%.0f replay requests against %.0f, %s)", n++ ? ";" : " The replay did not issue the query's reads at", v->value,
			v->replay_reqs, v->trial_reqs, signed_pct(a, sizeof(a), v->req_diff));
	}
	if (n)
		fprintf(f, ": more than %.0f%% apart, so the replay explains nothing at %s.",
			PREDICTION_MAX_REQ_DIFF * 100, n > 1 ? "those values" : "that value");
}

/* Both on the CPU nearly all the time: each kept the depth its CPU
 * allowed, so the CPU time per read, and the kernel's part of it, says
 * why the depths differ. */
static void cpu_paced(FILE *f, const struct prediction_value *v)
{
	char a[32], b[32], c[32], g[32];

	if (!(v->trial_cpu_ms > 0) || !(v->replay_cpu_ms > 0) || !(v->heap_ms > 0) || !(v->replay_ms > 0) ||
	    !isfinite(v->trial_sys_ms) || !isfinite(v->replay_sys_ms))
		return;
	fprintf(f, " The replay was on the CPU %.0f%% of its time, %s (%s of it in the kernel), the backend %.0f%% of its heap phase, %s (%s)",
		100 * v->replay_cpu_ms / v->replay_ms, report_fmt_ms(a, sizeof(a), v->replay_cpu_ms),
		report_fmt_ms(b, sizeof(b), v->replay_sys_ms), 100 * v->trial_cpu_ms / v->heap_ms,
		report_fmt_ms(c, sizeof(c), v->trial_cpu_ms), report_fmt_ms(g, sizeof(g), v->trial_sys_ms));
	if (v->replay_cpu_ms >= 0.9 * v->replay_ms && v->trial_cpu_ms >= 0.9 * v->heap_ms) {
		double ds = v->replay_sys_ms - v->trial_sys_ms,
		       du = (v->replay_cpu_ms - v->replay_sys_ms) - (v->trial_cpu_ms - v->trial_sys_ms);

		fprintf(f, ": both bound by the CPU, so each kept the depth its CPU allowed, and the replay's CPU is where it differs: %s %s in the kernel, %s %s outside it (the backend's work per page, which the replay spends as one figure measured warm at 0).",
			report_fmt_ms(a, sizeof(a), fabs(ds)), ds >= 0 ? "more" : "less",
			report_fmt_ms(b, sizeof(b), fabs(du)), du >= 0 ? "more" : "less");
	} else {
		fprintf(f, ".");
	}
}

/* Where each reader ran: on a disk whose interrupts land on one CPU, a
 * reader elsewhere is woken through that CPU at each read it waits for, and
 * a reader there takes the completions' work in its own time. */
static void placed(FILE *f, const struct prediction_value *v)
{
	if (!isfinite(v->trial_on_irq) || !isfinite(v->replay_on_irq))
		return;
	if (fabs(v->replay_on_irq - v->trial_on_irq) < PLACEMENT_APART)
		fprintf(f, " Both ran alike on the CPU that took the device's interrupts (the backend %.0f%% of its heap phase, the replay %.0f%% of its time).",
			100 * v->trial_on_irq, 100 * v->replay_on_irq);
	else
		fprintf(f, " They ran in different places: the backend spent %.0f%% of its heap phase on the CPU that took the device's interrupts, the replay %.0f%% of its time; a reader there takes each completion's work in its own time, a reader elsewhere is woken from there at each read it waits for.",
			100 * v->trial_on_irq, 100 * v->replay_on_irq);
}

/* Where value V's error comes from, by its parts, and whose it is: the
 * device's (its pace at the query's depth), the replay's (another depth,
 * another share of the time idle) or not known (the rest). */
static void error_named(FILE *f, const struct prediction_value *v)
{
	const struct prediction_error_parts *e = &v->parts;
	double big = fmax(fmax(fabs(e->requests), fabs(e->pace)), fmax(fabs(e->busy), fabs(e->rest)));

	if (!isfinite(e->rest))
		return;
	fprintf(f, " In parts (ln): the requests %+.2f, the device's pace while busy %+.2f (%.0f reads a second in the replay against %.0f in the query, whose own trials ranged %.0f-%.0f), the share of the time the device was busy %+.2f (%.0f%% of the replay against %.0f%% of the heap phase), the rest %+.2f.",
		e->requests, e->pace, v->replay_pace, v->trial_pace, v->trial_pace_lo, v->trial_pace_hi,
		e->busy, v->replay_busy * 100, v->trial_busy * 100, e->rest);
	if (big == fabs(e->pace) && v->trial_qd > 0 &&
	    fabs(v->replay_qd / v->trial_qd - 1) <= PREDICTION_MAX_REQ_DIFF) {
		fprintf(f, " Most of it is the pace, at the query's depth (%.2f reads in flight against %.2f): the device answered the same reads %s in the replay's trials than in the query's (%s the spread of the query's own trials), so the difference is in the device's answer, not in what the replay asked of it.",
			v->replay_qd, v->trial_qd, e->pace < 0 ? "faster" : "slower",
			v->replay_pace >= v->trial_pace_lo && v->replay_pace <= v->trial_pace_hi ?
			"within" : "beyond");
	} else if (big == fabs(e->pace)) {
		fprintf(f, " Most of it is the pace, with %.2f reads in flight against the query's %.2f: the replay kept the device at another depth, and its pace followed.",
			v->replay_qd, v->trial_qd);
		cpu_paced(f, v);
	} else if (big == fabs(e->busy)) {
		fprintf(f, " Most of it is the busy share: the device sat idle for %s of the replay than of the query's phase, so the scan's own pace between reads (its work per page, its advice) is where the replay differs.",
			e->busy < 0 ? "less" : "more");
	} else if (big == fabs(e->rest)) {
		fprintf(f, " Most of it is the rest, which the device's figures do not explain.");
	}
	placed(f, v);
}

/* The values whose flagged query runs were left out, and how many. */
static void left_out(FILE *f, const struct prediction *p)
{
	size_t n = 0, runs = 0;

	for (size_t i = 0; i < p->nvalues; i++)
		if (p->v[i].flagged_out) {
			fprintf(f, "%s %s (%zu)", n++ ? "," : " Query runs the disturbance rule flagged are left out of these medians, as they are out of the answer: at",
				p->v[i].value, p->v[i].flagged_out);
			runs += p->v[i].flagged_out;
		}
	if (n)
		fprintf(f, "; the replay trials beside them are kept (%zu run%s in all).", runs, runs > 1 ? "s" : "");
}

/* Values where the replay reproduced the reads but not the time, by how much. */
static void off_in_size(FILE *f, const struct prediction *p)
{
	char a[32];

	for (size_t i = 0; i < p->nvalues; i++) {
		const struct prediction_value *v = &p->v[i];

		if (!v->usable || !isfinite(v->error) || fabs(v->error) <= BIG_ERROR)
			continue;
		fprintf(f, " At %s the replay issued the query's reads (%.0f against %.0f requests) but took %.2fx its heap phase (ln %+.2f, interval %+.2f..%+.2f): %s %s in the query that the replay %s.",
			v->value, v->replay_reqs, v->trial_reqs, exp(v->error), v->error, v->error_lo, v->error_hi,
			report_fmt_ms(a, sizeof(a), fabs(v->heap_ms - v->replay_ms)),
			v->error < 0 ? "went" : "were saved", v->error < 0 ? "did not spend" : "spent more");
		error_named(f, v);
	}
}

/* The told value: its change against 0 in parts, and what the replay says of it. */
static void told(FILE *f, const struct prediction *p, size_t i)
{
	const struct prediction_value *v = &p->v[i], *z = &p->v[p->zero];
	struct prediction_split ch;
	char a[32], b[32], c[32], e[32], g[32], h[32];

	prediction_change(p, i, &ch);
	if (!isfinite(ch.total_ms) || !isfinite(ch.wait_ms))
		return;
	fprintf(f, " At %s the heap phase of the median run took %s against %s at 0, %s %s: %s %s waiting for reads, %s %s on the CPU and %s %s waiting for a core (the three add up to the change).",
		v->value, report_fmt_ms(a, sizeof(a), v->split.total_ms), report_fmt_ms(b, sizeof(b), z->split.total_ms),
		report_fmt_ms(c, sizeof(c), fabs(ch.total_ms)), ch.total_ms <= 0 ? "less" : "more",
		report_fmt_ms(e, sizeof(e), fabs(ch.wait_ms)), ch.wait_ms <= 0 ? "less" : "more",
		report_fmt_ms(g, sizeof(g), fabs(ch.cpu_ms)), ch.cpu_ms <= 0 ? "less" : "more",
		report_fmt_ms(h, sizeof(h), fabs(ch.runqueue_ms)), ch.runqueue_ms <= 0 ? "less" : "more");
	if (!v->split.from_schedstat)
		fprintf(f, " (These records count CPU in 10 ms ticks, not schedstat's nanoseconds: the split is rough.)");
	if (v->usable && z->usable && isfinite(v->replay_ms) && isfinite(z->replay_ms))
		fprintf(f, " The replay, issuing the same reads, took %s at %s and %s at 0: it predicts %.2fx where the query gained %.2fx.",
			report_fmt_ms(a, sizeof(a), v->replay_ms), v->value, report_fmt_ms(b, sizeof(b), z->replay_ms),
			z->replay_ms / v->replay_ms, z->heap_ms / v->heap_ms);
}

static size_t told_index(const struct prediction *p, const char *value)
{
	for (size_t i = 0; value && i < p->nvalues; i++)
		if (!strcmp(p->v[i].value, value))
			return i;
	return RESULT_NONE;
}

static void words(struct doc *d, const struct prediction *p, const json_t *seq, const char *value)
{
	char *text = NULL;
	size_t len = 0, i = told_index(p, value);
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	if (p->zero != RESULT_NONE) {
		at_zero(f, p, seq);
		if (i != RESULT_NONE && i != p->zero)
			told(f, p, i);
	}
	left_out(f, p);
	unchecked(f, p);
	off_in_size(f, p);
	if (fclose(f) == 0 && len > 1)
		doc_text(d, text + (text[0] == ' '));
	free(text);
}

/* Series S's replay table P, its split and its words, headed by its
 * setting when the sweep varied one beside effective_io_concurrency. */
static void series_section(struct doc *d, const struct sweep_result *r, size_t s, const struct prediction *p,
			   const json_t *seq, const char *value)
{
	char label[256];

	if (!p->nvalues)
		return;
	if (r->nseries > 1)
		doc_para(d, "With %s:", result_series_label(r, s, label, sizeof(label)));
	prediction_table(d, p);
	doc_para(d, "runs: query/replay trials (+N flagged: query runs the disturbance rule flagged, left out here as they are out of the answer, unless every run of the value was); heap ms and replay ms: medians; ln(replay/heap): the prediction's error, 0 when the replay took the query's time, with the bootstrap interval of the ratio of medians; reqs, KiB, queue: device requests, their mean size and the device's queue depth in the query's heap phase and in the replay (medians); requests: whether the replay's count is within %.0f%% of the query's.",
		 PREDICTION_MAX_REQ_DIFF * 100);
	if (any_parts(p)) {
		parts_table(d, p);
		doc_para(d, "The error in parts that add up to it (ln): a phase takes its device requests over the device's pace while busy (reads a second) times the share of the phase the device was busy, so the error is the requests' ln ratio, less the paces', less the busy shares', and the rest (the phase's time outside the device's figures, and the medians taken apart); the pace of the query's own trials from slowest to fastest beside it. At the same requests and depth, a pace apart is the device's change between trials, not the replay's.");
	}
	if (p->zero != RESULT_NONE) {
		split_table(d, r, p);
		doc_para(d, "The heap phase of each value's median run in three parts that add up to it: waiting for reads (off the CPU, not runnable), on the CPU and waiting for a core (the backend's schedstat), each at 0 and as a change against 0; EXPLAIN's I/O read time beside them counts the time inside reads, copying included; steal %%: the CPUs' time the host took in the heap phase (median).");
	}
	words(d, p, seq, value);
}

void prediction_section(struct doc *d, const struct sweep_result *r, const json_t *seq,
			const char *value, int older_replays)
{
	const struct prediction *p = judge_prediction(r, 0);

	if (!p) {
		doc_para(d, "%s", older_replays ?
			 "This run's replays ran after its sweeps, outside their rounds and cold state: they are not used. Replay trials in the sweep's own rounds come from eicbench sweep --replay; run does not make them yet." :
			 "The sweep recorded no replay trials, so nothing here is explained by the device alone.");
		return;
	}
	doc_para(d, "Each value's replay trials issued the query's heap reads on the table's files the way PostgreSQL %s issues them, each after a cold cycle of its own, in the same rounds as its query trials, with the backend's own work between the reads (measured once, warm, before the first trial).",
		 p->model && !strcmp(p->model, "18") ? "18's read stream" : "13-17's prefetching");
	series_section(d, r, 0, p, seq, value);
	for (size_t s = 1; s < r->nseries; s++)
		if ((p = judge_prediction(r, s)) != NULL)
			series_section(d, r, s, p, seq, value);
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *prediction_json(const struct sweep_result *r)
{
	json_t *rows = json_array();

	for (size_t s = 0; s < (r->nseries ? r->nseries : 1); s++) {
		const struct prediction *p = judge_prediction(r, s);
		char label[256];

		if (!p)
			continue;
		for (size_t i = 0; i < p->nvalues; i++) {
			const struct prediction_value *v = &p->v[i];
			struct prediction_split ch;

			prediction_change(p, i, &ch);
			json_array_append_new(rows, json_pack("{s:s?, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I}",
				"series", r->nseries > 1 ? result_series_label(r, s, label, sizeof(label)) : NULL,
				"value", v->value, "heap_ms", jnum(v->heap_ms), "replay_ms", jnum(v->replay_ms),
				"error", jnum(v->error), "error_lo", jnum(v->error_lo),
				"error_hi", jnum(v->error_hi), "query_requests", jnum(v->trial_reqs),
				"replay_requests", jnum(v->replay_reqs), "requests_diff", jnum(v->req_diff),
				"requests_same", v->usable, "change_ms", jnum(ch.total_ms),
				"change_wait_ms", jnum(ch.wait_ms), "change_cpu_ms", jnum(ch.cpu_ms),
				"change_runqueue_ms", jnum(ch.runqueue_ms),
				"error_parts", "requests", jnum(v->parts.requests), "pace", jnum(v->parts.pace),
				"busy", jnum(v->parts.busy), "rest", jnum(v->parts.rest),
				"query_reads_per_s_busy", jnum(v->trial_pace), "replay_reads_per_s_busy", jnum(v->replay_pace),
				"query_busy", jnum(v->trial_busy), "replay_busy", jnum(v->replay_busy),
				"query_cpu_ms", jnum(v->trial_cpu_ms), "query_system_ms", jnum(v->trial_sys_ms),
				"replay_cpu_ms", jnum(v->replay_cpu_ms), "replay_system_ms", jnum(v->replay_sys_ms),
				"query_on_irq_cpu", jnum(v->trial_on_irq), "replay_on_irq_cpu", jnum(v->replay_on_irq),
				"query_runs", (json_int_t)v->query_runs, "query_runs_flagged_out", (json_int_t)v->flagged_out));
		}
	}
	return rows;
}
