/*
 * probe_plan: a probe's options into its plan, with the checks that name a
 * bad value; see probe_plan.h. The forms: --file; --relation (with --query,
 * --datadir or --dsn); for the cache check also --datadir or --dsn alone
 * (the data set's files).
 */
#include "bench/probe/probe_plan.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli/opts.h"
#include "io/curve.h"

/* Engine names, comma-separated, each once. */
static int parse_engines(const char *s, struct probe_plan *p, char *err, size_t len)
{
	for (const char *at = s;; at++) {
		size_t n = strcspn(at, ",");
		char name[32];
		const struct engine_ops *e;

		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) ? n : sizeof(name) - 1), at);
		e = n && n < sizeof(name) ? engine_find(name) : NULL;
		for (unsigned i = 0; e && i < p->nengines; i++)
			if (p->engines[i] == e) {
				snprintf(err, len, "--engine: '%s' is given twice; give each engine once", name);
				return -EINVAL;
			}
		if (!e) {
			snprintf(err, len, "--engine: %s%s%s; give a comma-separated list of psync, fadvise, io_uring, readstream",
				 n ? "'" : "an empty item", n ? name : "", n ? "' is not an engine" : "");
			return -EINVAL;
		}
		p->engines[p->nengines++] = e;	/* at most the 4 engines there are */
		at += n;
		if (!*at)
			return 0;
	}
}

static int parse_depths(const char *s, struct probe_plan *p, char *err, size_t len)
{
	long long d[PROBE_PLAN_MAX_DEPTHS];
	int n = opts_parse_ll_list("depth", s, 1, PROBE_MAX_DEPTH, d,
				   PROBE_PLAN_MAX_DEPTHS, err, len);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		p->depths[i] = (unsigned)d[i];
	p->ndepths = (unsigned)n;
	return 0;
}

static int parse_pattern(const char *s, struct probe_plan *p, char *err, size_t len)
{
	p->pattern = s;
	if (!strcmp(s, "random")) {
		p->kind = BLOCKS_RANDOM;
	} else if (!strcmp(s, "seq")) {
		p->kind = BLOCKS_SEQ;
	} else if (!strncmp(s, "replay:", 7) && s[7]) {
		p->kind = BLOCKS_REPLAY;
		p->replay_file = s + 7;
	} else {
		snprintf(err, len, "--pattern: '%s' is not allowed; give random, seq or replay:FILE", s);
		return -EINVAL;
	}
	return 0;
}

static int dsn_and_datadir(char *err, size_t len)
{
	snprintf(err, len, "--datadir and --dsn exclude each other: the managed cluster, or an existing server");
	return -EINVAL;
}

/*
 * Which form: --file, or --relation (with --query, --datadir or --dsn), or
 * for --cache-check also --datadir or --dsn alone (the data set's files).
 */
static int check_form(const struct probe_cfg *o, char *err, size_t len)
{
	bool rel = o->relation || o->query || o->srv.datadir || o->srv.dsn;

	if (o->srv.listen || o->srv.restart_cmd)
		snprintf(err, len, "--%s: probe never initializes or restarts a server; drop it",
			 o->srv.listen ? "listen" : "restart-cmd");
	else if (o->file && rel)
		snprintf(err, len, "--file (the file form) excludes --relation, --query, --datadir and --dsn (the relation form); give one form");
	else if (o->file)
		return 0;
	else if (!o->relation && rel && o->cache_check && !o->query)
		return o->srv.datadir && o->srv.dsn ? dsn_and_datadir(err, len) : 0;
	else if (!o->relation && rel)
		snprintf(err, len, "--relation is required with --query, --datadir or --dsn: the table whose heap blocks to replay");
	else if (!o->relation)
		snprintf(err, len, "give --file PATH (a file or device) or --relation NAME (a table of the cluster in --datadir, or of --dsn)");
	else if (o->pattern && (o->query || !strncmp(o->pattern, "replay:", 7)))
		snprintf(err, len, "--pattern %s with --relation: give --query (replay the query's heap blocks) or --pattern random|seq (the relation's blocks), not both",
			 o->pattern);
	else if (o->seed >= 0 && !o->cache_check && !(o->pattern && !strcmp(o->pattern, "random")))
		snprintf(err, len, "--seed belongs to --pattern random (and --cache-check); the relation form replays the query's heap blocks");
	else if (o->srv.datadir && o->srv.dsn)
		return dsn_and_datadir(err, len);
	else
		return 0;
	return -EINVAL;
}

