/*
 * cmd_probe: "eicbench probe --file PATH ..." and "eicbench probe --relation
 * NAME ...": options, checks that name the bad value, the relation form's
 * questions to the database (through relblocks), and the points loop (cold,
 * probe_run, record, print). Engines, sequences and timing live in io/; this
 * file only decides, prints and records. Exit 0 success, 1 a run failed,
 * 2 bad usage or bad input.
 */
#include "bench/cmd_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "bench/opts.h"
#include "bench/progress.h"
#include "bench/query.h"
#include "bench/record.h"
#include "bench/relblocks.h"
#include "bench/server.h"
#include "io/cache.h"
#include "io/probe.h"
#include "io/sysstat.h"

#define CMD          "probe"
#define POINTS_FILE  "points.jsonl"
#define USAGE "eicbench probe --file PATH [--pattern random|seq|replay:FILE] [--seed S] [OPTIONS]\n" \
	"       eicbench probe --relation NAME [--query blog|sparse|FILE] [--datadir DIR | --dsn CONNINFO] [OPTIONS]\n" \
	"OPTIONS: [--engine psync,fadvise,io_uring] [--depth 1,2,4,...] [--bs 8k] [--direct]\n" \
	"       [--duration 10s | --count N] [--json] [--out DIR] [--no-cold]"

static volatile sig_atomic_t stop_flag;

struct probe_opts {
	struct server_cfg srv;
	const char *file, *relation, *query, *engine, *depth, *pattern, *out;
	uint64_t    bs;
	bool        direct, json, no_cold;
	double      duration;
	long long   count, seed;
};

#define O(f) offsetof(struct probe_opts, f)
static const struct opt_desc probe_table[] = {
	{ "file", OPT_STR, O(file), 0, 0, "PATH", NULL, "file form: file or block device to read (opened read-only)" },
	{ "relation", OPT_STR, O(relation), 0, 0, "NAME", NULL,
	  "relation form: the table whose heap blocks the query reads, replayed on its segment files" },
	{ "query", OPT_STR, O(query), 0, 0, "Q", "blog",
	  "relation form: blog, sparse, or a file holding SELECT * FROM NAME ..." },
	{ "engine", OPT_STR, O(engine), 0, 0, "LIST", "psync,fadvise,io_uring", "engines to run" },
	{ "depth", OPT_STR, O(depth), 0, 0, "LIST", "1,2,4,8,16,32,64,128,256",
	  "reads in flight (io_uring) or blocks advised ahead (fadvise), 1 to 4096" },
	{ "bs", OPT_SIZE, O(bs), 512, 1 << 20, "SIZE", "8k", "block size (relation form: the server's block_size)" },
	{ "pattern", OPT_STR, O(pattern), 0, 0, "P", "random",
	  "file form: random, seq or replay:FILE (block numbers, one a line)" },
	{ "direct", OPT_FLAG, O(direct), 0, 0, NULL, NULL, "open with O_DIRECT (bypass the page cache)" },
	{ "duration", OPT_SECONDS, O(duration), 0, 0, "TIME", "10s",
	  "time per point (a replay without --duration or --count: one pass)" },
	{ "count", OPT_INT, O(count), 1, 1000000000000LL, "N", NULL, "reads per point instead of a duration" },
	{ "seed", OPT_INT, O(seed), 0, LLONG_MAX, "S", "1", "file form: seed of the random sequence" },
	{ "json", OPT_FLAG, O(json), 0, 0, NULL, NULL, "print points as JSON lines on stdout (table on stderr)" },
	{ "out", OPT_STR, O(out), 0, 0, "DIR", "results/<UTC>-probe", "result folder (new or empty)" },
	{ "no-cold", OPT_FLAG, O(no_cold), 0, 0, NULL, NULL, "do not make the files cold (evict, or drop caches as root) before each point" },
	SERVER_OPTS(struct probe_opts, srv),
	{ 0 }
};
#undef O

