/*
 * compare: loading folders side by side, the data-set check, lines per
 * query, ratios against the first line; see compare.h.
 */
#include "bench/report/compare.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/plot.h"
#include "bench/record/record.h"
#include "bench/report/stats.h"
#include "io/file.h"

#define SEED 1                    /* bootstrap seed, as the report's */

static int bad(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return -EINVAL;
}

/* The sweep folders of DIR: DIR itself, or a run's sweeps in query order. */
static int sweep_dirs(const char *dir, json_t *meta, char paths[][PATH_MAX], int max)
{
	const char *cmd = report_str_at(meta, "command", NULL), *q;
	json_t *sweeps = json_object_get(meta, "sweeps"), *sub;
	int n = 0;

	if (cmd && !strcmp(cmd, "sweep")) {
		snprintf(paths[0], PATH_MAX, "%s", dir);
		return 1;
	}
	if (!cmd || strcmp(cmd, "run") || !json_is_object(sweeps))
		return 0;
	json_object_foreach(sweeps, q, sub)
		if (n < max && json_is_string(sub))
			snprintf(paths[n++], PATH_MAX, "%s/%s", dir, json_string_value(sub));
	return n;
}

static void side_label(struct compare_side *s)
{
	const json_t *m = s->reports[0].meta;
	const char *dev = report_str_at(m, "device", "name"), *fs = report_str_at(m, "device", "fstype");
	const char *v = report_str_at(m, "server", "version");
	const char *ck = report_str_at(json_object_get(m, "server"), "settings", "data_checksums");
	const char *im = report_str_at(json_object_get(m, "server"), "settings", "io_method");
	long ra = (long)report_num_at(m, "device.read_ahead_kb");
	const char *ts = report_str_at(json_object_get(m, "plan"), "tablespace", "name");
	const char *emu = report_str_at(json_object_get(m, "device"), "emulated", "summary");
	char extra[256] = "", pg[96] = "";

	if (emu)	/* an emulated device: its model says it all, read-ahead too */
		snprintf(extra, sizeof(extra), ", %s", emu);
	else if (ra > 0)
		snprintf(extra, sizeof(extra), ", read_ahead_kb %ld", ra);
	if (ts && strcmp(ts, "pg_default"))
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra), ", tablespace %s", ts);
	if (ck)		/* checksums cost CPU on every read: 18 turns them on by default */
		snprintf(pg, sizeof(pg), ", data checksums %s", ck);
	for (size_t i = 0; im && i < s->reports[0].nsettings; i++)
		if (!strcmp(s->reports[0].settings[i].name, "io_method"))
			im = NULL;	/* varied: each line says its own */
	if (im)
		snprintf(pg + strlen(pg), sizeof(pg) - strlen(pg), ", io_method %s", im);
	snprintf(s->label, sizeof(s->label), "%c: %s (%s%s%s%s; PostgreSQL %.*s%s)", s->letter, s->dir,
		 dev ? dev : "device unknown", fs ? " " : "", fs ? fs : "", extra,
		 v ? (int)strcspn(v, " ") : 15, v ? v : "version unknown", pg);
}

static int load_side(struct compare_side *s, const char *dir, char *err, size_t errlen)
{
	char paths[REPORT_MAX_QUERIES][PATH_MAX], path[PATH_MAX], msg[1024];
	int n, ret;

	s->dir = dir;
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	s->meta = json_load_file(path, 0, NULL);
	if (!s->meta)
		return bad(err, errlen, "%s: no readable meta.json%s; give folders written by eicbench sweep or run",
			   dir, "");
	n = sweep_dirs(dir, s->meta, paths, REPORT_MAX_QUERIES);
	if (n == 0)
		return bad(err, errlen, "%s holds the records of '%s'; compare reads folders of eicbench sweep or run",
			   dir, report_str_at(s->meta, "command", NULL) ?: "(no command)");
	for (int i = 0; i < n; i++) {
		ret = report_load(paths[i], &s->reports[s->nreports], msg, sizeof(msg));
		if (ret < 0) {
			report_free(&s->reports[s->nreports]);
			snprintf(err, errlen, "%s", msg);
			return -EINVAL;
		}
		s->queries[s->nreports] = s->reports[s->nreports].queries[0];
		s->nreports++;
	}
	side_label(s);
	return 0;
}

/* ---- the data sets must be the same ---- */

static const char *dataset_diff(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "rows", "seed", "recipe" };

	if (!json_is_object(a) || !json_is_object(b))
		return "data set (not recorded in one of them)";
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!json_equal(json_object_get(a, keys[i]), json_object_get(b, keys[i])))
			return keys[i];
	return NULL;
}

