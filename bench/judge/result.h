/*
 * result: a sweep's result folder (meta.json + trials.jsonl) loaded and
 * summarized: groups (one per settings combination, in grid order), their
 * series (the groups that differ only in the swept setting), each series'
 * decision (bench/judge/decision.h) and, where the sweep ran replay trials,
 * each series' prediction (bench/judge/prediction.h). No text: the words
 * are bench/report/'s. result.c loads and groups, result_series.c makes the
 * series and their decisions, result_across.c sets a query's series side
 * by side. Times in ms, request sizes in KiB, CPU share a fraction of one
 * core; an absent figure is NAN. Reads records only; never changes them.
 */
#ifndef BENCH_JUDGE_RESULT_H
#define BENCH_JUDGE_RESULT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "io/stats.h"
#include "bench/record/record_path.h"

#define RESULT_MAX_SETTINGS 8
#define RESULT_MAX_QUERIES  12
#define RESULT_NONE         ((size_t)-1)
#define RESULT_LEVEL        0.95     /* the confidence of every interval */
#define RESULT_RUNS_FOR_95  6        /* fewest runs whose median interval reaches it */
#define RESULT_RESAMPLES    4000     /* bootstrap resamples of a speedup */
#define RESULT_STALL_X      3        /* a run this many times slower, its reads too */

struct prediction;

struct result_setting {
	const char  *name;          /* strings point into report.meta */
	const char **values;        /* in grid order */
	double      *num;           /* each value as a number, NAN if not one */
	size_t       nvalues;
};

/*
 * The trials of one settings combination, summarized (medians unless said).
 * The measured time (median_ms, its interval, min and max, the speedups) is
 * the heap phase's when every trial of the folder has one, else the whole
 * execution's (report.heap_phase says which); exec_* are always the whole.
 */
struct result_group {
	size_t query;                         /* index into report.queries */
	size_t value[RESULT_MAX_SETTINGS];    /* index into settings[i].values */
	size_t series;                        /* index into report.series */
	size_t runs;                          /* trials with a time */
	size_t no_bitmap;                     /* of those, plans without a Bitmap Heap Scan */
	const char *top_node;                 /* of the first such plan, or NULL */
	double *times;                        /* the measured time of each run */
	int    *rounds;                       /* the round of each of those runs */
	double median_ms, min_ms, max_ms;
	struct stats_interval ci;             /* of the median */
	double speedup_vs_0, speedup_vs_1;    /* median there / median here; NAN if absent */
	struct stats_interval ci_vs_0, ci_vs_1;
	double vs_fastest;                    /* median here / the series' fastest median */
	struct stats_interval ci_vs_fastest;  /* its bootstrap interval */
	int    indistinguishable;             /* within the margin of the fastest: the paired
					       * regret's upper bound (bench/judge/decision.h) */
	double regret, regret_lo, regret_hi;  /* paired within rounds, 95% one-sided bounds */
	int    out;                           /* the regret's lower bound exceeds the margin */
	double exec_ms, exec_min_ms, exec_max_ms;
	double index_ms, index_share;         /* index phase, and its share of the execution */
	double other_ms;                      /* the execution outside both phases */
	double io_read_ms, queue_depth, avg_req_kib, cpu_share, read_mib;  /* whole query */
	double await_ms;                      /* the device's time per read, whole query */
	double heap_io_read_ms;               /* read wait inside the heap phase (EXPLAIN) */
	double heap_queue_depth, heap_req_kib, heap_cpu_share, heap_read_mib; /* sampled */
	double heap_await_ms;                 /* the device's time per read in the heap phase */
	double heap_aio_in_flight;            /* I/Os in flight inside PostgreSQL (pg_aios, 18) */
	double heap_runqueue_s;               /* the backend waiting for a core in the heap phase (schedstat) */
	double heap_steal_pct;                /* the CPUs' time the host took (steal) in the heap phase */
	double index_read_mib, index_req_kib, index_cpu_share;
	size_t split_runs;                    /* runs whose samples were split by phase */
	double exact_blocks, lossy_blocks, rows;
	/* The slowest run when it took over RESULT_STALL_X times the median and
	 * the device's wait per read in it was over RESULT_STALL_X times the
	 * other runs' median: its time went at the device (NAN when no run
	 * did); stall_first: it was the sweep's first trial. */
	double stall_ms, stall_await_ms, others_await_ms;
	int    stall_first;
};

/*
 * Groups sharing the query and every setting but the swept one. A value is
 * indistinguishable from the fastest when the 95% bootstrap interval of its
 * median over the fastest's holds 1; the recommendation is the smallest
 * indistinguishable value. "separated" when every value has runs enough for
 * 95% intervals and at least one value is told apart from the fastest;
 * "all_overlap" when none is.
 */
struct result_series {
	size_t query;
	size_t first;                 /* a group of the series, for its other settings */
	size_t fastest, recommended;  /* group indices */
	size_t nvalues, nindist;      /* values, and those indistinguishable from the fastest */
	size_t min_runs;              /* fewest runs of any value */
	int    separated, all_overlap;
	int    recommends;            /* a recommendation stands: 2+ runs, not all_overlap */
	int    decided;               /* the answer is within and every smaller value out */
	double df;                    /* degrees of freedom of the paired bounds */
};

