/*
 * cmd_probe_run: the points of "eicbench probe". Open the plan's files, check
 * the plan against them (O_DIRECT, block size, the replay list), make the
 * result folder, then for each depth and engine: make the files cold, run
 * the probe (io/probe.h), print a row and append the point to points.jsonl.
 * At the end, each engine's knee into curve.json. Ctrl-C ends the run after
 * the point in progress, keeping every point so far.
 */
#include "bench/cli/stop.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "bench/cmd/probe.h"
#include "bench/pg/lock.h"
#include "bench/record/record.h"
#include "io/cache.h"
#include "io/curve.h"
#include "io/emulate/control.h"

#define POINTS_FILE "points.jsonl"
#define CURVE_FILE  "curve.json"


/* Everything one run of the plan holds open. */
struct session {
	const struct probe_plan *plan;
	struct blockmap   map;
	uint64_t         *owned_list;
	const uint64_t   *list;
	size_t            list_len;
	struct device_info dev;
	bool              have_dev;
	struct probe_curve curve;
	char              dir[PATH_MAX];
	char              err[PATH_MAX + 512];
	FILE             *table;
};


/* ---- checking the plan against the files ---- */

void probe_cmd_fs_type(const char *path, char *out, size_t len)
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
	int rc;

	/* a FUSE mount whose emulator was killed: say so, and how to clean it */
	for (unsigned i = 0; i < p->npaths; i++)
		if (emulate_check_reachable(p->meta_extra ? "the relation's file" : "--file", p->paths[i],
					    s->err, sizeof(s->err)) < 0)
			return EXIT_BAD_INPUT;
	rc = blockmap_open(&s->map, p->paths, p->npaths, p->block_bytes,
			   p->direct ? O_DIRECT : 0, s->err, sizeof(s->err));

	if (rc == -EINVAL && p->direct) {
		probe_cmd_fs_type(p->paths[0], fs, sizeof(fs));
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
	return json_pack("{s:o, s:o, s:o, s:i, s:s, s:b, s:b, s:f, s:I, s:I, s:i, s:b, s:b}",
			 "files", files, "engines", engines, "depths", depths,
			 "block_bytes", (json_int_t)p->block_bytes, "pattern", p->pattern,
			 "direct", p->direct, "cold", p->cold, "duration_s", p->duration_s,
			 "count", (json_int_t)p->count, "seed", (json_int_t)p->seed,
			 "combine", (int)p->combine, "steady", p->steady, "cache_check", p->cache_check);
}

