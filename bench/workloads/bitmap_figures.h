/*
 * bitmap_figures: what one bitmap-scan trial measured, as record figures:
 * the device (and its md/dm members), the CPUs and the backend over the
 * whole query and per phase (the phases' times from EXPLAIN, placed so the
 * heap phase ends when the query did), on 18 the I/Os in flight from
 * pg_aios and the I/O workers' CPU, pg_stat_io's difference, and the time
 * line of the samples. Nothing here talks to a server.
 */
#ifndef BENCH_WORKLOADS_BITMAP_FIGURES_H
#define BENCH_WORKLOADS_BITMAP_FIGURES_H

#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "bench/observe/explain.h"
#include "bench/observe/pgaios.h"
#include "bench/observe/pgprocs.h"
#include "bench/observe/pgstats.h"
#include "io/sampler.h"

struct runner;

/* Everything one trial gathered around its EXPLAIN ANALYZE. */
struct bitmap_measure {
	struct explain_figures fig;
	json_t  *plan;                 /* EXPLAIN's own output */
	json_t  *in_force;
	struct sampler sm;
	uint64_t sent_ns, done_ns;
	pid_t    pid;                  /* the backend, 0 when not on this machine */
	struct pgprocs procs;          /* I/O and parallel workers */
	int      procs_ret, procs_first, procs_added;
	char     procs_why[256];
	struct pgstats_io io0, io1;
	int      io_ret;
	char     io_why[256];
	struct pgaios aios;
	int      aios_ret;
	char     aios_why[256];
};

void bitmap_measure_free(struct bitmap_measure *m);

/* Add the figures of M to REC (explain, disk, members, cpu, backend,
 * phases, samples, plan, pg_stat_io, pg_aios, workers). */
void bitmap_figures_add(const struct runner *r, const struct bitmap_measure *m, json_t *rec);

#endif
