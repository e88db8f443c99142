/*
 * stability: would a second run give the same answer? The rounds a run
 * made are resampled with replacement (a round whole: every value's time
 * of that round in every query together, so the pairing within rounds is
 * kept), and the decision is made again on each resample. The share of
 * resamples whose answer is the run's, or one that costs, on the run's
 * full figures, at most the margin more than the answer in every query, is
 * the answer's stability (two values that cost the same at worst but in
 * opposite queries, the dense scan's best against the scattered one's, do
 * not count as one). At or above STABILITY_STABLE the answer is called
 * stable; below it, a close call between the values the resamples answer.
 * Seeded: the same records give the same figure.
 */
#ifndef BENCH_JUDGE_STABILITY_H
#define BENCH_JUDGE_STABILITY_H

#include <stddef.h>

#include "bench/judge/decision.h"

#define STABILITY_RESAMPLES 200
#define STABILITY_SEED      20261207
#define STABILITY_STABLE    0.80

struct stability {
	size_t resamples;                       /* made; 0 when fewer than 2 rounds */
	size_t agree;                           /* of them, the same answer or one within the margin */
	double share;                           /* agree / resamples, NAN when none */
	size_t count[DECISION_MAX_VALUES];      /* resamples answering each value */
	size_t none;                            /* resamples with no answer */
	int    stable;                          /* share >= STABILITY_STABLE */
};

/*
 * The stability of D (decision_make on IN) into OUT, from RESAMPLES
 * resamples of IN's rounds drawn from SEED. 0, -EINVAL (D has no answer),
 * -ENOMEM.
 */
int stability_of(const struct decision_input *in, const struct decision *d, size_t resamples,
		 unsigned long long seed, struct stability *out);

/* Whether value U counts as the answer A of D: U is A, or in every query
 * U's regret on D's figures is at most A's times 1 + the margin. */
int stability_agrees(const struct decision_input *in, const struct decision *d, size_t u);

#endif
