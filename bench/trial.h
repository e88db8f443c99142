/*
 * trial: one trial of a sweep on a server: put the combination's settings in
 * place (session, reload or restart), make the server cold (unless warm),
 * run EXPLAIN (ANALYZE, BUFFERS, SETTINGS, FORMAT JSON) of the query while
 * watching the device (/proc/diskstats), the CPUs (/proc/stat) and the
 * backend (/proc/PID/stat), and build the trial's record. A plan without a
 * Bitmap Heap Scan is an error, never a figure.
 */
#ifndef BENCH_TRIAL_H
#define BENCH_TRIAL_H

#include <signal.h>
#include <stdbool.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/server.h"
#include "bench/sweep.h"
#include "io/sysstat.h"

struct trial_env {
	struct server *srv;
	const struct sweep_plan *plan;
	const char *query_name;
	const char *query_text;
	bool warm, jit, force_bitmap;
	char disk[SYSSTAT_NAME_MAX];      /* device under the data directory, or "" */
	const volatile sig_atomic_t *stop;
};

/* Session settings of every trial, then COMBO's session-context values. */
int trial_session(PGconn *c, const struct trial_env *e, int combo,
		  char *err, size_t errlen);

/* ALTER SYSTEM SET NAME = VALUE, or RESET NAME when VALUE is NULL. */
int trial_alter_system(PGconn *c, const char *name, const char *value,
		       char *err, size_t errlen);

/* ALTER SYSTEM for COMBO's reload and restart settings (reloading if any). */
int trial_system(PGconn *c, const struct trial_env *e, int combo,
		 char *err, size_t errlen);

/* Plain EXPLAIN with COMBO's settings: does the plan have a Bitmap Heap Scan? */
int trial_check_plan(const struct trial_env *e, int combo, char *err, size_t errlen);

/*
 * Run trial T (number INDEX of the plan, 1-based) and return its record.
 * -EINTR when stopped (nothing recorded), -EPROTO for a plan without a
 * Bitmap Heap Scan, other -errno for failures; ERR says which.
 */
int trial_run(const struct trial_env *e, const struct sweep_trial *t, int index,
	      json_t **record, char *err, size_t errlen);

#endif
