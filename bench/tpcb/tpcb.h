/*
 * tpcb: the TPC-B driver as a library. pgbench's tables (tpcb_init) and a
 * load of pgbench scripts (tpcb_script.h: the builtins and the user's),
 * driven by -j threads each running an event loop over its share of -c
 * clients on libpq's asynchronous API (tpcb_run). Settings come in as a
 * const struct tpcb_config; figures go out in a struct tpcb_result, which
 * tpcb_result_json turns into a JSON object. Nothing here prints but where
 * the caller hands a stream: debug() and --debug lines, --verbose-errors,
 * progress through a callback. Times are nanoseconds inside; names carry
 * the unit (_ns, _ms, _s). Functions return 0, -EINVAL for bad input (with
 * a message naming the value and what is allowed) or another -errno, and
 * fill a caller's buffer.
 */
#ifndef BENCH_TPCB_TPCB_H
#define BENCH_TPCB_TPCB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "bench/tpcb/tpcb_script.h"
#include "io/hist.h"

#define TPCB_MAX_CLIENTS   1000
#define TPCB_MAX_PIPELINE  1000
#define TPCB_MAX_SCALE     1000000LL
#define TPCB_BIGINT_SCALE  20000    /* aid is bigint from this scale on, as in pgbench */
#define TPCB_ACCOUNTS      100000   /* rows per scale unit; 1 branch, 10 tellers */
#define TPCB_TELLERS       10

enum tpcb_protocol { TPCB_SIMPLE, TPCB_EXTENDED, TPCB_PREPARED };

/* "simple", "extended", "prepared" */
const char *tpcb_protocol_name(enum tpcb_protocol p);
int tpcb_protocol_parse(const char *s, enum tpcb_protocol *out);

/* ---- init ---------------------------------------------------------------- */

#define TPCB_INIT_STEPS_ALL     "dtgGvpf"
#define TPCB_INIT_STEPS_DEFAULT "dtgvp"

enum tpcb_partitioning { TPCB_PART_NONE, TPCB_PART_RANGE, TPCB_PART_HASH };

struct tpcb_init_config {
	long long scale;
	int       fillfactor;          /* 10..100, of tellers, accounts, branches */
	const char *steps;             /* pgbench's -I: d t g G v p f (spaces ignored); NULL: "dtgvp" */
	bool      unlogged;            /* --unlogged-tables */
	int       partitions;          /* of pgbench_accounts; 0: none */
	enum tpcb_partitioning partition_method;
	const char *tablespace, *index_tablespace;
	bool      force;               /* drop pgbench tables eicbench did not make */
	const volatile sig_atomic_t *stop;
};

struct tpcb_init_result {
	long long scale;
	char      steps[16];           /* the steps run */
	double    drop_s, create_s, generate_s, vacuum_s, keys_s, fkeys_s, total_s;
	bool      server_side;         /* G: the rows were made by the server */
	uint64_t  accounts_bytes, total_bytes;
};

/* Called as init goes: STEP names it ("dropping old tables..." when TOTAL
 * is 0, else rows of a copy: DONE of TOTAL in UNIT). */
typedef void (*tpcb_step_fn)(void *arg, const char *step, double done,
			     double total, const char *unit);

/* The steps' text checked: 0, or -EINVAL naming the first unknown letter. */
int tpcb_init_check(const struct tpcb_init_config *cfg, char *err, size_t errlen);

/* Run the init steps on S's database. */
int tpcb_init(const struct server *s, const struct tpcb_init_config *cfg,
	      tpcb_step_fn step, void *arg, struct tpcb_init_result *out,
	      char *err, size_t errlen);

/* ---- run ----------------------------------------------------------------- */

/* One -P line: figures of the last interval. */
struct tpcb_progress {
	double   elapsed_s, epoch_s;   /* since the start; Unix time (--progress-timestamp) */
	double   tps, lat_ms, stddev_ms, lag_ms;
	uint64_t failed, skipped, retried, retries;
};

typedef void (*tpcb_progress_fn)(void *arg, const struct tpcb_progress *p);

