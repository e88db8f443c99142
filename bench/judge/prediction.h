/*
 * prediction: what a sweep's replay trials predict for its query trials,
 * checked before it is used, and the observed changes split into parts that
 * add up. From records only (a report with companions, bench/report/report.h).
 *
 * Per value (group of the query's first series): the query's heap phase
 * (median of its runs) and the replay's time (median of the replay trials
 * at the same value and rounds), the prediction error ln(replay / query)
 * with the bootstrap interval of that ratio of medians; beside them the
 * device requests of the query's heap phase (count, mean size, queue
 * depth, medians) and of the replay. Where the counts differ by more than
 * PREDICTION_MAX_REQ_DIFF the replay did not issue the query's reads and
 * is not used to explain that value.
 *
 * The split: a heap phase is its backend's time on a CPU, waiting on a run
 * queue for one (both from schedstat), and the rest, off the CPU and not
 * runnable (waiting for reads). Taken from the median run (the two middle
 * runs averaged when there is an even number), the parts add up to the
 * median, so a change against 0 is exactly the sum of the parts' changes.
 * Times in ms; an absent figure is NAN.
 */
#ifndef BENCH_REPORT_PREDICTION_H
#define BENCH_REPORT_PREDICTION_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/judge/result.h"

#define PREDICTION_MAX_REQ_DIFF 0.10   /* requests differing by more: the replay is not used */
#define PREDICTION_MAX_VALUES   64

/* A heap phase in three parts that sum to total_ms. */
struct prediction_split {
	double total_ms, cpu_ms, runqueue_ms, wait_ms;
	double io_read_ms;             /* EXPLAIN's I/O read time, for comparison (not a part) */
	bool   from_schedstat;         /* false: CPU from 10 ms ticks (older records) */
};

/* The error in parts. A phase's time is its device requests over the
 * device's pace while busy (reads a second) times the share of the phase it
 * was busy, so ln(replay / query) is the ln ratio of the requests, less that
 * of the paces, less that of the busy shares, and a rest: the phase's
 * timing outside the device's figures and the medians taken apart. Each
 * NAN when a figure is missing (records before util_pct and elapsed_s). */
struct prediction_error_parts {
	double requests, pace, busy, rest;
};

struct prediction_value {
	size_t group;                  /* index into report.groups */
	const char *value;             /* the swept value */
	size_t query_runs, replay_runs;
	size_t flagged_out;            /* query runs the disturbance rule flagged, left out of the medians */
	double heap_ms, replay_ms;     /* medians */
	double replay_wait_ms;         /* the replay's time in reads, median */
	double error, error_lo, error_hi, coverage;   /* ln(replay / query) and its interval */
	double trial_reqs, trial_req_kib, trial_qd;   /* the query's heap phase, medians */
	double replay_reqs, replay_req_kib, replay_qd;
	double req_diff;               /* replay requests / query requests - 1 */
	bool   checked;                /* both request counts known */
	bool   usable;                 /* checked and within PREDICTION_MAX_REQ_DIFF */
	struct prediction_split split; /* of the median run */
	/* The device's side (see prediction_error_parts): reads a second while
	 * it was busy and the share of the phase it was busy, medians; the
	 * query's pace over its own trials, slowest and fastest. */
	double trial_pace, replay_pace, trial_pace_lo, trial_pace_hi;
	double trial_busy, replay_busy;
	struct prediction_error_parts parts;
	/* On the CPU, and of that in the kernel, medians: the backend in the
	 * heap phase and the replay. */
	double trial_cpu_ms, trial_sys_ms, replay_cpu_ms, replay_sys_ms;
	/* The share of its time each spent on the CPU that took the device's
	 * interrupts (io/irqcpu.h), medians; NAN where not recorded. */
	double trial_on_irq, replay_on_irq;
};

/* Shares of time on the interrupts' CPU this far apart are "different places". */
#define PLACEMENT_APART 0.10

struct prediction {
	size_t nvalues;
	struct prediction_value v[PREDICTION_MAX_VALUES];
	size_t zero;                   /* index of value 0 in v, or RESULT_NONE */
	size_t replays;                /* replay trials found */
	const char *model;             /* "13-17" or "18" as the replays recorded, or NULL */
};

/* The prediction for series S of R. 0, or -ENOENT when R holds no replay trials. */
int prediction_build(const struct sweep_result *r, size_t series, struct prediction *out);

/* The change of value I against 0, split: D->total_ms = cpu + runqueue + wait. */
void prediction_change(const struct prediction *p, size_t i, struct prediction_split *d);

#endif
