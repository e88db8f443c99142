/*
 * cmd_export: "eicbench export DIR... --dsn CONNINFO [--label TEXT]
 * [--with-logs]": result folders into the tables of a results database
 * (bench/export/export.h); a run folder takes its sweeps and probes with
 * it; tpcb and confsweep folders fill the tests table too. The schema's
 * migrations are applied first, in order. A folder that cannot be loaded
 * (not a result folder, a field the database refuses, the key of a folder
 * loaded before it) is said and refused, and the others still load; exit
 * 0 when every folder loaded, 2 when one or more were refused, 1 when the
 * database failed. Every message is redacted against the connection
 * string.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/redact.h"
#include "bench/export/export.h"
#include "bench/cli/opts.h"
#include "bench/record/record.h"

#define MAX_DIRS 256
#define MAX_IDS  (MAX_DIRS * 33)      /* each folder, a run with its 32 */

struct cmd_export_opts {
	const char *dsn;
	struct export_opts o;
	struct opt_args dirs;
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

/* What one export has met so far: the database, its connection string
 * (every message is redacted against it), the folders loaded (their ids,
 * to refuse a second folder of the same key) and the counts. */
struct export_run {
	PGconn *c;
	const char *dsn;
	const struct export_opts *o;
	int loaded, refused;
	int nids;
	struct { char *id, *dir; } *ids;    /* MAX_IDS of them */
};

/* MSG on stderr after "eicbench export: ", libpq's words and all, with the
 * connection string's secrets masked. */
static void tell(const struct export_run *r, const char *what, const char *msg)
{
	char shown[4096];

	if (redact_message(msg, r->dsn, shown, sizeof(shown)) == -ENOMEM)
		snprintf(shown, sizeof(shown), "(a message left out: out of memory)");
	fprintf(stderr, "eicbench export: %s%s\n", what, shown);
}

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

/* The folder loaded before with the key DIR would have, or NULL. */
static const char *same_key(const struct export_run *r, const char *dir, const char *parent_id)
{
	char id[PATH_MAX];

	if (export_folder_id(dir, parent_id, id, sizeof(id)) < 0)
		return NULL;
	for (int i = 0; i < r->nids; i++)
		if (!strcmp(r->ids[i].id, id))
			return r->ids[i].dir;
	return NULL;
}

/* Load DIR (PARENT_ID: its run's id, or NULL). 1 loaded, 0 refused (said),
 * -EIO when the database is gone (said). */
static int one(struct export_run *r, const char *dir, const char *parent_id, struct export_folder *f)
{
	char err[2048];
	const char *other = same_key(r, dir, parent_id);
	int ret;

	if (other) {
		snprintf(err, sizeof(err), "%.900s: its key in the results database (HOST/NAME) is that of %.900s, loaded before; refused, so that neither replaces the other: give folders of different names, or load it on its own",
			 dir, other);
		tell(r, "refused ", err);
		r->refused++;
		return 0;
	}
	ret = export_folder(r->c, dir, parent_id, r->o, f, err, sizeof(err));
	if (ret < 0 && ret != -EINVAL && PQstatus(r->c) != CONNECTION_OK) {
		tell(r, "failed: ", err);
		return -EIO;
	}
	if (ret < 0) {	/* its own fault: rolled back, the next folder goes on */
		tell(r, "refused ", err);
		r->refused++;
		return 0;
	}
	say(f);
	r->loaded++;
	if (r->nids < MAX_IDS && (r->ids[r->nids].id = strdup(f->id)) != NULL &&
	    (r->ids[r->nids].dir = strdup(dir)) != NULL)
		r->nids++;
	return 1;
}

/* DIR, and when it is a run its subfolders. 0, or -EIO when the database is gone. */
static int export_tree(struct export_run *r, const char *dir)
{
	char names[32][128], sub[PATH_MAX + 130];
	struct export_folder f, s;
	int n, ret = one(r, dir, NULL, &f);

	if (ret <= 0)
		return ret;
	n = strcmp(f.command, "run") ? 0 : export_subfolders(dir, names, 32);
	for (int i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if ((ret = one(r, sub, f.id, &s)) < 0)
			return ret;
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct cmd_export_opts o = { 0 };
	struct export_run r = { 0 };
	char err[2048];
	int n = 0, applied = 0, ret;

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
	r = (struct export_run){ .dsn = o.dsn, .o = &o.o, .ids = calloc(MAX_IDS, sizeof(*r.ids)) };
	if (!r.ids)
		return cmd_fail("export", -ENOMEM, "out of memory");
	r.c = PQconnectdb(o.dsn);
	if (PQstatus(r.c) != CONNECTION_OK) {
		char dsn[1024];

		redact_dsn(o.dsn, dsn, sizeof(dsn));
		snprintf(err, sizeof(err), "cannot connect to %s: %s", dsn, PQerrorMessage(r.c));
		tell(&r, "", err);
		PQfinish(r.c);
		free(r.ids);
		return EXIT_RUN_FAILED;
	}
	ret = export_prepare(r.c, &applied, err, sizeof(err));
	if (ret < 0)
		tell(&r, "", err);
	else if (applied)
		fprintf(stderr, "eicbench export: the results database's schema is now at version %d (%d migration%s applied)\n",
			export_schema_version(r.c, err, sizeof(err)), applied, applied == 1 ? "" : "s");
	for (int i = 0; ret == 0 && i < n; i++)
		ret = export_tree(&r, o.dirs.v[i]);
	PQfinish(r.c);
	for (int i = 0; i < r.nids; i++)
		free(r.ids[i].id), free(r.ids[i].dir);
	free(r.ids);
	if (ret < 0)
		return EXIT_RUN_FAILED;	/* already said */
	fprintf(stderr, "eicbench export: %d folder(s) loaded, %d refused\n", r.loaded, r.refused);
	return r.refused ? EXIT_BAD_INPUT : 0;
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
	"Rows are keyed by folder and trial key (or point number): loading a folder again replaces its rows, never adds to them; each folder loads in one transaction. A torn last record is left out and said. A folder that is not a result folder, one with a field the database refuses, and a second folder whose key (HOST/NAME) is that of one loaded before it in the same export are said and refused, naming the folder (and the other one), and every other folder still loads. The connection string's secrets are never printed: every message, libpq's and the server's included, is redacted against it.",
	.examples = export_examples,
	.exit_status = "export exits 0 when every folder was loaded, 2 when one or more were refused (the others loaded; the last line counts both), and 1 when the database could not be reached or failed.",
	.see_also = "report run",
	.guide = "eicbench export",
};
