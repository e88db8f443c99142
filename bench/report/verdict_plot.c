/*
 * verdict_plot: the ending of a run: the plots of the verdict (observed and
 * predicted speedups per query with plot-sweep.gp, the device's curve with
 * plot-device.gp), report.md and report.html written atomically, and the
 * text on the terminal. See verdict.h.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/report/plot.h"
#include "bench/record/record.h"
#include "bench/report/verdict.h"
#include "bench/report/verdict_doc.h"
#include "bench/report/prediction_doc.h"
#include "bench/judge/prediction.h"
#include "bench/report/verdict_box.h"
#include "bench/report/verdict_classes.h"
#include "io/file.h"


static void block(FILE *f, const char *title)
{
	fprintf(f, "\n\nposition value \"%s\" lo hi\n", title);
}

/* speedup-Q.dat: observed with its interval, and predicted by the replay
 * trials when the sweep ran them. */
static int speedup_data(const struct run_query *q, const char *path)
{
	size_t idx[q->rep.ngroups + 1], n = result_series_groups(&q->rep, 0, idx);
	const struct prediction *p = judge_prediction(&q->rep, 0);
	int have = p && p->zero != RESULT_NONE;
	FILE *f = file_fopen_write(path);

	if (!f)
		return -errno;
	fprintf(f, "# eicbench run: speedup against 0 per value of effective_io_concurrency\n");
	for (size_t k = 0; k < n; k++)
		fprintf(f, "%zu \"%s\"\n", k, result_value(&q->rep, &q->rep.groups[idx[k]], q->rep.swept));
	block(f, "observed (heap phase)");
	for (size_t k = 0; k < n; k++) {
		const struct result_group *g = &q->rep.groups[idx[k]];
		const char *v = result_value(&q->rep, g, q->rep.swept);
		double y = g->speedup_vs_0;
		double lo = !isnan(g->ci_vs_0.lo) ? g->ci_vs_0.lo : y;
		double hi = !isnan(g->ci_vs_0.hi) ? g->ci_vs_0.hi : y;

		if (!strcmp(v, "0"))	/* the reference: 1 by definition, no interval */
			y = lo = hi = 1;
		if (isfinite(y))
			fprintf(f, "%zu \"%s\" %.6f %.6f %.6f\n", k, v, y, lo, hi);
	}
	if (have)
		block(f, "replay trials");
	for (size_t k = 0; have && k < n; k++)
		for (size_t j = 0; j < p->nvalues; j++) {
			double y = p->v[p->zero].replay_ms / p->v[j].replay_ms;

			if (p->v[j].group != idx[k])
				continue;
			if (j == p->zero)
				y = 1;
			if (isfinite(y))
				fprintf(f, "%zu \"%s\" %.6f %.6f %.6f\n", k, p->v[j].value, y, y, y);
		}
	return fclose(f) == 0 ? 0 : -EIO;
}

static int plot_speedups(const struct run_result *v, char *msg, size_t msglen)
{
	for (int i = 0; i < v->nq; i++) {
		const struct run_query *q = &v->q[i];
		char dat[PATH_MAX + 64], base[PATH_MAX + 64], log[PATH_MAX + 16], title[128];
		char *args[] = { dat, base, title, "effective_io_concurrency",
				 "speedup against 0 (bars: the observed one's interval)", NULL };
		int ret;

		if (!q->have_rep)
			continue;
		snprintf(dat, sizeof(dat), "%s/speedup-%s.dat", v->dir, q->name);
		snprintf(base, sizeof(base), "%s/speedup-%s", v->dir, q->name);
		snprintf(log, sizeof(log), "%s/plot.log", v->dir);
		snprintf(title, sizeof(title), "query %s: observed and predicted speedup", q->name);
		if ((ret = speedup_data(q, dat)) < 0)
			return snprintf(msg, msglen, "cannot write %.900s: %s", dat, strerror(-ret)), ret;
		if ((ret = plot_run("plot-sweep.gp", args, log, msg, msglen)) != 0)
			return ret;
	}
	return 0;
}