/* Everything one run of the plan holds open. */
struct session {
	const struct probe_plan *plan;
	struct blockmap   map;
	uint64_t         *owned_list;
	const uint64_t   *list;
	size_t            list_len;
	struct device_info dev;
	bool              have_dev;
	char              dir[PATH_MAX];
	char              err[PATH_MAX + 512];
	FILE             *table;
};

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* ---- options into a plan ---- */

static int parse_engines(const char *s, struct probe_plan *p, char *err, size_t len)
{
	char buf[256], *save = NULL, *name;

	snprintf(buf, sizeof(buf), "%s", s);
	for (name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		const struct engine_ops *e = engine_find(name);
		if (!e || p->nengines == PROBE_CMD_MAX_ENGINES) {
			snprintf(err, len, "--engine: '%s' is not an engine; give a comma-separated list of psync, fadvise, io_uring",
				 name);
			return -EINVAL;
		}
		p->engines[p->nengines++] = e;
	}
	if (p->nengines == 0) {
		snprintf(err, len, "--engine: the list is empty; give psync, fadvise and/or io_uring");
		return -EINVAL;
	}
	return 0;
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

/* Which form: --file, or --relation (with --query, --datadir or --dsn). */
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
	else if (!o->relation && rel)
		snprintf(err, len, "--relation is required with --query, --datadir or --dsn: the table whose heap blocks to replay");
	else if (!o->relation)
		snprintf(err, len, "give --file PATH (a file or device) or --relation NAME (a table of the cluster in --datadir, or of --dsn)");
	else if (o->pattern || o->seed >= 0)
		snprintf(err, len, "--%s belongs to the file form; the relation form replays the query's heap blocks",
			 o->pattern ? "pattern" : "seed");
	else if (o->srv.datadir && o->srv.dsn)
		snprintf(err, len, "--datadir and --dsn exclude each other: the managed cluster, or an existing server");
	else
		return 0;
	return -EINVAL;
}

/* What both forms share. */
static int plan_common(const struct probe_opts *o, struct probe_plan *p,
		       char *err, size_t len)
{
	int rc;

	if (o->count && o->duration > 0) {
		snprintf(err, len, "--duration and --count exclude each other; give one");
		return -EINVAL;
	}
	if (o->direct && o->bs % 512) {
		snprintf(err, len, "--bs: %" PRIu64 " is not a multiple of 512, which --direct needs", o->bs);
		return -EINVAL;
	}
	p->block_bytes = (uint32_t)(o->bs ? o->bs : 8192);
	p->direct = o->direct;
	p->cold = !o->no_cold;
	p->json = o->json;
	p->count = (uint64_t)o->count;
	p->duration_s = o->duration;
	p->out = o->out;
	if ((rc = parse_engines(o->engine, p, err, len)) < 0 ||
	    (rc = parse_depths(o->depth, p, err, len)) < 0)
		return rc;
	return 0;
}

static int plan_from_opts(const struct probe_opts *o, struct probe_plan *p,
			  char *err, size_t len)
{
	int rc = check_form(o, err, len);

	if (rc == 0)
		rc = plan_common(o, p, err, len);
	if (rc < 0 || !o->file)
		return rc;
	p->paths = &o->file;
	p->npaths = 1;
	p->seed = (uint64_t)(o->seed < 0 ? 1 : o->seed);
	if ((rc = parse_pattern(o->pattern ? o->pattern : "random", p, err, len)) < 0)
		return rc;
	if (p->kind != BLOCKS_REPLAY && !p->count && p->duration_s <= 0)
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
	v[1] = CMD;
	for (int i = 0; i < argc; i++)
		v[i + 2] = argv[i];
	return v;
}

/* ---- the relation form: ask the database, then replay ---- */

struct rel_run {
	struct server    srv;
	struct relblocks rb;
	struct query     q;              /* the query as given */
	char            *block_query;    /* its rewrite */
	char             pattern[PATH_MAX + 64];
	json_t          *meta;
};

