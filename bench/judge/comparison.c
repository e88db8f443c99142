/*
 * comparison: loading folders side by side (sweeps, or runs holding one
 * sweep per query), the data-set check, and the lines per query; see
 * comparison.h.
 */
#include "bench/judge/comparison.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record.h"

static int refuse(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return -EINVAL;
}

/* The sweep folders of DIR: DIR itself, or a run's sweeps in query order. */
static int sweep_dirs(const char *dir, json_t *meta, char paths[][PATH_MAX], int max)
{
	const char *cmd = record_str_at(meta, "command", NULL), *q;
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
	const char *dev = record_str_at(m, "device", "name"), *fs = record_str_at(m, "device", "fstype");
	const char *v = record_str_at(m, "server", "version");
	const char *ck = record_str_at(json_object_get(m, "server"), "settings", "data_checksums");
	const char *im = record_str_at(json_object_get(m, "server"), "settings", "io_method");
	long ra = (long)record_num_at(m, "device.read_ahead_kb");
	const char *ts = record_str_at(json_object_get(m, "plan"), "tablespace", "name");
	const char *emu = record_str_at(json_object_get(m, "device"), "emulated", "summary");
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
	char paths[RESULT_MAX_QUERIES][PATH_MAX], path[PATH_MAX], msg[1024];
	int n, ret;

	s->dir = dir;
	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_META);
	s->meta = json_load_file(path, 0, NULL);
	if (!s->meta)
		return refuse(err, errlen, "%s: no readable meta.json%s; give folders written by eicbench sweep or run",
			   dir, "");
	n = sweep_dirs(dir, s->meta, paths, RESULT_MAX_QUERIES);
	if (n == 0)
		return refuse(err, errlen, "%s holds the records of '%s'; compare reads folders of eicbench sweep or run",
			   dir, record_str_at(s->meta, "command", NULL) ?: "(no command)");
	for (int i = 0; i < n; i++) {
		ret = result_load(paths[i], &s->reports[s->nreports], msg, sizeof(msg));
		if (ret < 0) {
			result_free(&s->reports[s->nreports]);
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
	const struct sweep_result *first = &c->sides[0].reports[0];
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
	if (c->nqueries == RESULT_MAX_QUERIES)
		return -1;
	c->queries[c->nqueries].name = name;
	return c->nqueries++;
}

static void add_lines(struct compare *c, int s, int k)
{
	const struct sweep_result *r = &c->sides[s].reports[k];
	int q = query_slot(c, c->sides[s].queries[k]);
	char label[256];

	for (size_t se = 0; q >= 0 && se < r->nseries; se++) {
		struct compare_query *cq = &c->queries[q];
		struct compare_line *l;

		if (cq->nlines == COMPARE_MAX_LINES)
			return;
		l = &cq->lines[cq->nlines++];
		*l = (struct compare_line){ .side = s, .report = k, .series = se };
		result_series_label(r, se, label, sizeof(label));
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
			result_free(&c->sides[s].reports[k]);
		json_decref(c->sides[s].meta);
	}
	memset(c, 0, sizeof(*c));
}

const struct sweep_result *compare_line_result(const struct compare *c, const struct compare_line *l)
{
	return &c->sides[l->side].reports[l->report];
}

const struct result_group *compare_group(const struct compare *c, const struct compare_line *l,
					 const char *value)
{
	const struct sweep_result *r = compare_line_result(c, l);
	size_t g = result_find(r, &r->groups[r->series[l->series].first], value);

	return g == RESULT_NONE ? NULL : &r->groups[g];
}
