/*
 * tpcb_opts: the options of "eicbench tpcb", pgbench's and the suite's, in
 * three tables (both modes, init, run) that parse, check and print --help;
 * pgbench's form ("eicbench tpcb -i -s 10", "eicbench tpcb -c 8 -T 60
 * mydb") as well as "tpcb init" and "tpcb run"; and which server a command
 * line names: --datadir's managed cluster, --dsn's server, or else libpq's
 * own defaults and PG* variables with -h -p -U and the database (-d or the
 * positional DBNAME, which may be a connection string), as pgbench.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bench/cli/opts.h"
#include "bench/cmd/tpcb.h"

#define TO(f) offsetof(struct tpcb_opts, f)

/* ---- scripts and variables, in the order given ----------------------------- */

static int add_source(struct tpcb_opts *o, bool builtin, enum tpcb_builtin b, const char *name,
		      int w, char *err, size_t errlen)
{
	struct tpcb_source *s;

	if (o->nsources == TPCB_MAX_SCRIPTS) {
		snprintf(err, errlen, "at most %d SQL scripts are allowed (-f, -b, -S, -N)", TPCB_MAX_SCRIPTS);
		return -EINVAL;
	}
	s = &o->sources[o->nsources++];
	s->builtin = builtin;
	s->which = b;
	s->weight = w;
	snprintf(s->name, sizeof(s->name), "%s", name);
	return 0;
}

static int take_builtin(void *cfg, const char *v, char *err, size_t errlen)
{
	struct tpcb_opts *o = cfg;
	enum tpcb_builtin b;
	char name[256];
	int w;

	if (!strcmp(v, "list")) {
		o->list_builtins = true;
		return 0;
	}
	if (tpcb_script_weight(v, name, sizeof(name), &w, err, errlen) < 0 ||
	    tpcb_builtin_find(name, &b, err, errlen) < 0)
		return -EINVAL;
	return add_source(o, true, b, tpcb_builtin_name(b), w, err, errlen);
}

static int take_file(void *cfg, const char *v, char *err, size_t errlen)
{
	char name[1024];
	int w;

	if (tpcb_script_weight(v, name, sizeof(name), &w, err, errlen) < 0)
		return -EINVAL;
	return add_source(cfg, false, TPCB_TPCB_LIKE, name, w, err, errlen);
}

static int take_select_only(void *cfg, const char *v, char *err, size_t errlen)
{
	(void)v;
	return add_source(cfg, true, TPCB_SELECT_ONLY, "select-only", 1, err, errlen);
}

static int take_simple_update(void *cfg, const char *v, char *err, size_t errlen)
{
	(void)v;
	return add_source(cfg, true, TPCB_SIMPLE_UPDATE, "simple-update", 1, err, errlen);
}

static int take_define(void *cfg, const char *v, char *err, size_t errlen)
{
	struct tpcb_opts *o = cfg;
	const char *eq = strchr(v, '=');

	if (!eq || eq == v || !eq[1]) {
		snprintf(err, errlen, "invalid variable definition: \"%.100s\"; give -D NAME=VALUE", v);
		return -EINVAL;
	}
	if (o->ndefines == TPCB_MAX_DEFINES) {
		snprintf(err, errlen, "-D: at most %d variables", TPCB_MAX_DEFINES);
		return -EINVAL;
	}
	o->defines[o->ndefines++] = v;
	return 0;
}

/* ---- the tables ---------------------------------------------------------------- */

