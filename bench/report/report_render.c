/*
 * report_render: the summarized groups as the terminal table, Markdown
 * (report.md), CSV (summary.csv) and JSON, all from one column table so they
 * agree; plus the context lines from meta.json (query, data set, server,
 * device, host). Text is wrapped at 78 columns. Absent figures are "-" in
 * tables and null in JSON; CSV leaves them empty.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/prediction_doc.h"
#include "bench/report/document.h"
#include "bench/record/record.h"
#include "bench/report/report.h"

#define WRAP      78
#define CELL_MAX  48
#define COLS_MAX  (RESULT_MAX_SETTINGS + 40)

/*
 * One column: a figure of the group (at OFFSET, times SCALE). IN_TABLE: 1 in
 * the terminal and Markdown table, 0 only in CSV and JSON, SPLIT only when
 * the samples were split by phase (the heap phase's device and CPU figures),
 * WHOLE only when they were not (the whole query's instead). An interval
 * column (INTERVAL set) is shown as "lo-hi" from a struct stats_interval and
 * gives KEY_lo and KEY_hi in CSV and JSON. HEAD_EXEC, when set, is the
 * heading used when the times are the whole execution's.
 */
static const struct column {
	const char *head, *head_exec, *key;
	size_t offset;
	double scale;
	int decimals;
	int in_table, interval;
} columns[] = {
#define SPLIT 2
#define WHOLE 3
#define AIO   4
	{ "heap ms", "exec ms", "median_ms", offsetof(struct result_group, median_ms), 1, 1, 1, 0 },
	{ "interval", NULL, "ci", offsetof(struct result_group, ci), 1, 1, 1, 1 },
	{ "min ms", NULL, "min_ms", offsetof(struct result_group, min_ms), 1, 1, 0, 0 },
	{ "max ms", NULL, "max_ms", offsetof(struct result_group, max_ms), 1, 1, 0, 0 },
	{ "x vs 0", NULL, "speedup_vs_0", offsetof(struct result_group, speedup_vs_0), 1, 2, 1, 0 },
	{ "", NULL, "speedup_vs_0_ci", offsetof(struct result_group, ci_vs_0), 1, 2, 0, 1 },
	{ "x vs 1", NULL, "speedup_vs_1", offsetof(struct result_group, speedup_vs_1), 1, 2, 1, 0 },
	{ "", NULL, "speedup_vs_1_ci", offsetof(struct result_group, ci_vs_1), 1, 2, 0, 1 },
	{ "", NULL, "vs_fastest", offsetof(struct result_group, vs_fastest), 1, 3, 0, 0 },
	{ "", NULL, "vs_fastest_ci", offsetof(struct result_group, ci_vs_fastest), 1, 3, 0, 1 },
	{ "index ms", NULL, "index_ms", offsetof(struct result_group, index_ms), 1, 1, 1, 0 },
	{ "total ms", NULL, "exec_ms", offsetof(struct result_group, exec_ms), 1, 1, 1, 0 },
	{ "", NULL, "exec_min_ms", offsetof(struct result_group, exec_min_ms), 1, 1, 0, 0 },
	{ "", NULL, "exec_max_ms", offsetof(struct result_group, exec_max_ms), 1, 1, 0, 0 },
	{ "", NULL, "index_share", offsetof(struct result_group, index_share), 1, 3, 0, 0 },
	{ "", NULL, "other_ms", offsetof(struct result_group, other_ms), 1, 1, 0, 0 },
	{ "read wait ms", NULL, "heap_io_read_ms", offsetof(struct result_group, heap_io_read_ms), 1, 1, 1, 0 },
	{ "queue depth", NULL, "heap_avg_queue_depth", offsetof(struct result_group, heap_queue_depth), 1, 2, SPLIT, 0 },
	{ "req KiB", NULL, "heap_avg_read_kib", offsetof(struct result_group, heap_req_kib), 1, 1, SPLIT, 0 },
	{ "CPU %", NULL, "heap_backend_cpu_pct", offsetof(struct result_group, heap_cpu_share), 100, 0, SPLIT, 0 },
	{ "pg in flight", NULL, "heap_aio_in_flight", offsetof(struct result_group, heap_aio_in_flight), 1, 1, AIO, 0 },
	{ "", NULL, "heap_read_mib", offsetof(struct result_group, heap_read_mib), 1, 1, 0, 0 },
	{ "", NULL, "index_read_mib", offsetof(struct result_group, index_read_mib), 1, 1, 0, 0 },
	{ "", NULL, "index_avg_read_kib", offsetof(struct result_group, index_req_kib), 1, 1, 0, 0 },
	{ "", NULL, "index_backend_cpu_pct", offsetof(struct result_group, index_cpu_share), 100, 0, 0, 0 },
	{ "", NULL, "io_read_ms", offsetof(struct result_group, io_read_ms), 1, 1, 0, 0 },
	{ "query qd", NULL, "avg_queue_depth", offsetof(struct result_group, queue_depth), 1, 2, WHOLE, 0 },
	{ "query KiB", NULL, "avg_read_kib", offsetof(struct result_group, avg_req_kib), 1, 1, WHOLE, 0 },
	{ "query CPU %", NULL, "backend_cpu_pct", offsetof(struct result_group, cpu_share), 100, 0, WHOLE, 0 },
	{ "", NULL, "read_mib", offsetof(struct result_group, read_mib), 1, 1, 0, 0 },
	{ "", NULL, "exact_heap_blocks", offsetof(struct result_group, exact_blocks), 1, 0, 0, 0 },
	{ "", NULL, "lossy_heap_blocks", offsetof(struct result_group, lossy_blocks), 1, 0, 0, 0 },
	{ "", NULL, "rows", offsetof(struct result_group, rows), 1, 0, 0, 0 },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* Is column C in the table of R? */
static int shown(const struct sweep_result *r, const struct column *c)
{
	switch (c->in_table) {
	case SPLIT:
		return r->split;
	case WHOLE:
		return !r->split;
	case AIO:
		return r->split && r->aio;
	default:
		return c->in_table;
	}
}

static double figure(const struct result_group *g, const struct column *c)
{
	return *(const double *)((const char *)g + c->offset) * c->scale;
}

static const struct stats_interval *interval(const struct result_group *g, const struct column *c)
{
	return (const struct stats_interval *)((const char *)g + c->offset);
}

/* The heading: the heap phase's figures, or the execution's without phases. */
static const char *heading(const struct sweep_result *r, const struct column *c)
{
	return !r->heap_phase && c->head_exec ? c->head_exec : c->head;
}

/* fastest, recommended, "~ fastest" (indistinguishable from it), or nothing. */
static const char *mark(const struct sweep_result *r, size_t i)
{
	const struct result_series *se = &r->series[r->groups[i].series];
	int rec = se->recommended == i && se->recommends;

	if (se->fastest == i)
		return rec ? "fastest, recommended" : "fastest";
	if (rec)
		return "recommended, ~ fastest";
	return r->groups[i].indistinguishable ? "~ fastest" : "";	/* within the margin */
}

/* ---- rows (CSV and JSON) ---- */

static json_t *row_json(const struct sweep_result *r, size_t i)
{
	const struct result_group *g = &r->groups[i];
	json_t *o = json_object();

	json_object_set_new(o, "query", json_string(r->queries[g->query]));
	for (size_t s = 0; s < r->nsettings; s++)
		json_object_set_new(o, r->settings[s].name, json_string(result_value(r, g, s)));
	json_object_set_new(o, "runs", json_integer((json_int_t)g->runs));
	for (size_t c = 0; c < NCOLUMNS; c++) {
		char key[64];
		double v = figure(g, &columns[c]);

		if (columns[c].interval) {
			const struct stats_interval *iv = interval(g, &columns[c]);

			snprintf(key, sizeof(key), "%s_lo", columns[c].key);
			json_object_set_new(o, key, isnan(iv->lo) ? json_null() : json_real(iv->lo));
			snprintf(key, sizeof(key), "%s_hi", columns[c].key);
			json_object_set_new(o, key, isnan(iv->hi) ? json_null() : json_real(iv->hi));
			continue;
		}
		json_object_set_new(o, columns[c].key, isnan(v) ? json_null() : json_real(v));
	}
	json_object_set_new(o, "ci_coverage", isnan(g->ci.coverage) ? json_null() : json_real(g->ci.coverage));
	json_object_set_new(o, "measure", json_string(r->heap_phase ? "heap_phase" : "execution"));
	json_object_set_new(o, "fastest", json_boolean(r->series[g->series].fastest == i));
	json_object_set_new(o, "recommended", json_boolean(r->series[g->series].recommended == i &&
							    r->series[g->series].recommends));
	json_object_set_new(o, "within_margin", json_boolean(g->indistinguishable));
	json_object_set_new(o, "regret", isfinite(g->regret) && g->regret > 0 ? json_real(g->regret) : json_null());
	json_object_set_new(o, "regret_lo", isfinite(g->regret_lo) && g->regret_lo > 0 ? json_real(g->regret_lo) : json_null());
	json_object_set_new(o, "regret_hi", isfinite(g->regret_hi) && g->regret_hi > 0 ? json_real(g->regret_hi) : json_null());
	return o;
}

json_t *report_rows(const struct sweep_result *r)
{
	json_t *rows = json_array();

	for (size_t i = 0; rows && i < r->ngroups; i++)
		if (json_array_append_new(rows, row_json(r, i)) < 0) {
			json_decref(rows);
			return NULL;
		}
	return rows;
}

static int write_csv(const struct sweep_result *r, const char *dir, char *err, size_t errlen)
{
	const char *names[2 * COLS_MAX];
	char keys[NCOLUMNS][2][64];
	char path[PATH_MAX];
	size_t n = 0;
	json_t *rows = report_rows(r);
	int ret;

	if (!rows)
		return -ENOMEM;
	names[n++] = "query";
	for (size_t s = 0; s < r->nsettings; s++)
		names[n++] = r->settings[s].name;
	names[n++] = "runs";
	names[n++] = "measure";
	for (size_t c = 0; c < NCOLUMNS; c++) {
		if (!columns[c].interval) {
			names[n++] = columns[c].key;
			continue;
		}
		snprintf(keys[c][0], sizeof(keys[c][0]), "%s_lo", columns[c].key);
		snprintf(keys[c][1], sizeof(keys[c][1]), "%s_hi", columns[c].key);
		names[n++] = keys[c][0];
		names[n++] = keys[c][1];
	}
	names[n++] = "ci_coverage";
	names[n++] = "fastest";
	names[n++] = "recommended";
	names[n++] = "within_margin";
	names[n++] = "regret";
	names[n++] = "regret_lo";
	names[n++] = "regret_hi";
	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_SUMMARY_CSV);
	ret = record_write_csv(path, rows, names, n, err, errlen);
	json_decref(rows);
	return ret;
}

