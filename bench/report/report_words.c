/*
 * report_words: the words the explanations share for values, sets of
 * values, ranges and times (see report_words.h).
 */
#include "bench/report/report_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *report_fmt_ms(char *buf, size_t len, double ms)
{
	if (!isfinite(ms))
		snprintf(buf, len, "n/a");
	else if (ms < 1000)
		snprintf(buf, len, "%.0f ms", ms);
	else
		snprintf(buf, len, ms < 10000 ? "%.2f s" : "%.1f s", ms / 1000);
	return buf;
}

/* "14-18 KiB" from LO and HI formatted by FMT; one figure when they agree. */
const char *report_explain_range(char *buf, size_t len, double lo, double hi,
			     const char *(*fmt)(char *, size_t, double))
{
	char a[32], b[32];
	const char *ua, *ub;

	fmt(a, sizeof(a), lo);
	fmt(b, sizeof(b), hi);
	ua = strrchr(a, ' ');
	ub = strrchr(b, ' ');
	if (!strcmp(a, b))
		snprintf(buf, len, "%s", a);
	else if (ua && ub && !strcmp(ua, ub))
		snprintf(buf, len, "%.*s-%s", (int)(ua - a), a, b);
	else
		snprintf(buf, len, "%s-%s", a, b);
	return buf;
}

const char *report_explain_value(const struct sweep_result *r, size_t g)
{
	return result_value(r, &r->groups[g], r->swept);
}

/* "4 to 1000", "4, 16 and 64" or "4": a run of neighbours is a range. */
void report_explain_set(FILE *f, const struct sweep_result *r, const size_t *idx, size_t n,
		    const bool *in)
{
	size_t k = 0, m = 0, first = RESULT_NONE;

	for (size_t i = 0; i < n; i++)
		m += in[i];
	for (size_t i = 0; i <= n; i++) {
		if (i < n && in[i]) {
			if (first == RESULT_NONE)
				first = i;
			continue;
		}
		if (first == RESULT_NONE)
			continue;
		size_t len = i - first;
		/* "and" before the last item: a range, or the run's own first value */
		bool last = len > 3 ? k + len >= m : k + 1 == m;

		fprintf(f, "%s%s", k == 0 ? "" : last ? " and " : ", ", report_explain_value(r, idx[first]));
		if (len > 3)
			fprintf(f, " to %s", report_explain_value(r, idx[i - 1]));
		else
			for (size_t j = first + 1; j < i; j++)
				fprintf(f, "%s%s", k + (j - first) + 1 == m ? " and " : ", ", report_explain_value(r, idx[j]));
		k += i - first;
		first = RESULT_NONE;
	}
}
