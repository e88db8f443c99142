/*
 * cmd_export: "eicbench export DIR... --dsn CONNINFO [--label TEXT]
 * [--with-logs]": result folders into the tables of a results database
 * (bench/export/export.h); a run folder takes its sweeps and probes with
 * it; tpcb and confsweep folders fill the tests table too. The schema's
 * migrations are applied first, in order. A folder that cannot be loaded
 * is said and skipped; exit 0 when something was loaded, 2 when nothing
 * could be.
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

struct cmd_export_opts {
	struct opt_args dirs;
	const char *dsn;
	struct export_opts o;
};

#define EO(f) offsetof(struct cmd_export_opts, f)

static const struct opt_desc export_table[] = {
	{ "result folder", OPT_ARGS, EO(dirs), 0, 0, "DIR", NULL,
	  "result folders of eicbench sweep, probe, run, tpcb run or confsweep (at most 256)" },
	{ "dsn", OPT_STR, EO(dsn), 0, 0, "CONNINFO", NULL,
	  "the results database (libpq connection string or URI; PG* variables apply)" },
	{ "label", OPT_STR, EO(o.label), 0, 0, "TEXT", "the sweep file's name, else the command",
	  "the test set the folders belong to (folders.label, tests.label)" },
	{ "with-logs", OPT_FLAG, EO(o.with_logs), 0, 0, NULL, NULL,
	  "tpcb folders' pgbench logs too: eicbench.timing (per transaction), timing_intervals (--aggregate-interval)" },
	{ 0 }
};

#define USAGE "eicbench export DIR [DIR...] --dsn CONNINFO [--label TEXT] [--with-logs]"

static void say(const struct export_folder *f)
{
	const char *what = !strcmp(f->command, "sweep") || !strcmp(f->command, "confsweep") ? "trials" :
			   !strcmp(f->command, "probe") ? "points" : NULL;

	fprintf(stderr, "loaded %s (%s", f->id, f->command);
	if (what)
		fprintf(stderr, ", %zu %s", f->rows, what);
	if (f->tests)
		fprintf(stderr, ", %zu test%s", f->tests, f->tests == 1 ? "" : "s");
	if (f->timing)
		fprintf(stderr, ", %zu log lines", f->timing);
	fprintf(stderr, ")%s\n", f->torn ? "; a torn last line was left out" : "");
}

/* DIR, and when it is a run its subfolders. Folders loaded, or -errno. */
static int export_tree(PGconn *c, const char *dir, const struct export_opts *o, int *skipped)
{
	char names[32][128], sub[PATH_MAX + 130], err[2048];
	struct export_folder f, s;
	int n, loaded = 0, ret = export_folder(c, dir, NULL, o, &f, err, sizeof(err));

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
		ret = export_folder(c, sub, f.id, o, &s, err, sizeof(err));
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
	struct cmd_export_opts o = { 0 };
	char err[2048], dsn[1024];
	int n = 0, loaded = 0, skipped = 0, applied = 0, ret;
	PGconn *c;

	ret = opts_parse(export_table, &o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, USAGE, export_table);
		return 0;
	}
	n = o.dirs.n;
	if (ret == 0)
		ret = opts_check_paths("result folder", (char *const *)o.dirs.v, n, err, sizeof(err));
	if (ret < 0)
		return cmd_fail("export", ret, err);
	if (n == 0 || n > MAX_DIRS || !o.dsn)
		return cmd_fail("export", -EINVAL, n == 0 ? "give one or more result folders: " USAGE :
				!o.dsn ? "--dsn CONNINFO: give the results database to load into" :
				"at most 256 folders at once");
	c = PQconnectdb(o.dsn);
	if (PQstatus(c) != CONNECTION_OK) {
		redact_dsn(o.dsn, dsn, sizeof(dsn));
		snprintf(err, sizeof(err), "cannot connect to %s: %s", dsn, PQerrorMessage(c));
		PQfinish(c);
		return cmd_fail("export", -EIO, err);
	}
	ret = export_prepare(c, &applied, err, sizeof(err));
	if (ret < 0)
		fprintf(stderr, "eicbench export: %s\n", err);
	else if (applied)
		fprintf(stderr, "eicbench export: the results database's schema is now at version %d (%d migration%s applied)\n",
			export_schema_version(c, err, sizeof(err)), applied, applied == 1 ? "" : "s");
	for (int i = 0; ret == 0 && i < n; i++) {
		int k = export_tree(c, o.dirs.v[i], &o.o, &skipped);

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