#define COMMON_OPTS \
	{ "host", OPT_STR, TO(host), 0, 0, "HOSTNAME", "PGHOST, else libpq's", \
	  "database server host or socket directory", 'h' }, \
	{ "port", OPT_STR, TO(port), 0, 0, "PORT", "PGPORT, else 5432", "database server port number", 'p' }, \
	{ "username", OPT_STR, TO(username), 0, 0, "USERNAME", "PGUSER, else yours", \
	  "connect as this database user", 'U' }, \
	{ "dbname", OPT_STR, TO(dbname), 0, 0, "DBNAME", "PGDATABASE, else the user's name", \
	  "database to connect to (a connection string will do)", 'd' }, \
	{ "DBNAME", OPT_ARG, TO(dbarg), 0, 0, "DBNAME", NULL, "the database, as pgbench takes it (same as -d)" }, \
	{ "datadir", OPT_STR, TO(srv.datadir), 0, 0, "DIR", NULL, \
	  "use the managed cluster in DIR (started if stopped) instead of libpq's server" }, \
	{ "dsn", OPT_STR, TO(srv.dsn), 0, 0, "CONNINFO", NULL, \
	  "use the server of this connection string (PG* variables fill in the rest)" }, \
	{ "pgbin", OPT_STR, TO(srv.pgbin), 0, 0, "DIR", "pg_config --bindir", "with --datadir: directory holding initdb and postgres" }, \
	{ "pg", OPT_INT, TO(srv.pg), 10, 99, "MAJOR", NULL, "with --datadir: PostgreSQL major version (its binaries from the build cache)" }, \
	{ "user", OPT_STR, TO(srv.user), 0, 0, "NAME", "postgres", "with --datadir: the unprivileged user the server runs as when invoked as root" }, \
	{ "timeout", OPT_SECONDS, TO(srv.timeout_s), 0, 86400, "SECS", "120s", "bound on every wait for the server (at most 24h)" }, \
	{ "scale", OPT_INT, TO(scale), 1, TPCB_MAX_SCALE, "N", "1", \
	  "init: scale factor (N branches, 10N tellers, 100,000N accounts); run: :scale of custom scripts", 's' }, \
	{ "no-vacuum", OPT_FLAG, TO(no_vacuum), 0, 0, NULL, NULL, \
	  "init: leave out the vacuum step; run: no vacuum before the run", 'n' }, \
	{ "debug", OPT_FLAG, TO(debug), 0, 0, NULL, NULL, "print debugging output: what each client runs, sends, receives" }, \
	{ "json", OPT_FLAG, TO(json), 0, 0, NULL, NULL, "print the figures as one JSON object on stdout (the text goes to stderr)" }, \
	{ "version", OPT_FLAG, TO(version), 0, 0, NULL, NULL, "print the version, then exit", 'V' },

#define INIT_OPTS \
	{ "initialize", OPT_FLAG, TO(init_flag), 0, 0, NULL, NULL, "make the tables (pgbench's -i; the same as eicbench tpcb init)", 'i' }, \
	{ "init-steps", OPT_STR, TO(init_steps), 0, 0, "[dtgGvpf]+", "dtgvp", \
	  "init steps in order: d drop, t create, g generate client-side, G server-side, v vacuum, p primary keys, f foreign keys", 'I' }, \
	{ "fillfactor", OPT_INT, TO(fillfactor), 10, 100, "N", "100", "fillfactor of accounts, branches and tellers", 'F' }, \
	{ "quiet", OPT_FLAG, TO(quiet), 0, 0, NULL, NULL, "one progress line every 5 s", 'q' }, \
	{ "foreign-keys", OPT_FLAG, TO(foreign_keys), 0, 0, NULL, NULL, "add pgbench's foreign keys between the tables" }, \
	{ "index-tablespace", OPT_STR, TO(index_tablespace), 0, 0, "TABLESPACE", NULL, "make the primary keys in this tablespace" }, \
	{ "partition-method", OPT_STR, TO(partition_method), 0, 0, "range|hash", "range", "how --partitions splits pgbench_accounts" }, \
	{ "partitions", OPT_INT, TO(partitions), 0, 1000000, "N", "0", "partition pgbench_accounts into N parts" }, \
	{ "tablespace", OPT_STR, TO(tablespace), 0, 0, "TABLESPACE", NULL, "make the tables in this tablespace" }, \
	{ "unlogged-tables", OPT_FLAG, TO(unlogged), 0, 0, NULL, NULL, "make the tables unlogged" }, \
	{ "force", OPT_FLAG, TO(force), 0, 0, NULL, NULL, "replace pgbench tables that eicbench did not make" },