/* The blocks, the segments and the server's facts; disconnects before probing. */
static int rel_ask(const struct probe_opts *o, struct rel_run *r, char *err, size_t len)
{
	struct progress bar;
	PGconn *c;
	int rc = query_load(o->query, &r->q, err, len);

	if (rc == 0)
		rc = server_resolve(&o->srv, &r->srv, err, len);
	if (rc == 0 && !r->srv.external)
		rc = server_start(&r->srv, err, len);
	if (rc < 0)
		return rc;
	if (!(c = server_connect(&r->srv, NULL, err, len)))
		return -EIO;
	/* The relation first: "no such relation" says more than a mismatch. */
	rc = relblocks_lookup(c, o->relation, r->srv.external ? NULL : r->srv.datadir, &r->rb, err, len);
	if (rc == 0)
		rc = relblocks_rewrite(r->q.text, o->relation, &r->block_query, err, len);
	if (rc == 0) {
		progress_init(&bar, stderr);
		progress_update(&bar, "blocks: asking the server which heap blocks the query reads", 0, 0, "");
		rc = relblocks_fetch(c, r->block_query, &r->rb, err, len);
		progress_end(&bar);
	}
	PQfinish(c);
	return rc;
}

static json_t *rel_meta(const struct probe_opts *o, const struct rel_run *r)
{
	const struct relblocks *rb = &r->rb;
	char dsn[1024] = "";

	if (r->srv.external)
		record_redact_dsn(r->srv.dsn, dsn, sizeof(dsn));
	return json_pack("{s:{s:s, s:I, s:s, s:I, s:I, s:f, s:{s:s, s:s, s:s}, s:f}, s:{s:s, s:b, s:s?, s:s?}}",
		"relation", "name", o->relation, "oid", (json_int_t)rb->oid, "segment_base", rb->base,
		"blocks", (json_int_t)rb->nblocks, "relation_blocks", (json_int_t)rb->relation_blocks,
		"fraction_visited", rb->relation_blocks ? (double)rb->nblocks / (double)rb->relation_blocks : 0.0,
		"query", "name", o->query, "text", r->q.text, "block_query", r->block_query,
		"query_s", rb->query_s,
		"server", "version", rb->server_version, "managed", !r->srv.external,
		"datadir", r->srv.external ? NULL : r->srv.datadir, "dsn", r->srv.external ? dsn : NULL);
}

static int rel_plan(const struct probe_opts *o, struct rel_run *r, struct probe_plan *p,
		    char *err, size_t len)
{
	const struct relblocks *rb = &r->rb;

	if (o->bs && o->bs != rb->block_bytes) {
		snprintf(err, len, "--bs: %" PRIu64 " is not the server's block_size %u; the relation form reads heap blocks, so leave --bs out",
			 o->bs, rb->block_bytes);
		return -EINVAL;
	}
	snprintf(r->pattern, sizeof(r->pattern), "relation:%s:%s", o->relation, o->query);
	p->paths = (const char *const *)rb->segments;
	p->npaths = rb->nsegments;
	p->pattern = r->pattern;
	p->kind = BLOCKS_REPLAY;
	p->list = rb->blocks;
	p->list_len = rb->nblocks;
	p->block_bytes = rb->block_bytes;
	if (!(r->meta = rel_meta(o, r)))
		return -ENOMEM;
	p->meta_extra = r->meta;
	fprintf(stderr, "eicbench %s: %s: %zu of %" PRIu64 " heap blocks (%.1f%%) hold the rows of query %s (found in %.1f s); replaying them in ascending order\n",
		CMD, o->relation, rb->nblocks, rb->relation_blocks,
		rb->relation_blocks ? 100.0 * (double)rb->nblocks / (double)rb->relation_blocks : 0.0,
		o->query, rb->query_s);
	return 0;
}

