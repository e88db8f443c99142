/*
 * cmd/tpcb: what the two files of "eicbench tpcb" share: tpcb_opts.c (the
 * option tables, pgbench's and the suite's; which mode a command line is,
 * init or run; the server it names) and tpcb.c (init and run). Private to
 * the command.
 */
#ifndef BENCH_CMD_TPCB_H
#define BENCH_CMD_TPCB_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/cli/opts.h"
#include "bench/pg/server.h"
#include "bench/tpcb/tpcb.h"

#define TPCB_MAX_DEFINES 256

/* A -f, -b, -S or -N in the order given. */
struct tpcb_source {
	bool builtin;
	enum tpcb_builtin which;
	char name[1024];
	int  weight;
};

struct tpcb_opts {
	struct server_cfg srv;
	/* pgbench's connection options and database */
	const char *host, *port, *username, *dbname, *dbarg;
	/* both modes */
	long long scale;
	bool no_vacuum, debug, version, json, init_flag;
	/* init */
	const char *init_steps, *tablespace, *index_tablespace, *partition_method;
	long long fillfactor, partitions;
	bool quiet, foreign_keys, unlogged, force;
	/* run */
	long long clients, threads, transactions, pipeline, max_tries;
	double duration, progress, aggregate;
	const char *protocol, *rate, *latency_limit, *sampling_rate, *random_seed, *log_prefix;
	const char *show_script, *out;
	bool per_statement, log, vacuum_all, connect_each, failures_detailed, verbose_errors;
	bool exit_on_abort, progress_timestamp, list_builtins;
	int  nsources, ndefines;
	struct tpcb_source sources[TPCB_MAX_SCRIPTS + 1];
	const char *defines[TPCB_MAX_DEFINES];
};

enum tpcb_mode { TPCB_MODE_RUN, TPCB_MODE_INIT };

/*
 * Parse the command's arguments (after "tpcb", "tpcb init" or "tpcb run":
 * MODE_GIVEN says which, -1 for pgbench's form, where -i means init) into
 * O. 0, 1 for help or a listing already printed (exit 0), or -EINVAL with
 * ERR. *MODE is the mode found.
 */
int tpcb_opts_parse(struct tpcb_opts *o, int mode_given, int argc, char **argv,
		    enum tpcb_mode *mode, char *err, size_t errlen);

/* Print the help of MODE (-1: both, pgbench's layout) on stdout. */
void tpcb_opts_usage(int mode);

/* The tables and usages --help prints (and the man page shows). */
extern const struct opt_desc tpcb_all_table[], tpcb_init_table[], tpcb_run_table[];
extern const char tpcb_usage_init[], tpcb_usage_run[], tpcb_server_rule[];

/*
 * The server the options name, into OUT (for cluster_take): --datadir's
 * managed cluster, --dsn's, or else libpq's defaults and PG* variables
 * with -h -p -U and the database (-d or the positional one). The
 * connection string is built into DSN, which OUT then points to.
 */
int tpcb_opts_server(const struct tpcb_opts *o, struct server_cfg *out, char *dsn, size_t dsnlen,
		     char *err, size_t errlen);

/* The database of the managed cluster to use (-d), or NULL. */
const char *tpcb_opts_dbname(const struct tpcb_opts *o);

#endif
