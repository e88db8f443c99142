/*
 * race: racing between the rounds of a sweep, whatever its workload. After
 * each round from the third the sweep's records (and those of the sweeps
 * named as peers: the other queries of the same run) are decided
 * (bench/report/regret.h); values that can no longer be the answer leave
 * the plan, each with the round after which it left and why, written to
 * meta.json (plan.racing). The sweep stops when the decision is made, or at
 * --max-runs / --budget; rounds with flagged runs add one round each to
 * --max-runs while the budget allows. Only one swept setting:
 * effective_io_concurrency.
 */
#ifndef BENCH_SWEEP_RACE_H
#define BENCH_SWEEP_RACE_H

#include <stddef.h>

struct runner;

/* The plan's racing record in meta.json, created when missing. */
int race_init(struct runner *r, char *err, size_t errlen);

/*
 * After a round: decide, drop what cannot win, and say so on stderr.
 * *DECIDED = 1 when the decision is made; *FLAGGED = the rounds holding a
 * flagged run. 0, or -errno with ERR (a decision that cannot be made yet is
 * not an error: *DECIDED stays 0).
 */
int race_after_round(struct runner *r, int *decided, int *flagged, char *err, size_t errlen);

/* On --resume of a raced sweep: racing on again, its peers as recorded,
 * the values that left taken out of the plan. 1 when it was raced. */
int race_resume(struct runner *r);

/* Take the plan's trials of values that left the race out (after --resume). */
void race_apply_drops(struct runner *r);

/* Note why the sweep stopped ("decided after 4 rounds", "--max-runs 10"). */
void race_stopped(struct runner *r, const char *why);

#endif
