/*
 * cmd_probe_cache: "eicbench probe --cache-check": the check for caches
 * below this machine (io/cachecheck.h) over the plan's files (the file, or
 * the relation's segments) or, with --datadir / --dsn and no --relation,
 * over the data set's files as a sweep runs it (bench/observe/cachecheck_data.h).
 * The record (cachecheck.json, beside meta.json) is written first and the
 * figures are printed from it: each pass's latencies, the statistic with its
 * interval and threshold, the sentence; --json prints the record on stdout
 * (the rest goes to stderr). A check that cannot run is recorded as skipped,
 * with why: exit 2 when the files refuse O_DIRECT or the input is bad.
 */
#include "bench/pg/settings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cmd/probe.h"
#include "bench/observe/cachecheck_data.h"
#include "bench/pg/lock.h"
#include "bench/record/record.h"

#define CACHE_FILE "cachecheck.json"

static double num(const json_t *o, const char *path1, const char *path2)
{
	const json_t *v = json_object_get(o, path1);

	if (path2)
		v = json_object_get(v, path2);
	return json_number_value(v);
}

static void print_passes(FILE *f, const json_t *passes)
{
	static const char *const keys[] = { "first", "reread", "fresh" };
	static const char *const names[] = { "first", "re-read", "fresh" };

	fprintf(f, "%-8s %7s %9s %9s %9s %9s\n", "pass", "reads", "mean µs", "p50 µs",
		"p90 µs", "p99 µs");
	for (int p = 0; p < 3; p++) {
		const json_t *s = json_object_get(passes, keys[p]);
		fprintf(f, "%-8s %7.0f %9.1f %9.1f %9.1f %9.1f\n", names[p], num(s, "reads", NULL),
			num(s, "mean_ns", NULL) / 1e3, num(s, "p50_ns", NULL) / 1e3,
			num(s, "p90_ns", NULL) / 1e3, num(s, "p99_ns", NULL) / 1e3);
	}
}

static void print_record(FILE *f, const json_t *obj)
{
	const json_t *ci = json_object_get(obj, "ci95");
	const char *sentence = json_string_value(json_object_get(obj, "sentence"));

	print_passes(f, json_object_get(obj, "passes"));
	fprintf(f, "statistic: median(fresh) / median(re-read) = %.2f, 95%% bootstrap interval %.2f-%.2f; a cache below when the interval's lower bound exceeds %.1f\n",
		num(obj, "ratio", NULL), json_number_value(json_array_get(ci, 0)),
		json_number_value(json_array_get(ci, 1)), num(obj, "threshold", NULL));
	if (json_is_true(json_object_get(obj, "cut_short")))
		fprintf(f, "(the %.0f s bound ended a pass early: fewer reads than the %.0f planned)\n",
			CACHECHECK_MAX_S, num(obj, "sample", NULL));
	if (sentence && *sentence)
		fprintf(f, "%c%s.\n", sentence[0] == 'r' ? 'R' : sentence[0], sentence + 1);
}