static int plot_device(const struct run_result *v, char *msg, size_t msglen)
{
	const json_t *e = json_array_get(json_object_get(v->device_curve, "engines"), 0);
	char dat[PATH_MAX + 16], base[PATH_MAX + 16], log[PATH_MAX + 16], knee[32];
	char *args[] = { dat, base, knee, NULL };
	size_t i;
	json_t *p;
	FILE *f;

	if (!v->device_points)
		return 0;
	snprintf(dat, sizeof(dat), "%s/device.dat", v->dir);
	snprintf(base, sizeof(base), "%s/device", v->dir);
	snprintf(log, sizeof(log), "%s/plot.log", v->dir);
	snprintf(knee, sizeof(knee), "%lld", e ? json_integer_value(json_object_get(e, "knee_depth")) : 0LL);
	f = file_fopen_write(dat);
	if (!f)
		return snprintf(msg, msglen, "cannot write %.900s: %s", dat, strerror(errno)), -errno;
	fprintf(f, "# eicbench run: the device's curve: depth, IOPS, p99 latency in µs\n");
	json_array_foreach(v->device_points, i, p)
		fprintf(f, "%lld %.1f %.1f\n", json_integer_value(json_object_get(p, "depth")),
			record_num_at(p, "iops"), record_num_at(p, "lat_ns.p99") / 1e3);
	if (fclose(f) != 0)
		return snprintf(msg, msglen, "cannot write %.900s", dat), -EIO;
	return plot_run("plot-device.gp", args, log, msg, msglen);
}

static int md_of(const void *d, FILE *f)
{
	return doc_md_out(d, f);
}

static int html_of(const void *d, FILE *f)
{
	return doc_html_out(d, NULL, f);	/* titled as its heading: device, host, date, version */
}

static int write_doc(const struct doc *d, const char *dir, const char *file,
		     int (*render)(const void *, FILE *), char *err, size_t errlen)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return record_write_rendered(path, render, d, err, errlen);
}

/* Each query's replay trials beside its query trials (prediction_json), as
 * "replay" of the verdict's JSON, when any sweep ran them. */
static void add_replay_json(const struct run_result *v, json_t *j)
{
	json_t *rp = json_object();

	for (int i = 0; rp && i < v->nq; i++)
		if (v->q[i].have_rep && v->q[i].rep.companions && json_array_size(v->q[i].rep.companions))
			json_object_set_new(rp, v->q[i].name, prediction_json(&v->q[i].rep));
	if (rp && json_object_size(rp))
		json_object_set_new(j, "replay", rp);
	else
		json_decref(rp);
}

static int write_all(const struct judgement *j, struct doc *d, int plot, char *note, size_t notelen,
		     char *err, size_t errlen)
{
	const struct run_result *v = &j->run;
	char msg[1024] = "";
	int p = 1, ret;

	snprintf(msg, sizeof(msg), "not asked for");
	if (plot) {
		p = plot_speedups(v, msg, sizeof(msg));
		if (p == 0)
			p = plot_device(v, msg, sizeof(msg));
	}
	snprintf(note, notelen, "%s%s", p == 0 ? "plots made" : p == 1 ? "plots skipped: " : "plots failed: ",
		 p == 0 ? "" : msg);
	verdict_document(j, d);
	ret = write_doc(d, v->dir, VERDICT_MD, md_of, err, errlen);
	if (ret == 0)
		ret = write_doc(d, v->dir, VERDICT_HTML, html_of, err, errlen);
	return ret;
}

int verdict_render(const char *dir, enum report_format format, int plot, FILE *out,
		   char *note, size_t notelen, char *err, size_t errlen)
{
	struct judgement *j = calloc(1, sizeof(*j));
	struct doc d = { 0 };
	int ret = j ? judge_run(dir, j, err, errlen) : -ENOMEM;

	if (ret == 0)
		ret = write_all(j, &d, plot, note, notelen, err, errlen);
	if (ret == 0) {
		switch (format) {
		case REPORT_MARKDOWN:
			ret = doc_md_out(&d, out);
			break;
		case REPORT_HTML:
			ret = html_of(&d, out);
			break;
		case REPORT_JSON: {
			json_t *o = j->decided ? verdict_box_json(&j->run, &j->storage, &j->stability) : NULL;

			if (o) {
				add_replay_json(&j->run, o);
				json_object_set_new(o, "classes", verdict_classes_json(j));
			}
			else
				snprintf(err, errlen, "%s", j->why_none);
			ret = o && json_dumpf(o, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) == 0 ? 0 : o ? -ENOMEM : -EINVAL;
			fputc('\n', out);
			json_decref(o);
			break;
		}
		case REPORT_CSV:
			snprintf(err, errlen, "--format csv: a run's folder has a summary.csv per sweep (in its sweep-* folders); give text, md, html or json");
			ret = -EINVAL;
			break;
		default:
			ret = doc_text_out(&d, out);
		}
	}
	doc_free(&d);
	if (j)
		judge_free(j);
	free(j);
	return ret;
}
