/*
 * cmd_tpcb: "eicbench tpcb init|run": pgbench's TPC-B workloads on the
 * managed cluster (--datadir) or any server (--dsn, PG* variables), with
 * pgbench's flags and output layout. init makes the tables; run drives the
 * load, prints the figures (JSON on stdout with --json, the text then on
 * stderr) and keeps a record in a result folder, -l logs included. Options
 * and printing only: the work is in bench/tpcb*.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/cli/stop.h"
#include "bench/pg/cluster.h"
#include "bench/pg/lock.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/pg/pgutil.h"
#include "bench/cli/progress.h"
#include "bench/record/record.h"
#include "bench/pg/sqltext.h"
#include "bench/tpcb/tpcb.h"
#include "bench/tpcb/tpcb_report.h"
#include "io/rng.h"

#define CMD "tpcb"
/* -R: a mean gap of at most 1000 s between starts (the schedule's times
 * stay far inside 64-bit nanoseconds); -L: from 1 µs (less would round to
 * no limit) to 24h. */
#define TPCB_RATE_MIN       0.001
#define TPCB_RATE_MAX       10000000.0
#define TPCB_LATENCY_MIN_MS 0.001
#define TPCB_LATENCY_MAX_MS 86400000.0



/* ---- init ------------------------------------------------------------------ */

struct init_opts {
	struct server_cfg srv;
	long long scale, fillfactor;
	bool foreign_keys, force, json;
};

static const struct opt_desc init_table[] = {
	SERVER_OPTS(struct init_opts, srv),
	{ "scale", OPT_INT, offsetof(struct init_opts, scale), 1, TPCB_MAX_SCALE, "N", "1",
	  "scale factor: N branches, 10N tellers, 100,000N accounts", 's' },
	{ "fillfactor", OPT_INT, offsetof(struct init_opts, fillfactor), 10, 100, "N", "100",
	  "fillfactor of accounts, branches and tellers", 'F' },
	{ "foreign-keys", OPT_FLAG, offsetof(struct init_opts, foreign_keys), 0, 0, NULL, NULL,
	  "add pgbench's foreign keys between the tables" },
	{ "force", OPT_FLAG, offsetof(struct init_opts, force), 0, 0, NULL, NULL,
	  "replace pgbench tables that eicbench did not make" },
	{ "json", OPT_FLAG, offsetof(struct init_opts, json), 0, 0, NULL, NULL,
	  "print the result as one JSON object on stdout" },
	{ 0 }
};

#define INIT_USAGE "eicbench tpcb init [--datadir DIR | --dsn CONNINFO] [-s SCALE] [-F FILLFACTOR] [--foreign-keys] [--force] [--json]"

static void show_step(void *arg, const char *step, double done, double total,
		      const char *unit)
{
	progress_update(arg, step, done, total, unit);
}

static int resolve(const struct server_cfg *cfg, struct server *s, char *err, size_t errlen)
{
	return cluster_take(cfg, s, CLUSTER_DB, "tpcb", err, errlen);
}

static void print_init(const struct tpcb_init_result *r, bool json)
{
	json_t *j;

	if (!json) {
		tpcb_report_init(stdout, r);
		return;
	}
	j = json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I}",
		      "scale", (json_int_t)r->scale, "total_s", r->total_s, "drop_s", r->drop_s,
		      "create_s", r->create_s, "generate_s", r->generate_s,
		      "vacuum_s", r->vacuum_s, "keys_s", r->keys_s,
		      "accounts_bytes", (json_int_t)r->accounts_bytes,
		      "total_bytes", (json_int_t)r->total_bytes);
	json_dumpf(j, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(j);
}

static int tpcb_init_cmd(int argc, char **argv)
{
	struct init_opts o = { .scale = 1, .fillfactor = 100 };
	struct tpcb_init_config ic;
	struct tpcb_init_result res;
	struct progress bar;
	struct server s;
	char err[4096] = "";
	int ret;

	server_cfg_defaults(&o.srv);
	ret = opts_parse(init_table, &o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, INIT_USAGE, init_table);
		return 0;
	}
	if (ret == 0)
		ret = resolve(&o.srv, &s, err, sizeof(err));
	if (ret < 0)
		return cmd_fail(CMD " init", ret, err);
	ic = (struct tpcb_init_config){ .scale = o.scale, .fillfactor = (int)o.fillfactor,
		.foreign_keys = o.foreign_keys, .force = o.force, .stop = &cli_stopped };
	cli_catch_stop(true);
	progress_init(&bar, stderr);
	ret = tpcb_init(&s, &ic, show_step, &bar, &res, err, sizeof(err));
	progress_end(&bar);
	if (ret < 0)
		return cmd_fail(CMD " init", ret, err);
	print_init(&res, o.json);
	return 0;
}

