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
	/* md/dm members of that device, watched one by one too */
	int  nmembers;
	char members[SYSSTAT_MAX_MEMBERS][SYSSTAT_NAME_MAX];
	int  sample_ms;                   /* sampling interval during the query */
	char relation[128];               /* the Bitmap Heap Scan's relation */
	const volatile sig_atomic_t *stop;
};

/* What the plan check found: the scanned relation and its tablespace. */
struct trial_plan_info {
	char relation[128];
	char tablespace[128];
	char tablespace_eic[32];          /* the tablespace's own value, or "" */
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

/*
 * Plain EXPLAIN with COMBO's settings: the plan must have exactly one Bitmap
 * Heap Scan, on E->relation when that is set. Fills INFO (may be NULL) with
 * its relation and that relation's tablespace and own effective_io_concurrency.
 */
int trial_check_plan(const struct trial_env *e, int combo, struct trial_plan_info *info,
		     char *err, size_t errlen);

/*
 * Compare RECORD's bitmap (relation, exact and lossy heap blocks, rows) with
 * the first record of the same settings apart from effective_io_concurrency
 * in REFS (an object this function fills as it goes). A difference sets
 * record.plan_check.ok = false with what differed: the report leaves such a
 * trial out of every figure. Returns 1 when it differed, else 0.
 */
int trial_plan_check(json_t *record, json_t *refs);

/*
 * Run trial T (number INDEX of the plan, 1-based) and return its record.
 * -EINTR when stopped (nothing recorded), -EPROTO for a plan without a
 * Bitmap Heap Scan, other -errno for failures; ERR says which.
 */
int trial_run(const struct trial_env *e, const struct sweep_trial *t, int index,
	      json_t **record, char *err, size_t errlen);

#endif
