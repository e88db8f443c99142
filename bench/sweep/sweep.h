/*
 * sweep: the plan of a settings sweep, apart from any server. A grid holds
 * the settings to vary (effective_io_concurrency by default), each with its
 * values as strings; a combination takes one value of each (the first
 * setting varies slowest). The plan repeats every combination once per round,
 * in an order shuffled per round from a recorded seed, and names each trial
 * by a key ("round=2 effective_io_concurrency=16") that records carry, so an
 * interrupted sweep resumes with exactly the trials it lacks. A plan of
 * steps instead (a sweep file's sections) has one combination per step,
 * each naming values for some settings and leaving the rest as they were
 * before the sweep; its keys are "round=2 step=NAME".
 */
#ifndef BENCH_SWEEP_SWEEP_H
#define BENCH_SWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "bench/pg/settings.h"
#include "bench/record/record.h"

#define SWEEP_MAX_SETTINGS 24
#define SWEEP_MAX_STEPS    RECORD_STEPS_MAX
#define SWEEP_MAX_VALUES   64
#define SWEEP_NAME_MAX     64
#define SWEEP_VALUE_MAX    64
#define SWEEP_KEY_MAX      RECORD_KEY_MAX
#define SWEEP_EIC          "effective_io_concurrency"
#define SWEEP_DEFAULT_EIC  "0,1,2,4,8,16,32,64,128,256,1000"

struct sweep_setting {
	char name[SWEEP_NAME_MAX];
	int  nvalues;
	char values[SWEEP_MAX_VALUES][SWEEP_VALUE_MAX];
	enum settings_context context;  /* how a value is put in place, as the server says */
};

struct sweep_grid {
	int nsettings;
	struct sweep_setting s[SWEEP_MAX_SETTINGS];
};

struct sweep_trial {
	int  round;                 /* 1-based */
	int  combo;                 /* index of the combination */
	char key[SWEEP_KEY_MAX];
};

/* Steps: each a name and, per setting of the grid, the index of its value
 * in grid.s[i].values, or -1 when the step leaves that setting as it was. */
struct sweep_steps {
	int  nsteps;
	char name[SWEEP_MAX_STEPS][SWEEP_NAME_MAX];
	signed char value[SWEEP_MAX_STEPS][SWEEP_MAX_SETTINGS];
};

struct sweep_plan {
	struct sweep_grid grid;
	struct sweep_steps steps;     /* nsteps 0: every combination of the grid */
	int       runs;
	uint64_t  order_seed;
	int       ncombos;
	int       ntrials;
	struct sweep_trial *trials;
};

/*
 * Add "NAME=V1,V2,..." to the grid. Values of effective_io_concurrency must
 * be whole numbers 0..1000 written plainly; other names must look like
 * setting names (the server checks them later). No value may be given twice,
 * also not written another way as the server reads it (+1 and 1, 1MB and
 * 1024kB, 010MB and 8MB, 0x10 and 16, on and true, Fsync and fsync); a
 * number an integer and a real setting would read as two values (010) is
 * refused. -EINVAL with ERR naming the value ("--set SPEC: ...").
 */
int sweep_grid_add(struct sweep_grid *g, const char *spec, char *err, size_t errlen);
/*
 * The one check of every value of effective_io_concurrency, from --eic,
 * --set and sweep files: a whole number 0..1000 written plainly (no sign,
 * blank, leading 0, fraction or exponent). 0, or -EINVAL with ERR ("LABEL:
 * 'V' ...") giving the plain form of a number the server would take, as
 * it would read it (010 is 8 to it).
 */
int sweep_check_eic(const char *label, const char *v, char *err, size_t errlen);
/* The same for effective_io_concurrency's LIST as --eic gives it ("--eic LIST: ..."). */
int sweep_grid_add_eic(struct sweep_grid *g, const char *list, char *err, size_t errlen);

/*
 * The effective_io_concurrency values of LIST as OPT gives it ("--refine
 * LIST: ..."), checked as --eic's, into OUT (at most SWEEP_MAX_VALUES),
 * ascending. Their number, or -EINVAL with ERR.
 */
int sweep_eic_ladder(const char *opt, const char *list, int *out, char *err, size_t errlen);

/* Add effective_io_concurrency value V to the grid, in order by number: 1
 * added, 0 there already, -E2BIG full, -ENOENT no such setting. */
int sweep_grid_insert_eic(struct sweep_grid *g, int v);

/* The index of setting NAME in the grid, or -1. */
int sweep_grid_find(const struct sweep_grid *g, const char *name);

/* Build the plan: RUNS rounds of every combination, shuffled per round. */
int sweep_plan_build(struct sweep_plan *p, const struct sweep_grid *g, int runs,
		     uint64_t order_seed, char *err, size_t errlen);
void sweep_plan_free(struct sweep_plan *p);

/*
 * The order in which the plan's trials and a companion's run (a replay
 * trial for each query trial): UNITS gets 2 * ntrials entries, each
 * k * ntrials + i for slot K (0 the workload, 1 its companion) of trial I.
 * Each round keeps its trials' order; its companions run in an order of
 * their own, shuffled from the plan's seed and the round, and the two are
 * merged at random, so a companion is not bound to run next to its own
 * trial (a trial right after another that read the same pages can find
 * them in a cache below the machine). 0 or -ENOMEM.
 */
int sweep_interleave(const struct sweep_plan *p, int *units);

/*
 * Add step NAME to ST, setting NAMES[i] to VALUES[i] for i < N (the names
 * joined to G, each value listed once). A step name is 1..63 characters of
 * letters, digits, space and _ . , = + - ( ); each name once. 0 or -EINVAL.
 */
int sweep_step_add(struct sweep_grid *g, struct sweep_steps *st, const char *name, int n,
		   const char *const *names, const char *const *values, char *err, size_t errlen);

/*
 * Build a plan of steps: G names every setting any step sets (each value
 * once in its list), ST the steps. 0 or -EINVAL.
 */
int sweep_plan_steps(struct sweep_plan *p, const struct sweep_grid *g,
		     const struct sweep_steps *st, int runs, uint64_t order_seed,
		     char *err, size_t errlen);

/* The value of setting I in combination COMBO; NULL when a step leaves
 * that setting as it was before the sweep. */
const char *sweep_value(const struct sweep_plan *p, int combo, int i);

/* The name of COMBO's step, or NULL in a grid plan. */
const char *sweep_step_name(const struct sweep_plan *p, int combo);

/* The plan as JSON for meta.json, and back (for --resume). */
json_t *sweep_plan_json(const struct sweep_plan *p);
int sweep_plan_from_json(struct sweep_plan *p, const json_t *j, char *err, size_t errlen);

/* Do two plans have the same grid, runs and order? */
bool sweep_plan_same(const struct sweep_plan *a, const struct sweep_plan *b);

#endif
