/*
 * cmd_export: "eicbench export DIR... --dsn CONNINFO": result folders into
 * the tables of a results database (bench/export/export.h); a run folder takes its
 * sweeps and probes with it. A folder that cannot be loaded is said and
 * skipped; exit 0 when something was loaded, 2 when nothing could be.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/redact.h"
#include "bench/export/export.h"
#include "bench/cli/opts.h"
#include "bench/record/record.h"

#define MAX_DIRS 256

struct export_opts {
	const char *dsn;
};

static const struct opt_desc export_table[] = {
	{ "dsn", OPT_STR, offsetof(struct export_opts, dsn), 0, 0, "CONNINFO", NULL,
	  "the results database (libpq connection string or URI; PG* variables apply)" },
	{ 0 }
};

#define USAGE "eicbench export DIR [DIR...] --dsn CONNINFO\n" \
	      "  each DIR a result folder of eicbench sweep, probe or run"

static void say(const struct export_folder *f)
{
	const char *what = !strcmp(f->command, "sweep") ? "trials" :
			   !strcmp(f->command, "probe") ? "points" : NULL;

	fprintf(stderr, "loaded %s (%s", f->id, f->command);
	if (what)
		fprintf(stderr, ", %zu %s", f->rows, what);
	fprintf(stderr, ")%s\n", f->torn ? "; a torn last line was left out" : "");
}

/* DIR, and when it is a run its subfolders. Folders loaded, or -errno. */
static int export_tree(PGconn *c, const char *dir, int *skipped)
{
	char names[32][128], sub[PATH_MAX + 130], err[2048];
	struct export_folder f, s;
	int n, loaded = 0, ret = export_folder(c, dir, NULL, &f, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "eicbench export: %s %s\n", ret == -EINVAL ? "skipped" : "failed:", err);
		(*skipped)++;
		return ret == -EINVAL ? 0 : ret;
	}
	say(&f);
	loaded++;
	n = strcmp(f.command, "run") ? 0 : export_subfolders(dir, names, 32);
	for (int i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		ret = export_folder(c, sub, f.id, &s, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "eicbench export: %s %s\n", ret == -EINVAL ? "skipped" : "failed:", err);
			(*skipped)++;
			if (ret != -EINVAL)
				return ret;
			continue;
		}
		say(&s);
		loaded++;
	}
	return loaded;
}

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { 0 };
	char err[2048], dsn[1024];
	int n = 0, loaded = 0, skipped = 0, ret;
	PGconn *c;

	while (n < argc && argv[n][0] != '-')
		n++;
	ret = opts_parse(export_table, &o, argc - n, argv + n, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, export_table);
		return 0;
	}
	if (ret == 0)
		ret = opts_check_paths("result folder", argv, n, err, sizeof(err));
	if (ret < 0)
		return cmd_fail("export", ret, err);
	if (n == 0 || n > MAX_DIRS || !o.dsn)
		return cmd_fail("export", -EINVAL, n == 0 ? "give one or more result folders first: " USAGE :
				!o.dsn ? "--dsn CONNINFO: give the results database to load into" :
				"at most 256 folders at once");
	c = PQconnectdb(o.dsn);
	if (PQstatus(c) != CONNECTION_OK) {
		redact_dsn(o.dsn, dsn, sizeof(dsn));
		snprintf(err, sizeof(err), "cannot connect to %s: %s", dsn, PQerrorMessage(c));
		PQfinish(c);
		return cmd_fail("export", -EIO, err);
	}
	ret = export_prepare(c, err, sizeof(err));
	for (int i = 0; ret == 0 && i < n; i++) {
		int k = export_tree(c, argv[i], &skipped);

		if (k < 0)
			ret = k;
		else
			loaded += k;
	}
	PQfinish(c);
	if (ret < 0)
		return EXIT_RUN_FAILED;	/* already said */
	fprintf(stderr, "eicbench export: %d folder(s) loaded, %d skipped\n", loaded, skipped);
	return loaded ? 0 : EXIT_BAD_INPUT;
}

static const struct man_form export_forms[] = { { NULL, USAGE, export_table }, { 0 } };

static const struct man_example export_examples[] = {
	{ "eicbench export results/* --dsn \"host=db user=me dbname=results\"",
	  "Every result folder into the results database on host db." },
	{ 0 }
};

const struct man_page cmd_export_page = {
	.name = "export",
	.summary = "result folders into tables of a results database (--dsn)",
	.forms = export_forms,
	.description =
	"Loads result folders into tables of a results database, so that runs over months and devices can be queried with SQL. It creates the schema eicbench when missing, with the tables folders (one row per folder, with its whole meta.json), trials (one per sweep trial), probe_points (one per probe point) and runs (one per run folder; a run's subfolders go with it).\n\n"
	"Rows are keyed by folder and trial key (or point number): loading a folder again replaces its rows, never adds to them; each folder loads in one transaction. A torn last record is left out and said; a folder that is not a result folder is said and skipped. The connection string's password is never printed.",
	.examples = export_examples,
	.exit_status = "export exits 0 when something was loaded and 2 when nothing could be.",
	.see_also = "report run",
	.guide = "eicbench export",
};