static int run_relation(const struct probe_opts *o, struct probe_plan *p, int argc, char **argv)
{
	struct rel_run r = { 0 };
	char err[PATH_MAX + 1024];
	int rc = rel_ask(o, &r, err, sizeof(err));

	if (rc == 0)
		rc = rel_plan(o, &r, p, err, sizeof(err));
	if (rc == 0 && r.srv.external && p->cold) {
		/* a server eicbench did not start keeps its page cache */
		p->cold = false;
		fprintf(stderr, "%s: the files of a --dsn server are not evicted before each point%s\n",
			CMD, p->direct ? "" : "; without --direct, reads may come from the page cache");
	}
	if (rc == 0)
		rc = probe_cmd_run_plan(p, argc, argv);
	else
		rc = cmd_fail(CMD, rc, err);
	json_decref(r.meta);
	relblocks_free(&r.rb);
	query_free(&r.q);
	free(r.block_query);
	return rc;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = {
		.engine = "psync,fadvise,io_uring", .depth = "1,2,4,8,16,32,64,128,256", .seed = -1,
	};
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
		fprintf(stderr, "eicbench %s: %s\n", CMD, err);
		return EXIT_BAD_INPUT;
	}
	all = full_argv(argc, argv);
	if (!all)
		return EXIT_RUN_FAILED;
	if (o.relation) {
		if (!o.query)
			o.query = "blog";
		rc = run_relation(&o, &plan, argc + 2, all);
	} else {
		rc = probe_cmd_run_plan(&plan, argc + 2, all);
	}
	free(all);
	return rc;
}

/* ---- checking the plan against the files ---- */

/* The file system type under PATH, from /proc/self/mountinfo ("" if unknown). */
static void fs_type(const char *path, char *out, size_t len)
{
	char line[4096], want[32], *sep;
	struct stat st;
	FILE *f;
	unsigned maj, min;

	snprintf(out, len, "unknown");
	if (stat(path, &st) < 0 || !(f = fopen("/proc/self/mountinfo", "re")))
		return;
	snprintf(want, sizeof(want), "%u:%u", major(st.st_dev), minor(st.st_dev));
	while (fgets(line, sizeof(line), f)) {
		char dev[32];
		if (sscanf(line, "%*d %*d %u:%u", &maj, &min) != 2)
			continue;
		snprintf(dev, sizeof(dev), "%u:%u", maj, min);
		if (strcmp(dev, want) || !(sep = strstr(line, " - ")))
			continue;
		sscanf(sep + 3, "%31s", want);
		snprintf(out, len, "%s", want);
		break;
	}
	fclose(f);
}

static int open_files(struct session *s)
{
	const struct probe_plan *p = s->plan;
	char fs[32];
	int rc = blockmap_open(&s->map, p->paths, p->npaths, p->block_bytes,
			       p->direct ? O_DIRECT : 0, s->err, sizeof(s->err));

	if (rc == -EINVAL && p->direct) {
		fs_type(p->paths[0], fs, sizeof(fs));
		snprintf(s->err, sizeof(s->err),
			 "--direct: the %s file system under %s refuses O_DIRECT; run without --direct (buffered reads)",
			 fs, p->paths[0]);
	}
	if (rc == -ENOMEM || rc == -EIO)
		return EXIT_RUN_FAILED;
	return rc < 0 ? EXIT_BAD_INPUT : 0;
}

static int check_direct_bs(struct session *s)
{
	long lbs = s->dev.logical_block_size;

	if (!s->plan->direct || !s->have_dev || lbs <= 0 || s->plan->block_bytes % lbs == 0)
		return 0;
	snprintf(s->err, sizeof(s->err),
		 "--bs: %u is not a multiple of the logical block size %ld of %s, which --direct needs",
		 s->plan->block_bytes, lbs, s->dev.disk);
	return EXIT_BAD_INPUT;
}

