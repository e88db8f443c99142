/*
 * cmd_tpcb: "eicbench tpcb [init|run]": pgbench's workloads, where pgbench
 * users stand: its options and connection conventions (tpcb_opts.c), its
 * scripts (builtins and -f files with \set and the rest), its output
 * layout and logs. init makes the tables (messages on stderr, as
 * pgbench's); run drives the load, prints the figures (JSON on stdout with
 * --json, the text then on stderr) and keeps a record in a result folder,
 * -l logs included. Options and printing only: the work is in
 * bench/tpcb/. Exit status 0, 1 a run failed, 2 bad input.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cli/progress.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/tpcb.h"
#include "bench/pg/cluster.h"
#include "bench/pg/lock.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record.h"
#include "bench/tpcb/tpcb_report.h"
#include "io/clock.h"
#include "io/rng.h"

#ifndef EICBENCH_VERSION
#define EICBENCH_VERSION "unknown"
#endif

#define CMD "tpcb"
#define USAGE_INIT_TEXT tpcb_usage_init
#define USAGE_RUN_TEXT  tpcb_usage_run
/* -R: a mean gap of at most 1000 s between starts (the schedule's times
 * stay far inside 64-bit nanoseconds); -L: from 1 µs (less would round to
 * no limit) to 24h. */
#define TPCB_RATE_MIN       0.001
#define TPCB_RATE_MAX       10000000.0
#define TPCB_LATENCY_MIN_MS 0.001
#define TPCB_LATENCY_MAX_MS 86400000.0

struct session {
	struct tpcb_opts    o;
	enum tpcb_mode      mode;
	struct tpcb_scripts set;
	struct tpcb_config  cfg;
	struct tpcb_target  target;
	struct server       srv;
	char dsn[4096];
	char dir[4096];
	char err[4096];
};

/* The options' server taken (bench/pg/cluster.h): resolved, held, a
 * settings journal a killed command left put back, and the managed
 * cluster started with its database made. */
static int resolve(struct session *s)
{
	struct server_cfg cfg;
	int ret = tpcb_opts_server(&s->o, &cfg, s->dsn, sizeof(s->dsn), s->err, sizeof(s->err));

	return ret < 0 ? ret : cluster_take(&cfg, &s->srv, CLUSTER_DB | CLUSTER_RECOVER, CMD,
							 s->err, sizeof(s->err));
}

/* ---- init ------------------------------------------------------------------ */

struct init_view {
	bool quiet, tty;
	double start_ms, last_ms;
};

/* pgbench's lines: each step's name, and "N of M tuples (P%) done ...". */
static void show_step(void *arg, const char *step, double done, double total, const char *unit)
{
	struct init_view *v = arg;
	double now = clock_now_ms(), el;

	(void)unit;
	if (total <= 0) {
		fprintf(stderr, "%s\n", step);
		return;
	}
	if (done == 0) {
		v->start_ms = v->last_ms = now;
		return;
	}
	if (done < total && now - v->last_ms < (v->quiet ? 5000 : 1000))
		return;
	v->last_ms = now;
	el = (now - v->start_ms) / 1e3;
	fprintf(stderr, "%.0f of %.0f tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)%c", done,
		total, (int)(100 * done / total), el, done > 0 ? el * (total - done) / done : 0.0,
		v->tty && done < total ? '\r' : '\n');
}

