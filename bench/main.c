/*
 * main: the eicbench program. One explicit, alphabetical command table;
 * global options (--help, --version); exit codes 0 success, 1 a run failed,
 * 2 bad usage or bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/opts.h"

#ifndef EICBENCH_VERSION
#define EICBENCH_VERSION "unknown"
#endif

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "compare", "result folders side by side: devices, versions, settings", cmd_compare },
	{ "confsweep", "whole-configuration sweeps (TPC-B or the cold query), the seed posts' table", cmd_confsweep },
	{ "export",  "result folders into tables of a results database (--dsn)", cmd_export },
	{ "load",   "build the test table (100M rows by default) on the cluster", cmd_load },
	{ "probe",  "raw disk probes: psync, fadvise window, io_uring at depths", cmd_probe },
	{ "report", "tables, a recommendation and plots from a result folder", cmd_report },
	{ "run",     "the whole suite: data set, cold sweeps, replays, device curve, verdict", cmd_run },
	{ "server", "the managed cluster: init, start, stop, restart, status, cold", cmd_server },
	{ "sweep",  "the cold experiment: EXPLAIN ANALYZE per setting, device watched", cmd_sweep },
	{ "tpcb",   "pgbench's TPC-B workloads: init the tables, run a load, percentiles", cmd_tpcb },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: eicbench COMMAND [options]   (eicbench COMMAND --help for its options)\n\n"
		     "How much does this storage gain from I/O concurrency, why, and which\n"
		     "effective_io_concurrency should it get?\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
	char shown[200];

	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("eicbench %s\n", EICBENCH_VERSION);
		return 0;
	}
	lock_set_holder(argc, argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 2, argv + 2);
	opts_escape(argv[1], shown, sizeof(shown));
	fprintf(stderr, "eicbench: unknown command '%s'; the commands are:\n", shown);
	usage(stderr);
	return EXIT_BAD_INPUT;
}