/* ---- the table (text and Markdown) ---- */

struct table {
	char (*cell)[COLS_MAX][CELL_MAX];   /* row 0 is the heading */
	size_t nrows, ncols;
	int width[COLS_MAX];
};

static void put_cell(struct table *t, size_t row, size_t col, const char *s)
{
	int n = snprintf(t->cell[row][col], CELL_MAX, "%s", s);

	if (n > t->width[col])
		t->width[col] = n < CELL_MAX ? n : CELL_MAX - 1;
}

static void fill_row(struct table *t, const struct sweep_result *r, size_t i)
{
	const struct result_group *g = &r->groups[i];
	size_t col = 0, row = i + 1;
	char buf[CELL_MAX];

	if (r->nqueries > 1)
		put_cell(t, row, col++, r->queries[g->query]);
	for (size_t s = 0; s < r->nsettings; s++)
		put_cell(t, row, col++, result_value(r, g, s));
	snprintf(buf, sizeof(buf), "%zu", g->runs);
	put_cell(t, row, col++, buf);
	for (size_t c = 0; c < NCOLUMNS; c++) {
		double v = figure(g, &columns[c]);

		if (!shown(r, &columns[c]))
			continue;
		if (columns[c].interval) {
			const struct stats_interval *iv = interval(g, &columns[c]);

			if (isnan(iv->lo) || g->runs < 2)
				snprintf(buf, sizeof(buf), "-");
			else
				snprintf(buf, sizeof(buf), "%.*f-%.*f", columns[c].decimals, iv->lo,
					 columns[c].decimals, iv->hi);
		} else
			snprintf(buf, sizeof(buf), isnan(v) ? "-" : "%.*f", columns[c].decimals, v);
		put_cell(t, row, col++, buf);
	}
	put_cell(t, row, col++, mark(r, i));
}

