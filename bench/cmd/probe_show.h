/*
 * probe_show: what `eicbench probe` shows of a probe (bench/probe/), and
 * `eicbench run` of its probe steps: a table row per point as it finishes
 * (on stdout, or stderr with --json, which prints each point's record as a
 * JSON line on stdout), each engine's peak and knee after the points, the
 * cache check's figures or why it did not run; and the exit status.
 */
#ifndef BENCH_CMD_PROBE_SHOW_H
#define BENCH_CMD_PROBE_SHOW_H

#include <stdbool.h>
#include <stdio.h>

#include "bench/probe/probe_points.h"

struct probe_show {
	FILE *table;       /* the table's stream */
	bool  json;        /* points' records as JSON lines on stdout */
};

/* HOOKS that show PLAN's points through SH (PLAN->json chooses the streams). */
void probe_show_hooks(struct probe_show *sh, const struct probe_plan *plan, struct probe_hooks *hooks);

/*
 * After a probe that returned RC: on success the knees (points) or the
 * cache check's record (figures, or why it was skipped; --json: the record
 * on stdout first); else "eicbench probe: ERR". The exit status: 0, 1 a
 * run failed, 2 bad input (a check that could not run here).
 */
int probe_show_end(int rc, const struct probe_plan *plan, const struct probe_out *out,
		   const char *err);

#endif