/* ---- run ------------------------------------------------------------------- */

struct run_opts {
	struct server_cfg srv;
	long long scale, clients, threads, transactions, pipeline, max_tries, seed;
	double duration, progress, aggregate;
	const char *builtin, *protocol, *rate, *latency_limit, *out;
	bool select_only, skip_updates, per_statement, log, no_vacuum, json;
};

#define RO(f) offsetof(struct run_opts, f)

static const struct opt_desc run_table[] = {
	SERVER_OPTS(struct run_opts, srv),
	{ "client", OPT_INT, RO(clients), 1, TPCB_MAX_CLIENTS, "N", "1", "number of clients (connections)", 'c' },
	{ "jobs", OPT_INT, RO(threads), 1, TPCB_MAX_CLIENTS, "N", "1", "number of threads, at most -c", 'j' },
	{ "time", OPT_SECONDS, RO(duration), 0, 7 * 86400, "SECONDS", NULL, "run this long (at most 7 days)", 'T' },
	{ "transactions", OPT_INT, RO(transactions), 1, INT64_MAX / TPCB_MAX_CLIENTS, "N", "10",
	  "transactions per client (when no -T)", 't' },
	{ "builtin", OPT_STR, RO(builtin), 0, 0, "NAME", "tpcb-like",
	  "tpcb-like, simple-update or select-only", 'b' },
	{ "select-only", OPT_FLAG, RO(select_only), 0, 0, NULL, NULL, "same as -b select-only", 'S' },
	{ "skip-some-updates", OPT_FLAG, RO(skip_updates), 0, 0, NULL, NULL, "same as -b simple-update", 'N' },
	{ "protocol", OPT_STR, RO(protocol), 0, 0, "MODE", "simple", "simple, extended or prepared", 'M' },
	{ "pipeline", OPT_INT, RO(pipeline), 1, TPCB_MAX_PIPELINE, "N", NULL,
	  "keep up to N transactions of a client in flight (libpq pipeline mode, PostgreSQL 14+)" },
	{ "scale", OPT_INT, RO(scale), 1, TPCB_MAX_SCALE, "N", NULL, "refuse to run unless the tables hold this scale", 's' },
	{ "progress", OPT_SECONDS, RO(progress), 0, 86400, "SECONDS", NULL, "print progress every SECONDS (stderr; at most 24h)", 'P' },
	{ "report-per-command", OPT_FLAG, RO(per_statement), 0, 0, NULL, NULL, "report each statement's average latency", 'r' },
	{ "rate", OPT_STR, RO(rate), 0, 0, "TPS", NULL, "start transactions on a Poisson schedule of TPS per second", 'R' },
	{ "latency-limit", OPT_STR, RO(latency_limit), 0, 0, "MS", NULL,
	  "count transactions above MS (and skip ones already late under -R)", 'L' },
	{ "max-tries", OPT_INT, RO(max_tries), 1, 1000000, "N", "1", "tries of a transaction hit by a serialization or deadlock failure" },
	{ "seed", OPT_INT, RO(seed), 0, INT64_MAX, "S", "random", "seed of the clients' generators" },
	{ "log", OPT_FLAG, RO(log), 0, 0, NULL, NULL, "write pgbench_log.* per-transaction logs into the result folder", 'l' },
	{ "aggregate-interval", OPT_SECONDS, RO(aggregate), 0, 86400, "SECONDS", NULL, "with -l: one log line per interval instead (at most 24h)" },
	{ "no-vacuum", OPT_FLAG, RO(no_vacuum), 0, 0, NULL, NULL, "skip the vacuum of branches and tellers and the emptying of history", 'n' },
	{ "json", OPT_FLAG, RO(json), 0, 0, NULL, NULL, "print the figures as one JSON object on stdout (the text goes to stderr)" },
	{ "out", OPT_STR, RO(out), 0, 0, "DIR", "results/<UTC>-tpcb", "result folder" },
	{ 0 }
};

