/*
 * figures: what the records of each workload hold, for the reports that
 * read them: per workload (meta.json's plan.workload), its figures as
 * dotted paths in a record with a label, a unit and which way is better,
 * the first being the one a report leads with; and which server log lines
 * a record keeps count as warnings. The workloads that write the records
 * point at these same tables, so the writer and the reader cannot drift.
 */
#ifndef BENCH_RECORD_FIGURES_H
#define BENCH_RECORD_FIGURES_H

struct record_figure {
	const char *path;            /* "explain.bitmap.heap_phase.total_ms" */
	const char *label;           /* "heap phase" */
	const char *unit;            /* "ms", "tps" */
	int         lower_is_better;
};

/* What the bitmap-scan and the TPC-B workloads measure, in a line (the
 * confsweep report's title), and their figures, NULL-path terminated. */
#define RECORD_SUMMARY_BITMAP "EXPLAIN ANALYZE of a bitmap heap scan, cold, the device and CPUs sampled"
#define RECORD_SUMMARY_TPCB   "the TPC-B driver: tps and latency per step, server log and statistics kept"
#define RECORD_SUMMARY_REPLAY "the query's heap reads replayed on the relation's files as PostgreSQL issues them, cold, with the backend's work between them"
extern const struct record_figure record_figures_bitmap[];
extern const struct record_figure record_figures_replay[];
extern const struct record_figure record_figures_tpcb[];

/* The figures of the workload called NAME, and its summary in *SUMMARY
 * (when given); NULL for a workload eicbench does not know. */
const struct record_figure *record_figures(const char *name, const char **summary);

/* 1 when a server log line is a warning a report counts (WARNING, ERROR,
 * FATAL, PANIC, or checkpoints too frequent), else 0. */
int record_log_is_warning(const char *line);

#endif
