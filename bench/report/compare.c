/*
 * compare: the folders the judge set side by side (bench/judge/comparison.h)
 * as tables, ratios against the first line, verdicts, JSON and plots; see
 * compare.h.
 */
#include "bench/report/compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/plot.h"
#include "bench/record/record.h"
#include "io/file.h"
#include "io/stats.h"

#define SEED 1                    /* bootstrap seed, as the report's */

/* ---- values, ratios, verdicts ---- */

/* The swept values of query Q over all its lines, in numeric order. */
static size_t query_values(const struct compare *c, const struct compare_query *q,
			   const char **out, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < q->nlines; i++) {
		const struct sweep_result *r = compare_line_result(c, &q->lines[i]);
		const struct result_setting *sw = &r->settings[r->swept];

		for (size_t v = 0; v < sw->nvalues && n < max; v++) {
			size_t k = 0;

			while (k < n && strcmp(out[k], sw->values[v]))
				k++;
			if (k < n)
				continue;
			while (k > 0 && strtod(out[k - 1], NULL) > sw->num[v]) {
				out[k] = out[k - 1];
				k--;
			}
			out[k] = sw->values[v];
			n++;
		}
	}
	return n;
}

/* Line L's median over line 0's at VALUE with its interval; 0, or -1 when
 * either is missing or they measure different things. */
static int ratio_at(const struct compare *c, const struct compare_query *q, int l,
		    const char *value, double *ratio, struct stats_interval *ci)
{
	const struct result_group *a = compare_group(c, &q->lines[0], value);
	const struct result_group *b = compare_group(c, &q->lines[l], value);

	if (!a || !b || compare_line_result(c, &q->lines[0])->heap_phase != compare_line_result(c, &q->lines[l])->heap_phase)
		return -1;
	if (stats_ratio_interval(b->times, b->runs, a->times, a->runs, RESULT_LEVEL, RESULT_RESAMPLES,
				 SEED, ratio, ci) < 0)
		return -1;
	return 0;
}

/* A number for JSON: null when it is not one. */
static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *beyond_words(const struct stats_interval *ci)
{
	if (ci->hi < 1)
		return "faster";
	if (ci->lo > 1)
		return "slower";
	return "same";
}

/* The text width of line L's name column: the name in full. */
static int name_width(const struct compare_query *q, int l)
{
	int n = (int)strlen(q->lines[l].name);

	return n > 12 ? n : 12;
}

static void put_header(const struct compare *c, const struct compare_query *q, FILE *out, int md)
{
	const struct sweep_result *r0 = compare_line_result(c, &q->lines[0]);

	fprintf(out, md ? "\n## Query %s\n\n" : "\nQuery %s: the %s, median ms and its interval per line; for every line after the first, its median over the first's (95%% bootstrap interval).\n\n",
		q->name, r0->heap_phase ? "heap phase" : "execution time");
	fprintf(out, md ? "| %s |" : "%-24s", r0->settings[r0->swept].name);
	for (int l = 0; l < q->nlines; l++) {
		if (md)
			fprintf(out, " %s ms | interval |", q->lines[l].name);
		else
			fprintf(out, "  %*s ms  %15s", name_width(q, l), q->lines[l].name, "interval");
		if (l > 0) {
			char head[64];

			snprintf(head, sizeof(head), "x of %s", q->lines[0].name);
			fprintf(out, md ? " %s | verdict |" : "  %17s  %7s", head, "verdict");
		}
	}
	fputc('\n', out);
	if (!md)
		return;
	fputs("|---:|", out);
	for (int l = 0; l < q->nlines; l++)
		fputs(l ? "---:|---:|---:|:---|" : "---:|---:|", out);
	fputc('\n', out);
}

static void put_row(const struct compare *c, const struct compare_query *q, const char *v,
		    FILE *out, int md)
{
	fprintf(out, md ? "| %s |" : "%24s", v);
	for (int l = 0; l < q->nlines; l++) {
		const struct result_group *g = compare_group(c, &q->lines[l], v);
		struct stats_interval ci;
		char iv[48] = "-", rs[48] = "-";
		double ratio;
		const char *vd = "-";

		if (g && g->runs > 1)
			snprintf(iv, sizeof(iv), "%.1f-%.1f", g->ci.lo, g->ci.hi);
		if (l > 0 && ratio_at(c, q, l, v, &ratio, &ci) == 0) {
			snprintf(rs, sizeof(rs), "%.2f (%.2f-%.2f)", ratio, ci.lo, ci.hi);
			vd = beyond_words(&ci);
		}
		if (md && g)
			fprintf(out, " %.1f | %s |", g->median_ms, iv);
		else if (md)
			fprintf(out, " - | - |");
		else if (g)
			fprintf(out, "  %*.1f  %15s", name_width(q, l) + 3, g->median_ms, iv);
		else
			fprintf(out, "  %*s  %15s", name_width(q, l) + 3, "-", "-");
		if (l > 0)
			fprintf(out, md ? " %s | %s |" : "  %17s  %7s", rs, vd);
	}
	fputc('\n', out);
}