#define RUN_USAGE "eicbench tpcb run [--datadir DIR | --dsn CONNINFO] [-c N] [-j N] [-T SECONDS | -t N] [-S | -N | -b NAME] [-M simple|extended|prepared] [--pipeline N] [-P SECONDS] [-r] [-R TPS] [-L MS] [--max-tries N] [--seed S] [-l [--aggregate-interval S]] [-n] [--json] [--out DIR]"

/* A decimal number in [MIN, MAX] from FLAG's text S (already free of
 * control characters: see opts.h). */
static int bounded(const char *flag, const char *what, const char *s, double min, double max,
		   double *out, char *err, size_t errlen)
{
	if (!s)
		return 0;
	if (opts_parse_decimal(s, out, NULL) < 0 || *out < min || *out > max) {
		snprintf(err, errlen, "%s '%.160s' is not allowed; give %s from %g to %.0f (a decimal number)",
			 flag, s, what, min, max);
		return -EINVAL;
	}
	return 0;
}

static int pick_builtin(const struct run_opts *o, enum tpcb_builtin *b, char *err, size_t errlen)
{
	int given = (o->builtin != NULL) + o->select_only + o->skip_updates;

	*b = TPCB_TPCB_LIKE;
	if (given > 1) {
		snprintf(err, errlen, "-b, -S and -N each choose the transaction; give one of them");
		return -EINVAL;
	}
	if (o->select_only)
		*b = TPCB_SELECT_ONLY;
	if (o->skip_updates)
		*b = TPCB_SIMPLE_UPDATE;
	if (o->builtin && tpcb_builtin_parse(o->builtin, b) < 0) {
		snprintf(err, errlen, "-b '%s' is not a builtin; give tpcb-like, simple-update or select-only",
			 o->builtin);
		return -EINVAL;
	}
	return 0;
}

