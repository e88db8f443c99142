/*
 * cmd_probe: "eicbench probe --file PATH ..." and "eicbench probe --relation
 * NAME ...": the options, the checks that name a bad value, and the plan they
 * make; then the file form runs it (cmd_probe_run.c), the relation form asks
 * the database first (cmd_probe_rel.c), --cache-check runs the check instead
 * of points (cmd_probe_cache.c). Exit 0 success, 1 a run failed, 2 bad usage
 * or bad input.
 */
#include "bench/cmd/probe.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "io/curve.h"

#define DEFAULT_ENGINES "psync,fadvise,io_uring"
#define DEFAULT_DEPTHS  "1,2,4,8,16,32,64,128,256"
#define USAGE "eicbench probe --file PATH [--pattern random|seq|replay:FILE] [--seed S] [OPTIONS]\n" \
	"       eicbench probe --relation NAME [--query blog|sparse|FILE] [--datadir DIR | --dsn CONNINFO] [OPTIONS]\n" \
	"       eicbench probe --cache-check (--file PATH [--bs SIZE] | [--relation NAME] [--datadir DIR | --dsn CONNINFO]) [--seed S] [--json] [--out DIR]\n" \
	"OPTIONS: [--engine psync,fadvise,io_uring,readstream] [--depth 1,2,4,...] [--combine N] [--bs 8k] [--direct]\n" \
	"       [--duration 10s | --count N | --one-pass | --steady [--window 1s] [--duration 30s]] [--until-plateau]\n" \
	"       [--sizes 128k,256k,...] [--json] [--out DIR] [--no-cold]"

#define O(f) offsetof(struct probe_opts, f)
static const struct opt_desc probe_table[] = {
	{ "file", OPT_STR, O(file), 0, 0, "PATH", NULL, "file form: file or block device to read (opened read-only)" },
	{ "relation", OPT_STR, O(relation), 0, 0, "NAME", NULL,
	  "relation form: the table whose heap blocks the query reads, replayed on its segment files" },
	{ "query", OPT_STR, O(query), 0, 0, "Q", "blog",
	  "relation form: blog, sparse, or a file holding SELECT * FROM NAME ..." },
	{ "engine", OPT_STR, O(engine), 0, 0, "LIST", DEFAULT_ENGINES,
	  "engines to run: psync, fadvise, io_uring, readstream" },
	{ "depth", OPT_STR, O(depth), 0, 0, "LIST", DEFAULT_DEPTHS,
	  "reads in flight (io_uring, readstream) or blocks advised ahead (fadvise), 1 to 4096" },
	{ "combine", OPT_INT, O(combine), 1, PROBE_MAX_COMBINE, "N", "16",
	  "readstream: adjacent blocks combined into one read at most (io_combine_limit in blocks)" },
	{ "bs", OPT_SIZE, O(bs), 512, 1 << 20, "SIZE", "8k", "block size (relation form: the server's block_size)" },
	{ "pattern", OPT_STR, O(pattern), 0, 0, "P", "random",
	  "file form: random, seq or replay:FILE (block numbers, one a line)" },
	{ "direct", OPT_FLAG, O(direct), 0, 0, NULL, NULL, "open with O_DIRECT (bypass the page cache)" },
	{ "duration", OPT_SECONDS, O(duration), 0, 86400, "TIME", "10s",
	  "time per point, at most 24h (a replay without --duration or --count: one pass); with --steady the most" },
	{ "count", OPT_INT, O(count), 1, 1000000000000LL, "N", NULL, "blocks per point instead of a duration" },
	{ "steady", OPT_FLAG, O(steady), 0, 0, NULL, NULL,
	  "run each point until its IOPS is steady: the last 5 one-second windows within ±5% of their mean (5 s to --duration, default 30 s)" },
	{ "window", OPT_SECONDS, O(window), 0, 60, "TIME", "1s",
	  "with --steady: the length of a window (the rule needs 5 of them)" },
	{ "one-pass", OPT_FLAG, O(one_pass), 0, 0, NULL, NULL,
	  "each point reads every block of the pattern once (seq: the whole file; not with random)" },
	{ "until-plateau", OPT_FLAG, O(until_plateau), 0, 0, NULL, NULL,
	  "with ascending depths: an engine goes no deeper once two depths in a row add under 5% IOPS over the best before them" },
	{ "sizes", OPT_STR, O(sizes), 0, 0, "LIST", NULL,
	  "instead of --bs: run every point at each of these block sizes (e.g. 128k,256k,1m,4m for sequential reads), up to 16m" },
	{ "cache-check", OPT_FLAG, O(cache_check), 0, 0, NULL, NULL,
	  "instead of points: check for a cache below this machine (O_DIRECT re-reads against fresh reads)" },
	{ "seed", OPT_INT, O(seed), 0, LLONG_MAX, "S", "1", "file form and --cache-check: seed of the random blocks" },
	{ "json", OPT_FLAG, O(json), 0, 0, NULL, NULL, "print points as JSON lines on stdout (table on stderr)" },
	{ "out", OPT_STR, O(out), 0, 0, "DIR", "results/<UTC>-probe", "result folder (new or empty)" },
	{ "no-cold", OPT_FLAG, O(no_cold), 0, 0, NULL, NULL, "do not make the files cold (evict, or drop caches as root) before each point" },
	SERVER_OPTS(struct probe_opts, srv),
	{ 0 }
};
#undef O

