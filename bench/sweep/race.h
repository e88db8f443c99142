/*
 * race: racing between the rounds of a sweep, whatever its workload. After
 * each round from the third the sweep's records (and those of the sweeps
 * named as peers: the other queries of the same run) are decided
 * (bench/judge/regret.h); values that can no longer be the answer leave
 * the plan, each with the round after which it left and why, written to
 * meta.json (plan.racing). Given a ladder of values (--refine), the
 * values next to the leading one on it join the grid after a round, each
 * recorded with the round it joined after, and race from the next round
 * on. The sweep stops when the decision is made, or at
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
 * flagged run. With a refining ladder (runner_cfg.refine) and JOIN not
 * NULL, from the third round: the leading value's neighbours on it that
 * the grid lacks into JOIN (room for SWEEP_MAX_VALUES), *NJOIN of them,
 * the leader in *LEADER. A value that joined is not dropped, and the sweep not decided,
 * before it has run DECISION_FIRST_RACE rounds. 0, or -errno with ERR (a
 * decision that cannot be made yet is not an error: *DECIDED stays 0).
 */
int race_after_round(struct runner *r, int *decided, int *flagged, int *join, size_t *njoin, int *leader,
		     char *err, size_t errlen);

/*
 * JOIN's N values (next to LEADER) join the race after this round: added
 * to the grid, their trials planned from the next round on, listed with
 * the round in meta.json (plan.racing.joined) and said on stderr. 0, or
 * -errno with ERR.
 */
int race_join(struct runner *r, const int *join, size_t n, int leader, char *err, size_t errlen);

/* On --resume of a raced sweep: racing on again, its peers as recorded,
 * the values that left taken out of the plan. 1 when it was raced. */
int race_resume(struct runner *r);

/* Take the plan's trials of values that left the race out (after --resume). */
void race_apply_drops(struct runner *r);

/* The plan rebuilt for RUNS rounds of the grid as it is now, the values
 * that left or joined the race taken into account, and written to
 * meta.json (grid, runs, trial keys). 0, or -errno with ERR. */
int race_replan(struct runner *r, int runs, char *err, size_t errlen);

/* Note why the sweep stopped ("decided after 4 rounds", "--max-runs 10"). */
void race_stopped(struct runner *r, const char *why);

#endif