static int table_make(struct table *t, const struct sweep_result *r)
{
	size_t col = 0;

	memset(t, 0, sizeof(*t));
	t->nrows = r->ngroups + 1;
	t->cell = calloc(t->nrows, sizeof(*t->cell));
	if (!t->cell)
		return -ENOMEM;
	if (r->nqueries > 1)
		put_cell(t, 0, col++, "query");
	for (size_t s = 0; s < r->nsettings; s++)
		put_cell(t, 0, col++, r->settings[s].name);
	put_cell(t, 0, col++, "runs");
	for (size_t c = 0; c < NCOLUMNS; c++)
		if (shown(r, &columns[c]))
			put_cell(t, 0, col++, heading(r, &columns[c]));
	put_cell(t, 0, col++, "");
	t->ncols = col;
	for (size_t i = 0; i < r->ngroups; i++)
		fill_row(t, r, i);
	return 0;
}

/* ---- context lines from meta.json ---- */

/* The query's text without its comment lines, on one line. */
static void put_query_text(FILE *f, const char *text)
{
	bool first = true;

	while (text && *text) {
		size_t n = strcspn(text, "\n");
		const char *p = text;

		while (p < text + n && (*p == ' ' || *p == '\t'))
			p++;
		if (n > 0 && strncmp(p, "--", 2)) {
			fprintf(f, "%s%.*s", first ? ": " : " ", (int)(text + n - p), p);
			first = false;
		}
		text += n + (text[n] == '\n');
	}
}

