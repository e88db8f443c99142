/*
 * progress: bar or plain lines for long steps; see progress.h.
 */
#include "bench/cli/progress.h"

#include "io/clock.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

void progress_init(struct progress *p, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->tty = isatty(fileno(out));
}

void progress_format_eta(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	if (s < 0 || s > 1e7)
		snprintf(buf, len, "?");
	else if (t >= 3600)
		snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
}

static void rate_text(double rate, const char *unit, char *buf, size_t len)
{
	if (!strcmp(unit, "bytes"))
		snprintf(buf, len, "%.1f MiB/s", rate / 1048576);
	else if (!strcmp(unit, "rows"))
		snprintf(buf, len, "%.2fM rows/s", rate / 1e6);
	else
		snprintf(buf, len, "%.2f %s/s", rate, unit);
}

void progress_update(struct progress *p, const char *step, double done,
		     double total, const char *unit)
{
	double t = clock_now_ms(), frac = total > 0 ? done / total : 0, el, rate;
	char eta[16], rt[32], bar[31];
	int decile = (int)(frac * 10);

	if (strcmp(step, p->step)) {
		progress_end(p);
		snprintf(p->step, sizeof(p->step), "%s", step);
		p->start_ms = t;
		p->last_ms = 0;
		p->last_decile = -1;
	}
	if (frac > 1)
		frac = 1;
	if (!*unit) {		/* a step with no measure: say it began, once */
		if (p->last_ms == 0)
			fprintf(p->out, "%s ...\n", step);
		p->last_ms = t;
		p->last_decile = -2;
		return;
	}
	el = (t - p->start_ms) / 1e3;
	rate = el > 0 ? done / el : 0;
	progress_format_eta(rate > 0 ? (total - done) / rate : -1, eta, sizeof(eta));
	rate_text(rate, unit, rt, sizeof(rt));
	if (p->tty) {
		if (t - p->last_ms < 200 && done < total)
			return;
		memset(bar, ' ', 30);
		memset(bar, '#', (size_t)(frac * 30));
		bar[30] = '\0';
		fprintf(p->out, "\r%-8s [%s] %5.1f%%  %s  ETA %s   ", step, bar, frac * 100, rt, eta);
	} else {
		if (decile == p->last_decile && t - p->last_ms < 30e3)
			return;
		fprintf(p->out, "%s: %.0f%% (%s, ETA %s)\n", step, frac * 100, rt, eta);
		p->last_decile = decile;
	}
	p->last_ms = t;
	fflush(p->out);
}

void progress_end(struct progress *p)
{
	if (p->tty && p->step[0] && p->last_ms > 0 && p->last_decile != -2)
		fputc('\n', p->out);
	p->step[0] = '\0';
	p->last_ms = 0;
}