struct sweep_result {
	char    dir[4096];            /* the folder it was loaded from */
	json_t *meta, *trials;
	json_t *companions;           /* the records of a companion workload (the
					 replay trials), kept apart from the trials */
	int     torn;                 /* trials.jsonl ended in a torn line (ignored) */
	char    note[512];            /* what was ignored, when anything was */
	long    version_num;          /* meta.server.version_num, 0 if unknown */
	const char *queries[RESULT_MAX_QUERIES];
	size_t  nqueries;
	struct result_setting settings[RESULT_MAX_SETTINGS];
	size_t  nsettings;
	size_t  swept;                /* effective_io_concurrency, else the last setting */
	int     swept_is_eic;
	struct result_group  *groups;
	size_t  ngroups;
	struct result_series *series;
	size_t  nseries;
	size_t  skipped;              /* trials matching no grid combination or without a time */
	size_t  mismatched;           /* trials left out: their plan differed (plan_check) */
	size_t  priming;              /* priming trials (untimed for the answer), left out */
	int     heap_phase;           /* 1: times are the heap phase's, 0: the execution's */
	int     split;                /* 1: every trial's samples were split by phase */
	int     aio;                  /* 1: some trial sampled pg_aios in its heap phase (18) */
	int     per_query;            /* 1: one query of a run, whose answer is the run's */
	double  margin;               /* of the decision: plan.racing.margin, else 0.10 */
	/* Per series, what its replay trials predict (bench/judge/prediction.h):
	 * filled by the judge (judge_sweep, judge_run), NULL when loaded alone or
	 * without replay trials. */
	struct prediction *pred;
	unsigned char     *pred_ok;
};

/*
 * Load DIR's sweep records and summarize them into OUT (free with
 * result_free, also after a failure). A torn last line is tolerated and
 * described in OUT->note. Not a sweep, no grid, no usable trials: -EINVAL;
 * a missing file: -ENOENT; ERR names the value and what is allowed.
 */
int result_load(const char *dir, struct sweep_result *out, char *err, size_t errlen);
void result_free(struct sweep_result *r);

/* A pre-13 ("spindles") value as today's prefetch distance in pages:
 * round(sum_{n=1..old} old/n). -1 when OLD is outside 0..1000. */

/* The group of record REC by its query and settings (any record: a
 * companion's too); RESULT_NONE when none has them. */
size_t result_group_of(const struct sweep_result *r, const json_t *rec);

/* The value of setting S in group G. */
const char *result_value(const struct sweep_result *r, const struct result_group *g, size_t s);

/* 1 when every series is separated (see struct result_series). */
int result_separated(const struct sweep_result *r);

/* Trial T (a record of R's trials) is a priming trial, never counted. */
int result_trial_priming(const json_t *t);
/* The group trial T counts in, or RESULT_NONE (priming, no time, plan
 * differed, settings outside the grid). */
size_t result_trial_group(const struct sweep_result *r, const json_t *t);
/* Trial T's measured time in ms (heap phase or execution, as R measures). */
double result_trial_ms(const struct sweep_result *r, const json_t *t);

/* A query's series side by side (bench/report/result_across.c): each series'
 * fastest median against the query's fastest, and the series to recommend. */
#define RESULT_MAX_ACROSS 16
struct result_across {
	size_t n;                                   /* the query's series (0 or 1: nothing to compare) */
	size_t series[RESULT_MAX_ACROSS];           /* indices into report.series */
	double ratio[RESULT_MAX_ACROSS];            /* its fastest median / the query's fastest */
	struct stats_interval ci[RESULT_MAX_ACROSS];
	int    indist[RESULT_MAX_ACROSS];           /* that interval holds 1 */
	size_t best;                                /* index into series[]: the fastest */
	size_t pick;                                /* index recommended, RESULT_NONE: none (1 run) */
	int    kept_own;                            /* the pick is the server's own value, not the fastest */
	size_t setting;                             /* the setting telling them apart, or RESULT_NONE */
	size_t min_runs;
};
int result_across(const struct sweep_result *r, size_t query, struct result_across *a);

/* Fill ERR from FMT; returns -EINVAL. */
int result_bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The server's own value of setting NAME as the records hold it, or NULL. */
const char *result_server_setting(const struct sweep_result *r, const char *name);
/* NAME as group G ran with it: its grid value when the sweep varied it,
 * else the server's own (NULL when not recorded). */
const char *result_group_setting(const struct sweep_result *r, const struct result_group *g, const char *name);
/* Whether group A's swept value comes before B's (by number, else grid order). */
int result_before(const struct sweep_result *r, const struct result_group *a,
		  const struct result_group *b);
/* The group in G's series whose swept value is VALUE, or RESULT_NONE. */
size_t result_find(const struct sweep_result *r, const struct result_group *g, const char *value);
/* The groups of series S in value order (by number) into IDX (room for
 * ngroups); returns how many. */
size_t result_series_groups(const struct sweep_result *r, size_t s, size_t *idx);
/* What sets series S apart besides its query ("io_method=sync") into BUF;
 * "" when nothing does. */
const char *result_series_label(const struct sweep_result *r, size_t s, char *buf, size_t len);
/* For result_load: the series of R's groups, each group's speedups over 0
 * and 1, and each series' decision (report_series.c). */
int result_make_series(struct sweep_result *r);

#endif
