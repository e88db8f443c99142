/*
 * progress: one line of progress for a long step. On a terminal, a bar with
 * rate and ETA redrawn in place at most 5 times a second; otherwise plain
 * lines, one per 10% or per 30 s. Written to stderr, so results on stdout stay
 * clean.
 */
#ifndef BENCH_CLI_PROGRESS_H
#define BENCH_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct progress {
	FILE  *out;
	bool   tty;
	char   step[32];
	double start_ms, last_ms, last_done;
	int    last_decile;
};

void progress_init(struct progress *p, FILE *out);

/* DONE of TOTAL in UNIT ("rows", "bytes", "%", "trials") for STEP. */
void progress_update(struct progress *p, const char *step, double done,
		     double total, const char *unit);

/* End the current line (the bar stays as the step's final state). */
void progress_end(struct progress *p);

/* "1h02m", "3m05s", "12s" */
void progress_format_eta(double seconds, char *buf, size_t len);

#endif