/* Settings the trials' sessions made, which the server line does not show. */
static void put_session(FILE *f, const json_t *session)
{
	const char *name;
	json_t *v;
	bool first = true;

	fprintf(f, "\nSession of every trial:");
	json_object_foreach((json_t *)session, name, v) {
		fprintf(f, "%s %s=%s", first ? "" : ",", name, json_string_value(v));
		first = false;
	}
}

static void put_plan(FILE *f, const json_t *plan)
{
	const char *q = record_str_at(plan, "query", NULL), *text = record_str_at(plan, "query_text", NULL);

	fprintf(f, "Query: %s", q ? q : "?");
	put_query_text(f, text);
	fprintf(f, " (%s%s, %s, %lld run(s) per value)",
		json_is_true(json_object_get(plan, "forced_bitmap")) ? "bitmap plan forced, " : "",
		json_is_true(json_object_get(plan, "warm")) ? "warm cache" : "cold cache",
		json_is_true(json_object_get(plan, "jit")) ? "JIT on" : "JIT off",
		(long long)json_integer_value(json_object_get(plan, "runs")));
	if (json_object_size(json_object_get(plan, "session")))
		put_session(f, json_object_get(plan, "session"));
}

static void put_server(FILE *f, const json_t *server)
{
	const json_t *set = json_object_get(server, "settings");
	static const char *const shown[] = { "shared_buffers", "work_mem", "io_method",
		"io_combine_limit" };
	const char *v = record_str_at(server, "version", NULL);

	fprintf(f, "Server: PostgreSQL %s", v ? v : "(version unknown)");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (json_string_value(json_object_get(set, shown[i])))
			fprintf(f, ", %s %s", shown[i], json_string_value(json_object_get(set, shown[i])));
}

static void put_device(FILE *f, const json_t *dev)
{
	const char *name = record_str_at(dev, "name", NULL), *model = record_str_at(dev, "model", NULL);
	const char *sched = record_str_at(dev, "scheduler", NULL);
	const json_t *rot = json_object_get(dev, "rotational");

	fprintf(f, "Device: %s", name ? name : "unknown");
	if (model && *model)
		fprintf(f, " (%s)", model);
	if (json_object_get(dev, "emulated")) {	/* its queue is the model's, said in the model */
		fprintf(f, ", read_ahead_kb %lld", (long long)json_integer_value(json_object_get(dev, "read_ahead_kb")));
		return;
	}
	if (json_is_integer(rot))
		fprintf(f, ", %s", json_integer_value(rot) ? "rotational" : "not rotational");
	fprintf(f, ", scheduler %s, nr_requests %lld, read_ahead_kb %lld", sched ? sched : "?",
		(long long)json_integer_value(json_object_get(dev, "nr_requests")),
		(long long)json_integer_value(json_object_get(dev, "read_ahead_kb")));
}

