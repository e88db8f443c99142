/*
 * runner: one runner for every settings sweep, whatever the workload. It
 * builds the plan (every combination of the grid, each round shuffled from
 * a recorded seed), checks every value with the server before anything
 * runs, keeps the originals in the settings journal (bench/pg/settings.h),
 * and per trial puts the combination in place (SET, reload, or ALTER
 * SYSTEM and restart), makes the server cold unless warm, runs the
 * workload (bench/sweep/workload.h) and appends its record (fsync'd); with
 * a companion workload, its trial of the same combination and round
 * follows (or, at every other position of a round, comes first), after a
 * cold cycle of its own, keyed "KEY NAME". Ctrl-C
 * keeps what is finished; --resume runs what is missing, and refuses a
 * folder of another data set, server or target. With until_separated it
 * adds rounds until the report calls the result separated. The settings
 * are put back at the end, also after an error or Ctrl-C. Progress goes to
 * stderr; what went wrong is returned for the command to say.
 */
#ifndef BENCH_SWEEP_RUNNER_H
#define BENCH_SWEEP_RUNNER_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

#include <jansson.h>

#include "bench/pg/server.h"
#include "bench/judge/decision.h"
#include "bench/pg/settings.h"
#include "bench/sweep/sweep.h"
#include "bench/sweep/workload.h"
#include "io/irqcpu.h"
#include "io/sysstat.h"

struct class_weights;

struct runner_cfg {
	struct server_cfg srv;
	const struct workload *workload;
	void       *wcfg;             /* the workload's own configuration */
	/* A second workload whose trial follows each of the first's at the same
	 * combination and round, after its own cold cycle (the replay of a
	 * query's reads), or NULL; its configuration. It may read wcfg. */
	const struct workload *companion;
	void       *ccfg;
	/* With race: a companion trial beside every query trial; else beside
	 * every value's in round 1, then only beside 0's, the leading value's
	 * and its nearest rival's (race.h), those of earlier rounds caught up
	 * when a value becomes one of them. */
	bool        companion_all;
	/* The workload called NAME (a resumed folder's companion), or NULL. */
	const struct workload *(*find_workload)(const char *name);
	const char *command;          /* "sweep", "confsweep": the folder's name and meta */
	struct sweep_grid grid;
	const struct sweep_steps *steps;  /* a plan of steps (confsweep), or NULL: the grid */
	int         runs;
	uint64_t    order_seed;
	bool        order_seed_given;
	bool        warm;
	bool        keep_page_reporting;  /* leave the host's free page reporting on (bench/sweep/runner_memory.h) */
	bool        until_separated;
	int         max_runs;
	double      budget_s;
	bool        prime;            /* one untimed priming trial before the first recorded one */
	bool        race;             /* racing between rounds (bench/sweep/race.h) */
	double      margin;           /* of the decision; 0: DECISION_MARGIN */
	/* With race: the classes the answer stands on (bench/judge/classes.h),
	 * recorded in plan.racing: forced plans too, and the weights (NULL: 1) */
	bool        include_forced;
	const struct class_weights *weights;
	/* With race: a ladder of effective_io_concurrency values ("0,1,4,16") whose
	 * neighbours of the leading value join the grid (bench/sweep/race.h); NULL: none. */
	const char *refine;
	const char *const *peers;     /* finished sweeps of the same run, decided with this one */
	int         npeers;
	const char *out, *resume;
	bool        plan_given;       /* on --resume: options that describe a plan were given too */
	/* Where value V (-1: any) of grid setting I was given, for messages
	 * ("seed.ini line 12"); optional. */
	void      (*origin)(const struct runner *r, int i, int v, char *buf, size_t len);
	void       *origin_arg;
};

/* Where runner_main() stopped: in setup (no folder to finish), in the
 * trials (the folder holds what finished: --resume finishes it), after
 * them (putting the settings back, the report). */
enum runner_stage { RUNNER_SETUP, RUNNER_TRIALS, RUNNER_AFTER };

struct runner {
	struct runner_cfg cfg;
	enum runner_stage stage;
	struct sweep_plan plan;
	struct server srv;
	struct settings_journal journal;
	char   dir[PATH_MAX];
	json_t *meta;
	bool   resumed;
	void  *wstate;                /* the workload's own state (e.g. plan references) */
	/* the device under the data directory, and its md/dm members */
	char   disk[SYSSTAT_NAME_MAX];
	char   disk_file[SYSSTAT_PATH_MAX];   /* a published device's counters, or "" */
	char   data_path[PATH_MAX];           /* where the data lives (the workload's check may say), "": the data directory */
	int    nmembers;
	char   members[SYSSTAT_MAX_MEMBERS][SYSSTAT_NAME_MAX];
	struct irqcpu_irqs irqs;      /* the device's (or its members') interrupts, n 0: none followed */
	int    irqs_rc;               /* why none: -ENOENT (no device with interrupts), -E2BIG (a queue per CPU) */
	double started_s;
	int    ran;                   /* trials this command ran */
	bool   primed;                /* this command's priming trial is done */
	int    ladder[SWEEP_MAX_VALUES];  /* the race's refining ladder (cfg.refine, or meta.json's) */
	int    nladder;
	int    follow[3];             /* with race, not companion_all: the values whose companions run after round 1 */
	int    nfollow;
	const char *peer_names[DECISION_MAX_QUERIES];  /* a resumed race's peers, from meta.json */
	int    npeer_names;
	const volatile sig_atomic_t *stop;
};

/* The value of grid setting I in combination COMBO; its context. */
const char *runner_value(const struct runner *r, int combo, int i);
enum settings_context runner_context(const struct runner *r, int i);

/* SET COMBO's session-context values in C's session. */
int runner_session(const struct runner *r, PGconn *c, int combo, char *err, size_t errlen);

/* The grid's settings as C's session sees them ({name: value}). */
json_t *runner_in_force(const struct runner *r, PGconn *c);

void runner_free(struct runner *r);

/*
 * The whole sweep: setup (plan or resume, server, recovery of a settings
 * journal, values checked, folder and meta.json), the trials, the settings
 * put back, then FINISH(DIR) to report (may be NULL). ARGC/ARGV the whole
 * command line for meta.json. Returns 0, -EINVAL when the setup refused the
 * input (nothing was written), -EINTR when stopped in the trials, or
 * another -errno when the run failed; ERR says what went wrong ("" when
 * only interrupted), r->stage where, r->dir the folder once in the trials.
 */
int runner_main(struct runner *r, int argc, char **argv,
		int (*finish)(const char *dir, char *err, size_t errlen), char *err, size_t errlen);

/*
 * N racing sweeps of one server (a run's queries), their rounds taken in
 * turn: setup of each, then a round of each and the race decided for each
 * with the others as peers (give each the others' folders in cfg.peers),
 * until the decision is made or --max-runs / --budget ends them, together
 * (N = 1 is runner_main(), which need not race). Returns as runner_main()
 * does; *WHICH is the sweep whose stage and folder go with the error
 * (rs[*which].stage, .dir).
 */
int runner_main_joint(struct runner *rs, int n, int argc, char **argv,
		      int (*finish)(const char *dir, char *err, size_t errlen), int *which,
		      char *err, size_t errlen);

#endif