/* The tablespace a line's relation lived in ("pg_default" when unrecorded). */
static const char *line_tablespace(const struct sweep_result *r)
{
	const char *ts = record_str_at(json_object_get(r->meta, "plan"), "tablespace", "name");

	return ts && *ts ? ts : "pg_default";
}

/* Do the lines read relations in more than one tablespace? */
static int tablespaces_differ(const struct compare *c, const struct compare_query *q)
{
	for (int l = 1; l < q->nlines; l++)
		if (strcmp(line_tablespace(compare_line_result(c, &q->lines[l])), line_tablespace(compare_line_result(c, &q->lines[0]))))
			return 1;
	return 0;
}

/* Lines on several tablespaces (one cluster, per-storage values): each
 * one's recommendation as the statement that applies it there. */
static void put_per_tablespace(const struct compare *c, const struct compare_query *q, FILE *out)
{
	fprintf(out, "Per tablespace, as each line recommends:\n");
	for (int l = 0; l < q->nlines; l++) {
		const struct sweep_result *r = compare_line_result(c, &q->lines[l]);
		const struct result_series *se = &r->series[q->lines[l].series];

		if (se->recommends)
			fprintf(out, "  ALTER TABLESPACE %s SET (effective_io_concurrency = %s);   -- %s\n",
				line_tablespace(r), result_value(r, &r->groups[se->recommended], r->swept),
				q->lines[l].name);
	}
}

static void put_recommendations(const struct compare *c, const struct compare_query *q, FILE *out)
{
	int per_ts = tablespaces_differ(c, q);

	fprintf(out, "\nBy the report's rule, line by line:");
	for (int l = 0; l < q->nlines; l++) {
		const struct sweep_result *r = compare_line_result(c, &q->lines[l]);
		const struct result_series *se = &r->series[q->lines[l].series];

		fprintf(out, "%s %s: ", l ? ";" : "", q->lines[l].name);
		if (se->recommends)
			fprintf(out, "recommends %s%s%s (fastest %s)", result_value(r, &r->groups[se->recommended], r->swept),
				per_ts ? " for tablespace " : "", per_ts ? line_tablespace(r) : "",
				result_value(r, &r->groups[se->fastest], r->swept));
		else
			fprintf(out, "no recommendation (fastest %s; %s)",
				result_value(r, &r->groups[se->fastest], r->swept),
				se->min_runs < 2 ? "one run per value" : "no value told apart");
	}
	fprintf(out, ".\n");
	if (per_ts)
		put_per_tablespace(c, q, out);
}

/* Which differences lie beyond the intervals, in words. */
static void put_beyond(const struct compare *c, const struct compare_query *q,
		       const char **values, size_t nv, FILE *out)
{
	for (int l = 1; l < q->nlines; l++) {
		int any = 0, same = 0;

		fprintf(out, "%s against %s:", q->lines[l].name, q->lines[0].name);
		for (size_t i = 0; i < nv; i++) {
			struct stats_interval ci;
			double ratio;

			if (ratio_at(c, q, l, values[i], &ratio, &ci) < 0)
				continue;
			if (!strcmp(beyond_words(&ci), "same")) {
				same++;
				continue;
			}
			fprintf(out, "%s at %s %.2fx the time (%.2f-%.2f)", any ? "," : "", values[i], ratio, ci.lo, ci.hi);
			any = 1;
		}
		fprintf(out, !any ? " no difference beyond the intervals at any value.\n" :
			same ? "; at the other values measured by both the interval holds 1.\n" : ".\n");
	}
}

int compare_render(const struct compare *c, int md, FILE *out)
{
	const char *values[128];

	fprintf(out, md ? "# eicbench compare\n\n" : "Folders compared:\n");
	for (int s = 0; s < c->nsides; s++)
		fprintf(out, md ? "- %s\n" : "  %s\n", c->sides[s].label);
	if (c->note[0])
		fprintf(out, "\nNote: %s\n", c->note);
	for (int i = 0; i < c->nqueries; i++) {
		const struct compare_query *q = &c->queries[i];
		size_t nv = query_values(c, q, values, 128);

		put_header(c, q, out, md);
		for (size_t v = 0; v < nv; v++)
			put_row(c, q, values[v], out, md);
		put_recommendations(c, q, out);
		if (q->nlines > 1)
			put_beyond(c, q, values, nv, out);
	}
	return 0;
}