static int load_list(struct session *s)
{
	const struct probe_plan *p = s->plan;
	int rc;

	if (p->kind != BLOCKS_REPLAY)
		return 0;
	if (p->replay_file) {
		rc = blocks_load_list(p->replay_file, s->map.nblocks, &s->owned_list,
				      &s->list_len, s->err, sizeof(s->err));
		s->list = s->owned_list;
		return rc == -ENOMEM ? EXIT_RUN_FAILED : rc < 0 ? EXIT_BAD_INPUT : 0;
	}
	for (size_t i = 0; i < p->list_len; i++) {
		if (p->list[i] >= s->map.nblocks) {
			snprintf(s->err, sizeof(s->err),
				 "block list entry %zu: block %" PRIu64 " is past the end (blocks 0..%" PRIu64 ")",
				 i + 1, p->list[i], s->map.nblocks - 1);
			return EXIT_BAD_INPUT;
		}
	}
	s->list = p->list;
	s->list_len = p->list_len;
	return s->list_len ? 0 : (snprintf(s->err, sizeof(s->err), "the block list is empty"), EXIT_BAD_INPUT);
}

/* ---- the result folder ---- */

static json_t *options_json(const struct probe_plan *p)
{
	json_t *files = json_array(), *engines = json_array(), *depths = json_array();

	for (unsigned i = 0; i < p->npaths; i++)
		json_array_append_new(files, json_string(p->paths[i]));
	for (unsigned i = 0; i < p->nengines; i++)
		json_array_append_new(engines, json_string(p->engines[i]->name));
	for (unsigned i = 0; i < p->ndepths; i++)
		json_array_append_new(depths, json_integer(p->depths[i]));
	return json_pack("{s:o, s:o, s:o, s:i, s:s, s:b, s:b, s:f, s:I, s:I}",
			 "files", files, "engines", engines, "depths", depths,
			 "block_bytes", (json_int_t)p->block_bytes, "pattern", p->pattern,
			 "direct", p->direct, "cold", p->cold, "duration_s", p->duration_s,
			 "count", (json_int_t)p->count, "seed", (json_int_t)p->seed);
}

static int write_meta(struct session *s, int argc, char **argv)
{
	const struct probe_plan *p = s->plan;
	json_t *meta = json_object();
	int rc = record_dir_create(NULL, CMD, p->out, s->dir, sizeof(s->dir),
				   s->err, sizeof(s->err));

	if (rc < 0) {
		json_decref(meta);
		return rc == -EEXIST && p->out ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	json_object_set_new(meta, "command", json_string(CMD));
	record_meta_host(meta, argc, argv, time(NULL));
	json_object_set_new(meta, "device", s->have_dev ? record_device_json(&s->dev) : json_null());
	json_object_set_new(meta, "file_blocks", json_integer((json_int_t)s->map.nblocks));
	json_object_set_new(meta, "options", options_json(p));
	if (p->meta_extra)
		json_object_update(meta, (json_t *)p->meta_extra);
	rc = record_meta_write(s->dir, meta, s->err, sizeof(s->err));
	json_decref(meta);
	return rc < 0 ? EXIT_RUN_FAILED : 0;
}

/* ---- points ---- */

/* Make the next point cold; the method used, or NULL with err filled. */
static const char *make_cold(struct session *s)
{
	const struct probe_plan *p = s->plan;
	int rc;

	if (!p->cold)
		return "none";
	/* Only the probed files: the rest of the page cache is not ours to drop. */
	for (unsigned i = 0; i < p->npaths; i++) {
		rc = cache_evict_file(p->paths[i], NULL);
		if (rc < 0) {
			snprintf(s->err, sizeof(s->err), "cannot evict %s from the page cache: %s",
				 p->paths[i], strerror(-rc));
			return NULL;
		}
	}
	return "evict";
}

static json_t *disk_json(const struct session *s, const struct probe_result *r)
{
	if (!r->have_disk)
		return json_null();
	return record_disk_json(s->dev.name, &r->disk);
}

static json_t *lat_json(const struct hist_summary *l)
{
	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I}",
			 "min", (json_int_t)l->min_ns, "mean", l->mean_ns, "stddev", l->stddev_ns,
			 "p50", (json_int_t)l->p50_ns, "p90", (json_int_t)l->p90_ns,
			 "p99", (json_int_t)l->p99_ns, "p99.9", (json_int_t)l->p999_ns,
			 "max", (json_int_t)l->max_ns);
}

