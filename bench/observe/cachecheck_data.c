/*
 * cachecheck_data: find a data set's files through the server, run the cache
 * check on them, and describe the result as JSON; see cachecheck_data.h.
 */
#include "bench/observe/cachecheck_data.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pg/pgutil.h"
#include "bench/observe/relblocks.h"
#include "bench/pg/sqltext.h"
#include "io/blocks.h"

static json_t *pass_json(const struct cachecheck_result *r, int p)
{
	const struct hist_summary *s = &r->pass[p];

	return json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I, s:I}",
			 "reads", (json_int_t)s->count, "mean_ns", s->mean_ns,
			 "median_ns", r->median_ns[p], "p50_ns", (json_int_t)s->p50_ns,
			 "p90_ns", (json_int_t)s->p90_ns, "p99_ns", (json_int_t)s->p99_ns,
			 "min_ns", (json_int_t)s->min_ns, "max_ns", (json_int_t)s->max_ns);
}

static json_t *ran_json(const struct cachecheck_config *cfg, const struct cachecheck_result *r)
{
	char sentence[1024];

	cachecheck_describe(r, sentence, sizeof(sentence));
	return json_pack("{s:b, s:s, s:I, s:I, s:i, s:I, s:{s:o, s:o, s:o}, s:s, s:f, s:[f, f],"
			 " s:s, s:f, s:b, s:s, s:b, s:f}",
			 "ran", 1, "method", "O_DIRECT pread, one read at a time: a random sample; then the same blocks again in turn with a fresh disjoint sample",
			 "file_blocks", (json_int_t)r->file_blocks, "sample", (json_int_t)r->sample,
			 "block_bytes", (int)cfg->block_bytes, "seed", (json_int_t)cfg->seed,
			 "passes", "first", pass_json(r, CACHECHECK_FIRST),
			 "reread", pass_json(r, CACHECHECK_REREAD), "fresh", pass_json(r, CACHECHECK_FRESH),
			 "statistic", "median(fresh) / median(re-read)", "ratio", r->ratio,
			 "ci95", r->ratio_lo, r->ratio_hi,
			 "interval", "95% percentile bootstrap of the ratio, 1000 resamples of each pass",
			 "threshold", r->threshold, "cache_below", r->cache_below,
			 "sentence", sentence, "cut_short", r->cut_short, "elapsed_s", r->elapsed_s);
}

json_t *cachecheck_data_json(const struct cachecheck_config *cfg,
			     const struct cachecheck_result *r, int rc, const char *err)
{
	char why[1024];

	if (rc == 0)
		return ran_json(cfg, r);
	snprintf(why, sizeof(why), "%s", err && *err ? err : strerror(-rc));
	why[strcspn(why, "\n")] = '\0';          /* libpq's messages end in a newline */
	return json_pack("{s:b, s:s, s:s}", "ran", 0, "skipped", why,
			 "reason", rc == CACHECHECK_NO_DIRECT ? "no_direct" :
				   rc == -EINVAL ? "bad_input" : "error");
}

/* The data set's files: every segment of the table and of each index. */
struct files {
	char   **paths;
	unsigned n;
	uint32_t block_bytes;
	json_t  *relations;
};

static int add_relation(struct files *f, const char *name, const char *base, bool remote,
			char *err, size_t errlen)
{
	char **seg, **grown;
	unsigned n;
	int rc = relblocks_readable(name, base, remote, err, errlen);

	if (rc < 0)
		return rc;
	if (blocks_segment_paths(base, &seg, &n) < 0)
		return -ENOMEM;
	if (!(grown = realloc(f->paths, (f->n + n) * sizeof(*grown)))) {
		blocks_free_paths(seg, n);
		return -ENOMEM;
	}
	f->paths = grown;
	memcpy(f->paths + f->n, seg, n * sizeof(*seg));
	f->n += n;
	free(seg);
	json_array_append_new(f->relations, json_string(name));
	return 0;
}

static int take_files(const PGresult *r, const char *datadir, bool remote, struct files *f,
		      char *err, size_t errlen)
{
	char base[PATH_MAX];
	int rc = 0;

	if (PQntuples(r) == 0) {
		snprintf(err, errlen, "there is no table %s: load the data set first", CACHECHECK_DATA_TABLE);
		return -EINVAL;
	}
	f->block_bytes = (uint32_t)strtoul(PQgetvalue(r, 0, 2), NULL, 10);
	for (int i = 0; i < PQntuples(r) && rc == 0; i++) {
		if (snprintf(base, sizeof(base), "%s/%s", datadir, PQgetvalue(r, i, 1)) >= (int)sizeof(base))
			return -ENAMETOOLONG;
		rc = add_relation(f, PQgetvalue(r, i, 0), base, remote, err, errlen);
	}
	return rc;
}

static int find_files(const struct server *srv, struct files *f, char *err, size_t errlen)
{
	const char *params[] = { CACHECHECK_DATA_TABLE };
	char datadir[PATH_MAX];
	PGresult *r = NULL;
	PGconn *c = server_connect(srv, NULL, err, errlen);
	int rc = c ? 0 : -EIO;

	if (rc == 0 && srv->external)
		rc = relblocks_datadir(c, datadir, sizeof(datadir), err, errlen);
	else
		snprintf(datadir, sizeof(datadir), "%s", srv->datadir);
	if (rc == 0 && !(r = pgutil_query(c, sql_text("probe/dataset_files.sql"), 1, params, err, errlen)))
		rc = -EIO;
	if (rc == 0)
		rc = take_files(r, datadir, srv->external, f, err, errlen);
	PQclear(r);
	PQfinish(c);
	return rc;
}

json_t *cachecheck_data_sweep(const struct server *srv, uint64_t seed)
{
	struct files f = { .relations = json_array() };
	struct cachecheck_config cfg = { .seed = seed };
	struct cachecheck_result res = { 0 };
	char err[PATH_MAX + 512] = "";
	json_t *out;
	int rc = f.relations ? find_files(srv, &f, err, sizeof(err)) : -ENOMEM;

	if (rc == 0) {
		cfg.paths = (const char *const *)f.paths;
		cfg.npaths = f.n;
		cfg.block_bytes = f.block_bytes;
		rc = cachecheck_run(&cfg, &res, err, sizeof(err));
	}
	out = cachecheck_data_json(&cfg, &res, rc, err);
	if (out && (json_object_set(out, "relations", f.relations) < 0 ||
		    json_object_set_new(out, "files", json_integer(f.n)) < 0)) {
		json_decref(out);
		out = NULL;
	}
	json_decref(f.relations);
	blocks_free_paths(f.paths, f.n);
	return out;
}
