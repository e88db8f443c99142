/*
 * probe_cache: the cache check's folder, record and status; see
 * probe_cache.h.
 */
#include "bench/probe/probe_cache.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/observe/cachecheck_data.h"
#include "bench/pg/cluster.h"
#include "bench/record/record.h"

/* OBJ (owned) as DIR/cachecheck.json, and in OUT->cache. */
static int keep(struct probe_out *out, json_t *obj, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], *text;
	int rc;

	if (!obj || !(text = json_dumps(obj, JSON_INDENT(2) | JSON_REAL_PRECISION(10)))) {
		json_decref(obj);
		return snprintf(err, errlen, "out of memory"), -ENOMEM;
	}
	snprintf(path, sizeof(path), "%s/%s", out->dir, PROBE_CACHE_FILE);
	rc = record_write_file_atomic(path, text, strlen(text), err, errlen);
	free(text);
	if (rc < 0) {
		json_decref(obj);
		return rc == -EINVAL ? -EIO : rc;
	}
	out->cache = obj;
	return 0;
}

/* The result folder with meta.json, and the line saying what is checked. */
static int start(const struct probe_plan *p, const char *what, int argc, char **argv,
		 struct probe_out *out, char *err, size_t errlen)
{
	struct device_info dev;
	int rc;

	json_decref(record_device_at(p->npaths ? p->paths[0] : NULL, &dev));
	rc = probe_points_folder(p, &dev, 0, argc, argv, out->dir, sizeof(out->dir), err, errlen);
	if (rc < 0)
		return rc;
	fprintf(stderr, "eicbench probe: checking for a cache below this machine: %s, O_DIRECT, one read at a time; results in %s\n",
		what, out->dir);
	return 0;
}

int probe_cache_files(const struct probe_plan *p, int argc, char **argv,
		      struct probe_out *out, char *err, size_t errlen)
{
	struct cachecheck_config cfg = {
		.paths = p->paths, .npaths = p->npaths, .block_bytes = p->block_bytes, .seed = p->seed,
	};
	struct cachecheck_result res;
	char why[PATH_MAX + 512], what[PATH_MAX + 64], fs[32];
	int rc;

	snprintf(what, sizeof(what), "%s%s", p->paths[0], p->npaths > 1 ? " and its other segments" : "");
	if ((rc = start(p, what, argc, argv, out, err, errlen)) < 0)
		return rc;
	rc = cachecheck_run(&cfg, &res, why, sizeof(why));
	if (rc == CACHECHECK_NO_DIRECT) {
		sysstat_fstype_for_path(p->paths[0], fs, sizeof(fs));
		snprintf(why + strlen(why), sizeof(why) - strlen(why), " (a %s file system)", fs);
	}
	return keep(out, cachecheck_data_json(&cfg, &res, rc, why), err, errlen);
}

int probe_cache_dataset(const struct probe_cfg *cfg, const struct probe_plan *plan,
			int argc, char **argv, struct probe_out *out, char *err, size_t errlen)
{
	struct probe_plan p = *plan;
	struct server srv;
	json_t *meta;
	int rc = cluster_take(&cfg->srv, &srv, CLUSTER_START | CLUSTER_RECOVER, "probe", err, errlen);

	if (rc < 0)
		return rc;
	p.pattern = "cache-check";
	meta = json_pack("{s:{s:s, s:s}}", "dataset", "table", CACHECHECK_DATA_TABLE,
			 "files", "the table and its indexes, every segment");
	p.meta_extra = meta;
	rc = start(&p, "the data set's table " CACHECHECK_DATA_TABLE " and its indexes", argc, argv,
		   out, err, errlen);
	json_decref(meta);
	if (rc < 0)
		return rc;
	return keep(out, cachecheck_data_sweep(&srv, p.seed), err, errlen);
}

int probe_cache_status(const json_t *rec)
{
	const char *reason = json_string_value(json_object_get(rec, "reason"));

	if (!reason)
		return 0;
	return strcmp(reason, "error") ? -EINVAL : -EIO;
}