/* --cache-check reads a sample of its own, O_DIRECT, once: point options do not apply. */
static int check_cache_form(const struct probe_cfg *o, char *err, size_t len)
{
	const char *bad = o->engine ? "engine" : o->depth ? "depth" : o->combine ? "combine" :
			  o->duration > 0 ? "duration" : o->count ? "count" : o->steady ? "steady" :
			  o->pattern ? "pattern" : o->direct ? "direct" : o->no_cold ? "no-cold" :
			  o->query ? "query" : o->one_pass ? "one-pass" : o->sizes ? "sizes" :
			  o->until_plateau ? "until-plateau" : o->window > 0 ? "window" : NULL;

	if (!bad && o->bs && !o->file && !o->relation) {
		snprintf(err, len, "--bs does not apply to the data set's files, which are read in the server's block_size");
		return -EINVAL;
	}
	if (!bad)
		return 0;
	snprintf(err, len, "--%s does not apply to --cache-check, which reads its own random sample with O_DIRECT, one block at a time%s",
		 bad, !strcmp(bad, "query") ? ", over the whole relation" : "");
	return -EINVAL;
}

/* --duration, --count, --one-pass, --steady and its --window. */
static int plan_time(const struct probe_cfg *o, struct probe_plan *p, char *err, size_t len)
{
	double lo, hi;

	p->count = (uint64_t)o->count;
	p->duration_s = o->duration;
	p->steady = o->steady;
	p->one_pass = o->one_pass;
	p->window_s = o->window > 0 ? o->window : 1.0;
	if (o->count && (o->duration > 0 || o->steady || o->one_pass)) {
		snprintf(err, len, "--count excludes --%s; give one", o->steady ? "steady" : o->one_pass ? "one-pass" : "duration");
		return -EINVAL;
	}
	if (o->one_pass && (o->duration > 0 || o->steady)) {
		snprintf(err, len, "--one-pass excludes --%s; give one", o->steady ? "steady" : "duration");
		return -EINVAL;
	}
	if (o->window > 0 && !o->steady) {
		snprintf(err, len, "--window belongs to --steady; give that too, or leave --window out");
		return -EINVAL;
	}
	if (!o->steady)
		return 0;
	lo = CURVE_STEADY_WINDOWS * p->window_s;
	hi = PROBE_MAX_WINDOWS * p->window_s;
	if (p->duration_s <= 0)
		p->duration_s = PROBE_PLAN_STEADY_MAX_S;
	if (p->duration_s < lo || p->duration_s > hi) {
		snprintf(err, len, "--duration: %g s with --steady is outside %g..%g s (the rule needs %d windows of %g s)",
			 p->duration_s, lo, hi, CURVE_STEADY_WINDOWS, p->window_s);
		return -EINVAL;
	}
	return 0;
}

/* --combine: readstream's only; then every engine's buffers bounded. */
static int plan_combine(const struct probe_cfg *o, struct probe_plan *p, char *err, size_t len)
{
	bool stream = false;

	for (unsigned i = 0; i < p->nengines; i++)
		stream |= (p->engines[i]->flags & ENGINE_COMBINE) != 0;
	p->combine = o->combine ? (unsigned)o->combine : PROBE_PLAN_COMBINE;
	if (o->combine && !stream) {
		snprintf(err, len, "--combine applies to the readstream engine only; add it to --engine or drop --combine");
		return -EINVAL;
	}
	return probe_plan_check_buffers(p, err, len);
}