/* Options into the library's config; the checks that need no server. */
static int make_config(const struct run_opts *o, struct tpcb_config *c, char *err, size_t errlen)
{
	int ret = pick_builtin(o, &c->builtin, err, errlen);

	if (ret == 0 && o->protocol && tpcb_protocol_parse(o->protocol, &c->protocol) < 0) {
		snprintf(err, errlen, "-M '%s' is not allowed; give simple, extended or prepared", o->protocol);
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = bounded("-R", "a rate in transactions per second", o->rate, TPCB_RATE_MIN,
			      TPCB_RATE_MAX, &c->rate_tps, err, errlen);
	if (ret == 0)
		ret = bounded("-L", "a latency limit in milliseconds (24h at most)", o->latency_limit,
			      TPCB_LATENCY_MIN_MS, TPCB_LATENCY_MAX_MS, &c->latency_limit_ms, err, errlen);
	if (ret < 0)
		return ret;
	c->clients = (int)o->clients;
	c->threads = (int)o->threads;
	c->duration_s = o->duration;
	c->transactions = o->transactions ? o->transactions : (o->duration > 0 ? 0 : 10);
	c->pipeline = (int)o->pipeline;
	c->progress_s = o->progress;
	c->per_statement = o->per_statement;
	c->max_tries = (int)o->max_tries;
	c->seed = o->seed >= 0 ? (uint64_t)o->seed : rng_fresh_seed(INT64_MAX);
	c->scale = o->scale;
	c->aggregate_s = o->aggregate;
	c->wait_bound_s = o->srv.timeout_s;
	c->stop = &cli_stopped;
	if (o->log)
		c->log_dir = "";	/* the result folder, once it exists */
	return tpcb_config_check(c, err, errlen);
}

static int parse_run(struct run_opts *o, struct tpcb_config *c, int argc, char **argv)
{
	char err[1024];
	int ret;

	*o = (struct run_opts){ .clients = 1, .threads = 1, .max_tries = 1, .seed = -1 };
	server_cfg_defaults(&o->srv);
	ret = opts_parse(run_table, o, argc, argv, err, sizeof(err));
	if (ret == 1) {
		opts_usage(stdout, RUN_USAGE, run_table);
		return 1;
	}
	if (ret == 0 && o->transactions && o->duration > 0) {
		snprintf(err, sizeof(err), "-T and -t are both given; give one: a duration or a number of transactions per client");
		ret = -EINVAL;
	}
	*c = (struct tpcb_config){ 0 };
	if (ret == 0)
		ret = make_config(o, c, err, sizeof(err));
	return ret < 0 ? cmd_fail(CMD " run", ret, err), -EINVAL : 0;
}

/* ---- the result folder ------------------------------------------------------ */

struct session {
	struct run_opts    o;
	struct tpcb_config cfg;
	struct tpcb_target target;
	struct server      srv;
	char dir[4096];
	char err[4096];
};

static json_t *settings_json(struct session *s)
{
	PGconn *c = server_connect(&s->srv, NULL, s->err, sizeof(s->err));
	PGresult *r = c ? pgutil_query(c, sql_text("tpcb/server_settings.sql"), 0, NULL,
				       s->err, sizeof(s->err)) : NULL;
	json_t *o = json_object();

	for (int i = 0; r && i < PQntuples(r); i++)
		json_object_set_new(o, PQgetvalue(r, i, 0), json_string(PQgetvalue(r, i, 1)));
	PQclear(r);
	PQfinish(c);
	return o;
}

static int write_meta(struct session *s, int argc, char **argv)
{
	const struct record_head head = { .command = CMD " run", .argc = argc, .argv = argv,
		.device = true, .device_path = s->srv.external ? NULL : s->srv.datadir };
	json_t *meta;
	int ret = lock_hold_new_folder(CMD, s->o.out, s->dir, sizeof(s->dir), s->err, sizeof(s->err));

	if (ret < 0)
		return ret;
	if (!(meta = record_meta_new(&head, NULL)))
		return -ENOMEM;
	json_object_set_new(meta, "server", json_pack("{s:i, s:s, s:I, s:o}",
		"version_num", s->target.server_version, "version", s->target.server_version_str,
		"scale", (json_int_t)s->target.scale, "settings", settings_json(s)));
	ret = record_meta_write(s->dir, meta, s->err, sizeof(s->err));
	json_decref(meta);
	return ret;
}

/* One line in trials.jsonl: the figures, or why there are none. */
static int write_record(struct session *s, const struct tpcb_result *r, int run_ret,
			const char *why, bool json)
{
	json_t *rec = run_ret == 0 || run_ret == -EIO || run_ret == -EINTR ?
		tpcb_result_json(&s->cfg, &s->target, r) :
		json_pack("{s:s, s:s}", "workload", "tpcb", "error", why);
	char err[1024];
	int ret;

	if (json) {
		json_dumpf(rec, stdout, JSON_COMPACT);
		putchar('\n');
		fflush(stdout);
	}
	ret = record_append(s->dir, RECORD_TRIALS, rec, err, sizeof(err));
	json_decref(rec);
	record_settle_owner(s->dir);	/* pgbench-style logs included */
	if (ret < 0)
		fprintf(stderr, "eicbench tpcb run: cannot keep the record: %s\n", err);
	return ret;
}

/* ---- running ------------------------------------------------------------------ */

static void show_progress(void *arg, const struct tpcb_progress *p)
{
	const struct tpcb_config *cfg = arg;
	char line[256];

	tpcb_progress_line(line, sizeof(line), cfg, p);
	fprintf(stderr, "%s\n", line);
}

static int prepare_run(struct session *s, int argc, char **argv)
{
	int ret = resolve(&s->o.srv, &s->srv, s->err, sizeof(s->err));

	if (ret == 0)
		ret = tpcb_target_check(&s->srv, &s->cfg, &s->target, s->err, sizeof(s->err));
	if (ret == 0)
		ret = write_meta(s, argc, argv);
	if (ret == 0 && s->cfg.log_dir)
		s->cfg.log_dir = s->dir;
	if (ret == 0 && !s->o.no_vacuum) {
		fprintf(stderr, "starting vacuum...");
		ret = tpcb_vacuum(&s->srv, s->err, sizeof(s->err));
		fprintf(stderr, "%s\n", ret == 0 ? "end." : "failed.");
	}
	return ret;
}

static int finish_run(struct session *s, struct tpcb_result *r, int ret)
{
	FILE *text = s->o.json ? stderr : stdout;

	if (ret != 0 && ret != -EIO && ret != -EINTR) {
		write_record(s, r, ret, s->err, false);
		return cmd_fail(CMD " run", ret, s->err);
	}
	tpcb_report_print(text, &s->cfg, &s->target, r);
	write_record(s, r, ret, NULL, s->o.json);
	fprintf(stderr, "record: %s\n", s->dir);
	if (ret == -EIO)
		fprintf(stderr, "eicbench tpcb run: %d client(s) stopped early; the figures above are incomplete. First: %s\n",
			r->aborted_clients, r->abort_msg);
	if (ret == -EINTR)
		fprintf(stderr, "eicbench tpcb run: interrupted; the figures above cover the run so far\n");
	return ret == 0 ? 0 : EXIT_RUN_FAILED;
}

static int tpcb_run_cmd(int argc, char **argv)
{
	struct session *s = calloc(1, sizeof(*s));
	struct tpcb_result *r = calloc(1, sizeof(*r));
	int ret = s && r ? parse_run(&s->o, &s->cfg, argc, argv) : -ENOMEM;

	if (ret != 0) {
		free(s);
		free(r);
		return ret == 1 ? 0 : ret == -ENOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
	}
	cli_catch_stop(true);
	s->cfg.progress = s->cfg.progress_s > 0 ? show_progress : NULL;
	s->cfg.progress_arg = &s->cfg;
	ret = prepare_run(s, argc + 3, argv - 3);	/* the whole command line: see cmd.h */
	if (ret < 0 && !s->dir[0]) {
		ret = cmd_fail(CMD " run", ret, s->err);
	} else if (ret < 0) {
		write_record(s, r, ret, s->err, false);
		ret = cmd_fail(CMD " run", ret, s->err);
	} else {
		ret = finish_run(s, r, tpcb_run(&s->srv, &s->cfg, &s->target, r, s->err,
						sizeof(s->err)));
	}
	free(s);
	free(r);
	return ret;
}

/* ---- dispatch ------------------------------------------------------------------ */

int cmd_tpcb(int argc, char **argv)
{
	if (argc >= 1 && !strcmp(argv[0], "init"))
		return tpcb_init_cmd(argc - 1, argv + 1);
	if (argc >= 1 && !strcmp(argv[0], "run"))
		return tpcb_run_cmd(argc - 1, argv + 1);
	if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
		printf("usage: eicbench tpcb init|run [options]   (eicbench tpcb init --help, eicbench tpcb run --help)\n");
		return 0;
	}
	fprintf(stderr, "eicbench tpcb: give init or run; see eicbench tpcb run --help\n");
	return EXIT_BAD_INPUT;
}