/* ---- options into a plan ---- */

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
	long long d[PROBE_CMD_MAX_DEPTHS];
	int n = opts_parse_ll_list("depth", s, 1, PROBE_MAX_DEPTH, d,
				   PROBE_CMD_MAX_DEPTHS, err, len);

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
static int check_form(const struct probe_opts *o, char *err, size_t len)
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
static int check_cache_form(const struct probe_opts *o, char *err, size_t len)
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

/* --duration, --count and --steady. */
static int plan_time(const struct probe_opts *o, struct probe_plan *p, char *err, size_t len)
{
	double lo = CURVE_STEADY_WINDOWS, hi = PROBE_MAX_WINDOWS;

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
		p->duration_s = PROBE_CMD_STEADY_MAX_S;
	if (p->duration_s < lo || p->duration_s > hi) {
		snprintf(err, len, "--duration: %g s with --steady is outside %g..%g s (the rule needs %d windows of %g s)",
			 p->duration_s, lo, hi, CURVE_STEADY_WINDOWS, p->window_s);
		return -EINVAL;
	}
	return 0;
}

/* --combine: readstream's only; then every engine's buffers bounded. */
static int plan_combine(const struct probe_opts *o, struct probe_plan *p, char *err, size_t len)
{
	bool stream = false;

	for (unsigned i = 0; i < p->nengines; i++)
		stream |= (p->engines[i]->flags & ENGINE_COMBINE) != 0;
	p->combine = o->combine ? (unsigned)o->combine : PROBE_CMD_COMBINE;
	if (o->combine && !stream) {
		snprintf(err, len, "--combine applies to the readstream engine only; add it to --engine or drop --combine");
		return -EINVAL;
	}
	return probe_cmd_check_buffers(p, err, len);
}