static json_t *point_json(const struct session *s, const struct probe_result *r,
			  const char *cold)
{
	const struct probe_plan *p = s->plan;

	return json_pack("{s:s, s:i, s:i, s:b, s:s, s:I, s:s, s:I, s:I, s:f, s:f, s:f, s:o, s:{s:f, s:f}, s:o, s:b}",
			 "engine", r->engine, "depth", (int)r->depth,
			 "block_bytes", (int)r->block_bytes, "direct", r->direct,
			 "pattern", p->pattern, "seed", (json_int_t)p->seed, "cold", cold,
			 "ios", (json_int_t)r->ios, "bytes", (json_int_t)r->bytes,
			 "elapsed_s", r->elapsed_s, "iops", r->iops, "mib_s", r->mib_s,
			 "lat_ns", lat_json(&r->lat),
			 "cpu_us_per_io", "user", r->cpu_user_us_per_io, "sys", r->cpu_sys_us_per_io,
			 "disk", disk_json(s, r), "stopped", r->stopped);
}

static void print_header(FILE *f)
{
	fprintf(f, "%-9s %5s %9s %8s | %8s %8s %8s %8s %8s | %6s %6s | %9s %7s %6s\n",
		"engine", "depth", "IOPS", "MiB/s", "lat mean", "p50", "p99", "p99.9", "max",
		"usr", "sys", "dev reqs", "avg KiB", "aqu-sz");
	fprintf(f, "%-9s %5s %9s %8s | %44s | %13s |\n", "", "", "", "",
		"latency, µs", "CPU µs per IO");
}

static void print_row(FILE *f, const struct probe_result *r)
{
	const struct hist_summary *l = &r->lat;

	fprintf(f, "%-9s %5u %9.0f %8.1f | %8.1f %8.1f %8.1f %8.1f %8.1f | %6.2f %6.2f | ",
		r->engine, r->depth, r->iops, r->mib_s, l->mean_ns / 1e3, l->p50_ns / 1e3,
		l->p99_ns / 1e3, l->p999_ns / 1e3, l->max_ns / 1e3,
		r->cpu_user_us_per_io, r->cpu_sys_us_per_io);
	if (r->have_disk)
		fprintf(f, "%9" PRIu64 " %7.1f %6.2f", r->disk.reads, r->disk.avg_read_kib,
			r->disk.avg_queue_depth);
	else
		fprintf(f, "%9s %7s %6s", "-", "-", "-");
	fprintf(f, "%s\n", r->stopped ? "  (interrupted)" : "");
	fflush(f);
}

static void probe_config_for(const struct session *s, const struct engine_ops *e,
			     unsigned depth, struct probe_config *c)
{
	const struct probe_plan *p = s->plan;

	*c = (struct probe_config){
		.engine = e, .map = &s->map, .depth = depth, .count = p->count,
		.duration_ns = (uint64_t)llround(p->duration_s * 1e9),
		.disk_name = s->have_dev ? s->dev.name : NULL, .stop = &stop_flag,
	};
	if (p->kind == BLOCKS_RANDOM)
		blocks_random(&c->seq, s->map.nblocks, p->seed);
	else if (p->kind == BLOCKS_SEQ)
		blocks_seq(&c->seq, s->map.nblocks);
	else
		blocks_replay(&c->seq, s->list, s->list_len);
	if (p->kind == BLOCKS_REPLAY && !c->count && !c->duration_ns)
		c->count = s->list_len;          /* one pass over the list */
}

