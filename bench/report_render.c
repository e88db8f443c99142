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

#include "bench/record.h"
#include "bench/report.h"

#define WRAP      78
#define CELL_MAX  48
#define COLS_MAX  (REPORT_MAX_SETTINGS + 16)

static const struct column {
	const char *head, *key;   /* table heading; CSV and JSON name */
	size_t offset;
	double scale;
	int decimals;
	int in_table;
} columns[] = {
	{ "median ms", "median_ms", offsetof(struct report_group, median_ms), 1, 1, 1 },
	{ "min ms", "min_ms", offsetof(struct report_group, min_ms), 1, 1, 1 },
	{ "max ms", "max_ms", offsetof(struct report_group, max_ms), 1, 1, 1 },
	{ "x vs 0", "speedup_vs_0", offsetof(struct report_group, speedup_vs_0), 1, 2, 1 },
	{ "x vs 1", "speedup_vs_1", offsetof(struct report_group, speedup_vs_1), 1, 2, 1 },
	{ "I/O read ms", "io_read_ms", offsetof(struct report_group, io_read_ms), 1, 1, 1 },
	{ "queue depth", "avg_queue_depth", offsetof(struct report_group, queue_depth), 1, 2, 1 },
	{ "avg req KiB", "avg_read_kib", offsetof(struct report_group, avg_req_kib), 1, 1, 1 },
	{ "backend CPU %", "backend_cpu_pct", offsetof(struct report_group, cpu_share), 100, 0, 1 },
	{ "read MiB", "read_mib", offsetof(struct report_group, read_mib), 1, 1, 0 },
	{ "exact blocks", "exact_heap_blocks", offsetof(struct report_group, exact_blocks), 1, 0, 0 },
	{ "lossy blocks", "lossy_heap_blocks", offsetof(struct report_group, lossy_blocks), 1, 0, 0 },
	{ "rows", "rows", offsetof(struct report_group, rows), 1, 0, 0 },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static double figure(const struct report_group *g, const struct column *c)
{
	return *(const double *)((const char *)g + c->offset) * c->scale;
}

static const char *mark(const struct report *r, size_t i)
{
	const struct report_series *se = &r->series[r->groups[i].series];

	if (se->fastest == i)
		return se->recommended == i ? "fastest, recommended" : "fastest";
	return se->recommended == i ? "recommended" : "";
}

/* ---- rows (CSV and JSON) ---- */

static json_t *row_json(const struct report *r, size_t i)
{
	const struct report_group *g = &r->groups[i];
	json_t *o = json_object();

	json_object_set_new(o, "query", json_string(r->queries[g->query]));
	for (size_t s = 0; s < r->nsettings; s++)
		json_object_set_new(o, r->settings[s].name, json_string(report_value(r, g, s)));
	json_object_set_new(o, "runs", json_integer((json_int_t)g->runs));
	for (size_t c = 0; c < NCOLUMNS; c++) {
		double v = figure(g, &columns[c]);

		json_object_set_new(o, columns[c].key, isnan(v) ? json_null() : json_real(v));
	}
	json_object_set_new(o, "fastest", json_boolean(r->series[g->series].fastest == i));
	json_object_set_new(o, "recommended", json_boolean(r->series[g->series].recommended == i));
	return o;
}

json_t *report_rows(const struct report *r)
{
	json_t *rows = json_array();

	for (size_t i = 0; rows && i < r->ngroups; i++)
		if (json_array_append_new(rows, row_json(r, i)) < 0) {
			json_decref(rows);
			return NULL;
		}
	return rows;
}

static int write_csv(const struct report *r, const char *dir, char *err, size_t errlen)
{
	const char *names[COLS_MAX];
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
	for (size_t c = 0; c < NCOLUMNS; c++)
		names[n++] = columns[c].key;
	names[n++] = "fastest";
	names[n++] = "recommended";
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

static void fill_row(struct table *t, const struct report *r, size_t i)
{
	const struct report_group *g = &r->groups[i];
	size_t col = 0, row = i + 1;
	char buf[CELL_MAX];

	if (r->nqueries > 1)
		put_cell(t, row, col++, r->queries[g->query]);
	for (size_t s = 0; s < r->nsettings; s++)
		put_cell(t, row, col++, report_value(r, g, s));
	snprintf(buf, sizeof(buf), "%zu", g->runs);
	put_cell(t, row, col++, buf);
	for (size_t c = 0; c < NCOLUMNS; c++) {
		double v = figure(g, &columns[c]);

		if (!columns[c].in_table)
			continue;
		snprintf(buf, sizeof(buf), isnan(v) ? "-" : "%.*f", columns[c].decimals, v);
		put_cell(t, row, col++, buf);
	}
	put_cell(t, row, col++, mark(r, i));
}

static int table_make(struct table *t, const struct report *r)
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
		if (columns[c].in_table)
			put_cell(t, 0, col++, columns[c].head);
	put_cell(t, 0, col++, "");
	t->ncols = col;
	for (size_t i = 0; i < r->ngroups; i++)
		fill_row(t, r, i);
	return 0;
}

/* Numbers right-aligned; the last column (the marks) left-aligned. */
static void text_row(const struct table *t, size_t row, FILE *out)
{
	size_t last = t->ncols - 1;

	for (size_t c = 0; c < last; c++)
		fprintf(out, "%s%*s", c ? "  " : "", t->width[c], t->cell[row][c]);
	if (t->cell[row][last][0])
		fprintf(out, "  %s", t->cell[row][last]);
	fputc('\n', out);
}

static void md_row(const struct table *t, size_t row, FILE *out)
{
	static const char dashes[] = "-------------------------------------------------";
	size_t last = t->ncols - 1;

	for (size_t c = 0; c <= last; c++)
		fprintf(out, "| %*s ", c == last ? -t->width[c] : t->width[c], t->cell[row][c]);
	fputs("|\n", out);
	for (size_t c = 0; row == 0 && c <= last; c++)
		fprintf(out, "|%.*s%s", t->width[c] + 1, dashes, c == last ? "-|\n" : ":");
}

static void table_print(const struct table *t, FILE *out, int md)
{
	for (size_t row = 0; row < t->nrows; row++)
		(md ? md_row : text_row)(t, row, out);
}

static int print_table(const struct report *r, FILE *out, int md)
{
	struct table t;

	if (table_make(&t, r) < 0)
		return -ENOMEM;
	table_print(&t, out, md);
	free(t.cell);
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
	const char *q = report_str_at(plan, "query", NULL), *text = report_str_at(plan, "query_text", NULL);

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
	const char *v = report_str_at(server, "version", NULL);

	fprintf(f, "Server: PostgreSQL %s", v ? v : "(version unknown)");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (json_string_value(json_object_get(set, shown[i])))
			fprintf(f, ", %s %s", shown[i], json_string_value(json_object_get(set, shown[i])));
}

static void put_device(FILE *f, const json_t *dev)
{
	const char *name = report_str_at(dev, "name", NULL), *model = report_str_at(dev, "model", NULL);
	const char *sched = report_str_at(dev, "scheduler", NULL);
	const json_t *rot = json_object_get(dev, "rotational");

	fprintf(f, "Device: %s", name ? name : "unknown");
	if (model && *model)
		fprintf(f, " (%s)", model);
	if (json_is_integer(rot))
		fprintf(f, ", %s", json_integer_value(rot) ? "rotational" : "not rotational");
	fprintf(f, ", scheduler %s, nr_requests %lld, read_ahead_kb %lld", sched ? sched : "?",
		(long long)json_integer_value(json_object_get(dev, "nr_requests")),
		(long long)json_integer_value(json_object_get(dev, "read_ahead_kb")));
}

static void put_host(FILE *f, const json_t *meta)
{
	const json_t *host = json_object_get(meta, "host"), *ds = json_object_get(meta, "dataset");
	const char *name = report_str_at(host, "hostname", NULL);
	const char *k = report_str_at(json_object_get(host, "kernel"), "release", NULL);

	fprintf(f, "Data set: %lld rows\nHost: %s, %lld CPU(s), kernel %s",
		(long long)json_integer_value(json_object_get(ds, "rows")), name ? name : "?",
		(long long)json_integer_value(json_object_get(host, "cpu_count")), k ? k : "?");
}

static int context(const struct report *r, FILE *out, const char *bullet)
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
		fprintf(out, "%s%s\n", bullet, line);
	free(buf);
	return 0;
}

