/*
 * stepfile: a sweep file (INI, read with libinih) into a plan of steps. The
 * section [sweep] holds the sweep's own options (mode = cumulative or
 * independent, the workload and its options); every other section is a step,
 * in file order, its keys the settings it sets. Cumulative steps carry the
 * settings of the steps before them (as the seed posts tuned one setting
 * after another); independent steps set only their own. Three keys are the
 * TPC-B load rather than settings, each allowed several times, in [sweep]
 * (every step's) or in a step: script = FILE[@W] (a pgbench script file,
 * relative to the sweep file's folder), builtin = NAME[@W] and define =
 * NAME=VALUE. A step that names scripts runs those instead of [sweep]'s
 * (cumulative steps keep the scripts of the step before them); its defines
 * add to and override the ones before it. Errors name the file and the
 * line. Does not talk to a server: the server checks the names and values
 * before the first step.
 */
#ifndef BENCH_SWEEP_STEPFILE_H
#define BENCH_SWEEP_STEPFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bench/sweep/sweep.h"

#define STEPFILE_MAX_OPTIONS 32
#define STEPFILE_MAX_SCRIPTS 16
#define STEPFILE_MAX_DEFINES 32
#define STEPFILE_ITEM_MAX    256

/* The TPC-B load a step runs: its scripts (files and builtins, in order)
 * and defines, each with the line that gave it. */
struct stepfile_load {
	int  nscripts, ndefines;
	struct { char spec[STEPFILE_ITEM_MAX]; bool builtin; int line; } script[STEPFILE_MAX_SCRIPTS];
	struct { char def[STEPFILE_ITEM_MAX]; int line; } define[STEPFILE_MAX_DEFINES];
};

struct stepfile {
	char path[PATH_MAX];
	bool cumulative;
	int  noptions;                        /* [sweep]'s other keys, as given */
	struct { char key[64], value[128]; int line; } option[STEPFILE_MAX_OPTIONS];
	struct sweep_grid  grid;              /* every setting any step sets */
	struct sweep_steps steps;
	int  step_line[SWEEP_MAX_STEPS];      /* where each step's section starts */
	int  setting_line[SWEEP_MAX_STEPS][SWEEP_MAX_SETTINGS];  /* where it set each */
	struct stepfile_load defaults;        /* [sweep]'s */
	struct stepfile_load load[SWEEP_MAX_STEPS];   /* each step's, in force */
	bool own_load;                        /* a step names a load of its own */
};

/* Read PATH into SF. 0, or -EINVAL with ERR naming the file, the line and
 * what is wrong (an empty file, no step, a key twice, a bad name). */
int stepfile_load(const char *path, struct stepfile *sf, char *err, size_t errlen);

/* The same from TEXT (NAME says where it came from, for messages). */
int stepfile_parse(const char *text, const char *name, struct stepfile *sf,
		   char *err, size_t errlen);

/* [sweep]'s value of KEY, or NULL; its line in *LINE when given. */
const char *stepfile_option(const struct stepfile *sf, const char *key, int *line);

/* The line of the file where step K sets grid setting I (0 if it does not). */
int stepfile_line(const struct stepfile *sf, int k, int i);

#endif