/* Print and record one finished point. */
static int record_point(struct session *s, const struct probe_result *r, const char *cold)
{
	json_t *obj = point_json(s, r, cold);
	char *line;
	int rc;

	if (!obj)
		return EXIT_RUN_FAILED;
	print_row(s->table, r);
	if (s->plan->json && (line = json_dumps(obj, JSON_COMPACT))) {
		printf("%s\n", line);
		fflush(stdout);
		free(line);
	}
	rc = record_append(s->dir, POINTS_FILE, obj, s->err, sizeof(s->err));
	json_decref(obj);
	return rc < 0 ? EXIT_RUN_FAILED : 0;
}

/* 0 done, 1 failed (err filled), -1 the engine cannot start here. */
static int run_point(struct session *s, const struct engine_ops *e, unsigned depth)
{
	struct probe_config cfg;
	struct probe_result res;
	const char *cold = make_cold(s);
	int rc;

	if (!cold)
		return EXIT_RUN_FAILED;
	probe_config_for(s, e, depth, &cfg);
	rc = probe_run(&cfg, &res, s->err, sizeof(s->err));
	if (rc < 0 && res.failed == PROBE_FAILED_ENGINE_INIT)
		return -1;
	if (rc < 0)
		return EXIT_RUN_FAILED;
	return record_point(s, &res, cold);
}

static void say_unavailable(const struct session *s, const struct engine_ops *e)
{
	fprintf(stderr, "eicbench %s: %s is not available here (%s)%s; skipping its points\n",
		CMD, e->name, s->err,
		e == &engine_uring ? ": io_uring may be disabled (sysctl kernel.io_uring_disabled) or blocked by a seccomp filter" : "");
}

static int run_points(struct session *s)
{
	const struct probe_plan *p = s->plan;
	bool skip[PROBE_CMD_MAX_ENGINES] = { false }, psync_done = false;
	unsigned ran = 0;
	int rc;

	print_header(s->table);
	for (unsigned d = 0; d < p->ndepths && !stop_flag; d++) {
		for (unsigned i = 0; i < p->nengines && !stop_flag; i++) {
			const struct engine_ops *e = p->engines[i];
			if (skip[i] || (e == &engine_psync && psync_done))
				continue;
			/* psync reads one block at a time whatever the depth: once, at 1. */
			rc = run_point(s, e, e == &engine_psync ? 1 : p->depths[d]);
			psync_done |= e == &engine_psync && rc == 0;
			if (rc == -1) {
				say_unavailable(s, e);
				skip[i] = true;
				continue;
			}
			if (rc != 0)
				return rc;
			ran++;
		}
	}
	if (stop_flag) {
		snprintf(s->err, sizeof(s->err), "interrupted; the points so far are in %s", s->dir);
		return EXIT_RUN_FAILED;
	}
	if (ran == 0)
		snprintf(s->err, sizeof(s->err), "no engine could run");
	return ran ? 0 : EXIT_RUN_FAILED;
}

static int prepare(struct session *s, int argc, char **argv)
{
	int rc = open_files(s);

	if (rc)
		return rc;
	s->have_dev = sysstat_device_for_path(s->plan->paths[0], &s->dev) == 0;
	if ((rc = check_direct_bs(s)) || (rc = load_list(s)))
		return rc;
	return write_meta(s, argc, argv);
}

int probe_cmd_run_plan(const struct probe_plan *plan, int argc, char **argv)
{
	struct session s = { .plan = plan, .table = plan->json ? stderr : stdout };
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	int rc = prepare(&s, argc, argv);

	if (rc == 0) {
		fprintf(stderr, "eicbench %s: %s, %" PRIu64 " blocks of %u bytes%s; results in %s\n",
			CMD, plan->paths[0], s.map.nblocks, plan->block_bytes,
			plan->direct ? ", O_DIRECT" : "", s.dir);
		stop_flag = 0;
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		rc = run_points(&s);
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	if (rc)
		fprintf(stderr, "eicbench %s: %s\n", CMD, s.err);
	if (s.map.files)
		blockmap_close(&s.map);
	free(s.owned_list);
	return rc;
}