/* --sizes: block sizes, each a multiple of 512 (4096 with --direct), ascending or not. */
static int plan_sizes(const struct probe_opts *o, struct probe_plan *p, char *err, size_t len)
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
		if (p->nsizes == PROBE_CMD_MAX_SIZES || opts_parse_size(one, &v) < 0 || v < 512 ||
		    v > PROBE_CMD_MAX_SIZE || v % 512 || (o->direct && v % 4096)) {
			snprintf(err, len, "--sizes: '%s' is not allowed; give up to %d sizes from 512 to 16m, each a multiple of 512 (of 4k with --direct), comma-separated",
				 one, PROBE_CMD_MAX_SIZES);
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
static int plan_plateau(const struct probe_opts *o, struct probe_plan *p, char *err, size_t len)
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

/* What both forms share. */
static int plan_common(const struct probe_opts *o, struct probe_plan *p,
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
	p->json = o->json;
	p->out = o->out;
	p->cache_check = o->cache_check;
	p->seed = (uint64_t)(o->seed < 0 ? 1 : o->seed);
	if (o->cache_check)
		return check_cache_form(o, err, len);
	if ((rc = plan_time(o, p, err, len)) < 0 ||
	    (rc = parse_engines(o->engine ? o->engine : DEFAULT_ENGINES, p, err, len)) < 0 ||
	    (rc = parse_depths(o->depth ? o->depth : DEFAULT_DEPTHS, p, err, len)) < 0 ||
	    (rc = plan_sizes(o, p, err, len)) < 0 || (rc = plan_plateau(o, p, err, len)) < 0)
		return rc;
	return plan_combine(o, p, err, len);
}

static int plan_from_opts(const struct probe_opts *o, struct probe_plan *p,
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

/* The whole command line, "eicbench probe ARGS", for meta.json. */
static char **full_argv(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 3, sizeof(*v));

	if (!v)
		return NULL;
	v[0] = "eicbench";
	v[1] = PROBE_CMD;
	for (int i = 0; i < argc; i++)
		v[i + 2] = argv[i];
	return v;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = { .seed = -1 };
	struct probe_plan plan = { 0 };
	char err[OPT_ERR_MAX], **all;
	int rc;

	server_cfg_defaults(&o.srv);
	rc = opts_parse(probe_table, &o, argc, argv, err, sizeof(err));
	if (rc == 1) {
		opts_usage(stdout, USAGE, probe_table);
		return 0;
	}
	if (rc == 0)
		rc = plan_from_opts(&o, &plan, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "eicbench %s: %s\n", PROBE_CMD, err);
		return EXIT_BAD_INPUT;
	}
	all = full_argv(argc, argv);
	if (!all)
		return EXIT_RUN_FAILED;
	if (o.relation)
		rc = probe_cmd_relation(&o, &plan, argc + 2, all);
	else if (plan.cache_check && !o.file)
		rc = probe_cmd_cache_dataset(&o, &plan, argc + 2, all);
	else if (plan.cache_check)
		rc = probe_cmd_cache_check(&plan, argc + 2, all);
	else
		rc = probe_cmd_run_plan(&plan, argc + 2, all);
	free(all);
	return rc;
}

static const struct man_form probe_forms[] = { { NULL, USAGE, probe_table }, { 0 } };

static const struct man_example probe_examples[] = {
	{ "eicbench probe --datadir data/pg --relation test --query sparse --depth 1,16",
	  "Replay the heap blocks the sparse query reads, with psync, fadvise and io_uring at depths 1 and 16, cold before each point." },
	{ "eicbench probe --file data/probe-file --engine io_uring --direct --steady",
	  "The device's own curve: O_DIRECT random reads at depths 1 to 256, each point until its IOPS is steady, with its knee." },
	{ "eicbench probe --cache-check --datadir data/pg",
	  "Is there a cache below this machine (a virtual disk's host, a controller) that cold trials cannot empty?" },
	{ 0 }
};

const struct man_page cmd_probe_page = {
	.name = "probe",
	.summary = "raw disk probes: psync, fadvise window, io_uring at depths",
	.forms = probe_forms,
	.description =
	"Raw disk probes: the reads a bitmap heap scan makes, issued outside the database, so that the device's own behaviour can be seen. The file form reads a file or block device (random, sequential, or a list of block numbers). The relation form asks the database which heap blocks the query's rows live on, finds the relation's segment files and replays exactly that sequence; with --pattern it reads the relation's own blocks instead.\n\n"
	"The engines: psync (pread one block at a time, as PostgreSQL at effective_io_concurrency 0), fadvise (PostgreSQL's prefetch up to 17: posix_fadvise WILLNEED for the blocks ahead, the distance ramping up to the depth), io_uring (up to depth reads in flight) and readstream (PostgreSQL 18's read stream: adjacent blocks combined into one read). Each point prints IOPS, MiB/s, latency percentiles, CPU per read, reads in flight, and the device's requests from /proc/diskstats; each engine run at two depths or more gets its peak and its knee.\n\n"
	"--cache-check reads a random sample of blocks with O_DIRECT, then the same blocks again interleaved with a fresh sample, and says whether re-reads are faster than fresh reads by more than 1.5x (95% bootstrap interval): a cache below this machine that a cold cycle cannot empty.",
	.examples = probe_examples,
	.files = "results/<UTC>-probe/\tmeta.json, points.jsonl (one JSON object per point), curve.json, or cachecheck.json for --cache-check",
	.see_also = "run sweep",
	.guide = "eicbench probe",
};
