/*
 * cmd_load: "eicbench load": build the seed's test table on the cluster,
 * with a progress bar, and print its sizes and each step's time. A finished
 * set with the same rows, seed and recipe is reused unless --force.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli/stop.h"
#include "bench/pg/cluster.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/dataset/dataset.h"
#include "bench/pg/pgutil.h"
#include "bench/cli/progress.h"


struct load_opts {
	struct server_cfg srv;
	long long rows;
	long long seed;
	const char *recipe;
	const char *tablespace_dir;
	bool force;
	bool json;
};

static const struct opt_desc load_table[] = {
	SERVER_OPTS(struct load_opts, srv),
	{ "rows", OPT_INT, offsetof(struct load_opts, rows), 1, DATASET_MAX_ROWS, "N",
	  "100000000", "major runs 0..N as in the post's generate_series(0, N): N+1 rows" },
	{ "seed", OPT_INT, offsetof(struct load_opts, seed), 0, INT64_MAX, "S", "1",
	  "seed of the deterministic generator for minor" },
	{ "recipe", OPT_STR, offsetof(struct load_opts, recipe), 0, 0, "fast|blog", "fast",
	  "fast: binary COPY FREEZE, indexes after; blog: the post's SQL as written" },
	{ "tablespace-dir", OPT_STR, offsetof(struct load_opts, tablespace_dir), 0, 0, "DIR", "the default tablespace",
	  "put the table and its indexes in a tablespace on DIR (made, or the one there reused), e.g. on an emulated device" },
	{ "force", OPT_FLAG, offsetof(struct load_opts, force), 0, 0, NULL, NULL,
	  "reload even when the same data set is already there" },
	{ "json", OPT_FLAG, offsetof(struct load_opts, json), 0, 0, NULL, NULL,
	  "print the result as one JSON object on stdout" },
	{ 0 }
};

#define USAGE "eicbench load [--datadir DIR] [--rows N] [--seed S] [--recipe fast|blog] [--tablespace-dir DIR] [--force] [--json]"


void cmd_load_progress(void *arg, const char *step, double done, double total,
		       const char *unit)
{
	progress_update(arg, step, done, total, unit);
}

/* The tablespace and the device under it, as records name it. */
static void print_where(const struct dataset_info *d)
{
	json_t *j = dataset_info_json(d), *dev = json_object_get(json_object_get(j, "tablespace"), "device");
	const char *model = json_string_value(json_object_get(dev, "model"));

	if (d->ts_name[0])
		printf("place:    tablespace %s in %s, device %s%s%s\n", d->ts_name, d->ts_location,
		       json_string_value(json_object_get(dev, "name")) ?: "unknown",
		       model && *model ? ", " : "", model ? model : "");
	json_decref(j);
}

void cmd_load_said(const struct dataset_info *d, bool json)
{
	if (json) {
		json_t *j = dataset_info_json(d);

		json_object_set_new(j, "reused", json_boolean(d->reused));
		json_dumpf(j, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(j);
		return;
	}
	printf("data set: test, major 0..%lld (%lld rows), seed %" PRIu64 ", recipe %s%s\n",
	       d->rows, d->rows + 1, d->seed, d->recipe,
	       d->reused ? " (already loaded; reused)" : "");
	printf("sizes:    table %.1f MiB, test_pkey %.1f MiB, minor_idx %.1f MiB, all %.1f MiB\n",
	       d->heap_bytes / 1048576.0, d->pkey_bytes / 1048576.0,
	       d->minor_bytes / 1048576.0, d->total_bytes / 1048576.0);
	print_where(d);
	if (d->classes_added)
		printf("classes:  the query classes' indexes and statistics added in %.1f s\n", d->classes_s);
	if (d->reused)
		return;
	printf("times:    prepare %.1f s, data %.1f s, indexes %.1f s, classes %.1f s, vacuum %.1f s, finish %.1f s; total %.1f s\n",
	       d->prepare_s, d->data_s, d->index_s, d->classes_s, d->vacuum_s, d->finish_s, d->total_s);
}

static int parse(struct load_opts *o, int argc, char **argv, struct dataset_cfg *dc)
{
	char err[1024];
	int ret;

	server_cfg_defaults(&o->srv);
	o->rows = 100000000;
	o->seed = 1;
	ret = opts_parse(load_table, o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, load_table);
		return 1;
	}
	if (ret < 0)
		return cmd_fail("load", ret, err), -EINVAL;
	if (o->tablespace_dir && !o->tablespace_dir[0]) {
		cmd_fail("load", -EINVAL, "--tablespace-dir: give a folder");
		return -EINVAL;
	}
	if (o->recipe && strcmp(o->recipe, "fast") && strcmp(o->recipe, "blog")) {
		cmd_fail("load", -EINVAL, "--recipe: give fast or blog");
		return -EINVAL;
	}
	*dc = (struct dataset_cfg){ .rows = o->rows, .seed = (uint64_t)o->seed,
		.recipe = o->recipe && !strcmp(o->recipe, "blog") ? RECIPE_BLOG : RECIPE_FAST,
		.force = o->force, .tablespace_dir = o->tablespace_dir, .stop = &cli_stopped };
	return 0;
}

int cmd_load(int argc, char **argv)
{
	struct load_opts o = { 0 };
	struct dataset_cfg dc;
	struct dataset_info info;
	struct progress bar;
	struct server s;
	char err[4096] = "";
	int ret;

	ret = parse(&o, argc, argv, &dc);
	if (ret != 0)
		return ret == 1 ? 0 : EXIT_BAD_INPUT;
	ret = cluster_take(&o.srv, &s, CLUSTER_DB | CLUSTER_RECOVER, "load", err, sizeof(err));
	if (ret < 0)
		return cmd_fail("load", ret, err);
	cli_catch_stop(true);
	progress_init(&bar, stderr);
	ret = dataset_load(&s, &dc, cmd_load_progress, &bar, &info, err, sizeof(err));
	progress_end(&bar);
	if (ret < 0)
		return cmd_fail("load", ret, err);
	cmd_load_said(&info, o.json);
	return 0;
}

static const struct man_form load_forms[] = { { NULL, USAGE, load_table }, { 0 } };

static const struct man_example load_examples[] = {
	{ "eicbench load --datadir data/pg",
	  "The full data set (100,000,001 rows, about 8 GB with its indexes) on the managed cluster in data/pg." },
	{ "eicbench load --datadir data/quick --rows 10000000",
	  "A tenth of it, for a first look." },
	{ 0 }
};

const struct man_page cmd_load_page = {
	.name = "load",
	.summary = "build the test table (100M rows by default) on the cluster",
	.forms = load_forms,
	.description =
	"Builds the seed post's table, test (major int PRIMARY KEY, minor int) with the index minor_idx on (major, minor): major runs 0..N in physical order, minor is uniform in 0..1000 from eicbench's own seeded generator, so the same seed gives the same table on every machine and PostgreSQL version.\n\n"
	"The fast recipe (the default) streams binary COPY FREEZE into a table created in the same transaction and builds both indexes side by side; on the managed cluster it relaxes durability for the load only. The blog recipe runs the post's SQL as written. Both end with VACUUM (FREEZE, ANALYZE), so measured runs never set hint bits or write pages.\n\n"
	"A finished data set with the same rows, seed and recipe is reused. Free space is checked first, against an estimate the message prints. An interrupted load leaves no data set recorded as finished, and the data set in use stays the one before.",
	.examples = load_examples,
	.see_also = "server sweep run",
	.guide = "eicbench load",
};
