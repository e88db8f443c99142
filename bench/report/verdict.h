/*
 * verdict: the words of an "eicbench run" folder, from the judge's
 * judgement (bench/judge/judge.h): per query the sweep's heap-phase medians
 * beside its replay trials (bench/report/prediction_doc.h) and the observed
 * changes split into waiting for reads, CPU and waiting for a core; the
 * recommendation for the storage, the device's own curves, the check for
 * caches below, and the lines that apply the value. Rendered through
 * bench/report/document.h as text, report.md and a self-contained
 * report.html.
 */
#ifndef BENCH_REPORT_VERDICT_H
#define BENCH_REPORT_VERDICT_H

#include <stdio.h>

#include "bench/report/report.h"

#define VERDICT_MD   "report.md"
#define VERDICT_HTML "report.html"

/* "eicbench report RUN": judge the folder once, then plots (unless !PLOT),
 * report.md and report.html written again, FORMAT (text, md, html, json)
 * on OUT. */
int verdict_render(const char *dir, enum report_format format, int plot, FILE *out,
		   char *note, size_t notelen, char *err, size_t errlen);

#endif