static int check_same(struct compare *c, int force, char *err, size_t errlen)
{
	const struct report *first = &c->sides[0].reports[0];
	char what[512];

	for (int s = 1; s < c->nsides; s++) {
		const struct compare_side *sd = &c->sides[s];
		const char *d = dataset_diff(json_object_get(first->meta, "dataset"),
					     json_object_get(sd->reports[0].meta, "dataset"));

		for (int i = 0; !d && i < sd->nreports; i++)
			for (int k = 0; !d && k < c->sides[0].nreports; k++)
				if (!strcmp(sd->queries[i], c->sides[0].queries[k]) &&
				    !json_equal(json_object_get(json_object_get(sd->reports[i].meta, "plan"), "query_text"),
						json_object_get(json_object_get(c->sides[0].reports[k].meta, "plan"), "query_text")))
					d = "query text";
		if (!d)
			continue;
		snprintf(what, sizeof(what), "%s and %s measured different data sets (their %s differs)",
			 c->sides[0].dir, sd->dir, d);
		if (!force) {
			snprintf(err, errlen, "%s; compare only folders of the same data set and query, or give --force", what);
			return -EINVAL;
		}
		snprintf(c->note + strlen(c->note), sizeof(c->note) - strlen(c->note), "%s%s (forced).",
			 c->note[0] ? " " : "", what);
	}
	return 0;
}

/* ---- lines per query ---- */

static int query_slot(struct compare *c, const char *name)
{
	for (int i = 0; i < c->nqueries; i++)
		if (!strcmp(c->queries[i].name, name))
			return i;
	if (c->nqueries == REPORT_MAX_QUERIES)
		return -1;
	c->queries[c->nqueries].name = name;
	return c->nqueries++;
}

static void add_lines(struct compare *c, int s, int k)
{
	const struct report *r = &c->sides[s].reports[k];
	int q = query_slot(c, c->sides[s].queries[k]);
	char label[256];

	for (size_t se = 0; q >= 0 && se < r->nseries; se++) {
		struct compare_query *cq = &c->queries[q];
		struct compare_line *l;

		if (cq->nlines == COMPARE_MAX_LINES)
			return;
		l = &cq->lines[cq->nlines++];
		*l = (struct compare_line){ .side = s, .report = k, .series = se };
		report_series_label(r, se, label, sizeof(label));
		snprintf(l->name, sizeof(l->name), "%c%s%s", c->sides[s].letter, *label ? " " : "", label);
	}
}

int compare_load(const char *const *dirs, int n, int force, struct compare *c,
		 char *err, size_t errlen)
{
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (n < 2 || n > COMPARE_MAX_SIDES) {
		snprintf(err, errlen, "give 2 to %d result folders to compare (%d given)", COMPARE_MAX_SIDES, n);
		return -EINVAL;
	}
	for (int i = 0; ret == 0 && i < n; i++) {
		c->sides[i].letter = (char)('A' + i);
		c->nsides++;
		ret = load_side(&c->sides[i], dirs[i], err, errlen);
	}
	if (ret == 0)
		ret = check_same(c, force, err, errlen);
	for (int s = 0; ret == 0 && s < c->nsides; s++)
		for (int k = 0; k < c->sides[s].nreports; k++)
			add_lines(c, s, k);
	return ret;
}

void compare_free(struct compare *c)
{
	for (int s = 0; s < c->nsides; s++) {
		for (int k = 0; k < c->sides[s].nreports; k++)
			report_free(&c->sides[s].reports[k]);
		json_decref(c->sides[s].meta);
	}
	memset(c, 0, sizeof(*c));
}

static const struct report *line_report(const struct compare *c, const struct compare_line *l)
{
	return &c->sides[l->side].reports[l->report];
}

const struct report_group *compare_group(const struct compare *c, const struct compare_line *l,
					 const char *value)
{
	const struct report *r = line_report(c, l);
	size_t g = report_find(r, &r->groups[r->series[l->series].first], value);

	return g == REPORT_NONE ? NULL : &r->groups[g];
}

/* ---- values, ratios, verdicts ---- */

