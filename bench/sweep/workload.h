/*
 * workload: what a trial of the runner (bench/sweep/runner.h) measures, behind one
 * table of operations in the manner of fio's engines: a check before the
 * first trial, one trial into a record's figures, and what a record says
 * that earlier ones did not (a plan that changed). The runner does the
 * rest: the plan, the settings, the cold cycle, the records, resume. The
 * workloads themselves live in bench/workloads/ and are listed in one
 * table there (bench/workloads/workloads.h); a new one is a file.
 */
#ifndef BENCH_SWEEP_WORKLOAD_H
#define BENCH_SWEEP_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "bench/record/figures.h"
#include "bench/sweep/sweep.h"

struct runner;

struct workload {
	const char *name;            /* recorded in meta.json as plan.workload */
	const char *summary;
	/* Before the first trial, with every value checked: can the plan run?
	 * -EINVAL for bad input (exit 2), other -errno for a failure. */
	int  (*check)(struct runner *r, char *err, size_t errlen);
	/* Facts of the plan for meta.json (the query, its text, ...). */
	json_t *(*plan_json)(const struct runner *r);
	/* On --resume: take the workload's options from the recorded PLAN; when
	 * options were given too (r->cfg.plan_given), they must agree.
	 * -EINVAL with ERR naming the difference. */
	int  (*resume)(struct runner *r, const json_t *plan, char *err, size_t errlen);
	/* Trial T: the server is ready, its settings in force; add the figures
	 * to REC. -EINTR when stopped, -EPROTO when the trial measured
	 * something else than planned (an error, never a figure). */
	int  (*trial)(struct runner *r, const struct sweep_trial *t, json_t *rec,
		      char *err, size_t errlen);
	/* Compare REC with the records before it (optional): 1 when it differs
	 * in what must not (the record then says so), else 0. */
	int  (*check_record)(struct runner *r, json_t *rec);
	/* Say one finished trial on the terminal (optional). */
	void (*say)(const struct runner *r, const json_t *rec, char *buf, size_t len);
	const struct record_figure *figures;     /* bench/record/figures.h */
	/* Warms the caches itself before measuring (a warm-up run), so a
	 * restart between warm steps does not spoil what it measures. */
	bool warms_up;
	/* Makes its own tables when missing (the suite's database is made for
	 * it); else the data set of "eicbench load" must be there. */
	bool makes_tables;
	/* Its relations as a resume must find them: a query file returning
	 * name, file node, size (or ''). */
	const char *relations_sql;
};


#endif
