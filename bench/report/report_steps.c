/*
 * report_steps: the seeds' table of a confsweep folder; see report_steps.h.
 */
#include "bench/report/report_steps.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/plot.h"
#include "bench/record/record.h"
#include "bench/judge/steps.h"
#include "bench/report/report.h"
#include "io/stats.h"
#include "bench/record/figures.h"
#include "io/file.h"

int report_steps_is(const char *dir)
{
	return record_folder_is(dir, "confsweep");
}

/* Append to BUF (LEN bytes, *USED of them taken), cutting at its end. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n < len - *used ? (size_t)n : len - 1 - *used;
}

/* A recorded TPC-B load as its scripts read: "mine.sql@3 + select-only@1". */
static void load_words(const json_t *load, char *buf, size_t len)
{
	const json_t *scripts = json_is_array(load) ? load : json_object_get(load, "scripts"), *x;
	size_t used = 0, i, n = json_array_size(scripts);

	buf[0] = '\0';
	json_array_foreach(scripts, i, x) {
		const char *name = json_string_value(json_object_get(x, "builtin")) ?:
				   json_string_value(json_object_get(x, "name")) ?: "?";

		if (n == 1)
			append(buf, len, &used, "%s", name);
		else
			append(buf, len, &used, "%s%s@%lld", i ? " + " : "", name,
			       (long long)json_integer_value(json_object_get(x, "weight")));
	}
}

/* The scripts of step K when the sweep's steps run loads of their own and
 * K's is not the one of the step before it, into BUF (else ""). */
static void load_change(const struct steps_result *s, int k, char *buf, size_t len)
{
	const json_t *t = json_object_get(json_object_get(s->meta, "plan"), "tpcb");
	const json_t *of = json_object_get(t, "load_of_step");
	json_int_t mine = json_integer_value(json_array_get(of, (size_t)k));

	buf[0] = '\0';
	if (!json_is_array(of) || (k > 0 && json_integer_value(json_array_get(of, (size_t)k - 1)) == mine) ||
	    (k == 0 && mine == 0))
		return;
	load_words(json_array_get(json_object_get(t, "loads"), (size_t)mine), buf, len);
}

/* What each step set that the one before it did not (the file's order). */
static void changes(struct steps_result *s)
{
	const json_t *steps = json_object_get(json_object_get(s->meta, "plan"), "steps"), *prev = NULL;

	for (int k = 0; k < s->ng; k++) {
		const json_t *e = json_array_get(steps, (size_t)k);
		const json_t *set = json_object_get(e, "settings"), *v;
		char *out = s->g[k].changed;
		size_t used = 0, len = sizeof(s->g[k].changed);
		const char *name;

		out[0] = '\0';
		if (!e) {
			append(out, len, &used, "%s", s->g[k].name);
			continue;
		}
		json_object_foreach((json_t *)set, name, v)
			if (!json_equal(v, json_object_get(json_object_get(prev, "settings"), name)))
				append(out, len, &used, "%s%s = %s", used ? ", " : "", name, json_string_value(v) ?: "");
		json_object_foreach(json_object_get(prev, "settings"), name, v)
			if (!json_object_get(set, name))
				append(out, len, &used, "%s%s as before the sweep", used ? ", " : "", name);
		{
			char scripts[256];

			load_change(s, k, scripts, sizeof(scripts));
			if (scripts[0])
				append(out, len, &used, "%sruns %s", used ? "; " : "", scripts);
		}
		prev = e;
	}
}

/* ---- the document ---- */

/* This step against REF, as a gain in the workload's better direction. */
static double gain(const struct steps_result *s, const struct step_group *g, const struct step_group *ref)
{
	if (!ref || isnan(ref->median) || isnan(g->median) || g->median == 0 || ref->median == 0)
		return NAN;
	return s->main->lower_is_better ? ref->median / g->median : g->median / ref->median;
}

