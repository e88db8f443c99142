/*
 * dataset: the seed's test table, test(major int PRIMARY KEY, minor int) with
 * minor_idx ON test (major, minor). --rows N gives major 0..N in physical
 * order (N+1 rows, as the post's generate_series(0, N)). The fast recipe
 * streams binary COPY FREEZE from the deterministic generator (bench/dataset/generator.h)
 * and builds both indexes afterwards, side by side; the blog recipe runs the
 * post's SQL. Both end with VACUUM (FREEZE, ANALYZE). A finished load is
 * recorded in eicbench_dataset, written last; a matching one is reused.
 * The set lives in the tablespace given (bench/dataset/tablespace.h),
 * else in the database's default; one in another place is loaded again.
 */
#ifndef BENCH_DATASET_DATASET_H
#define BENCH_DATASET_DATASET_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/pg/server.h"

#define DATASET_MAX_ROWS 2000000000LL

enum dataset_recipe { RECIPE_FAST, RECIPE_BLOG };

struct dataset_cfg {
	long long rows;                  /* last value of major */
	uint64_t  seed;
	enum dataset_recipe recipe;
	bool      force;                 /* reload even if a matching set exists */
	const char *tablespace_dir;      /* its folder as given, or NULL: the default tablespace */
	const volatile sig_atomic_t *stop;
};

/* Sizes PostgreSQL will need, from the page layout of (int4, int4) rows. */
struct dataset_estimate {
	uint64_t heap_bytes, index_bytes, temp_bytes, need_bytes;
};

struct dataset_info {
	long long rows;                  /* last value of major */
	uint64_t  seed;
	char      recipe[8];
	bool      reused;
	uint64_t  heap_bytes, pkey_bytes, minor_bytes, total_bytes;
	char      ts_name[128];          /* where it lives: the tablespace ... */
	char      ts_location[PATH_MAX]; /* ... and its folder */
	double    prepare_s, data_s, index_s, classes_s, vacuum_s, finish_s, total_s;
	bool      classes_added;         /* a reused set got the classes' indexes */
	int       server_version;
};

/* Called from long steps: STEP names it; DONE of TOTAL (rows or bytes). */
typedef void (*dataset_progress_fn)(void *arg, const char *step,
				    double done, double total, const char *unit);

const char *dataset_recipe_name(enum dataset_recipe r);

void dataset_estimate(long long rows, struct dataset_estimate *e);

/* Is there room under DIR? 0, or -EINVAL with the estimate in ERR. */
int dataset_check_space(const char *dir, long long rows, char *err, size_t errlen);

/* The progress to show of N works done at once (TOTAL each, both indexes
 * say): RUNNING_SUM done by those the server still lists, FINISHED done
 * whole, never below SHOWN, what was shown last (a work leaves the
 * server's view before its result arrives). */
double dataset_progress(double running_sum, int finished, int n, double total, double shown);

/* The data set recorded on C: 1 found (OUT filled, where it lives from the
 * catalog), 0 none, <0 error. */
int dataset_lookup(PGconn *c, struct dataset_info *out, char *err, size_t errlen);

int dataset_load(struct server *s, const struct dataset_cfg *cfg,
		 dataset_progress_fn progress, void *arg,
		 struct dataset_info *out, char *err, size_t errlen);

/* D as JSON; "tablespace" holds its name, folder and the device there
 * (with an emulated device's model), read when called. */
json_t *dataset_info_json(const struct dataset_info *d);

#endif