#define RUN_OPTS \
	{ "builtin", OPT_CALL, 0, 0, 0, "NAME[@W]", "tpcb-like", \
	  "add a builtin script weighted W (default 1): tpcb-like, simple-update, select-only (a prefix will do; -b list lists them)", \
	  'b', take_builtin }, \
	{ "file", OPT_CALL, 0, 0, 0, "FILE[@W]", NULL, "add a script file weighted W (default 1; - reads stdin)", 'f', take_file }, \
	{ "skip-some-updates", OPT_CALL_FLAG, 0, 0, 0, NULL, NULL, "same as -b simple-update", 'N', take_simple_update }, \
	{ "select-only", OPT_CALL_FLAG, 0, 0, 0, NULL, NULL, "same as -b select-only", 'S', take_select_only }, \
	{ "client", OPT_INT, TO(clients), 1, TPCB_MAX_CLIENTS, "N", "1", "number of clients (connections)", 'c' }, \
	{ "connect", OPT_FLAG, TO(connect_each), 0, 0, NULL, NULL, "a new connection for each transaction", 'C' }, \
	{ "define", OPT_CALL, 0, 0, 0, "NAME=VALUE", NULL, "define a variable for the scripts", 'D', take_define }, \
	{ "jobs", OPT_INT, TO(threads), 1, TPCB_MAX_CLIENTS, "N", "1", "number of threads (more than -c count as -c)", 'j' }, \
	{ "log", OPT_FLAG, TO(log), 0, 0, NULL, NULL, "write a line per transaction (pgbench_log.*) into the result folder", 'l' }, \
	{ "latency-limit", OPT_STR, TO(latency_limit), 0, 0, "MS", NULL, \
	  "count transactions above MS as late (and skip ones already late under -R)", 'L' }, \
	{ "protocol", OPT_STR, TO(protocol), 0, 0, "MODE", "simple", "simple, extended or prepared", 'M' }, \
	{ "progress", OPT_SECONDS, TO(progress), 0, 86400, "SECONDS", NULL, "print progress every SECONDS (stderr; at most 24h)", 'P' }, \
	{ "report-per-command", OPT_FLAG, TO(per_statement), 0, 0, NULL, NULL, \
	  "report each command's average latency, failures and retries", 'r' }, \
	{ "rate", OPT_STR, TO(rate), 0, 0, "TPS", NULL, "start transactions on a Poisson schedule of TPS per second", 'R' }, \
	{ "transactions", OPT_INT, TO(transactions), 1, INT64_MAX / TPCB_MAX_CLIENTS, "N", "10", \
	  "transactions per client (when no -T)", 't' }, \
	{ "time", OPT_SECONDS, TO(duration), 0, 7 * 86400, "SECONDS", NULL, "run this long (at most 7 days)", 'T' }, \
	{ "vacuum-all", OPT_FLAG, TO(vacuum_all), 0, 0, NULL, NULL, "vacuum all four tables before the run", 'v' }, \
	{ "aggregate-interval", OPT_SECONDS, TO(aggregate), 0, 86400, "SECONDS", NULL, \
	  "with -l: one log line per interval instead (whole seconds; at most 24h)" }, \
	{ "exit-on-abort", OPT_FLAG, TO(exit_on_abort), 0, 0, NULL, NULL, "stop the whole run when a client is aborted" }, \
	{ "failures-detailed", OPT_FLAG, TO(failures_detailed), 0, 0, NULL, NULL, \
	  "report failures by kind (serialization, deadlock), in the logs too" }, \
	{ "log-prefix", OPT_STR, TO(log_prefix), 0, 0, "PREFIX", "pgbench_log", "with -l: the log files' name" }, \
	{ "max-tries", OPT_INT, TO(max_tries), 0, 1000000, "N", "1", \
	  "tries of a transaction hit by a serialization or deadlock failure (0: no limit, with -L or -T)" }, \
	{ "progress-timestamp", OPT_FLAG, TO(progress_timestamp), 0, 0, NULL, NULL, "with -P: Unix time in the progress lines" }, \
	{ "random-seed", OPT_STR, TO(random_seed), 0, 0, "time|rand|N", "time (or PGBENCH_RANDOM_SEED)", \
	  "seed of the scripts' random numbers" }, \
	{ "seed", OPT_STR, TO(random_seed), 0, 0, "S", NULL, "same as --random-seed" }, \
	{ "sampling-rate", OPT_STR, TO(sampling_rate), 0, 0, "FRACTION", NULL, "with -l: log this fraction of the transactions (0.01: 1%)" }, \
	{ "show-script", OPT_STR, TO(show_script), 0, 0, "NAME", NULL, "print a builtin script, then exit" }, \
	{ "verbose-errors", OPT_FLAG, TO(verbose_errors), 0, 0, NULL, NULL, "print every error and retry (stderr)" }, \
	{ "pipeline", OPT_INT, TO(pipeline), 1, TPCB_MAX_PIPELINE, "N", NULL, \
	  "keep up to N transactions of a client in flight (libpq pipeline mode, PostgreSQL 14+)" }, \
	{ "out", OPT_OUT, TO(out), 0, 0, "DIR", "results/<UTC>-tpcb", "result folder" },