int probe_cmd_write_meta(const struct probe_plan *p, const struct device_info *dev,
			 uint64_t file_blocks, int argc, char **argv,
			 char *dir, size_t dirlen, char *err, size_t errlen)
{
	json_t *meta = json_object();
	int rc = record_dir_create(NULL, PROBE_CMD, p->out, dir, dirlen, err, errlen);

	if (rc == 0 && (rc = lock_hold_folder(dir, err, errlen)) == -EINVAL)
		rc = -EEXIST;
	if (rc < 0) {
		json_decref(meta);
		return rc == -EEXIST && p->out ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	}
	json_object_set_new(meta, "command", json_string(PROBE_CMD));
	record_meta_host(meta, argc, argv, time(NULL));
	json_object_set_new(meta, "device", dev ? record_device_json(dev) : json_null());
	json_object_set_new(meta, "file_blocks", file_blocks ? json_integer((json_int_t)file_blocks) : json_null());
	json_object_set_new(meta, "options", options_json(p));
	if (p->meta_extra)
		json_object_update(meta, (json_t *)p->meta_extra);
	rc = record_meta_write(dir, meta, err, errlen);
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

static const struct probe_steady steady_rule = {
	.window_ns = 1000000000ull,
	.min_ns = 0,                       /* the rule's windows make the minimum */
	.windows = CURVE_STEADY_WINDOWS,
	.tolerance = CURVE_STEADY_TOLERANCE,
};

static void probe_config_for(const struct session *s, const struct engine_ops *e,
			     unsigned depth, struct probe_config *c)
{
	const struct probe_plan *p = s->plan;

	*c = (struct probe_config){
		.engine = e, .map = &s->map, .depth = depth, .combine = p->combine,
		.count = p->count, .duration_ns = (uint64_t)llround(p->duration_s * 1e9),
		.steady = p->steady ? &steady_rule : NULL,
		.disk_name = s->have_dev ? s->dev.name : NULL, .disk_file = s->have_dev ? s->dev.stats_file : NULL, .stop = &cli_stopped,
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
	json_t *obj = probe_cmd_point_json(s->plan, s->have_dev ? s->dev.name : NULL, r, cold);
	char *line;
	int rc;

	if (!obj)
		return EXIT_RUN_FAILED;
	probe_cmd_print_row(s->table, r);
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
static int run_point(struct session *s, unsigned engine, unsigned depth)
{
	const struct engine_ops *e = s->plan->engines[engine];
	struct probe_config cfg;
	struct probe_result *res = malloc(sizeof(*res));
	const char *cold = make_cold(s);
	int rc;

	if (!cold || !res) {
		free(res);
		return EXIT_RUN_FAILED;
	}
	probe_config_for(s, e, depth, &cfg);
	rc = probe_run(&cfg, res, s->err, sizeof(s->err));
	if (rc < 0)
		rc = res->failed == PROBE_FAILED_ENGINE_INIT ? -1 : EXIT_RUN_FAILED;
	else if ((rc = record_point(s, res, cold)) == 0 && !res->stopped) {
		unsigned k = s->curve.n[engine]++;
		s->curve.depth[engine][k] = depth;
		s->curve.iops[engine][k] = res->iops;
	}
	free(res);
	return rc;
}

static void say_unavailable(const struct session *s, const struct engine_ops *e)
{
	fprintf(stderr, "eicbench %s: %s is not available here (%s)%s; skipping its points\n",
		PROBE_CMD, e->name, s->err,
		e->init == engine_uring.init ? ": io_uring may be disabled (sysctl kernel.io_uring_disabled) or blocked by a seccomp filter" : "");
}

/* Every depth, every engine; psync once, at depth 1 (it has no depth). */
static int run_grid(struct session *s, unsigned *ran)
{
	const struct probe_plan *p = s->plan;
	bool skip[PROBE_CMD_MAX_ENGINES] = { false }, psync_done = false;
	int rc;

	for (unsigned d = 0; d < p->ndepths && !cli_stopped; d++) {
		for (unsigned i = 0; i < p->nengines && !cli_stopped; i++) {
			const struct engine_ops *e = p->engines[i];
			if (skip[i] || (e == &engine_psync && psync_done))
				continue;
			rc = run_point(s, i, e == &engine_psync ? 1 : p->depths[d]);
			psync_done |= e == &engine_psync && rc == 0;
			if (rc == -1) {
				say_unavailable(s, e);
				skip[i] = true;
				continue;
			}
			if (rc != 0)
				return rc;
			(*ran)++;
		}
	}
	return 0;
}

/* Each engine's knee, printed under the table and kept in curve.json. */
static int record_knees(struct session *s)
{
	json_t *knees = probe_cmd_knees(s->table, s->plan, &s->curve), *doc;
	char path[PATH_MAX + 16], *text;
	int rc = -ENOMEM;

	if (!knees)
		return EXIT_RUN_FAILED;
	doc = json_pack("{s:f, s:s, s:o}", "share", CURVE_KNEE_SHARE,
			"knee", "the smallest depth whose IOPS reaches share x the peak across depths",
			"engines", knees);
	snprintf(path, sizeof(path), "%s/%s", s->dir, CURVE_FILE);
	if (doc && (text = json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))) {
		rc = record_write_file_atomic(path, text, strlen(text), s->err, sizeof(s->err));
		free(text);
	}
	json_decref(doc);
	return rc < 0 ? EXIT_RUN_FAILED : 0;
}

static int run_points(struct session *s)
{
	unsigned ran = 0;
	int rc;

	probe_cmd_print_header(s->table, s->plan);
	if ((rc = run_grid(s, &ran)) != 0)
		return rc;
	if (cli_stopped) {
		snprintf(s->err, sizeof(s->err), "interrupted; the points so far are in %s", s->dir);
		return EXIT_RUN_FAILED;
	}
	if (ran == 0) {
		snprintf(s->err, sizeof(s->err), "no engine could run");
		return EXIT_RUN_FAILED;
	}
	return record_knees(s);
}

static int prepare(struct session *s, int argc, char **argv)
{
	int rc = open_files(s);

	if (rc)
		return rc;
	s->have_dev = sysstat_device_for_path(s->plan->paths[0], &s->dev) == 0;
	if ((rc = check_direct_bs(s)) || (rc = load_list(s)))
		return rc;
	return probe_cmd_write_meta(s->plan, s->have_dev ? &s->dev : NULL, s->map.nblocks,
				    argc, argv, s->dir, sizeof(s->dir), s->err, sizeof(s->err));
}

int probe_cmd_run_plan(const struct probe_plan *plan, int argc, char **argv)
{
	struct session *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return EXIT_RUN_FAILED;
	s->plan = plan;
	s->table = plan->json ? stderr : stdout;
	if ((rc = prepare(s, argc, argv)) == 0) {
		fprintf(stderr, "eicbench %s: %s, %" PRIu64 " blocks of %u bytes%s; results in %s\n",
			PROBE_CMD, plan->paths[0], s->map.nblocks, plan->block_bytes,
			plan->direct ? ", O_DIRECT" : "", s->dir);
		cli_catch_stop(false);	/* a wait for completions ends at once */
		rc = run_points(s);
		cli_catch_stop(true);
	}
	if (rc)
		fprintf(stderr, "eicbench %s: %s\n", PROBE_CMD, s->err);
	if (s->map.files)
		blockmap_close(&s->map);
	free(s->owned_list);
	free(s);
	return rc;
}