/* cachecheck.json, and on --json the same object on stdout. */
static int write_record(const char *dir, const struct probe_plan *p, const json_t *obj,
			char *err, size_t errlen)
{
	char path[PATH_MAX + 32], *text = json_dumps(obj, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	int rc;

	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", dir, CACHE_FILE);
	rc = record_write_file_atomic(path, text, strlen(text), err, errlen);
	free(text);
	if (rc == 0 && p->json && (text = json_dumps(obj, JSON_COMPACT))) {
		printf("%s\n", text);
		fflush(stdout);
		free(text);
	}
	return rc;
}

/* Record OBJ in DIR, print it, and the exit status it stands for. */
static int finish(const char *dir, const struct probe_plan *p, json_t *obj)
{
	const char *reason, *why;
	char err[PATH_MAX + 512];
	int rc;

	if (!obj)
		return cmd_fail(PROBE_CMD, -ENOMEM, "out of memory");
	if (write_record(dir, p, obj, err, sizeof(err)) < 0) {
		json_decref(obj);
		return cmd_fail(PROBE_CMD, -EIO, err);
	}
	reason = json_string_value(json_object_get(obj, "reason"));
	why = json_string_value(json_object_get(obj, "skipped"));
	if (json_is_true(json_object_get(obj, "ran")))
		print_record(p->json ? stderr : stdout, obj);
	else if (reason && !strcmp(reason, "no_direct"))
		fprintf(stderr, "eicbench %s: --cache-check: %s: the check needs O_DIRECT so that this machine's page cache plays no part; skipped (recorded in %s/%s)\n",
			PROBE_CMD, why, dir, CACHE_FILE);
	else
		fprintf(stderr, "eicbench %s: --cache-check: %s; skipped (recorded in %s/%s)\n",
			PROBE_CMD, why ? why : "failed", dir, CACHE_FILE);
	rc = !reason ? 0 : strcmp(reason, "error") ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	json_decref(obj);
	return rc;
}

/* The result folder with meta.json; 0 or the exit status. */
static int start(const struct probe_plan *p, const char *what, int argc, char **argv,
		 char *dir, size_t dirlen)
{
	struct device_info dev;
	bool have_dev = p->npaths && sysstat_device_for_path(p->paths[0], &dev) == 0;
	char err[PATH_MAX + 512];
	int rc = probe_cmd_write_meta(p, have_dev ? &dev : NULL, 0, argc, argv, dir, dirlen,
				      err, sizeof(err));

	if (rc)
		return cmd_fail(PROBE_CMD, rc == EXIT_BAD_INPUT ? -EINVAL : -EIO, err);
	fprintf(stderr, "eicbench %s: checking for a cache below this machine: %s, O_DIRECT, one read at a time; results in %s\n",
		PROBE_CMD, what, dir);
	return 0;
}

int probe_cmd_cache_check(const struct probe_plan *p, int argc, char **argv)
{
	struct cachecheck_config cfg = {
		.paths = p->paths, .npaths = p->npaths, .block_bytes = p->block_bytes, .seed = p->seed,
	};
	struct cachecheck_result res;
	char dir[PATH_MAX], err[PATH_MAX + 512], what[PATH_MAX + 64], fs[32];
	int rc;

	snprintf(what, sizeof(what), "%s%s", p->paths[0], p->npaths > 1 ? " and its other segments" : "");
	if ((rc = start(p, what, argc, argv, dir, sizeof(dir))) != 0)
		return rc;
	rc = cachecheck_run(&cfg, &res, err, sizeof(err));
	if (rc == CACHECHECK_NO_DIRECT) {
		probe_cmd_fs_type(p->paths[0], fs, sizeof(fs));
		snprintf(err + strlen(err), sizeof(err) - strlen(err), " (a %s file system)", fs);
	}
	return finish(dir, p, cachecheck_data_json(&cfg, &res, rc, err));
}

int probe_cmd_cache_dataset(const struct probe_opts *o, struct probe_plan *p,
			    int argc, char **argv)
{
	struct server srv;
	char dir[PATH_MAX], err[PATH_MAX + 512];
	json_t *meta;
	int rc = server_resolve(&o->srv, &srv, err, sizeof(err));

	if (rc == 0)	/* as the relation form: see cmd_probe_rel.c */
		rc = lock_hold_cluster(&srv, err, sizeof(err));
	if (rc == 0 && !srv.external)
		rc = server_start(&srv, err, sizeof(err));
	if (rc < 0)
		return cmd_fail(PROBE_CMD, rc, err);
	if (settings_recover_running(PROBE_CMD, &srv) < 0)
		return EXIT_RUN_FAILED;
	p->pattern = "cache-check";
	meta = json_pack("{s:{s:s, s:s}}", "dataset", "table", CACHECHECK_DATA_TABLE,
			 "files", "the table and its indexes, every segment");
	p->meta_extra = meta;
	rc = start(p, "the data set's table " CACHECHECK_DATA_TABLE " and its indexes", argc, argv,
		   dir, sizeof(dir));
	p->meta_extra = NULL;
	json_decref(meta);
	if (rc != 0)
		return rc;
	return finish(dir, p, cachecheck_data_sweep(&srv, p->seed));
}