/* The step before G that has runs, or NULL. */
static const struct step_group *prev_with_runs(const struct steps_result *s, const struct step_group *g)
{
	for (long k = (long)(g - s->g) - 1; k >= 0; k--)
		if (s->g[k].n)
			return &s->g[k];
	return NULL;
}

static void table(const struct steps_result *s, struct doc *d)
{
	const char *heads[] = { "step", "what it set", "runs", "transactions", s->main->label,
		"min-max", "lat p50 ms", "lat p99 ms", "x previous", "x first", "warnings" };
	const struct step_group *first = NULL;

	doc_table(d, 11, heads);
	for (int k = 0; k < s->ng; k++) {
		const struct step_group *g = &s->g[k];
		char c[11][96], set[sizeof(g->changed)];
		const char *cells[11];

		if (!g->n)
			continue;
		if (!first)
			first = g;
		snprintf(c[0], sizeof(c[0]), "%s", g->name);
		snprintf(set, sizeof(set), "%s", g->changed[0] ? g->changed : "(the server as it was)");
		snprintf(c[2], sizeof(c[2]), "%zu", g->n);
		doc_num(c[3], sizeof(c[3]), "%.0f", g->transactions);
		doc_num(c[4], sizeof(c[4]), "%.1f", g->median);
		snprintf(c[5], sizeof(c[5]), "%.1f-%.1f", g->min, g->max);
		doc_num(c[6], sizeof(c[6]), "%.2f", g->p50);
		doc_num(c[7], sizeof(c[7]), "%.2f", g->p99);
		doc_num(c[8], sizeof(c[8]), "%.2f", gain(s, g, prev_with_runs(s, g)));
		doc_num(c[9], sizeof(c[9]), "%.2f", gain(s, g, first));
		snprintf(c[10], sizeof(c[10]), "%ld", g->warnings);
		for (int i = 0; i < 11; i++)
			cells[i] = i == 1 ? set : c[i];
		doc_row(d, cells);
	}
}

/* Are every run of A better than every run of B? */
static int apart(const struct steps_result *s, const struct step_group *a, const struct step_group *b)
{
	return s->main->lower_is_better ? a->max < b->min : a->min > b->max;
}

/*
 * How often two steps that do not differ at all come out apart by that rule:
 * with n runs each, 2 of the C(2n, n) equally likely orders of their runs
 * put one step's all above the other's. Said with the fewest runs of a step.
 */
static const char *chance_words(const struct steps_result *s, int comparisons)
{
	static char buf[256];
	int n = 0;
	double orders = 1;

	for (int k = 0; k < s->ng; k++)
		if (s->g[k].n >= 2 && (n == 0 || (int)s->g[k].n < n))
			n = (int)s->g[k].n;
	if (n == 0)
		return "";
	for (int i = 1; i <= n; i++)
		orders = orders * (n + i) / i;	/* C(2n, n) */
	snprintf(buf, sizeof(buf), " With %d runs a step, two steps that do not differ come out apart this way %.1f%% of the time, so of these %d comparisons about %.1f may be chance: more runs (--runs) tell.",
		 n, 200 / orders, comparisons, comparisons * 2 / orders);
	return buf;
}

/* Which steps moved the figure beyond the runs' spread against the step
 * before them (the "x previous" column), and which did not. */
static void step_words(const struct steps_result *s, struct doc *d)
{
	const struct step_group *prev = NULL, *moved[s->ng + 1];
	int nmoved = 0, still = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	for (int k = 0; k < s->ng; k++) {
		const struct step_group *g = &s->g[k];

		if (!g->n)
			continue;
		if (prev && prev->n >= 2 && g->n >= 2) {
			if (apart(s, g, prev) || apart(s, prev, g))
				moved[nmoved++] = g;
			else
				still++;
		}
		prev = g;
	}
	if (!nmoved) {
		if (still)
			doc_para(d, "No step moved %s beyond the runs' spread against the step before it: the runs of each overlap the previous step's.",
				 s->main->label);
		return;
	}
	if (!(f = open_memstream(&text, &len)))
		return;
	for (int i = 0; i < nmoved; i++)
		fprintf(f, "%s'%s' (%.2fx)", i == 0 ? "" : i == nmoved - 1 ? " and " : ", ", moved[i]->name,
			gain(s, moved[i], prev_with_runs(s, moved[i])));
	if (fclose(f) == 0)
		doc_para(d, "Against the step before it, only %s moved %s beyond the runs' spread (every run of one better than every run of the other).%s%s",
			 text, s->main->label,
			 still ? " The other steps' runs overlap those of the step before them: their changes are within the run-to-run spread." : "",
			 chance_words(s, nmoved + still));
	free(text);
}