struct tpcb_config {
	const struct tpcb_scripts *scripts;
	enum tpcb_protocol protocol;
	int       clients, threads;    /* threads <= clients (the command clamps, as pgbench) */
	double    duration_s;          /* -T; 0 when -t */
	long long transactions;        /* -t, per client; 0 when -T */
	int       pipeline;            /* transactions in flight per client; 0: off */
	double    progress_s;          /* -P; 0: off */
	bool      progress_timestamp;
	bool      per_statement;       /* -r */
	double    rate_tps;            /* -R; 0: off */
	double    latency_limit_ms;    /* -L; 0: off */
	int       max_tries;           /* 1: no retries; 0: no limit (with -L or -T) */
	uint64_t  seed;                /* --random-seed */
	long long scale;               /* -s; 0: not given */
	bool      scale_exact;         /* -s must be the tables' (else pgbench's warning) */
	bool      need_tables;         /* pgbench's tables must be there, builtins or not */
	bool      connect_each;        /* -C: a connection per transaction */
	bool      failures_detailed, verbose_errors, exit_on_abort, debug;
	const char *dbname;            /* -d with the managed cluster; NULL: its own database */
	const char *log_dir;           /* -l: the logs go here; NULL: no logs */
	const char *log_prefix;        /* NULL: "pgbench_log" */
	double    sampling_rate;       /* of the -l lines; 0: every line */
	double    aggregate_s;         /* --aggregate-interval; 0: a line per transaction */
	double    wait_bound_s;        /* no wait for the server is longer */
	FILE     *messages;            /* debug(), --debug, --verbose-errors; NULL: stderr */
	const volatile sig_atomic_t *stop;
	tpcb_progress_fn progress;
	void     *progress_arg;
};

/* The checks that need no server; 0 or -EINVAL with ERR filled. */
int tpcb_config_check(const struct tpcb_config *cfg, char *err, size_t errlen);

/* What the server offers: checked against the config by tpcb_target_check. */
struct tpcb_target {
	long long scale;               /* rows of pgbench_branches (builtins), or -s, or 1 */
	bool      tables;              /* pgbench's tables were looked at */
	int       server_version;      /* e.g. 150018 */
	char      server_version_str[64];
	char      partition_method[8]; /* "range", "hash" or "" */
	int       partitions;
	char      warning[256];        /* pgbench's warning on -s, or "" */
};

/* Tables there when a builtin runs, the scale, pipeline supported: 0 or -EINVAL. */
int tpcb_target_check(const struct server *s, const struct tpcb_config *cfg,
		      struct tpcb_target *t, char *err, size_t errlen);

/* pgbench's pre-run cleanup: vacuum branches and tellers, empty history;
 * with ACCOUNTS (-v) also vacuum analyze accounts. A missing table is
 * said in WARN (when not NULL) and the cleanup goes on, as pgbench's. */
int tpcb_vacuum(const struct server *s, const char *dbname, bool accounts,
		char *warn, size_t warnlen, char *err, size_t errlen);

struct tpcb_cmd_result {
	int      script;
	char     line[128];            /* the command's first line, as pgbench shows it */
	uint64_t count, failures, retries;
	double   latency_ms;           /* average */
};

struct tpcb_script_result {
	uint64_t committed, failed, serialization_failures, deadlock_failures;
	uint64_t skipped, retried, retries;
	double   lat_mean_ms, lat_stddev_ms;
};

struct tpcb_result {
	uint64_t  committed;           /* transactions that succeeded */
	uint64_t  failed, serialization_failures, deadlock_failures;
	uint64_t  retried, retries;    /* transactions retried, and retries in all */
	uint64_t  skipped, late;       /* -R with -L: not sent; -L: above the limit */
	uint64_t  expected;            /* -t: clients * t */
	double    connect_ms;          /* initial connection time */
	double    connections_ms;      /* -C: time spent connecting, in all */
	double    run_s;               /* clock after the connections */
	double    cpu_user_s, cpu_sys_s;  /* this process, while the clock ran */
	struct hist latency;           /* committed transactions, ns */
	double    lag_sum_ms, lag_max_ms;
	uint64_t  lag_count;
	int       aborted_clients;
	char      abort_msg[512];      /* the first client's reason */
	bool      interrupted, stopped_on_abort;
	int       ncmds, nscripts;
	struct tpcb_cmd_result *cmds;        /* every command of every script */
	struct tpcb_script_result *scripts;
};

/*
 * Run the load on S. RES is filled even when the run ends early: -EIO when
 * clients were lost (RES->abort_msg says why), -EINTR when *CFG->stop was
 * set; other errors (no connection at all) leave nothing worth reporting.
 * tpcb_result_free releases what RES holds.
 */
int tpcb_run(const struct server *s, const struct tpcb_config *cfg,
	     const struct tpcb_target *t, struct tpcb_result *res,
	     char *err, size_t errlen);
void tpcb_result_free(struct tpcb_result *r);

/* Figures of one run as a new JSON object (units in the key names). */
json_t *tpcb_result_json(const struct tpcb_config *cfg,
			 const struct tpcb_target *t, const struct tpcb_result *r);

/* The scripts as JSON: [{name, builtin?, weight, text}]. */
json_t *tpcb_scripts_json(const struct tpcb_scripts *set);

/* "tpcb-like", or "file.sql@2 + select-only@1": what a record calls the load. */
void tpcb_scripts_label(const struct tpcb_scripts *set, char *buf, size_t len);

/* Committed transactions per second of clock time. */
double tpcb_result_tps(const struct tpcb_result *r);

#endif