static const struct man_form tpcb_forms[] = {
	{ "init", INIT_USAGE, init_table },
	{ "run", RUN_USAGE, run_table },
	{ 0 }
};

static const struct man_example tpcb_examples[] = {
	{ "eicbench tpcb init --datadir data/pg -s 20",
	  "pgbench's four tables at scale 20 on the managed cluster." },
	{ "eicbench tpcb run --datadir data/pg -c 4 -j 2 -T 60 -P 5",
	  "TPC-B-like transactions from 4 clients on 2 threads for a minute, a progress line every 5 s." },
	{ "eicbench tpcb run --datadir data/pg -S -M prepared -c 8 -j 2 -T 30 --pipeline 8",
	  "Select-only with prepared statements, up to 8 transactions of each client in flight in libpq's pipeline mode." },
	{ 0 }
};

const struct man_page cmd_tpcb_page = {
	.name = "tpcb",
	.summary = "pgbench's TPC-B workloads: init the tables, run a load, percentiles",
	.forms = tpcb_forms,
	.description =
	"pgbench's TPC-B workloads, driven by eicbench's own client on libpq's asynchronous API: pgbench's tables, transactions, options and output layout, plus latency percentiles, the client's own CPU cost, libpq pipelines and a record in the suite's result-folder format. Both work on the managed cluster (--datadir) or on any server with --dsn, which libpq completes from the usual PG* variables.\n\n"
	"init makes pgbench's four tables at scale -s (binary COPY FREEZE, then VACUUM and the primary keys). run drives -c clients from -j threads, each thread an event loop over its clients' nonblocking connections, with pgbench's built-in scripts (tpcb-like, simple-update, select-only) and its draws from a seeded generator per client. tps counts committed transactions over the time after every connection was made.\n\n"
	"Every wait for the server is bounded by --timeout. A lost connection ends that client with a message and the run goes on with the others; Ctrl-C lets transactions in flight finish, prints the figures so far and keeps the record (exit status 1).",
	.examples = tpcb_examples,
	.files = "results/<UTC>-tpcb/\tmeta.json and trials.jsonl; with -l, pgbench_log.PID and pgbench_log.PID.N per thread",
	.see_also = "confsweep",
	.guide = "eicbench tpcb init|run",
};