static void best_words(const struct steps_result *s, struct doc *d)
{
	const struct step_group *best = NULL, *first = NULL;
	int nsteps = 0;

	for (int k = 0; k < s->ng; k++) {
		const struct step_group *g = &s->g[k];

		if (!g->n)
			continue;
		nsteps++;
		first = first ? first : g;
		if (!best || (s->main->lower_is_better ? g->median < best->median : g->median > best->median))
			best = g;
	}
	if (!best || nsteps < 2)
		return;
	if (best == first) {
		doc_para(d, "No step beat the first: its median %s, %.1f %s, was the best.", s->main->label,
			 first->median, s->main->unit);
		return;
	}
	doc_para(d, "The best median %s was %.1f %s at step '%s', %.2fx the first step's %.1f. %s",
		 s->main->label, best->median, s->main->unit, best->name, gain(s, best, first), first->median,
		 best->n < 2 || first->n < 2 ? "With one run a step, the runs' spread is unknown: give --runs 3 or more." :
		 apart(s, best, first) ? "Every run of it did better than every run of the first step." :
		 "Its runs and the first step's overlap (the min-max column): that gain is within the run-to-run spread.");
}

static void warnings(const struct steps_result *s, struct doc *d)
{
	char line[400];

	if (!s->nwarn) {
		doc_para(d, "The server logged no warning or error during the measured runs.");
		return;
	}
	doc_para(d, "The server logged, during the measured runs:");
	for (int i = 0; i < s->nwarn; i++) {
		snprintf(line, sizeof(line), "%dx %s", s->warn_n[i], s->warn[i]);
		doc_code(d, line);
	}
}

int report_steps_document(const char *dir, struct doc *d, char *err, size_t errlen)
{
	struct steps_result *s = calloc(1, sizeof(*s));
	char path[PATH_MAX + 32];
	int ret = s ? steps_load(dir, s, err, errlen) : -ENOMEM;

	if (ret == 0) {
		const json_t *tp = json_object_get(json_object_get(s->meta, "plan"), "tpcb");

		changes(s);
		doc_heading(d, 1, "eicbench confsweep: %s", s->summary);
		doc_para(d, "Server: PostgreSQL %s; device %s; %lld run(s) per step, %s.",
			 record_str_at(s->meta, "server", "version") ?: "?",
			 record_str_at(s->meta, "device", "name") ?: "unknown",
			 (long long)json_integer_value(json_object_get(json_object_get(s->meta, "plan"), "runs")),
			 json_is_true(json_object_get(json_object_get(s->meta, "plan"), "warm")) ?
			 "caches kept warm" : "each cold (server stopped, caches dropped, server started)");
		if (tp)
		{
			char each[64];
			long long tx = json_integer_value(json_object_get(tp, "transactions"));

			if (tx)
				snprintf(each, sizeof(each), "%lld transactions per client", tx);
			else
				snprintf(each, sizeof(each), "%.0f s", record_num_at(tp, "duration_s"));
			char warm[96];
			bool cp = json_is_true(json_object_get(tp, "checkpoint_before_run"));

			if (record_num_at(tp, "warmup_s") > 0)
				snprintf(warm, sizeof(warm), "after a %.0f s warm-up run%s", record_num_at(tp, "warmup_s"),
					 cp ? " and a CHECKPOINT" : "");
			else
				snprintf(warm, sizeof(warm), "%s", cp ? "after a CHECKPOINT, without a warm-up run" : "without a warm-up run");
			doc_para(d, "Load: %s, %lld clients, %lld threads, %s protocol, scale %lld; each measured run %s, %s.",
				 json_string_value(json_object_get(tp, "builtin")) ?: "?",
				 (long long)json_integer_value(json_object_get(tp, "clients")),
				 (long long)json_integer_value(json_object_get(tp, "threads")),
				 json_string_value(json_object_get(tp, "protocol")) ?: "?",
				 (long long)json_integer_value(json_object_get(tp, "scale")), each, warm);
		}
		table(s, d);
		best_words(s, d);
		step_words(s, d);
		warnings(s, d);
		if (s->torn)
			doc_para(d, "Note: the last record was torn by an interrupted write and is left out.");
		snprintf(path, sizeof(path), "%s/steps.svg", dir);
		doc_image(d, path, "The main figure per step: median, bars from min to max.");
	}
	if (s)
		steps_free(s);
	free(s);
	return ret;
}