/* ---- whole outputs ---- */

/* TEXT wrapped at WRAP columns at spaces; a word longer than a line stays whole. */
static void wrap(FILE *out, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + n > WRAP) {
			fputc('\n', out);
			col = 0;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, n, out);
		col += n;
		text += n + (text[n] == ' ');
	}
	fputc('\n', out);
}

static int render_text(const struct report *r, FILE *out, int md)
{
	json_t *paras = report_explain(r), *p;
	size_t i;
	int ret = paras ? 0 : -ENOMEM;

	if (md)
		fprintf(out, "# eicbench sweep: %s\n\n", r->queries[0]);
	if (ret == 0)
		ret = context(r, out, md ? "- " : "");
	fputs(md ? "\n## Results\n\n" : "\n", out);
	if (ret == 0)
		ret = print_table(r, out, md);
	fputs(md ? "\n## What it means\n" : "", out);
	json_array_foreach(paras, i, p) {
		fputc('\n', out);
		wrap(out, json_string_value(p));
	}
	json_decref(paras);
	return ret;
}

static int render_json(const struct report *r, FILE *out)
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
	json_object_set_new(o, "note", json_string(r->note));
	ret = json_dumpf(o, out, JSON_INDENT(2)) == 0 ? 0 : -ENOMEM;
	fputc('\n', out);
	json_decref(o);
	return ret;
}

int report_render(const struct report *r, enum report_format format, FILE *out)
{
	switch (format) {
	case REPORT_TEXT:
		return render_text(r, out, 0);
	case REPORT_MARKDOWN:
		return render_text(r, out, 1);
	case REPORT_JSON:
		return render_json(r, out);
	default:
		return -EINVAL;
	}
}

static int write_md(const struct report *r, const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = render_text(r, f, 1);
	if (fclose(f) != 0 && ret == 0)
		ret = -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", dir, REPORT_MD);
	if (ret == 0)
		ret = record_write_file_atomic(path, buf, len, err, errlen);
	else
		snprintf(err, errlen, "%s: out of memory while rendering", path);
	free(buf);
	return ret;
}

int report_write_files(const struct report *r, const char *dir, char *err, size_t errlen)
{
	int ret = write_csv(r, dir, err, errlen);

	return ret < 0 ? ret : write_md(r, dir, err, errlen);
}
