/*
 * report: the words of a sweep's result folder (loaded by the judge,
 * bench/judge/result.h): the terminal table, summary.csv, report.md,
 * report.html, JSON, the plain-words explanation with its recommendation,
 * and gnuplot plots. report_explain.c words it, report_render.c renders
 * tables and files, report_plot.c plots and renders a folder again. Never
 * decides: every figure and decision comes from the judge.
 */
#ifndef BENCH_REPORT_REPORT_H
#define BENCH_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "bench/judge/result.h"

#define REPORT_CPU_BOUND    0.85     /* backend CPU share meaning one busy core */
#define REPORT_LOW_QUEUE    1.5      /* average queue depth barely concurrent */
#define REPORT_HIDDEN_X     1.5      /* a heap phase this much faster with 2x the queue: latency hidden */
#define REPORT_ABOUT_X      1.5      /* a read no more than this much slower takes "about as long" */

#define REPORT_SUMMARY_CSV  "summary.csv"
#define REPORT_MD           "report.md"
#define REPORT_HTML_FILE    "report.html"
#define REPORT_PLOT_DAT     "plot.dat"
#define REPORT_PLOT_SCRIPT  "plot-sweep.gp"

enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_JSON, REPORT_CSV, REPORT_HTML };

/* The explanation and recommendation: a new JSON array of paragraphs. */
json_t *report_explain(const struct sweep_result *r);

/* One object per group: the settings, runs and figures (absent ones null). */
json_t *report_rows(const struct sweep_result *r);

/* R rendered as FORMAT (text, Markdown or JSON; CSV is only the file
 * summary.csv) to OUT. 0, -EINVAL for CSV, -ENOMEM. */
int report_render(const struct sweep_result *r, enum report_format format, FILE *out);

/* DIR/summary.csv, DIR/report.md and DIR/report.html (its plot, DIR/sweep.svg,
 * inline when it exists), atomically. 0 or -errno with ERR. */
int report_write_files(const struct sweep_result *r, const char *dir, char *err, size_t errlen);

struct doc;
/* The sweep as a document (bench/report/document.h), its plot read from DIR. */
void report_document(const struct sweep_result *r, const char *dir, struct doc *d);

/*
 * DIR/plot.dat, then gnuplot (argv, no shell, 60 s at most) with
 * plot-sweep.gp from $EICBENCH_SCRIPTS or the scripts folder next to the
 * program to make DIR/sweep.svg and DIR/sweep.png. 0 with MSG naming the
 * plots; 1 when skipped (no gnuplot or no script) with MSG saying why;
 * -errno with MSG the error (gnuplot's messages are in DIR/plot.log).
 */
int report_plot(const struct sweep_result *r, const char *dir, char *msg, size_t msglen);

/*
 * Render DIR again: load it, write summary.csv and report.md, plot unless
 * !PLOT, and write FORMAT to OUT (CSV: the summary.csv just written). NOTE
 * gets what happened to the plots. 0 or -errno with ERR.
 */
int report_folder(const char *dir, enum report_format format, int plot, FILE *out,
		  char *note, size_t notelen, char *err, size_t errlen);

/*
 * The end of a sweep: load DIR, write summary.csv, report.md and the plots,
 * and render the table and explanation as text to OUT (a skipped or failed
 * plot is a note there, not an error). 0 or -errno with ERR.
 */
int report_sweep_finish(const char *dir, FILE *out, char *err, size_t errlen);

/* "850 ms", "4.29 s", "16.3 s" (n/a when not finite) into BUF. */
const char *report_fmt_ms(char *buf, size_t len, double ms);

#endif