/* ---- the plot and the files ---- */

static int plot(const char *dir, char *msg, size_t msglen)
{
	struct steps_result *s = calloc(1, sizeof(*s));
	char dat[PATH_MAX + 16], base[PATH_MAX + 16], log[PATH_MAX + 16], ylabel[128], e[512];
	char *args[] = { dat, base, "a configuration sweep", "step", ylabel, "rotate", NULL };
	FILE *f;
	int ret = s ? steps_load(dir, s, e, sizeof(e)) : -ENOMEM;

	snprintf(dat, sizeof(dat), "%s/steps.dat", dir);
	snprintf(base, sizeof(base), "%s/steps", dir);
	snprintf(log, sizeof(log), "%s/plot.log", dir);
	if (ret == 0 && !(f = file_fopen_write(dat)))
		ret = -errno;
	if (ret == 0) {
		snprintf(ylabel, sizeof(ylabel), "%s, %s (median; bars: min..max)", s->main->label, s->main->unit);
		fprintf(f, "# eicbench confsweep: the main figure per step\n");
		for (int k = 0; k < s->ng; k++)
			fprintf(f, "%d \"%s\"\n", k, s->g[k].name);
		fprintf(f, "\n\nposition value \"median\" lo hi\n");
		for (int k = 0; k < s->ng; k++)
			if (s->g[k].n)
				fprintf(f, "%d \"%s\" %.6f %.6f %.6f\n", k, s->g[k].name, s->g[k].median,
					s->g[k].min, s->g[k].max);
		fclose(f);
		ret = plot_run("plot-sweep.gp", args, log, msg, msglen);
	}
	if (s)
		steps_free(s);
	free(s);
	return ret;
}

static int md_of(const void *d, FILE *f)
{
	return doc_md_out(d, f);
}

static int html_of(const void *d, FILE *f)
{
	return doc_html_out(d, "eicbench confsweep", f);
}

int report_steps_finish(const char *dir, FILE *out, char *err, size_t errlen)
{
	struct doc d = { 0 };
	char path[PATH_MAX + 32], msg[1024] = "";
	int p = plot(dir, msg, sizeof(msg));
	int ret = report_steps_document(dir, &d, err, errlen);

	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_MD);
	if (ret == 0)
		ret = record_write_rendered(path, md_of, &d, err, errlen);
	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_HTML_FILE);
	if (ret == 0)
		ret = record_write_rendered(path, html_of, &d, err, errlen);
	if (ret == 0)
		ret = doc_text_out(&d, out);
	if (ret == 0)
		fprintf(out, "\nWritten to %s: report.md, report.html; %s%s\n", dir,
			p == 0 ? "plot: steps.svg, steps.png" : "no plot: ", p == 0 ? "" : msg);
	doc_free(&d);
	return ret;
}