/* The swept values of query Q over all its lines, in numeric order. */
static size_t query_values(const struct compare *c, const struct compare_query *q,
			   const char **out, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < q->nlines; i++) {
		const struct report *r = line_report(c, &q->lines[i]);
		const struct report_setting *sw = &r->settings[r->swept];

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
	const struct report_group *a = compare_group(c, &q->lines[0], value);
	const struct report_group *b = compare_group(c, &q->lines[l], value);

	if (!a || !b || line_report(c, &q->lines[0])->heap_phase != line_report(c, &q->lines[l])->heap_phase)
		return -1;
	if (stats_ratio_interval(b->times, b->runs, a->times, a->runs, REPORT_LEVEL, REPORT_RESAMPLES,
				 SEED, ratio, ci) < 0)
		return -1;
	return 0;
}

/* A number for JSON: null when it is not one. */
static json_t *jreal(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static const char *verdict(const struct stats_interval *ci)
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
	const struct report *r0 = line_report(c, &q->lines[0]);

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
		const struct report_group *g = compare_group(c, &q->lines[l], v);
		struct stats_interval ci;
		char iv[48] = "-", rs[48] = "-";
		double ratio;
		const char *vd = "-";

		if (g && g->runs > 1)
			snprintf(iv, sizeof(iv), "%.1f-%.1f", g->ci.lo, g->ci.hi);
		if (l > 0 && ratio_at(c, q, l, v, &ratio, &ci) == 0) {
			snprintf(rs, sizeof(rs), "%.2f (%.2f-%.2f)", ratio, ci.lo, ci.hi);
			vd = verdict(&ci);
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
static const char *line_tablespace(const struct report *r)
{
	const char *ts = report_str_at(json_object_get(r->meta, "plan"), "tablespace", "name");

	return ts && *ts ? ts : "pg_default";
}

/* Do the lines read relations in more than one tablespace? */
static int tablespaces_differ(const struct compare *c, const struct compare_query *q)
{
	for (int l = 1; l < q->nlines; l++)
		if (strcmp(line_tablespace(line_report(c, &q->lines[l])), line_tablespace(line_report(c, &q->lines[0]))))
			return 1;
	return 0;
}

/* Lines on several tablespaces (one cluster, per-storage values): each
 * one's recommendation as the statement that applies it there. */
static void put_per_tablespace(const struct compare *c, const struct compare_query *q, FILE *out)
{
	fprintf(out, "Per tablespace, as each line recommends:\n");
	for (int l = 0; l < q->nlines; l++) {
		const struct report *r = line_report(c, &q->lines[l]);
		const struct report_series *se = &r->series[q->lines[l].series];

		if (se->recommends)
			fprintf(out, "  ALTER TABLESPACE %s SET (effective_io_concurrency = %s);   -- %s\n",
				line_tablespace(r), report_value(r, &r->groups[se->recommended], r->swept),
				q->lines[l].name);
	}
}

static void put_recommendations(const struct compare *c, const struct compare_query *q, FILE *out)
{
	int per_ts = tablespaces_differ(c, q);

	fprintf(out, "\nBy the report's rule, line by line:");
	for (int l = 0; l < q->nlines; l++) {
		const struct report *r = line_report(c, &q->lines[l]);
		const struct report_series *se = &r->series[q->lines[l].series];

		fprintf(out, "%s %s: ", l ? ";" : "", q->lines[l].name);
		if (se->recommends)
			fprintf(out, "recommends %s%s%s (fastest %s)", report_value(r, &r->groups[se->recommended], r->swept),
				per_ts ? " for tablespace " : "", per_ts ? line_tablespace(r) : "",
				report_value(r, &r->groups[se->fastest], r->swept));
		else
			fprintf(out, "no recommendation (fastest %s; %s)",
				report_value(r, &r->groups[se->fastest], r->swept),
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
			if (!strcmp(verdict(&ci), "same")) {
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
				const struct report_group *g = compare_group(c, &q->lines[l], values[v]);
				struct stats_interval ci;
				double ratio;
				json_t *x = json_pack("{s:s}", "line", q->lines[l].name);

				if (g)
					json_object_update_new(x, json_pack("{s:o, s:o, s:o, s:i}", "median_ms", jreal(g->median_ms),
						"ci_lo", jreal(g->ci.lo), "ci_hi", jreal(g->ci.hi), "runs", (int)g->runs));
				if (l > 0 && ratio_at(c, q, l, values[v], &ratio, &ci) == 0)
					json_object_update_new(x, json_pack("{s:o, s:o, s:o, s:s}", "ratio_to_first", jreal(ratio),
						"ratio_lo", jreal(ci.lo), "ratio_hi", jreal(ci.hi), "verdict", verdict(&ci)));
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
		const struct report_group *g = compare_group(c, &q->lines[l], values[v]);

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
	const struct report *r0 = line_report(c, &q->lines[0]);
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
