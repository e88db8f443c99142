/*
 * verdict: loading a run's folder (each query's sweep with its replay
 * trials, the device's curves, the cache check). The decision is
 * verdict_regret's (verdict_box.c); the words are in verdict_doc.c and
 * prediction_doc.c.
 */
#include "bench/judge/run_result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record.h"

static void note_missing(struct run_result *v, const char *what, const char *why)
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
static json_t *load_points(struct run_result *v, const char *sub)
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

static void load_query(struct run_result *v, const char *name, const char *sub)
{
	struct run_query *q = &v->q[v->nq];
	const char *rsub = json_string_value(json_object_get(json_object_get(v->meta, "replays"), name));
	char err[1024];

	char tmp[sizeof(q->sweep_dir)];

	q->name = name;
	snprintf(tmp, sizeof(tmp), "%s/%.70s", v->dir, sub);
	memcpy(q->sweep_dir, tmp, sizeof(tmp));
	if (result_load(q->sweep_dir, &q->rep, err, sizeof(err)) == 0) {
		q->have_rep = 1;
		q->rep.per_query = 1;
	}
	else
		note_missing(v, sub, err);
	if (rsub) {	/* an older run: replays after the sweeps, not used */
		snprintf(tmp, sizeof(tmp), "%s/%.70s", v->dir, rsub);
		memcpy(q->replay_dir, tmp, sizeof(tmp));
	}
	v->nq++;
}

int run_result_load(const char *dir, struct run_result *v, char *err, size_t errlen)
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
		if (json_is_string(sub) && v->nq < RESULT_MAX_QUERIES)
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
	dev = json_string_value(json_object_get(v->meta, "device_seq"));
	if (dev && !(v->device_seq = load_points(v, dev)))
		note_missing(v, dev, "no sequential reads recorded");
	cc = json_string_value(json_object_get(v->meta, "cache_check"));
	if (cc && !(v->cachecheck = load_json(dir, cc, "cachecheck.json")))
		note_missing(v, cc, "no cache check recorded");
	return 0;
}

void run_result_free(struct run_result *v)
{
	for (int i = 0; i < v->nq; i++) {
		result_free(&v->q[i].rep);
	}
	json_decref(v->meta);
	json_decref(v->device_points);
	json_decref(v->device_curve);
	json_decref(v->device_seq);
	json_decref(v->cachecheck);
	memset(v, 0, sizeof(*v));
}