static void print_init(const struct tpcb_init_result *r, bool json)
{
	json_t *j;

	tpcb_report_init(stderr, r);
	if (!json)
		return;
	j = json_pack("{s:I, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, s:I, s:I}",
		      "scale", (json_int_t)r->scale, "steps", r->steps, "total_s", r->total_s,
		      "drop_s", r->drop_s, "create_s", r->create_s, "generate_s", r->generate_s,
		      "vacuum_s", r->vacuum_s, "keys_s", r->keys_s, "foreign_keys_s", r->fkeys_s,
		      "server_side", r->server_side, "accounts_bytes", (json_int_t)r->accounts_bytes,
		      "total_bytes", (json_int_t)r->total_bytes);
	json_dumpf(j, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(j);
}

/* -I as given, -n taking v out and --foreign-keys adding f, as pgbench. */
static void init_steps(const struct tpcb_opts *o, char *buf, size_t len)
{
	size_t n = 0;

	for (const char *p = o->init_steps ? o->init_steps : TPCB_INIT_STEPS_DEFAULT; *p && n + 2 < len; p++)
		if (!(o->no_vacuum && *p == 'v'))
			buf[n++] = *p;
	if (o->foreign_keys && !memchr(buf, 'f', n))
		buf[n++] = 'f';
	buf[n] = '\0';
}

static int init_config(const struct tpcb_opts *o, struct tpcb_init_config *ic, char *steps,
		       size_t len, char *err, size_t errlen)
{
	init_steps(o, steps, len);
	*ic = (struct tpcb_init_config){ .scale = o->scale ? o->scale : 1,
		.fillfactor = (int)o->fillfactor, .steps = steps, .unlogged = o->unlogged,
		.partitions = (int)o->partitions, .tablespace = o->tablespace,
		.index_tablespace = o->index_tablespace, .force = o->force, .stop = &cli_stopped };
	if (o->partition_method) {
		if (!strcasecmp(o->partition_method, "range"))
			ic->partition_method = TPCB_PART_RANGE;
		else if (!strcasecmp(o->partition_method, "hash"))
			ic->partition_method = TPCB_PART_HASH;
		else {
			snprintf(err, errlen, "invalid partition method, expecting \"range\" or \"hash\", got: \"%.60s\"",
				 o->partition_method);
			return -EINVAL;
		}
	} else if (ic->partitions > 0) {
		ic->partition_method = TPCB_PART_RANGE;
	}
	if (o->init_steps && o->no_vacuum && !strpbrk(steps, TPCB_INIT_STEPS_ALL))
		return 0;	/* -I v -n: nothing left, as pgbench allows */
	return tpcb_init_check(ic, err, errlen);
}

static int init_cmd(struct session *s)
{
	struct tpcb_init_config ic;
	struct tpcb_init_result res;
	struct init_view view = { .quiet = s->o.quiet, .tty = isatty(STDERR_FILENO) };
	char steps[64];
	int ret = init_config(&s->o, &ic, steps, sizeof(steps), s->err, sizeof(s->err));

	if (ret == 0)
		ret = resolve(s);
	if (ret < 0)
		return cmd_fail(CMD " init", ret, s->err);
	cli_catch_stop(true);
	ret = tpcb_init(&s->srv, &ic, show_step, &view, &res, s->err, sizeof(s->err));
	if (ret < 0)
		return cmd_fail(CMD " init", ret, s->err);
	print_init(&res, s->o.json);
	return 0;
}

/* ---- run: the config ---------------------------------------------------------- */

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

/* pgbench's --random-seed: "time", "rand" or an unsigned integer. */
static int random_seed(const char *spec, uint64_t *out, char *err, size_t errlen)
{
	char *end;

	if (!spec || !strcmp(spec, "time")) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		*out = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
		return 0;
	}
	if (!strcmp(spec, "rand")) {
		*out = rng_fresh_seed(UINT64_MAX);
		return 0;
	}
	errno = 0;
	*out = strtoull(spec, &end, 10);
	if (errno || end == spec || *end || spec[0] == '-') {
		snprintf(err, errlen, "unrecognized random seed option \"%.60s\": expecting an unsigned integer, \"time\" or \"rand\"",
			 spec);
		return -EINVAL;
	}
	return 0;
}

static int seed_of(const struct tpcb_opts *o, uint64_t *seed, char *err, size_t errlen)
{
	const char *env = getenv("PGBENCH_RANDOM_SEED");
	char why[256];

	if (o->random_seed)
		return random_seed(o->random_seed, seed, err, errlen);
	if (env && random_seed(env, seed, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "PGBENCH_RANDOM_SEED: %s", why);
		return -EINVAL;
	}
	return env ? 0 : random_seed(NULL, seed, err, errlen);
}

/* -f, -b, -S, -N in their order, then -D; the default tpcb-like when none. */
static int load_scripts(struct session *s)
{
	const struct tpcb_opts *o = &s->o;
	int ret = 0;

	tpcb_scripts_init(&s->set);
	for (int i = 0; ret == 0 && i < o->ndefines; i++)
		ret = tpcb_scripts_define(&s->set, o->defines[i], s->err, sizeof(s->err));
	for (int i = 0; ret == 0 && i < o->nsources; i++) {
		const struct tpcb_source *src = &o->sources[i];

		ret = src->builtin ?
		      tpcb_scripts_add_builtin(&s->set, src->which, src->weight, s->err, sizeof(s->err)) :
		      tpcb_scripts_add_file(&s->set, src->name, src->weight, s->err, sizeof(s->err));
	}
	if (ret == 0)
		ret = tpcb_scripts_finish(&s->set, s->err, sizeof(s->err));
	return ret == -ENOMEM ? -ENOMEM : ret < 0 ? -EINVAL : 0;
}