static void put_host(FILE *f, const json_t *meta)
{
	const json_t *host = json_object_get(meta, "host"), *ds = json_object_get(meta, "dataset");
	const char *name = record_str_at(host, "hostname", NULL);
	const char *k = record_str_at(json_object_get(host, "kernel"), "release", NULL);

	fprintf(f, "Data set: %lld rows\nHost: %s, %lld CPU(s), kernel %s",
		(long long)json_integer_value(json_object_get(ds, "rows")), name ? name : "?",
		(long long)json_integer_value(json_object_get(host, "cpu_count")), k ? k : "?");
}

/* The context lines from meta.json into D: the query and plan, data set,
 * host, server and device. */
static int context(const struct sweep_result *r, struct doc *d)
{
	const json_t *m = r->meta;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	put_plan(f, json_object_get(m, "plan"));
	fputc('\n', f);
	put_host(f, m);
	fputc('\n', f);
	put_server(f, json_object_get(m, "server"));
	fputc('\n', f);
	put_device(f, json_object_get(m, "device"));
	if (fclose(f) != 0)
		return free(buf), -ENOMEM;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		doc_line(d, line);
	free(buf);
	return 0;
}

/* ---- whole outputs ---- */

/* What the columns are, in words generated from what the folder holds (a
 * new string, or NULL). */
static char *legend_text(const struct sweep_result *r)
{
	char *buf = NULL;
	size_t len = 0, least = (size_t)-1;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < r->ngroups; i++)
		if (r->groups[i].runs < least)
			least = r->groups[i].runs;
	const json_t *t0 = json_array_get(r->trials, 0);
	int seq = !strcmp(record_str_at(record_at(t0, "explain.bitmap"), "scan", NULL) ?: "", "Seq Scan");

	if (r->heap_phase && seq)
		fprintf(f, "heap ms: the median time of the heap phase (the Seq Scan node, from EXPLAIN's per-node times; it has no index phase);");
	else if (r->heap_phase)
		fprintf(f, "heap ms: the median time of the heap phase (the Bitmap Heap Scan less its index scans, from EXPLAIN's per-node times);");
	else
		fprintf(f, "exec ms: the median execution time (the records hold no per-phase times);");
	fprintf(f, " interval: the median's distribution-free interval, %s;", least >= RESULT_RUNS_FOR_95 ?
		"at least 95%" : "the runs' min..max (95% needs 6 runs or more)");
	fprintf(f, " x vs 0, x vs 1: speedups of the median; ~ fastest: within %.0f%% of the fastest, by the upper bound of its regret paired within rounds;", r->margin * 100);
	if (r->heap_phase)
		fprintf(f, " index ms: the index phase; total ms: the whole execution; read wait ms: the heap phase's I/O read time;");
	if (r->split)
		fprintf(f, " queue depth, req KiB, CPU %%: the device's average queue depth and request size and the backend's share of a core during the heap phase, from samples taken during the query.");
	else
		fprintf(f, " query qd, query KiB, query CPU %%: the device's average queue depth and request size and the backend's share of a core over the whole query (its samples could not be split by phase).");
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The table's alignment: every column right but the marks, left. */
static void table_align(struct doc *d, size_t ncols)
{
	char align[COLS_MAX + 1];

	memset(align, 'r', ncols);
	align[ncols - 1] = 'l';
	align[ncols] = '\0';
	doc_table_align(d, align, 1);
}

/* The replay trials beside the query's, when the sweep ran them. */
static void replay_section(struct doc *d, const struct sweep_result *r)
{
	const struct result_series *se = r->nseries ? &r->series[0] : NULL;

	if (!r->companions || !json_array_size(r->companions))
		return;
	doc_heading(d, 2, "The replay trials");
	prediction_section(d, r, NULL, se && se->recommends ?
			   result_value(r, &r->groups[se->recommended], r->swept) : NULL, 0);
}

/* The sweep as a document, rendered as text (the terminal), report.md and
 * report.html: the title, the context lines, the table, its legend, the
 * explanation, the replay trials and (in HTML) the plot. The headings are
 * not in the text, but the replay trials'. */