json_t *compare_json(const struct compare *c)
{
	json_t *o = json_object(), *sides = json_array(), *queries = json_array();
	const char *values[128];

	for (int s = 0; s < c->nsides; s++)
		json_array_append_new(sides, json_pack("{s:s, s:s}", "dir", c->sides[s].dir,
						       "label", c->sides[s].label));
	for (int i = 0; i < c->nqueries; i++) {
		const struct compare_query *q = &c->queries[i];
		size_t nv = query_values(c, q, values, 128);
		json_t *rows = json_array();

		for (size_t v = 0; v < nv; v++) {
			json_t *lines = json_array();

			for (int l = 0; l < q->nlines; l++) {
				const struct result_group *g = compare_group(c, &q->lines[l], values[v]);
				struct stats_interval ci;
				double ratio;
				json_t *x = json_pack("{s:s}", "line", q->lines[l].name);

				if (g)
					json_object_update_new(x, json_pack("{s:o, s:o, s:o, s:i}", "median_ms", jreal(g->median_ms),
						"ci_lo", jreal(g->ci.lo), "ci_hi", jreal(g->ci.hi), "runs", (int)g->runs));
				if (l > 0 && ratio_at(c, q, l, values[v], &ratio, &ci) == 0)
					json_object_update_new(x, json_pack("{s:o, s:o, s:o, s:s}", "ratio_to_first", jreal(ratio),
						"ratio_lo", jreal(ci.lo), "ratio_hi", jreal(ci.hi), "verdict", beyond_words(&ci)));
				json_array_append_new(lines, x);
			}
			json_array_append_new(rows, json_pack("{s:s, s:o}", "value", values[v], "lines", lines));
		}
		json_array_append_new(queries, json_pack("{s:s, s:o}", "query", q->name, "values", rows));
	}
	json_object_set_new(o, "folders", sides);
	json_object_set_new(o, "queries", queries);
	json_object_set_new(o, "note", json_string(c->note));
	return o;
}

/* ---- plots ---- */

static void plot_block(const struct compare *c, const struct compare_query *q, int l,
		       const char **values, size_t nv, FILE *f)
{
	fprintf(f, "\n\nposition value \"");
	for (const char *p = q->lines[l].name; *p; p++)
		fputc(*p == '"' || *p == '\\' ? '\'' : *p, f);
	fprintf(f, "\" lo_s hi_s\n");
	for (size_t v = 0; v < nv; v++) {
		const struct result_group *g = compare_group(c, &q->lines[l], values[v]);

		if (g)
			fprintf(f, "%zu \"%s\" %.6f %.6f %.6f\n", v, values[v], g->median_ms / 1000,
				(isnan(g->ci.lo) ? g->min_ms : g->ci.lo) / 1000,
				(isnan(g->ci.hi) ? g->max_ms : g->ci.hi) / 1000);
	}
}

static int plot_query(const struct compare *c, const struct compare_query *q, const char *dir,
		      char *msg, size_t msglen)
{
	char dat[PATH_MAX], base[PATH_MAX], log[PATH_MAX], title[256], ylabel[128];
	const struct sweep_result *r0 = compare_line_result(c, &q->lines[0]);
	char *args[] = { dat, base, title, (char *)r0->settings[r0->swept].name, ylabel, NULL };
	const char *values[128];
	size_t nv = query_values(c, q, values, 128);
	FILE *f;

	snprintf(dat, sizeof(dat), "%s/compare-%s.dat", dir, q->name);
	snprintf(base, sizeof(base), "%s/compare-%s", dir, q->name);
	snprintf(log, sizeof(log), "%s/plot.log", dir);
	snprintf(title, sizeof(title), "query %s, compared", q->name);
	snprintf(ylabel, sizeof(ylabel), "%s, s (median; bars: its interval)",
		 r0->heap_phase ? "heap phase" : "execution time");
	f = file_fopen_write(dat);
	if (!f)
		return snprintf(msg, msglen, "cannot write %s: %s", dat, strerror(errno)), -errno;
	fprintf(f, "# eicbench compare plot data. Block 0: x position and label of each value.\n"
		   "# Then one block per line: position, value, median and its interval's ends, in s.\n");
	for (size_t v = 0; v < nv; v++)
		fprintf(f, "%zu \"%s\"\n", v, values[v]);
	for (int l = 0; l < q->nlines; l++)
		plot_block(c, q, l, values, nv, f);
	if (fclose(f) != 0)
		return snprintf(msg, msglen, "cannot write %s", dat), -EIO;
	return plot_run("plot-sweep.gp", args, log, msg, msglen);
}

int compare_plot(const struct compare *c, const char *dir, char *msg, size_t msglen)
{
	int ret = 0;

	for (int i = 0; ret == 0 && i < c->nqueries; i++)
		ret = plot_query(c, &c->queries[i], dir, msg, msglen);
	if (ret == 0)
		snprintf(msg, msglen, "compare-QUERY.svg and .png for each query");
	return ret;
}