/* The tables: both modes (pgbench's form), init's, run's; and the parts
 * alone, to know which mode an entry of the first belongs to. */
static const struct opt_desc common_part[] = { COMMON_OPTS };
static const struct opt_desc init_part[] = { INIT_OPTS };
const struct opt_desc tpcb_all_table[] = { COMMON_OPTS INIT_OPTS RUN_OPTS { 0 } };
const struct opt_desc tpcb_init_table[] = { COMMON_OPTS INIT_OPTS { 0 } };
const struct opt_desc tpcb_run_table[] = { COMMON_OPTS RUN_OPTS { 0 } };

#define NPART(t) (sizeof(t) / sizeof((t)[0]))
#define NALL     (sizeof(tpcb_all_table) / sizeof(tpcb_all_table[0]) - 1)

#define USAGE_INIT "eicbench tpcb init [-h HOST] [-p PORT] [-U USER] [DBNAME | --datadir DIR | --dsn CONNINFO]\n" \
	"                          [-s SCALE] [-I STEPS] [-F FILLFACTOR] [-n] [-q] [--foreign-keys] [--unlogged-tables]\n" \
	"                          [--partitions N [--partition-method range|hash]] [--tablespace T] [--index-tablespace T] [--force] [--json]"
#define USAGE_RUN "eicbench tpcb run [-h HOST] [-p PORT] [-U USER] [DBNAME | --datadir DIR | --dsn CONNINFO]\n" \
	"                         [-c N] [-j N] [-T SECONDS | -t N] [-b NAME[@W] | -f FILE[@W] | -S | -N]... [-D NAME=VALUE]...\n" \
	"                         [-M simple|extended|prepared] [--pipeline N] [-P SECONDS] [-r] [-R TPS] [-L MS] [--max-tries N]\n" \
	"                         [--random-seed time|rand|N] [-l [--aggregate-interval S | --sampling-rate F] [--log-prefix P]] [-n] [--json] [--out DIR]"
#define SERVER_RULE \
	"The server: --datadir DIR is the managed cluster there; --dsn CONNINFO a server by its\n" \
	"connection string; otherwise, as pgbench, libpq's own defaults and every PG* variable\n" \
	"(PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, ...) with -h, -p, -U and the database\n" \
	"(-d or DBNAME) over them. A bare \"eicbench tpcb run\" talks to libpq's default server.\n" \
	"Exit status: 0 done, 1 a run failed, 2 bad input (pgbench: 1 and 2).\n"

