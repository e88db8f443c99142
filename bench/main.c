/*
 * main: the eicbench program. One explicit, alphabetical command table, each
 * command with its man page; global options (--help, --version); the hidden
 * command manual, which writes the man pages; exit codes 0 success, 1 a run
 * failed, 2 bad usage or bad input, 3 busy, 128 + N stopped by signal N (130 after
 * Ctrl-C). Standard output is line-buffered.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/run.h"
#include "bench/cli/datadir.h"
#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cli/stop.h"

#ifndef EICBENCH_VERSION
#define EICBENCH_VERSION "unknown"
#endif

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct man_page *page;	/* its summary, its man page */
};

static const struct command commands[] = {
	{ "compare",   cmd_compare,   &cmd_compare_page },
	{ "confsweep", cmd_confsweep, &cmd_confsweep_page },
	{ "device",    cmd_device,    &cmd_device_page },
	{ "export",    cmd_export,    &cmd_export_page },
	{ "load",      cmd_load,      &cmd_load_page },
	{ "probe",     cmd_probe,     &cmd_probe_page },
	{ "report",    cmd_report,    &cmd_report_page },
	{ "run",       cmd_run_versions, &cmd_run_page },
	{ "server",    cmd_server,    &cmd_server_page },
	{ "sweep",     cmd_sweep,     &cmd_sweep_page },
	{ "tpcb",      cmd_tpcb,      &cmd_tpcb_page },
};
#define NCOMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

static void usage(FILE *out)
{
	int width = opts_width(out);

	fputs("usage: ", out);
	opts_wrap(out, "eicbench COMMAND [options] (eicbench COMMAND --help for its options)", 7, 7, width);
	fputs("\n\n", out);
	opts_wrap(out, "How much does this storage gain from I/O concurrency, why, and which "
		  "effective_io_concurrency should it get?", 0, 0, width);
	fputs("\n\ncommands:\n", out);
	for (int i = 0; i < NCOMMANDS; i++) {
		fprintf(out, "  %-10s ", commands[i].name);
		opts_wrap(out, commands[i].page->summary, 13, 13, width);
		fputc('\n', out);
	}
	fputs("\nman eicbench-COMMAND for the whole page of each.\n", out);
}

/* The hidden command: the man pages, from the table above. */
static int manual(int argc, char **argv)
{
	const struct man_page *pages[NCOMMANDS];

	for (int i = 0; i < NCOMMANDS; i++)
		pages[i] = commands[i].page;
	return cmd_manual(argc, argv, EICBENCH_VERSION, pages, NCOMMANDS);
}

static void version(void)
{
	char dir[4096];

	printf("eicbench %s\n", EICBENCH_VERSION);
	if (datadir_find(dir, sizeof(dir)) == 0)
		printf("data files: %s\n", dir);
	else
		printf("data files: not found (looked beside the program and in %s)\n", datadir_installed());
}

int main(int argc, char **argv)
{
	char shown[200];

	/* Line by line into a file or pipe too, so that a log of stdout and
	 * stderr together (>log 2>&1, | tee) keeps every line whole and in the
	 * order it was written. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "-?") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return 0;
	}
	if (!strcmp(argv[1], "manual"))
		return manual(argc - 2, argv + 2);
	if (datadir_check_hooks(shown, sizeof(shown)) < 0) {
		fprintf(stderr, "eicbench: %s\n", shown);
		return EXIT_BAD_INPUT;
	}
	lock_set_holder(argc, argv);
	for (int i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return cli_stop_status(commands[i].run(argc - 2, argv + 2));
	opts_escape(argv[1], shown, sizeof(shown));
	fprintf(stderr, "eicbench: unknown command '%s'; the commands are:\n", shown);
	usage(stderr);
	return EXIT_BAD_INPUT;
}
