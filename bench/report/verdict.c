/*
 * verdict: loading a run's folder and the figures the verdict rests on:
 * pairs of observed and replayed times, and the storage-wide pick. The
 * words are in verdict_doc.c.
 */
#include "bench/report/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record.h"

static void note_missing(struct verdict *v, const char *what, const char *why)
{
	size_t used = strlen(v->missing);

	snprintf(v->missing + used, sizeof(v->missing) - used, "%s%s (%s)", used ? "; " : "", what, why);
}

static json_t *load_json(const char *dir, const char *sub, const char *file)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, file);
	return json_load_file(path, 0, NULL);
}

/* points.jsonl of DIR/SUB as an array, torn last line left out; NULL if none. */
static json_t *load_points(struct verdict *v, const char *sub)
{
	char path[PATH_MAX * 2], err[512];
	json_t *a = NULL;
	int torn = 0;

	snprintf(path, sizeof(path), "%s/%s", v->dir, sub);
	if (record_load(path, "points.jsonl", &a, &torn, err, sizeof(err)) < 0)
		return NULL;
	if (torn)
		note_missing(v, sub, "its last point was torn and is left out");
	return a;
}

static void load_query(struct verdict *v, const char *name, const char *sub)
{
	struct verdict_query *q = &v->q[v->nq];
	const char *rsub = json_string_value(json_object_get(json_object_get(v->meta, "replays"), name));
	char err[1024];

	char tmp[sizeof(q->sweep_dir)];

	q->name = name;
	snprintf(tmp, sizeof(tmp), "%s/%.70s", v->dir, sub);
	memcpy(q->sweep_dir, tmp, sizeof(tmp));
	if (report_load(q->sweep_dir, &q->rep, err, sizeof(err)) == 0) {
		q->have_rep = 1;
		q->rep.per_query = 1;
	}
	else
		note_missing(v, sub, err);
	if (rsub) {
		snprintf(tmp, sizeof(tmp), "%s/%.70s", v->dir, rsub);
		memcpy(q->replay_dir, tmp, sizeof(tmp));
		q->replay_meta = load_json(v->dir, rsub, RECORD_META);
		q->replay_points = load_points(v, rsub);
		if (!q->replay_points || !json_array_size(q->replay_points))
			note_missing(v, rsub, "no replay points recorded");
	}
	v->nq++;
}

int verdict_load(const char *dir, struct verdict *v, char *err, size_t errlen)
{
	const char *cmd, *name, *dev, *cc;
	json_t *sub;
	int have = 0;

	memset(v, 0, sizeof(*v));
	snprintf(v->dir, sizeof(v->dir), "%s", dir);
	v->meta = load_json(dir, ".", RECORD_META);
	cmd = json_string_value(json_object_get(v->meta, "command"));
	if (!cmd || strcmp(cmd, "run")) {
		snprintf(err, errlen, "%s: %s", dir, v->meta ? "not the folder of an eicbench run" : "no readable meta.json");
		return -EINVAL;
	}
	json_object_foreach(json_object_get(v->meta, "sweeps"), name, sub)
		if (json_is_string(sub) && v->nq < REPORT_MAX_QUERIES)
			load_query(v, name, json_string_value(sub));
	for (int i = 0; i < v->nq; i++)
		have += v->q[i].have_rep;
	if (!have) {
		snprintf(err, errlen, "%s: no sweep with finished trials yet (%s); run or resume it first",
			 dir, v->missing[0] ? v->missing : "none recorded");
		return -EINVAL;
	}
	dev = json_string_value(json_object_get(v->meta, "device_curve"));
	if (dev && (v->device_points = load_points(v, dev)) != NULL)
		v->device_curve = load_json(dir, dev, "curve.json");
	else if (dev)
		note_missing(v, dev, "no device curve recorded");
	cc = json_string_value(json_object_get(v->meta, "cache_check"));
	if (cc && !(v->cachecheck = load_json(dir, cc, "cachecheck.json")))
		note_missing(v, cc, "no cache check recorded");
	return 0;
}

void verdict_free(struct verdict *v)
{
	for (int i = 0; i < v->nq; i++) {
		report_free(&v->q[i].rep);
		json_decref(v->q[i].replay_meta);
		json_decref(v->q[i].replay_points);
	}
	json_decref(v->meta);
	json_decref(v->device_points);
	json_decref(v->device_curve);
	json_decref(v->cachecheck);
	memset(v, 0, sizeof(*v));
}

double verdict_replay_ms(const struct verdict_query *q, const char *engine, unsigned depth)
{
	json_t *p;
	size_t i;

	json_array_foreach(q->replay_points, i, p) {
		const char *e = json_string_value(json_object_get(p, "engine"));

		if (e && !strcmp(e, engine) && json_integer_value(json_object_get(p, "depth")) == depth &&
		    !json_is_true(json_object_get(p, "stopped")))
			return report_num_at(p, "elapsed_s") * 1000;
	}
	return NAN;
}

static const struct report_group *group_of(const struct report *r, const char *value)
{
	size_t g;

	if (!r->nseries)
		return NULL;
	g = report_find(r, &r->groups[r->series[0].first], value);
	return g == REPORT_NONE ? NULL : &r->groups[g];
}

int verdict_pair(const struct verdict_query *q, const char *value, struct verdict_pair *p)
{
	unsigned depth = (unsigned)strtoul(value, NULL, 10);
	double saved;

	memset(p, 0, sizeof(*p));
	p->g = q->have_rep ? group_of(&q->rep, value) : NULL;
	if (!p->g)
		return -1;
	p->g0 = group_of(&q->rep, "0");
	p->heap_ms = p->g->median_ms;
	p->speedup = p->g->speedup_vs_0;
	p->replay0_ms = verdict_replay_ms(q, "psync", 1);
	p->replay_ms = depth ? verdict_replay_ms(q, "fadvise", depth) : p->replay0_ms;
	p->uring_ms = depth ? verdict_replay_ms(q, "io_uring", depth) : NAN;
	p->predicted = p->replay0_ms / p->replay_ms;
	p->heap_cpu_s = p->g->heap_cpu_share * p->heap_ms / 1000;
	p->accounted = NAN;
	saved = p->g0 ? p->g0->median_ms - p->heap_ms : NAN;
	/* a share only when the replay moved the same way as the query */
	if (isfinite(saved) && fabs(saved) >= VERDICT_SHARE_MIN * p->g0->median_ms &&
	    (p->replay0_ms - p->replay_ms) * saved > 0)
		p->accounted = (p->replay0_ms - p->replay_ms) / saved;
	return 0;
}