/* --sizes: block sizes, each a multiple of 512 (4096 with --direct), ascending or not. */
static int plan_sizes(const struct probe_cfg *o, struct probe_plan *p, char *err, size_t len)
{
	const char *at = o->sizes;

	if (!at)
		return 0;
	if (o->bs) {
		snprintf(err, len, "--sizes and --bs both given; give one");
		return -EINVAL;
	}
	for (;;) {
		size_t n = strcspn(at, ",");
		char one[32];
		uint64_t v = 0;

		snprintf(one, sizeof(one), "%.*s", (int)(n < sizeof(one) ? n : sizeof(one) - 1), at);
		if (p->nsizes == PROBE_PLAN_MAX_SIZES || opts_parse_size(one, &v) < 0 || v < 512 ||
		    v > PROBE_PLAN_MAX_SIZE || v % 512 || (o->direct && v % 4096)) {
			snprintf(err, len, "--sizes: '%s' is not allowed; give up to %d sizes from 512 to 16m, each a multiple of 512 (of 4k with --direct), comma-separated",
				 one, PROBE_PLAN_MAX_SIZES);
			return -EINVAL;
		}
		p->sizes[p->nsizes++] = (uint32_t)v;
		at += n;
		if (!*at++)
			break;
	}
	p->block_bytes = p->sizes[0];
	return 0;
}

/* --until-plateau walks the depths upward. */
static int plan_plateau(const struct probe_cfg *o, struct probe_plan *p, char *err, size_t len)
{
	p->until_plateau = o->until_plateau;
	for (unsigned i = 1; o->until_plateau && i < p->ndepths; i++)
		if (p->depths[i] <= p->depths[i - 1]) {
			snprintf(err, len, "--until-plateau needs --depth in ascending order; %u comes after %u",
				 p->depths[i], p->depths[i - 1]);
			return -EINVAL;
		}
	return 0;
}

/* posix_fadvise(WILLNEED) reads ahead into the page cache, and O_DIRECT
 * reads bypass it: each block would be read twice, and the window would
 * seem to gain nothing. */
static int check_direct(const struct probe_cfg *o, const struct probe_plan *p,
			char *err, size_t len)
{
	for (unsigned i = 0; o->direct && i < p->nengines; i++)
		if (p->engines[i] == &engine_fadvise) {
			snprintf(err, len, "--engine fadvise with --direct: posix_fadvise reads ahead into the page cache, which O_DIRECT reads bypass (each block would be read twice); leave --direct out for fadvise, or give --engine psync,io_uring");
			return -EINVAL;
		}
	return 0;
}

/* What both forms share. */
static int plan_common(const struct probe_cfg *o, struct probe_plan *p,
		       char *err, size_t len)
{
	int rc;

	if (o->direct && o->bs % 512) {
		snprintf(err, len, "--bs: %" PRIu64 " is not a multiple of 512, which --direct needs", o->bs);
		return -EINVAL;
	}
	p->block_bytes = (uint32_t)(o->bs ? o->bs : 8192);
	p->direct = o->direct;
	p->cold = !o->no_cold;
	p->keep_page_reporting = o->keep_page_reporting;
	p->json = o->json;
	p->out = o->out;
	p->cache_check = o->cache_check;
	p->seed = (uint64_t)(o->seed < 0 ? 1 : o->seed);
	p->stop = o->stop;
	if (o->cache_check)
		return check_cache_form(o, err, len);
	if ((rc = plan_time(o, p, err, len)) < 0 ||
	    (rc = parse_engines(o->engine ? o->engine : o->direct ? PROBE_PLAN_ENGINES_DIRECT : PROBE_PLAN_ENGINES,
				p, err, len)) < 0 || (rc = check_direct(o, p, err, len)) < 0 ||
	    (rc = parse_depths(o->depth ? o->depth : PROBE_PLAN_DEPTHS, p, err, len)) < 0 ||
	    (rc = plan_sizes(o, p, err, len)) < 0 || (rc = plan_plateau(o, p, err, len)) < 0)
		return rc;
	return plan_combine(o, p, err, len);
}

