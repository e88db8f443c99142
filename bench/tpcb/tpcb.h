/*
 * tpcb: the TPC-B driver as a library. pgbench's tables (tpcb_init) and its
 * three built-in transactions, driven by -j threads each running an event
 * loop over its share of -c clients on libpq's asynchronous API (tpcb_run).
 * Settings come in as a const struct tpcb_config; figures go out in a
 * struct tpcb_result, which tpcb_result_json turns into a JSON object.
 * Nothing here prints: progress reaches the caller through a callback.
 * Times are nanoseconds inside; names carry the unit (_ns, _ms, _s).
 * Functions return 0, -EINVAL for bad input (with a message naming the
 * value and what is allowed) or another -errno, and fill a caller's buffer.
 */
#ifndef BENCH_TPCB_TPCB_H
#define BENCH_TPCB_TPCB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "io/hist.h"

#define TPCB_MAX_CLIENTS   1000
#define TPCB_MAX_PIPELINE  1000
#define TPCB_MAX_STMTS     8
#define TPCB_MAX_SCALE     1000000LL
#define TPCB_BIGINT_SCALE  20000    /* aid is bigint from this scale on, as in pgbench */
#define TPCB_ACCOUNTS      100000   /* rows per scale unit; 1 branch, 10 tellers */
#define TPCB_TELLERS       10

enum tpcb_builtin { TPCB_TPCB_LIKE, TPCB_SIMPLE_UPDATE, TPCB_SELECT_ONLY };
enum tpcb_protocol { TPCB_SIMPLE, TPCB_EXTENDED, TPCB_PREPARED };

/* "tpcb-like", "simple-update", "select-only"; parse: 0 or -EINVAL. */
const char *tpcb_builtin_name(enum tpcb_builtin b);
/* pgbench's label: "TPC-B (sort of)", "simple update", "select only" */
const char *tpcb_builtin_label(enum tpcb_builtin b);
int tpcb_builtin_parse(const char *s, enum tpcb_builtin *out);
/* "simple", "extended", "prepared" */
const char *tpcb_protocol_name(enum tpcb_protocol p);
int tpcb_protocol_parse(const char *s, enum tpcb_protocol *out);

/* ---- init ---------------------------------------------------------------- */

struct tpcb_init_config {
	long long scale;
	int       fillfactor;          /* 10..100, of tellers, accounts, branches */
	bool      foreign_keys;
	bool      force;               /* drop pgbench tables eicbench did not make */
	const volatile sig_atomic_t *stop;
};

struct tpcb_init_result {
	long long scale;
	double    drop_s, create_s, generate_s, vacuum_s, keys_s, total_s;
	uint64_t  accounts_bytes, total_bytes;
};

/* Called from long steps: STEP names it; DONE of TOTAL in UNIT. */
typedef void (*tpcb_step_fn)(void *arg, const char *step, double done,
			     double total, const char *unit);

/* Make pgbench's four tables on S's database, freshly, at CFG->scale. */
int tpcb_init(const struct server *s, const struct tpcb_init_config *cfg,
	      tpcb_step_fn step, void *arg, struct tpcb_init_result *out,
	      char *err, size_t errlen);

/* ---- run ----------------------------------------------------------------- */

/* One -P line: figures of the last interval. */
struct tpcb_progress {
	double   elapsed_s;
	double   tps, lat_ms, stddev_ms, lag_ms;
	uint64_t failed, skipped, retried, retries;
};

typedef void (*tpcb_progress_fn)(void *arg, const struct tpcb_progress *p);

struct tpcb_config {
	enum tpcb_builtin  builtin;
	enum tpcb_protocol protocol;
	int       clients, threads;
	double    duration_s;          /* -T; 0 when -t */
	long long transactions;        /* -t, per client; 0 when -T */
	int       pipeline;            /* transactions in flight per client; 0: off */
	double    progress_s;          /* -P; 0: off */
	bool      per_statement;       /* -r */
	double    rate_tps;            /* -R; 0: off */
	double    latency_limit_ms;    /* -L; 0: off */
	int       max_tries;           /* 1: no retries */
	uint64_t  seed;
	long long scale;               /* -s: what the tables must hold; 0: any */
	const char *log_dir;           /* -l: pgbench_log.* here; NULL: no logs */
	double    aggregate_s;         /* --aggregate-interval; 0: a line per transaction */
	double    wait_bound_s;        /* no wait for the server is longer */
	const volatile sig_atomic_t *stop;
	tpcb_progress_fn progress;
	void     *progress_arg;
};

/* The checks that need no server; 0 or -EINVAL with ERR filled. */
int tpcb_config_check(const struct tpcb_config *cfg, char *err, size_t errlen);

/* What the server offers: checked against the config by tpcb_target_check. */
struct tpcb_target {
	long long scale;               /* rows of pgbench_branches */
	int       server_version;      /* e.g. 150018 */
	char      server_version_str[64];
};

/* Tables there, scale as asked, pipeline supported: 0 or -EINVAL. */
int tpcb_target_check(const struct server *s, const struct tpcb_config *cfg,
		      struct tpcb_target *t, char *err, size_t errlen);

/* pgbench's pre-run cleanup: vacuum branches and tellers, empty history. */
int tpcb_vacuum(const struct server *s, char *err, size_t errlen);

struct tpcb_stmt_result {
	char        sql[256];          /* as in sql/tpcb/, with pgbench's :names */
	uint64_t    count, failures, retries;
	double      latency_ms;        /* average */
};

struct tpcb_result {
	uint64_t  committed;           /* transactions that succeeded */
	uint64_t  failed, serialization_failures, deadlock_failures;
	uint64_t  retried, retries;    /* transactions retried, and retries in all */
	uint64_t  skipped, late;       /* -R with -L: not sent; -L: above the limit */
	uint64_t  expected;            /* -t: clients * t */
	double    connect_ms;          /* initial connection time */
	double    run_s;               /* clock after the connections */
	double    cpu_user_s, cpu_sys_s;  /* this process, while the clock ran */
	struct hist latency;           /* committed transactions, ns */
	double    lag_sum_ms, lag_max_ms;
	uint64_t  lag_count;
	int       aborted_clients;
	char      abort_msg[512];      /* the first client's reason */
	bool      interrupted;
	int       nstmts;
	struct tpcb_stmt_result stmt[TPCB_MAX_STMTS];
};

/*
 * Run the load on S. RES is filled even when the run ends early: -EIO when
 * clients were lost (RES->abort_msg says why), -EINTR when *CFG->stop was
 * set; other errors (no connection at all) leave nothing worth reporting.
 */
int tpcb_run(const struct server *s, const struct tpcb_config *cfg,
	     const struct tpcb_target *t, struct tpcb_result *res,
	     char *err, size_t errlen);

/* Figures of one run as a new JSON object (units in the key names). */
json_t *tpcb_result_json(const struct tpcb_config *cfg,
			 const struct tpcb_target *t, const struct tpcb_result *r);

/* Committed transactions per second of clock time. */
double tpcb_result_tps(const struct tpcb_result *r);

#endif
