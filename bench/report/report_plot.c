/*
 * report_plot: DIR/plot.dat (the heap phase's time, or the execution's, in
 * seconds: the median and its interval per value of the swept setting; one
 * block per series) and gnuplot run
 * as an argv (never a shell, 60 s at most) with scripts/plot-sweep.gp to
 * make sweep.svg and sweep.png. The x axis is evenly spaced by value order,
 * since 0 has no place on a log axis. Also the whole re-render of a folder.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/report/plot.h"
#include "bench/record/record.h"
#include "bench/judge/judge.h"
#include "bench/report/report.h"

#define PLOT_BASE       "sweep"

/* ---- plot.dat ---- */

/* The x position of value V of the swept setting: its rank by number. */
static size_t position(const struct result_setting *s, size_t v)
{
	size_t rank = 0;

	for (size_t i = 0; i < s->nvalues; i++) {
		int num = !isnan(s->num[i]) && !isnan(s->num[v]) && s->num[i] != s->num[v];

		rank += num ? s->num[i] < s->num[v] : i < v;
	}
	return rank;
}

/* A label safe inside double quotes in gnuplot data. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' || *s == '\\' ? '\'' : *s, f);
	fputc('"', f);
}

static void put_series(FILE *f, const struct sweep_result *r, size_t s, size_t *idx)
{
	const struct result_setting *sw = &r->settings[r->swept];
	char label[256], title[320];
	size_t n = result_series_groups(r, s, idx);

	result_series_label(r, s, label, sizeof(label));
	if (r->nqueries > 1 || !*label)
		snprintf(title, sizeof(title), "%s%s%s", r->queries[r->series[s].query],
			 *label ? ", " : "", label);
	else
		snprintf(title, sizeof(title), "%s", label);
	fprintf(f, "\n\nposition value ");
	put_quoted(f, title);
	fprintf(f, " lo_s hi_s\n");
	for (size_t i = 0; i < n; i++) {
		const struct result_group *g = &r->groups[idx[i]];

		fprintf(f, "%zu ", position(sw, g->value[r->swept]));
		put_quoted(f, result_value(r, g, r->swept));
		fprintf(f, " %.6f %.6f %.6f\n", g->median_ms / 1000,
			(isnan(g->ci.lo) ? g->min_ms : g->ci.lo) / 1000,
			(isnan(g->ci.hi) ? g->max_ms : g->ci.hi) / 1000);
	}
}

static int plot_data(const struct sweep_result *r, FILE *f)
{
	const struct result_setting *sw = &r->settings[r->swept];
	size_t *idx = malloc((r->ngroups + 1) * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	fprintf(f, "# eicbench sweep plot data. Block 0: x position and label of each value of %s.\n"
		   "# Then one block per series: position, value, median and its interval's ends, in s,\n"
		   "# of the %s.\n",
		sw->name, r->heap_phase ? "heap phase" : "execution time");
	for (size_t p = 0; p < sw->nvalues; p++)
		for (size_t v = 0; v < sw->nvalues; v++)
			if (position(sw, v) == p) {
				fprintf(f, "%zu ", p);
				put_quoted(f, sw->values[v]);
				fputc('\n', f);
			}
	for (size_t s = 0; s < r->nseries; s++)
		put_series(f, r, s, idx);
	free(idx);
	return 0;
}

static int write_plot_data(const struct sweep_result *r, const char *path, char *msg, size_t msglen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -ENOMEM;
	ret = plot_data(r, f);
	if (fclose(f) != 0 && ret == 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = record_write_file_atomic(path, buf, len, msg, msglen);
	free(buf);
	return ret;
}

/* ---- gnuplot ---- */

static void plot_title(const struct sweep_result *r, char *buf, size_t len)
{
	const char *v = record_str_at(r->meta, "server", "version");
	const char *dev = record_str_at(r->meta, "device", "name");

	snprintf(buf, len, "query %s on %s, PostgreSQL %s", r->queries[0],
		 dev ? dev : "an unknown device", v ? v : "(version unknown)");
}

int report_plot(const struct sweep_result *r, const char *dir, char *msg, size_t msglen)
{
	char dat[PATH_MAX], base[PATH_MAX], log[PATH_MAX], title[512], ylabel[128], why[512];
	char *args[] = { dat, base, title, (char *)r->settings[r->swept].name, ylabel, NULL };
	int ret;

	snprintf(dat, sizeof(dat), "%s/%s", dir, REPORT_PLOT_DAT);
	snprintf(base, sizeof(base), "%s/%s", dir, PLOT_BASE);
	snprintf(log, sizeof(log), "%s/plot.log", dir);
	snprintf(ylabel, sizeof(ylabel), "%s, s (median; bars: its interval)",
		 r->heap_phase ? "heap phase" : "execution time");
	plot_title(r, title, sizeof(title));
	ret = write_plot_data(r, dat, msg, msglen);
	if (ret < 0)
		return ret;
	ret = plot_run(REPORT_PLOT_SCRIPT, args, log, why, sizeof(why));
	if (ret == 0)
		snprintf(msg, msglen, "%s.svg and %s.png (data: %s)", base, base, dat);
	else if (ret == 1)
		snprintf(msg, msglen, "%s; the plot data is in %s", why, dat);
	else
		snprintf(msg, msglen, "%s", why);
	return ret;
}

/* ---- the whole re-render ---- */

static int copy_file(const char *dir, const char *file, FILE *out, char *err, size_t errlen)
{
	char path[PATH_MAX], buf[8192];
	FILE *in;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	in = fopen(path, "re");
	if (!in) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return 0;
}

int report_folder(const char *dir, enum report_format format, int plot, FILE *out,
		  char *note, size_t notelen, char *err, size_t errlen)
{
	struct sweep_result r;
	int ret = judge_sweep(dir, &r, err, errlen);

	snprintf(note, notelen, "no plots (not asked for)");
	if (ret == 0)
		ret = report_write_files(&r, dir, err, errlen);
	if (ret == 0 && plot) {
		char msg[1024];
		int p = report_plot(&r, dir, msg, sizeof(msg));

		snprintf(note, notelen, "%s: %s", p == 0 ? "plots" : p == 1 ? "plots skipped" : "plots failed", msg);
	}
	if (ret == 0 && format == REPORT_CSV)
		ret = copy_file(dir, REPORT_SUMMARY_CSV, out, err, errlen);
	else if (ret == 0 && report_render(&r, format, out) < 0) {
		snprintf(err, errlen, "out of memory while rendering %s", dir);
		ret = -ENOMEM;
	}
	result_free(&r);
	return ret;
}

int report_sweep_finish(const char *dir, FILE *out, char *err, size_t errlen)
{
	char note[1280];
	int ret = report_folder(dir, REPORT_TEXT, 1, out, note, sizeof(note), err, errlen);

	if (ret == 0)
		fprintf(out, "\nWritten to %s: %s, %s; %s\n", dir, REPORT_SUMMARY_CSV, REPORT_MD, note);
	return ret;
}
