/*
 * run: what the two files of `eicbench run` share (run.c: options, plan,
 * meta.json, resume and the loop; run_steps.c: the steps). A run is a list
 * of steps; each builds the configuration struct its library function takes
 * (the same one the step's own command builds from its options) and calls
 * it, writing into a subfolder of the run's folder.
 */
#ifndef BENCH_CMD_RUN_H
#define BENCH_CMD_RUN_H

#include <limits.h>
#include <stdbool.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "bench/probe/probe_plan.h"

#define RUN_EIC          "0,1,16,256"               /* coarse: racing narrows it, */
#define RUN_EIC_LADDER   "0,1,4,16,64,256,1000"     /* and the leader's neighbours on this join */
#define RUN_EIC_QUICK    "0,1,4,16,64"
#define RUN_DEPTHS       "1,2,4,8,16,32,64,128,256"
#define RUN_DEPTHS_QUICK "1,4,16,64"
#define RUN_MAX_STEPS    20
#include "bench/judge/classes.h"

#define RUN_MAX_QUERIES  12

struct run_opts {
	struct server_cfg srv;
	long long rows, seed, runs, max_runs;
	const char *eic, *query, *out, *resume, *depths, *weights;
	const char *tablespace_dir;   /* the data set in a tablespace there; NULL: the default one */
	double budget_s;
	long long margin_pct;
	bool quick, no_probe, json, include_forced, replay;
	bool keep_page_reporting;     /* a choice for this machine, not the plan's: allowed on --resume */
};

struct run;

/* One step: what it is called in meta.json and on the terminal, where it
 * writes, and the library call that does it (an exit status: 0, 1, 2). */
struct step {
	char   name[192];             /* "sweep sparse", "sweeps blog, sparse, round by round" */
	char   sub[64];               /* subfolder of the run, or "" */
	char   out[PATH_MAX + 80];    /* the run's folder / sub */
	int  (*run)(struct run *r, struct step *s);
	const char *query;            /* sweep: the preset */
	struct probe_cfg probe;       /* cache check, curve */
	bool   resume;                /* a sweep started before: go on with it */
	const char *peers[RUN_MAX_QUERIES];  /* a sweep: the run's other sweeps, decided with it */
	int    npeers;
	double estimate_s;            /* for the ETA; 0 when unknown */
	bool   open_ended;            /* may take longer than estimate_s (a race adds rounds) */
};

struct run {
	struct run_opts o;
	int    argc;                  /* the whole command line, for the records */
	char **argv;
	char   dir[PATH_MAX];
	char   queries[RUN_MAX_QUERIES][32];
	int    nqueries;
	const char *eic;              /* the values swept */
	struct class_weights weights; /* --weights, parsed (n 0: none given) */
	char   pg_why[384];           /* the version chosen for a new cluster, and why; "" */
	char   left_out[384];         /* default classes this version's setting does not govern, and why; "" */
	const char *refine;           /* the ladder the leader's neighbours join from, or NULL */
	struct step steps[RUN_MAX_STEPS];
	int    nsteps;
	json_t *meta;
};

/* run_steps.c: the steps in order into R->steps (server, data set, cache
 * check, sweeps, curve); each probe step's plan checked, so that a
 * bad value is refused before anything is written (-EINVAL with ERR). */
int run_plan_steps(struct run *r, char *err, size_t errlen);

/* Is step S one of the server's (no estimate: they take a moment)? */
bool run_step_is_server(const struct step *s);
/* Is step S one of the sweeps (one per query; the first runs them all)? */
bool run_step_is_sweep(const struct step *s);

/* ARGV (after "run") checked as the run would check it, nothing made: 0,
 * or -errno with ERR. */
int run_check(int argc, char **argv, char *err, size_t errlen);

/* run_versions.c: the command "run": with --pg LIST (15,18) the run once
 * per version, else cmd_run(); the exit status. */
int cmd_run_versions(int argc, char **argv);

#endif