void report_document(const struct sweep_result *r, const char *dir, struct doc *d)
{
	char *leg = legend_text(r), path[PATH_MAX];
	json_t *paras = report_explain(r), *p;
	struct table t;
	size_t i;

	d->md_wrap = 1;
	doc_heading(d, 1, "eicbench sweep: %s", r->queries[0]);
	doc_only(d, DOC_IN_MD | DOC_IN_HTML);
	if (context(r, d) < 0)
		d->oom = 1;
	doc_heading(d, 2, "Results");
	doc_only(d, DOC_IN_MD | DOC_IN_HTML);
	if (table_make(&t, r) == 0) {
		const char *row[COLS_MAX];

		for (size_t k = 0; k < t.nrows; k++) {
			for (size_t c = 0; c < t.ncols; c++)
				row[c] = t.cell[k][c];
			if (k == 0)
				doc_table(d, t.ncols, row);
			else
				doc_row(d, row);
		}
		table_align(d, t.ncols);
		free(t.cell);
	} else
		d->oom = 1;
	doc_text(d, leg);
	free(leg);
	doc_heading(d, 2, "What it means");
	doc_only(d, DOC_IN_MD | DOC_IN_HTML);
	json_array_foreach(paras, i, p) {
		const char *text = json_string_value(p);

		if (text && *text)
			doc_text(d, text);
		else {	/* an empty paragraph stands as a blank in text */
			doc_para(d, "%s", "");
			doc_only(d, DOC_IN_TEXT | DOC_IN_MD);
		}
	}
	d->oom |= !paras;
	json_decref(paras);
	replay_section(d, r);
	snprintf(path, sizeof(path), "%s/sweep.svg", dir);
	doc_image(d, path, "The measured time per value: the median and its interval.");
	doc_only(d, DOC_IN_HTML);
}

static int render_text(const struct sweep_result *r, FILE *out, int md)
{
	struct doc d = { 0 };
	int ret;

	report_document(r, r->dir, &d);
	ret = md ? doc_md_out(&d, out) : doc_text_out(&d, out);
	doc_free(&d);
	return ret;
}

static int render_json(const struct sweep_result *r, FILE *out)
{
	json_t *o = json_object(), *names = json_array();
	int ret;

	for (size_t s = 0; s < r->nsettings; s++)
		json_array_append_new(names, json_string(r->settings[s].name));
	json_object_set_new(o, "settings", names);
	json_object_set_new(o, "swept", json_string(r->settings[r->swept].name));
	json_object_set_new(o, "server_version_num", json_integer(r->version_num));
	json_object_set_new(o, "groups", report_rows(r));
	json_object_set_new(o, "explanation", report_explain(r));
	if (r->companions && json_array_size(r->companions))
		json_object_set_new(o, "replay", prediction_json(r));
	json_object_set_new(o, "note", json_string(r->note));
	ret = json_dumpf(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) == 0 ? 0 : -ENOMEM;
	fputc('\n', out);
	json_decref(o);
	return ret;
}

static int md_of(const void *r, FILE *f)
{
	return render_text(r, f, 1);
}

struct html_arg {
	const struct sweep_result *r;
	const char *dir;
};

static int html_of(const void *arg, FILE *f)
{
	const struct html_arg *a = arg;
	struct doc d = { 0 };
	int ret;

	report_document(a->r, a->dir, &d);
	ret = doc_html_out(&d, "eicbench sweep", f);
	doc_free(&d);
	return ret;
}

int report_render(const struct sweep_result *r, enum report_format format, FILE *out)
{
	switch (format) {
	case REPORT_TEXT:
		return render_text(r, out, 0);
	case REPORT_MARKDOWN:
		return render_text(r, out, 1);
	case REPORT_JSON:
		return render_json(r, out);
	case REPORT_HTML: {
		struct html_arg h = { r, r->dir };

		return html_of(&h, out);
	}
	default:
		return -EINVAL;
	}
}

int report_write_files(const struct sweep_result *r, const char *dir, char *err, size_t errlen)
{
	struct html_arg h = { r, dir };
	char path[PATH_MAX];
	int ret = write_csv(r, dir, err, errlen);

	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_MD);
	if (ret == 0)
		ret = record_write_rendered(path, md_of, r, err, errlen);
	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_HTML_FILE);
	return ret < 0 ? ret : record_write_rendered(path, html_of, &h, err, errlen);
}