static int make_config(struct session *s)
{
	const struct tpcb_opts *o = &s->o;
	struct tpcb_config *c = &s->cfg;
	char *err = s->err;
	size_t errlen = sizeof(s->err);
	int ret = load_scripts(s);

	*c = (struct tpcb_config){ .scripts = &s->set };
	if (ret == 0 && o->protocol && tpcb_protocol_parse(o->protocol, &c->protocol) < 0) {
		snprintf(err, errlen, "invalid query mode (-M) '%.60s'; give simple, extended or prepared", o->protocol);
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = bounded("-R", "a rate in transactions per second", o->rate, TPCB_RATE_MIN,
			      TPCB_RATE_MAX, &c->rate_tps, err, errlen);
	if (ret == 0)
		ret = bounded("-L", "a latency limit in milliseconds (24h at most)", o->latency_limit,
			      TPCB_LATENCY_MIN_MS, TPCB_LATENCY_MAX_MS, &c->latency_limit_ms, err, errlen);
	if (ret == 0 && o->sampling_rate &&
	    (opts_parse_decimal(o->sampling_rate, &c->sampling_rate, NULL) < 0 || c->sampling_rate <= 0 ||
	     c->sampling_rate > 1)) {
		snprintf(err, errlen, "invalid sampling rate '%.60s'; give --sampling-rate above 0 and at most 1 (0.01: 1%%)",
			 o->sampling_rate);
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = seed_of(o, &c->seed, err, errlen);
	if (ret < 0)
		return ret;
	c->clients = (int)o->clients;
	c->threads = (int)(o->threads > o->clients ? o->clients : o->threads);	/* pgbench clamps */
	c->duration_s = o->duration;
	c->transactions = o->transactions ? o->transactions : (o->duration > 0 ? 0 : 10);
	c->pipeline = (int)o->pipeline;
	c->progress_s = o->progress;
	c->progress_timestamp = o->progress_timestamp;
	c->per_statement = o->per_statement;
	c->max_tries = (int)o->max_tries;
	c->scale = o->scale;
	c->connect_each = o->connect_each;
	c->failures_detailed = o->failures_detailed;
	c->verbose_errors = o->verbose_errors;
	c->exit_on_abort = o->exit_on_abort;
	c->debug = o->debug;
	c->dbname = tpcb_opts_dbname(o);
	c->log_prefix = o->log_prefix;
	c->aggregate_s = o->aggregate;
	c->wait_bound_s = o->srv.timeout_s;
	c->messages = stderr;
	c->stop = &cli_stopped;
	if (o->log)
		c->log_dir = ".";	/* the result folder, once it exists */
	return tpcb_config_check(c, err, errlen);
}

/* ---- run: the result folder ----------------------------------------------------- */

static json_t *settings_json(struct session *s)
{
	PGconn *c = server_connect(&s->srv, s->cfg.dbname, s->err, sizeof(s->err));
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
	json_object_set_new(meta, "scripts", tpcb_scripts_json(&s->set));
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

/* ---- run: running ------------------------------------------------------------------ */

static void show_progress(void *arg, const struct tpcb_progress *p)
{
	const struct tpcb_config *cfg = arg;
	char line[256];

	tpcb_progress_line(line, sizeof(line), cfg, p);
	fprintf(stderr, "%s\n", line);
}

static int vacuum(struct session *s)
{
	char warn[2048];
	int ret;

	fprintf(stderr, "starting vacuum...");
	ret = tpcb_vacuum(&s->srv, s->cfg.dbname, false, warn, sizeof(warn), s->err, sizeof(s->err));
	if (ret == 0 && warn[0])
		fprintf(stderr, "\n%s\n", warn);
	fprintf(stderr, "%s\n", ret == 0 ? "end." : "failed.");
	if (ret == 0 && s->o.vacuum_all) {
		fprintf(stderr, "starting vacuum pgbench_accounts...");
		ret = tpcb_vacuum(&s->srv, s->cfg.dbname, true, warn, sizeof(warn), s->err, sizeof(s->err));
		fprintf(stderr, "%s\n", ret == 0 ? "end." : "failed.");
	}
	return ret;
}

static int prepare_run(struct session *s, int argc, char **argv)
{
	int ret = resolve(s);

	if (ret == 0)
		ret = tpcb_target_check(&s->srv, &s->cfg, &s->target, s->err, sizeof(s->err));
	if (ret == 0 && s->target.warning[0])
		fprintf(stderr, "eicbench tpcb run: warning: %s\n", s->target.warning);
	if (ret == 0)
		ret = write_meta(s, argc, argv);
	if (ret == 0 && s->cfg.log_dir)
		s->cfg.log_dir = s->dir;
	if (ret == 0 && !s->o.no_vacuum)
		ret = vacuum(s);
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
	if (ret == -EIO && r->stopped_on_abort)
		fprintf(stderr, "eicbench tpcb run: stopped (--exit-on-abort): %s; the figures above are incomplete\n",
			r->abort_msg);
	else if (ret == -EIO)
		fprintf(stderr, "eicbench tpcb run: %d client(s) stopped early; the figures above are incomplete. First: %s\n",
			r->aborted_clients, r->abort_msg);
	if (ret == -EINTR)
		fprintf(stderr, "eicbench tpcb run: interrupted; the figures above cover the run so far\n");
	return ret == 0 ? 0 : EXIT_RUN_FAILED;
}

static int run_cmd(struct session *s, int argc, char **argv)
{
	struct tpcb_result *r = calloc(1, sizeof(*r));
	int ret = r ? make_config(s) : -ENOMEM;

	if (ret < 0) {
		free(r);
		return cmd_fail(CMD " run", ret, s->err);
	}
	cli_catch_stop(true);
	s->cfg.progress = s->cfg.progress_s > 0 ? show_progress : NULL;
	s->cfg.progress_arg = &s->cfg;
	ret = prepare_run(s, argc, argv);
	if (ret < 0 && !s->dir[0]) {
		ret = cmd_fail(CMD " run", ret, s->err);
	} else if (ret < 0) {
		write_record(s, r, ret, s->err, false);
		ret = cmd_fail(CMD " run", ret, s->err);
	} else {
		ret = finish_run(s, r, tpcb_run(&s->srv, &s->cfg, &s->target, r, s->err,
						sizeof(s->err)));
	}
	tpcb_result_free(r);
	free(r);
	return ret;
}

/* ---- dispatch ------------------------------------------------------------------ */

static void list_builtins(void)
{
	fprintf(stderr, "Available builtin scripts:\n");
	for (int i = 0; i < TPCB_NBUILTINS; i++)
		fprintf(stderr, "  %13s: %s\n", tpcb_builtin_name((enum tpcb_builtin)i),
			tpcb_builtin_desc((enum tpcb_builtin)i));
	fprintf(stderr, "\n");
}

/* -V, -b list, --show-script: print and end. 1 when one was given. */
static int listings(struct session *s)
{
	enum tpcb_builtin b;

	if (s->o.version) {
		printf("eicbench tpcb (eicbench %s)\n", EICBENCH_VERSION);
		return 1;
	}
	if (s->o.list_builtins) {
		list_builtins();
		return 1;
	}
	if (!s->o.show_script)
		return 0;
	if (tpcb_builtin_find(s->o.show_script, &b, s->err, sizeof(s->err)) < 0)
		return -EINVAL;
	fprintf(stderr, "-- %s: %s\n%s\n", tpcb_builtin_name(b), tpcb_builtin_desc(b), tpcb_builtin_text(b));
	return 1;
}

static void defaults(struct tpcb_opts *o)
{
	memset(o, 0, sizeof(*o));
	server_cfg_defaults(&o->srv);
	o->clients = o->threads = o->max_tries = 1;
	o->fillfactor = 100;
}

int cmd_tpcb(int argc, char **argv)
{
	struct session *s = calloc(1, sizeof(*s));
	int given = -1, skip = 0, ret;

	if (!s)
		return cmd_fail(CMD, -ENOMEM, "out of memory");
	if (argc >= 1 && (!strcmp(argv[0], "init") || !strcmp(argv[0], "run"))) {
		given = !strcmp(argv[0], "init") ? TPCB_MODE_INIT : TPCB_MODE_RUN;
		skip = 1;
	}
	defaults(&s->o);
	ret = tpcb_opts_parse(&s->o, given, argc - skip, argv + skip, &s->mode, s->err, sizeof(s->err));
	if (ret == 1) {
		tpcb_opts_usage(given);
		ret = 0;
	} else if (ret == 0 && (ret = listings(s)) != 0) {
		ret = ret > 0 ? 0 : cmd_fail(CMD, ret, s->err);
	} else if (ret < 0) {
		ret = cmd_fail(given == TPCB_MODE_INIT ? CMD " init" : given == TPCB_MODE_RUN ? CMD " run" : CMD,
			       -EINVAL, s->err);
	} else if (s->mode == TPCB_MODE_INIT) {
		ret = init_cmd(s);
	} else {
		/* the whole command line for the record: see cmd.h */
		ret = run_cmd(s, argc + 2, argv - 2);
	}
	tpcb_scripts_free(&s->set);
	free(s);
	return ret;
}

/* ---- the man page --------------------------------------------------------------- */

static const struct man_form tpcb_forms[] = {
	{ "init", USAGE_INIT_TEXT, tpcb_init_table },
	{ "run", USAGE_RUN_TEXT, tpcb_run_table },
	{ 0 }
};

static const struct man_example tpcb_examples[] = {
	{ "eicbench tpcb -i -s 20 mydb",
	  "pgbench's four tables at scale 20 in database mydb of libpq's default server (PG* variables apply), as pgbench -i -s 20 mydb." },
	{ "eicbench tpcb run -h db1 -U bench -c 8 -j 2 -T 60 -P 5 mydb",
	  "TPC-B-like transactions from 8 clients on 2 threads for a minute on host db1, a progress line every 5 s." },
	{ "eicbench tpcb init --datadir data/pg -s 20",
	  "The same tables on the managed cluster." },
	{ "eicbench tpcb run --datadir data/pg -f mine.sql@3 -b select-only@1 -D n=10 -T 30 -r",
	  "The user's script three times as often as the builtin select-only, with :n set, each command's latency reported." },
	{ "eicbench tpcb run --datadir data/pg -S -M prepared -c 8 -j 2 -T 30 --pipeline 8",
	  "Select-only with prepared statements, up to 8 transactions of each client in flight in libpq's pipeline mode." },
	{ 0 }
};

const struct man_page cmd_tpcb_page = {
	.name = "tpcb",
	.summary = "pgbench's workloads and scripts: init the tables, run a load, percentiles",
	.forms = tpcb_forms,
	.description =
	"pgbench's workloads where pgbench users stand: its options, its connection conventions, its scripts and its output layout, driven by eicbench's own client on libpq's asynchronous API, plus latency percentiles, the client's own CPU cost, libpq pipelines and a record in the suite's result-folder format. \"eicbench tpcb init\" and \"eicbench tpcb run\", or pgbench's own command line after \"eicbench tpcb\" (-i initializes).\n\n"
	"The server: --datadir DIR is the managed cluster there; --dsn CONNINFO a server by its connection string; otherwise, as pgbench, libpq's defaults and every PG* variable with -h, -p, -U and the database (-d or the positional DBNAME) over them. -h is the host; help is --help or -?.\n\n"
	"init runs pgbench's -I steps (d drop, t create, g generate client-side, G server-side, v vacuum, p primary keys, f foreign keys; default dtgvp) and says what it does on stderr. run drives -c clients from -j threads with pgbench's scripts: the builtins (-b tpcb-like, simple-update, select-only, a prefix will do; -S, -N) and the user's (-f FILE[@W]) with \\set and pgbench's expression language and functions, \\sleep, \\if, \\gset, \\aset and pipelines; -D sets variables; --random-seed gives the very values pgbench would draw.\n\n"
	"Every wait for the server is bounded by --timeout. A failed expression or a lost connection ends that client with pgbench's message and the run goes on with the others (--exit-on-abort stops it); Ctrl-C lets transactions in flight finish, prints the figures so far and keeps the record (exit status 1).",
	.examples = tpcb_examples,
	.exit_status = "pgbench exits 1 on bad input and 2 when a client aborted; eicbench keeps its own: 2 for bad input, 1 for a run that failed or ended early. That is the one deliberate difference from pgbench.",
	.environment = "PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGAPPNAME ...\tlibpq's, when no --datadir or --dsn names the server\n"
	"PGBENCH_RANDOM_SEED\tthe seed when --random-seed is not given, as pgbench",
	.files = "results/<UTC>-tpcb/\tmeta.json (the scripts' texts too) and trials.jsonl; with -l, pgbench_log.PID and pgbench_log.PID.N per thread",
	.see_also = "confsweep export",
	.guide = "eicbench tpcb init|run",
};