int probe_plan_make(const struct probe_cfg *o, struct probe_plan *p,
		    char *err, size_t len)
{
	int rc = check_form(o, err, len);

	if (rc == 0)
		rc = plan_common(o, p, err, len);
	if (rc < 0 || (!o->file && !o->pattern))
		return rc;
	if (o->file) {
		p->paths = &o->file;
		p->npaths = 1;
	}
	if (o->cache_check) {
		p->pattern = "cache-check";
		return 0;
	}
	/* the file form, or the relation form over its own blocks */
	if ((rc = parse_pattern(o->pattern ? o->pattern : "random", p, err, len)) < 0)
		return rc;
	if (p->one_pass && p->kind == BLOCKS_RANDOM) {
		snprintf(err, len, "--one-pass reads every block of a pattern once; random has no such pass: give --pattern seq, or --duration or --count");
		return -EINVAL;
	}
	if (p->kind != BLOCKS_REPLAY && !p->count && p->duration_s <= 0 && !p->one_pass)
		p->duration_s = 10.0;
	return 0;
}

int probe_plan_check_buffers(const struct probe_plan *p, char *err, size_t len)
{
	unsigned maxd = 0;

	for (unsigned i = 0; i < p->ndepths; i++)
		maxd = p->depths[i] > maxd ? p->depths[i] : maxd;
	for (unsigned i = 0; i < p->nengines; i++) {
		bool stream = p->engines[i]->flags & ENGINE_COMBINE;
		uint64_t read_bytes = (uint64_t)(stream ? p->combine : 1) * p->block_bytes;
		char comb[32] = "";

		if (p->engines[i] == &engine_psync || (uint64_t)maxd * read_bytes <= PROBE_MAX_BUF_BYTES)
			continue;	/* psync runs at depth 1 */
		if (stream)
			snprintf(comb, sizeof(comb), " and --combine %u", p->combine);
		snprintf(err, len, "--depth %u with blocks of %u bytes%s: %u reads of %" PRIu64 " bytes in flight need %" PRIu64 " MiB, more than the %u MiB of buffers allowed (depth x %sblock size, a fixed bound); lower one",
			 maxd, p->block_bytes, comb, maxd, read_bytes,
			 ((uint64_t)maxd * read_bytes) >> 20, PROBE_MAX_BUF_BYTES >> 20,
			 stream ? "--combine x " : "");
		return -EINVAL;
	}
	return 0;
}


json_t *probe_plan_json(const struct probe_plan *p)
{
	json_t *files = json_array(), *engines = json_array(), *depths = json_array();
	json_t *sizes = json_array(), *o;

	for (unsigned i = 0; i < p->npaths; i++)
		json_array_append_new(files, json_string(p->paths[i]));
	for (unsigned i = 0; i < p->nengines; i++)
		json_array_append_new(engines, json_string(p->engines[i]->name));
	for (unsigned i = 0; i < p->ndepths; i++)
		json_array_append_new(depths, json_integer(p->depths[i]));
	for (unsigned i = 0; i < p->nsizes; i++)
		json_array_append_new(sizes, json_integer(p->sizes[i]));
	o = json_pack("{s:o, s:o, s:o, s:i, s:s, s:b, s:b, s:f, s:I, s:I, s:i, s:b, s:b}",
		      "files", files, "engines", engines, "depths", depths,
		      "block_bytes", (json_int_t)p->block_bytes, "pattern", p->pattern,
		      "direct", p->direct, "cold", p->cold, "duration_s", p->duration_s,
		      "count", (json_int_t)p->count, "seed", (json_int_t)p->seed,
		      "combine", (int)p->combine, "steady", p->steady, "cache_check", p->cache_check);
	if (o && p->nsizes)
		json_object_set_new(o, "sizes", sizes);
	else
		json_decref(sizes);
	if (o && p->steady)
		json_object_set_new(o, "window_s", json_real(p->window_s));
	if (o && p->one_pass)
		json_object_set_new(o, "one_pass", json_true());
	if (o && p->until_plateau)
		json_object_set_new(o, "until_plateau", json_true());
	return o;
}