const char tpcb_usage_init[] = USAGE_INIT;
const char tpcb_usage_run[] = USAGE_RUN;
const char tpcb_server_rule[] = SERVER_RULE;

/* RULE's sentences wrapped to the width --help takes; "Exit status:" on a
 * line of its own. */
static void wrap_rule(FILE *out, const char *rule)
{
	char text[sizeof(SERVER_RULE)], *exit_status;

	snprintf(text, sizeof(text), "%s", rule);
	for (char *c = text; *c; c++)
		if (*c == '\n')
			*c = ' ';
	exit_status = strstr(text, " Exit status:");
	if (exit_status)
		*exit_status = '\n';
	opts_wrap(out, text, 0, 0, opts_width(out));
	putc('\n', out);
}

void tpcb_opts_usage(int mode)
{
	if (mode == TPCB_MODE_INIT)
		opts_usage(stdout, USAGE_INIT, tpcb_init_table);
	else if (mode == TPCB_MODE_RUN)
		opts_usage(stdout, USAGE_RUN, tpcb_run_table);
	else
		opts_usage(stdout, "eicbench tpcb init|run [OPTION]... [DBNAME]   (or pgbench's form: eicbench tpcb [-i] [OPTION]...)\n"
			   "       " USAGE_INIT "\n       " USAGE_RUN, tpcb_all_table);
	putchar('\n');
	wrap_rule(stdout, SERVER_RULE);
}

/* The first option of the other mode that was given, or NULL. */
static const struct opt_desc *wrong_mode(const struct opt_desc *all, const bool *given,
					 size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (given[i] && all[i].type != OPT_CALL && all[i].type != OPT_CALL_FLAG)
			return &all[i];
	for (size_t i = from; i < to; i++)
		if (given[i])
			return &all[i];
	return NULL;
}

static int mode_error(const struct opt_desc *d, bool init, char *err, size_t errlen)
{
	char name[64];

	if (d->short_name)
		snprintf(name, sizeof(name), "-%c/--%s", d->short_name, d->name);
	else
		snprintf(name, sizeof(name), "--%s", d->name);
	if (init)
		snprintf(err, errlen, "some of the specified options cannot be used in initialization (-i, init) mode: %s is an option of eicbench tpcb run",
			 name);
	else
		snprintf(err, errlen, "some of the specified options cannot be used in benchmarking (run) mode: %s is an option of eicbench tpcb init",
			 name);
	return -EINVAL;
}

int tpcb_opts_parse(struct tpcb_opts *o, int mode_given, int argc, char **argv,
		    enum tpcb_mode *mode, char *err, size_t errlen)
{
	const struct opt_desc *all = tpcb_all_table;
	bool given[NALL + 1] = { false };
	const struct opt_desc *d;
	size_t init_at = NPART(common_part), run_at = init_at + NPART(init_part), end = NALL;
	int ret;

	ret = opts_parse_given(all, o, argc, argv, given, err, errlen);
	if (ret != 0)
		return ret;
	*mode = mode_given >= 0 ? (enum tpcb_mode)mode_given : o->init_flag ? TPCB_MODE_INIT : TPCB_MODE_RUN;
	if (mode_given == TPCB_MODE_RUN && o->init_flag)
		return snprintf(err, errlen, "-i/--initialize is init's: give eicbench tpcb init (or eicbench tpcb -i)"), -EINVAL;
	if (*mode == TPCB_MODE_INIT && (d = wrong_mode(all, given, run_at, end)))
		return mode_error(d, true, err, errlen);
	if (*mode == TPCB_MODE_RUN && (d = wrong_mode(all, given, init_at, run_at)))
		return mode_error(d, false, err, errlen);
	return 0;
}

/* ---- the server --------------------------------------------------------------- */

