/*
 * manual: the hidden command that writes the man pages at build time
 * (`eicbench manual --out DIR`): eicbench.1 from the page below and the
 * command table's summaries, and eicbench-NAME.1 from each command's own
 * page, whose options are the tables that command parses with. Not listed
 * in eicbench --help; make builds and installs what it writes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cli/datadir.h"
#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cmd/cmd.h"
#include "io/file.h"

struct manual_opts {
	const char *out, *date;
};

static const struct opt_desc manual_table[] = {
	{ "out", OPT_OUT, offsetof(struct manual_opts, out), 0, 0, "DIR", NULL,
	  "the folder to write the pages into (made when missing)" },
	{ "date", OPT_STR, offsetof(struct manual_opts, date), 0, 0, "YYYY-MM-DD", "none",
	  "the date the pages carry (make gives the last commit's)" },
	{ 0 }
};

#define USAGE "eicbench manual --out DIR [--date YYYY-MM-DD]"

/* The global options: main parses them itself, this table describes them. */
static const struct opt_desc main_table[] = {
	{ "version", OPT_FLAG, 0, 0, 0, NULL, NULL, "print the version and exit" },
	{ 0 }
};

static const struct man_form main_forms[] = {
	{ NULL, "eicbench COMMAND [options]\neicbench COMMAND --help\neicbench --version", main_table },
	{ 0 }
};

static const struct man_example main_examples[] = {
	{ "eicbench run --datadir /mnt/newssd/eicbench",
	  "The whole suite on the device mounted at /mnt/newssd: a private cluster there, the 100M-row data set, the cache check, both queries swept cold, the replays, the device's curve and the verdict, in results/<UTC>-run/." },
	{ "eicbench run --quick --datadir data/quick",
	  "A first look in about a minute: 10M rows, 5 values, 3 runs." },
	{ "eicbench report results/20261201T195735Z-run --format html",
	  "The verdict of an earlier run again, from its records alone." },
	{ 0 }
};

const struct man_page cmd_main_page = {
	.name = "",
	.summary = "how much a storage device gains from I/O concurrency, why, and which effective_io_concurrency PostgreSQL should get on it",
	.forms = main_forms,
	.description =
	"eicbench reproduces the classic experiment on the device under test: a bitmap heap scan over a 100M-row table, cold cache, several cold runs per effective_io_concurrency value, on a private PostgreSQL cluster it makes itself (or on an existing server given with --dsn and --restart-cmd). It replays the same heap blocks outside the database with the reads PostgreSQL makes at each value, measures the device's own curve, checks for a cache below the machine, and ends with one value for the storage and the SQL that sets it.\n\n"
	"eicbench run does all of it in one command; the other commands are its steps, and tools around them: compare result folders, export them to a database, drive TPC-B workloads, sweep whole configurations.\n\n"
	"Input is checked before anything is written: a value out of range, a number not written plainly (04, +4), an item given twice in a list or a control character in a string is refused with a message naming the value and what is allowed, and exit status 2. Every wait is bounded; every long step shows its progress.",
	.examples = main_examples,
};

/* Write one page into DIR/FILE. 0 or -errno with ERR. */
static int write_page(const char *dir, const char *file, const struct man_page *p,
		      const struct man_page *const *pages, int n,
		      const struct man_meta *m, char *err, size_t errlen)
{
	char path[4096];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = file_fopen_write(path);
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot write %.900s: %s", path, file_strerror(ret));
		return ret;
	}
	ret = pages ? manpage_write_main(f, p, pages, n, m) : manpage_write(f, p, m);
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret < 0)
		snprintf(err, errlen, "cannot write %.900s: %s", path, strerror(-ret));
	return ret;
}

int cmd_manual(int argc, char **argv, const char *version,
	       const struct man_page *const *pages, int npages)
{
	struct manual_opts o = { 0 };
	struct man_meta m = { .version = version, .sharedir = datadir_installed(),
			      .docdir = datadir_docs() };
	char err[1024], file[96];
	int ret = opts_parse(manual_table, &o, argc, argv, err, sizeof(err));

	if (ret == 1) {
		opts_usage(stdout, USAGE, manual_table);
		return 0;
	}
	if (ret < 0)
		return cmd_fail("manual", ret, err);
	if (!o.out)
		return cmd_fail("manual", -EINVAL, "give the folder to write into: " USAGE);
	m.date = o.date ? o.date : "";
	if (mkdir(o.out, 0755) < 0 && errno != EEXIST) {
		ret = -errno;
		snprintf(err, sizeof(err), "cannot make %.900s: %s", o.out, strerror(-ret));
		return cmd_fail("manual", ret, err);
	}
	ret = write_page(o.out, "eicbench.1", &cmd_main_page, pages, npages, &m, err, sizeof(err));
	for (int i = 0; i < npages && ret == 0; i++) {
		snprintf(file, sizeof(file), "eicbench-%s.1", pages[i]->name);
		ret = write_page(o.out, file, pages[i], NULL, 0, &m, err, sizeof(err));
	}
	return ret < 0 ? cmd_fail("manual", ret, err) : 0;
}
