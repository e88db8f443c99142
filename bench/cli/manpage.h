/*
 * manpage: man pages (roff, the man macros) written from the same option
 * tables that parse the options and print --help, so an option is described
 * once. A command describes its page in a struct man_page: its forms (usage
 * and option table, one per subcommand with a table of its own) and the
 * prose the tables cannot give (description, examples, its own files and
 * variables). The sections every page shares (exit status, environment,
 * files) are written here.
 */
#ifndef BENCH_CLI_MANPAGE_H
#define BENCH_CLI_MANPAGE_H

#include <stdio.h>

#include "bench/cli/opts.h"

/* One way to call a command: what --help prints for it. */
struct man_form {
	const char *name;             /* the subcommand ("init"), or NULL */
	const char *usage;            /* the usage text --help prints */
	const struct opt_desc *table; /* the options --help lists */
};

struct man_example {
	const char *cmd;              /* a command line */
	const char *what;             /* what it does */
};

/*
 * Prose is plain text: paragraphs are separated by a blank line, and a
 * paragraph whose lines all start with two spaces is shown as written.
 */
struct man_page {
	const char *name;             /* "sweep": the page eicbench-sweep(1) */
	const char *summary;          /* one line, also in eicbench --help */
	const struct man_form *forms; /* ends with { 0 } */
	const char *description;
	const struct man_example *examples; /* ends with { 0 }, or NULL */
	const char *exit_status;      /* besides 0, 1 and 2's common meaning, or NULL */
	const char *environment;      /* "NAME\twhat" lines of its own, or NULL */
	const char *files;            /* "PATH\twhat" lines of its own, or NULL */
	const char *see_also;         /* other commands, "report run", or NULL */
	const char *guide;            /* its section in docs/commands.md, or NULL */
};

/* What every page says about the build it documents. */
struct man_meta {
	const char *version;          /* "0.1-abc1234" */
	const char *date;             /* "2026-12-01" */
	const char *sharedir;         /* where the data files are installed */
	const char *docdir;           /* where the documents are installed */
};

/* The page of one command, eicbench-NAME(1). 0 or -errno. */
int manpage_write(FILE *out, const struct man_page *p, const struct man_meta *m);

/* eicbench(1): MAIN's prose (its forms, description, examples), then the
 * list of PAGES with their summaries. 0 or -errno. */
int manpage_write_main(FILE *out, const struct man_page *main_page,
		       const struct man_page *const *pages, int npages,
		       const struct man_meta *m);

#endif