/* key='value' with libpq's quoting, after what BUF holds. */
static int put_kv(char *buf, size_t len, const char *key, const char *val)
{
	size_t n = strlen(buf);

	if (n + strlen(key) + 4 >= len)
		return -EINVAL;
	n += (size_t)snprintf(buf + n, len - n, "%s%s='", n ? " " : "", key);
	for (const char *p = val; *p; p++) {
		if (n + 3 >= len)
			return -EINVAL;
		if (*p == '\'' || *p == '\\')
			buf[n++] = '\\';
		buf[n++] = *p;
	}
	if (n + 2 >= len)
		return -EINVAL;
	buf[n++] = '\'';
	buf[n] = '\0';
	return 0;
}

static bool is_conninfo(const char *s)
{
	return strchr(s, '=') || !strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11);
}

/* pgbench's connection: -h -p -U, then the database, whose own keys (a
 * connection string for a name) win, as libpq expands it. */
static int build_dsn(const struct tpcb_opts *o, char *dsn, size_t len, char *err, size_t errlen)
{
	const char *db = o->dbname ? o->dbname : o->dbarg;
	int ret = 0;

	dsn[0] = '\0';
	if (o->host)
		ret |= put_kv(dsn, len, "host", o->host);
	if (o->port)
		ret |= put_kv(dsn, len, "port", o->port);
	if (o->username)
		ret |= put_kv(dsn, len, "user", o->username);
	if (db && is_conninfo(db)) {
		char *msg = NULL;
		PQconninfoOption *opts = PQconninfoParse(db, &msg);

		PQfreemem(msg);
		if (!opts) {	/* libpq's message may quote a password: not shown */
			snprintf(err, errlen, "the database '%s' looks like a connection string but is none; give a name, key=value pairs or a postgresql:// URI",
				 strchr(db, '=') || strstr(db, "@") ? "(not shown)" : db);
			return -EINVAL;
		}
		for (PQconninfoOption *p = opts; p->keyword; p++)
			if (p->val)
				ret |= put_kv(dsn, len, p->keyword, p->val);
		PQconninfoFree(opts);
	} else if (db) {
		ret |= put_kv(dsn, len, "dbname", db);
	}
	if (ret)
		snprintf(err, errlen, "-h, -p, -U and the database are too long together (at most %zu bytes)", len);
	return ret ? -EINVAL : 0;
}

const char *tpcb_opts_dbname(const struct tpcb_opts *o)
{
	return o->srv.datadir ? (o->dbname ? o->dbname : o->dbarg) : NULL;
}

int tpcb_opts_server(const struct tpcb_opts *o, struct server_cfg *out, char *dsn, size_t dsnlen,
		     char *err, size_t errlen)
{
	struct server_cfg cfg = o->srv;
	long long port;

	if (o->dbname && o->dbarg) {
		snprintf(err, errlen, "too many command-line arguments: the database is given twice (-d %.100s and %.100s); give one",
			 o->dbname, o->dbarg);
		return -EINVAL;
	}
	if (cfg.datadir && cfg.dsn) {
		snprintf(err, errlen, "--datadir and --dsn both name a server; give one");
		return -EINVAL;
	}
	if ((cfg.datadir || cfg.dsn) && (o->host || o->username)) {
		snprintf(err, errlen, "%s names the server, and -h or -U another: give one of them (-h, -p, -U and the database are for a server libpq finds)",
			 cfg.datadir ? "--datadir" : "--dsn");
		return -EINVAL;
	}
	if (cfg.dsn && (o->port || o->dbname || o->dbarg)) {
		snprintf(err, errlen, "--dsn names the server: give its port and database in the connection string, not with -p or -d");
		return -EINVAL;
	}
	if (cfg.datadir && o->port) {
		if (opts_parse_ll(o->port, 1, 65535, &port) < 0)
			return opts_ll_error("--port", o->port, 1, 65535, err, errlen);
		cfg.port = port;
	}
	if (!cfg.datadir && !cfg.dsn) {
		if (build_dsn(o, dsn, dsnlen, err, errlen) < 0)
			return -EINVAL;
		cfg.dsn = dsn;
	}
	*out = cfg;
	return 0;
}
