/*
 * verdict_box: the verdict box, the summary table, the racing history and
 * the JSON of schema 1; see verdict_box.h. Every sentence is made from the
 * decision's figures (bench/judge/decision.h).
 */
#include "bench/report/verdict_box.h"
#include "bench/report/verdict_classes.h"
#include "bench/report/verdict_time.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/semantics.h"

#define NONE ((size_t)-1)
#define EIC "effective_io_concurrency"

static const struct sweep_result *first_rep(const struct run_result *v)
{
	for (int i = 0; i < v->nq; i++)
		if (v->q[i].have_rep)
			return &v->q[i].rep;
	return NULL;
}

static const char *measured_tablespace(const struct run_result *v)
{
	const char *ts = record_str_at(json_object_get(first_rep(v)->meta, "plan"), "tablespace", "name");

	return ts && *ts ? ts : "pg_default";
}

/* ---- words ---- */

/* "blog 1.04x, sparse 1.07x" of FIELD (0 est, 1 hi) for value V. */
static void per_query(FILE *f, const struct regret *g, size_t v, int field, const char *tail)
{
	char x[32];

	for (size_t q = 0; q < g->in.nqueries; q++) {
		const struct decision_cell *c = &g->d.cell[q][v];

		fprintf(f, "%s%s %s%s", q ? ", " : "", g->names[q],
			regret_fmt_x(x, sizeof(x), field ? c->hi : c->est), tail);
	}
}

/* The query where V's upper bound is largest. */
static size_t loosest(const struct regret *g, size_t v)
{
	size_t best = 0;

	for (size_t q = 1; q < g->in.nqueries; q++)
		if (g->d.cell[q][v].hi > g->d.cell[best][v].hi)
			best = q;
	return best;
}

/* Why each query's sweep stopped, into F: " (the sweeps stopped: R)" when
 * they say one reason, else " (the sweeps stopped: Q1: R1; Q2: R2)": sweeps
 * run apart (--peer), or a run's from before its queries took their rounds
 * in turn, where one that raced first decided on what it had seen then and
 * its reason can read "decided" under an open answer. */
static void say_stopped(FILE *f, const struct run_result *v)
{
	const char *why[RESULT_MAX_QUERIES] = { 0 }, *one = NULL;
	int n = 0, same = 1;

	for (int i = 0; i < v->nq && i < RESULT_MAX_QUERIES; i++) {
		why[i] = v->q[i].have_rep ?
			record_str_at(json_object_get(json_object_get(v->q[i].rep.meta, "plan"), "racing"), "stopped", NULL) : NULL;
		if (!why[i])
			continue;
		if (one && strcmp(one, why[i]))
			same = 0;
		one = one ? one : why[i];
		n++;
	}
	if (!n)
		return;
	if (same) {
		fprintf(f, " (the sweeps stopped: %s)", one);
		return;
	}
	fprintf(f, " (the sweeps stopped:");
	for (int i = 0, k = 0; i < v->nq && i < RESULT_MAX_QUERIES; i++)
		if (why[i])
			fprintf(f, "%s %s: %s", k++ ? ";" : "", v->q[i].name, why[i]);
	fprintf(f, ")");
}

/* Why the answer is not decided, into F. */
static void why_open(FILE *f, const struct run_result *v, const struct regret *g)
{
	const struct decision *d = &g->d;
	size_t a = d->answer, q = loosest(g, a), n = 0;
	char x[32], y[32];

	if (d->regime == DECISION_OPEN && !isfinite(d->cell[q][a].hi))
		fprintf(f, "in %s, %s and another value share no round of kept runs (runs flagged as disturbed are left out), so it has no upper bound yet",
			g->names[q], g->values[a]);
	else if (d->regime == DECISION_OPEN)
		fprintf(f, "%s's upper bound in %s is %s, above the %s the margin allows", g->values[a],
			g->names[q], regret_fmt_x(x, sizeof(x), d->cell[q][a].hi),
			regret_fmt_x(y, sizeof(y), 1 + g->in.margin));
	else if (d->regime == DECISION_WITHIN) {
		for (size_t u = 0; u < a; u++)
			if (d->complete[u] && !d->bad[u] && !g->dropped[u])
				fprintf(f, "%s%s", n++ ? ", " : "", g->values[u]);
		fprintf(f, ", smaller, %s not yet shown to cost more than the margin", n == 1 ? "is" : "are");
	} else {
		fprintf(f, "%s's worst case (at most %s) is not yet shown within %s of every other value's", g->values[a],
			regret_fmt_x(x, sizeof(x), d->worst_hi[a]), regret_fmt_x(y, sizeof(y), 1 + g->in.margin));
	}
	fprintf(f, "; more rounds narrow the bounds");
	say_stopped(f, v);
}

/* "after 4 rounds", or "after 5 rounds of blog, 7 of sparse" when they differ. */
static void after_rounds(FILE *f, const struct regret *g)
{
	int same = 1;

	for (size_t q = 1; q < g->in.nqueries; q++)
		same &= g->qrounds[q] == g->qrounds[0];
	fprintf(f, "after %d round%s", g->qrounds[0], g->qrounds[0] == 1 ? "" : "s");
	if (same)
		return;
	fprintf(f, " of %s", g->names[0]);
	for (size_t q = 1; q < g->in.nqueries; q++)
		fprintf(f, ", %d of %s", g->qrounds[q], g->names[q]);
}

static void state_sentence(FILE *f, const struct run_result *v, const struct regret *g)
{
	const struct decision *d = &g->d;
	const char *a = g->values[d->answer];
	double pct = g->in.margin * 100;

	if (d->decided && d->regime == DECISION_WITHIN) {
		fprintf(f, "Decided ");
		after_rounds(f, g);
		fprintf(f, ": %s is within %.0f%% of the fastest in every query (upper bounds: ", a, pct);
		per_query(f, g, d->answer, 1, "");
		fprintf(f, ")%s.", d->answer ? ", and every smaller value is shown slower than that in some query" : "");
	} else if (d->decided) {
		fprintf(f, "Decided ");
		after_rounds(f, g);
		fprintf(f, ", at a price: no value is shown within %.0f%% of the fastest in every query, and none can cost less at worst than %s by more than the margin (%s against each, paired within the rounds of the query where it costs most, or by their bounds)",
			pct, a, a);
		if (d->answer)
			fprintf(f, "; every smaller value is shown more than %.0f%% slower than the fastest in some query", pct);
		fprintf(f, ".");
	} else {
		fprintf(f, "Provisional ");
		after_rounds(f, g);
		fprintf(f, ": ");
		why_open(f, v, g);
		fprintf(f, ".");
	}
	if (d->regime == DECISION_PRICE || d->worst[d->answer] > 1 + g->in.margin) {
		fprintf(f, " %s costs ", a);
		per_query(f, g, d->answer, 0, " its best");
		fprintf(f, ".");
	}
}

/* Would a second run agree? From the resampled rounds: stable, or a close
 * call between the values the resamples answer, each with its price. */
static void stability_sentence(FILE *f, const struct regret *g, const struct stability *st)
{
	const struct decision *d = &g->d;
	size_t order[DECISION_MAX_VALUES], n = 0;
	char x[32];

	if (!st || !st->resamples || d->answer == NONE)
		return;
	if (st->stable) {
		fprintf(f, " A second run should agree: in %zu re-draws of these rounds, %.0f%% gave %s or a value within %.0f%% of it in every query.",
			st->resamples, 100 * st->share, g->values[d->answer], 100 * g->in.margin);
		return;
	}
	for (size_t v = 0; v < g->in.nvalues; v++)
		if (st->count[v])
			order[n++] = v;
	for (size_t i = 1; i < n; i++)	/* most often first */
		for (size_t k = i; k > 0 && st->count[order[k]] > st->count[order[k - 1]]; k--) {
			size_t t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	fprintf(f, " A close call: in %zu re-draws of these rounds only %.0f%% gave %s or a value within the margin of it in every query; they gave ",
		st->resamples, 100 * st->share, g->values[d->answer]);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s %.0f%% of the time%s%s%s", i ? (i + 1 == n ? " and " : ", ") : "", g->values[order[i]],
			100.0 * (double)st->count[order[i]] / (double)st->resamples,
			d->complete[order[i]] && order[i] != d->answer ? " (at worst " : "",
			d->complete[order[i]] && order[i] != d->answer ? regret_fmt_x(x, sizeof(x), d->worst[order[i]]) : "",
			d->complete[order[i]] && order[i] != d->answer ? " its best)" : "");
	if (st->none)
		fprintf(f, "%s none %.0f%% of the time", n ? " and" : "", 100.0 * (double)st->none / (double)st->resamples);
	fprintf(f, ". A second run may well answer otherwise: more rounds (--max-runs) settle it.");
}

/* ---- caveats ---- */

static int add_caveat(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_caveat(json_t *list, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_array_append_new(list, json_string(buf));
}

static json_t *caveats(const struct run_result *v, const struct regret *g)
{
	const json_t *m = first_rep(v)->meta, *emu = json_object_get(json_object_get(m, "device"), "emulated");
	const json_t *fpr, *pause;
	double ra = record_num_at(m, "device.read_ahead_kb"), lo;
	json_t *list = json_array();

	if (json_is_true(json_object_get(v->cachecheck, "ran")) &&
	    (lo = json_number_value(json_array_get(json_object_get(v->cachecheck, "ci95"), 0))) >
	    record_num_at(v->cachecheck, "threshold"))
		add_caveat(list, "A cache below this machine: re-reads were %.2fx as fast as fresh reads (the check's lower bound %.2f, above %.1f); cold runs may have been served from it.",
			   record_num_at(v->cachecheck, "ratio"), lo, record_num_at(v->cachecheck, "threshold"));
	if (ra >= 1024 || (ra >= 0 && ra <= 32))
		add_caveat(list, "read_ahead_kb is %.0f, far from the usual 128: the figures at 0 (the kernel's readahead alone) may not carry over to a machine with the default.", ra);
	if (g->nflags && g->kept_flagged)
		add_caveat(list, "%zu run%s flagged as disturbed by the rule fixed in advance (listed under the rounds) and kept: without them some value had no round left to compare it in, in some query, so this answer counts them; more rounds would replace them.",
			   g->nflags, g->nflags == 1 ? " was" : "s were");
	else if (g->nflags)
		add_caveat(list, "%zu run%s flagged as disturbed by the rule fixed in advance and left out (listed under the rounds)%s%s%s.",
			   g->nflags, g->nflags == 1 ? " was" : "s were", g->differ ? "; with them the answer would be " : "",
			   g->differ && g->d_all.answer != NONE ? g->values[g->d_all.answer] : "",
			   g->differ ? g->d_all.decided ? " (decided)" : " (provisional)" : "");
	fpr = json_object_get(json_object_get(m, "host"), "free_page_reporting");
	pause = json_object_get(fpr, "pause");
	if (json_is_true(json_object_get(fpr, "on")) && !json_is_true(json_object_get(pause, "paused")))
		add_caveat(list, "This machine's host takes its free memory back (a virtio balloon with free page reporting), and it was not paused for the trials (%s): after the caches are dropped, the kernel may wait on the host for the memory it reads into, which no device is responsible for. The cold figures include it at every value, and vary with how much memory the host had taken back when a trial read.",
			   json_is_true(json_object_get(pause, "kept")) ? "--keep-page-reporting" :
			   json_is_string(json_object_get(pause, "why")) ? json_string_value(json_object_get(pause, "why")) :
			   "a run made before the pause existed");
	const char *iom = record_str_at(json_object_get(m, "server"), "settings", "io_method");
	const char *workers = record_str_at(json_object_get(m, "server"), "settings", "io_workers");
	const char *ans = g->d.answer != NONE ? g->values[g->d.answer] : NULL;

	/* 18's worker method: above 0 the reads go through worker processes,
	 * which a machine with few CPUs may run slower than the backend alone */
	if (iom && !strcmp(iom, "worker") && ans && !strcmp(ans, "0"))
		add_caveat(list, "PostgreSQL ran with io_method = worker: above 0 its reads were issued by %s I/O worker process%s, on a machine with %.0f CPUs, where handing them over can cost more than it overlaps. io_method = io_uring issues them from the backend itself; eicbench sweep --query %s --eic 0,16,256 --set io_method=worker,io_uring measures both here (it restarts the server).",
			   workers ? workers : "the", workers && !strcmp(workers, "1") ? "" : "es",
			   record_num_at(m, "host.cpu_count"), g->names[0]);
	if (emu) {
		/* the emulator records its model's words as "summary" */
		const char *model = json_is_string(emu) ? json_string_value(emu) :
				    record_str_at(emu, "summary", NULL);

		add_caveat(list, "An emulated device (%s): the answer holds for the model, not for the disk under it.",
			   model ? model : "its model not recorded");
	}
	return list;
}

/* ---- the regret table ---- */

/* "left after round 3", or "left blog's sweep after 6, sparse's after 4". */
static const char *drop_of(const struct regret *g, size_t v, char *buf, size_t len)
{
	size_t n = 0, used = 0;

	for (size_t i = 0; i < g->ndrops; i++)
		n += !strcmp(g->drops[i].value, g->values[v]);
	if (!n)
		return NULL;
	for (size_t i = 0; i < g->ndrops && used < len; i++)
		if (!strcmp(g->drops[i].value, g->values[v]))
			used += (size_t)(n == 1 ? snprintf(buf, len, "left after round %d", g->drops[i].after_round) :
					 snprintf(buf + used, len - used, "%s%s after %d", used ? ", " : "left ",
						  g->drops[i].query, g->drops[i].after_round));
	return buf;
}

static const char *state_of(const struct regret *g, size_t v, char *buf, size_t len)
{
	const struct decision *d = &g->d;
	const char *left = drop_of(g, v, buf, len);

	if (v == d->answer)
		return "the answer";
	if (left)
		return left;
	if (!d->complete[v])
		return "not in every query";
	if (d->regime == DECISION_PRICE)
		return d->good[v] ? "as cheap at worst" : d->bad[v] ? "costs more" : "open";
	return d->good[v] ? "within" : d->bad[v] ? "out" : "open";
}

static void cell_text(char *buf, size_t len, const struct decision_cell *c)
{
	char a[32], b[32], e[32];

	if (!c->runs)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s (%.*s-%.*s)", regret_fmt_x(e, sizeof(e), c->est),
			 (int)strlen(regret_fmt_x(a, sizeof(a), c->lo)) - 1, a,
			 isfinite(c->hi) ? (int)strlen(regret_fmt_x(b, sizeof(b), c->hi)) - 1 : 1,
			 isfinite(c->hi) ? b : "?");
}

static void regret_table(struct doc *d, const struct regret *g)
{
	size_t nc = g->in.nqueries + 3;
	char heads[DECISION_MAX_QUERIES + 3][64], cells[DECISION_MAX_QUERIES + 3][64], x[64];
	const char *h[DECISION_MAX_QUERIES + 3], *c[DECISION_MAX_QUERIES + 3];

	snprintf(heads[0], 64, "value");
	for (size_t q = 0; q < g->in.nqueries; q++)
		snprintf(heads[q + 1], 64, "%s", g->names[q]);
	snprintf(heads[nc - 2], 64, "worst");
	snprintf(heads[nc - 1], 64, "state");
	for (size_t i = 0; i < nc; i++)
		h[i] = heads[i], c[i] = cells[i];
	doc_table(d, nc, h);
	for (size_t v = 0; v < g->in.nvalues; v++) {
		snprintf(cells[0], 64, "%s", g->values[v]);
		for (size_t q = 0; q < g->in.nqueries; q++)
			cell_text(cells[q + 1], 64, &g->d.cell[q][v]);
		snprintf(cells[nc - 2], 64, "%s", g->d.complete[v] ? regret_fmt_x(x, sizeof(x), g->d.worst[v]) : "-");
		snprintf(cells[nc - 1], 64, "%s", state_of(g, v, x, sizeof(x)));
		doc_row(d, c);
	}
}

static void table_words(struct doc *d, const struct regret *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fprintf(f, "Regret: a value's time over the fastest other value's in that query, paired within rounds (each round runs every value once); in brackets its 90%% interval, each end a 95%% one-sided bound (Student's t on the log times, a value + round model, ");
	if (g->looks > 1)	/* racing's looks: the upper ends share the error */
		fprintf(f, "the upper end at %.3g%%, the 5%% shared by the %d looks racing could make, ", 100 * g->in.level, g->looks);
	for (size_t q = 0; q < g->in.nqueries; q++)
		fprintf(f, "%s%.0f degrees of freedom in %s", q ? ", " : "", g->d.q[q].df, g->names[q]);
	fprintf(f, "). Within: the upper end is at most %.2fx in every query; out: the lower end is above that in some query; ?: no round shared with another value's kept runs. The margin is %.0f%% (--margin).",
		1 + g->in.margin, g->in.margin * 100);
	fprintf(f, " Re-draws: the rounds drawn again at random, with replacement, as many as were run (a round whole, every value's run of it in every query), and the answer worked out again on each (a seeded bootstrap of the rounds); the share that gives the same answer, or one that costs at most the margin more than the answer in every query on the full figures, is its stability: at %.0f%% or more a second run should agree, below it the answer is a close call.",
		100 * STABILITY_STABLE);
	if (g->d.regime == DECISION_PRICE)
		fprintf(f, " No value is shown within in every query, so the margin applies to the worst case: as cheap at worst means shown to cost at most %.2fx every other value's worst case (in each query, by its upper end against the other's worst-case lower end, or by the two paired within that query's rounds); costs more, a worst-case lower end above %.2fx the least upper end.",
			1 + g->in.margin, 1 + g->in.margin);
	if (fclose(f) == 0)
		doc_text(d, text);
	free(text);
}

/* ---- the box: a DBA's words ---- */

static const char *device_of(const struct run_result *v)
{
	const char *dev = record_str_at(first_rep(v)->meta, "device", "name");

	return dev && *dev ? dev : NULL;
}

/* What the tablespace measured ran before the run: its own value, else the
 * server's (meta.json server.settings); NULL when the records do not say.
 * OWN is set when the tablespace had a value of its own. */
static const char *current_of(const struct run_result *v, char *buf, size_t len, int *own)
{
	const json_t *ts = json_object_get(json_object_get(first_rep(v)->meta, "plan"), "tablespace");
	const json_t *e = json_object_get(ts, "effective_io_concurrency");
	const char *s;

	*own = 1;
	if (json_is_string(e))
		return snprintf(buf, len, "%s", json_string_value(e)), buf;
	if (json_is_number(e))
		return snprintf(buf, len, "%.0f", json_number_value(e)), buf;
	*own = 0;
	s = result_server_setting(first_rep(v), EIC);
	return s && *s ? s : NULL;
}

static const char *default_of(const struct run_result *v)
{
	return semantics_default(EIC, (int)first_rep(v)->version_num);
}

/* "15", "18", or "" when the records hold no version. */
static void major_of(const struct run_result *v, char *buf, size_t len)
{
	long n = first_rep(v)->version_num;

	if (n >= 100000)
		snprintf(buf, len, "%ld", n / 10000);
	else if (n > 0)
		snprintf(buf, len, "%ld.%ld", n / 10000, n / 100 % 100);
	else
		buf[0] = '\0';
}


/* The value, and what it changes against the setting before the run and
 * the version's default. Provisional: no order, the leading value and how
 * much longer to run. */
static void say_value(FILE *f, const struct run_result *v, const struct regret *g)
{
	const char *a = judge_answer(g), *def = default_of(v), *dev = device_of(v);
	char cur_buf[64], major[16];
	int own;
	const char *cur = current_of(v, cur_buf, sizeof(cur_buf), &own);
	int max_runs = 2 * g->rounds > 10 ? 2 * g->rounds : 10;

	major_of(v, major, sizeof(major));
	if (g->d.decided)
		fprintf(f, "Set %s = %s for the tablespace on %s", EIC, a, dev ? dev : "this device");
	else
		fprintf(f, "No decision yet: leading %s; run longer (--max-runs %d)", a, max_runs);
	if (!cur)
		fprintf(f, "%s PostgreSQL %s's default is %s (the records do not say what the server ran).",
			g->d.decided ? ";" : ".", major, def);
	else if (!strcmp(cur, a))
		fprintf(f, "%s %s is what %s ran already; PostgreSQL %s's default is %s.", g->d.decided ? ":" : ".",
			a, own ? "the tablespace" : "the server", major, def);
	else if (g->d.decided)
		fprintf(f, ", %s from %s, what %s ran; PostgreSQL %s's default is %s.",
			strtod(a, NULL) > strtod(cur, NULL) ? "up" : "down", cur,
			own ? "the tablespace" : "the server", major, def);
	else
		fprintf(f, ". %s ran %s; PostgreSQL %s's default is %s.", own ? "The tablespace" : "The server",
			cur, major, def);
}

/* The value other than 0 with the least median time in query Q, or NONE. */
static size_t fastest_prefetching(const struct regret *g, size_t q)
{
	size_t best = NONE;

	for (size_t u = 0; u < g->in.nvalues; u++)
		if (strcmp(g->values[u], "0") && isfinite(verdict_median_ms(g, q, u)) &&
		    (best == NONE || verdict_median_ms(g, q, u) < verdict_median_ms(g, q, best)))
			best = u;
	return best;
}

/* Why, from the measured times: each query's fastest value and its time. */
static void say_why(FILE *f, const struct regret *g)
{
	const struct decision *d = &g->d;
	size_t a = d->answer, nq = g->in.nqueries, zero = NONE, all_a = 1, next;
	char t[32], t0[32];

	for (size_t u = 0; u < g->in.nvalues; u++)
		if (!strcmp(g->values[u], "0"))
			zero = u;
	fprintf(f, "Why%s: ", regret_whole_query(g->reps[0]) ? " (whole-query medians, as in the table below)" :
		g->reps[0]->heap_phase ? " (heap-phase medians, as in the table below)" : "");
	for (size_t q = 0; q < nq && q < 3; q++) {
		size_t fq = d->q[q].fastest;

		all_a &= fq == a;
		fprintf(f, "%s%s is fastest at %s (%s", q ? (q + 1 == nq || q == 2 ? " and " : ", ") : "", g->names[q],
			fq == NONE ? "?" : g->values[fq], verdict_secs(t, sizeof(t), verdict_median_ms(g, q, fq)));
		if (nq == 1 && zero != NONE && fq != zero)
			fprintf(f, ", against %s at 0", verdict_secs(t0, sizeof(t0), verdict_median_ms(g, q, zero)));
		else if (nq == 1 && fq == zero && (next = fastest_prefetching(g, q)) != NONE &&
			 verdict_median_ms(g, q, next) > verdict_median_ms(g, q, fq))
			fprintf(f, "; %s, its fastest value that prefetches, takes %s", g->values[next],
				verdict_secs(t0, sizeof(t0), verdict_median_ms(g, q, next)));
		fprintf(f, ")");
	}
	for (size_t q = 3; q < nq; q++)
		all_a &= d->q[q].fastest == a;
	if (nq > 3)
		fprintf(f, ", and %zu more", nq - 3);
	if (!d->decided)
		fprintf(f, "; %s leads so far.", g->values[a]);
	else if (d->regime == DECISION_WITHIN && d->ntied > 1) {	/* a tie, said as one */
		size_t n = 0;

		fprintf(f, "; a tie: ");
		for (size_t u = 0; u < g->in.nvalues; u++)
			if (d->good[u])
				fprintf(f, "%s%s", n++ ? (n == d->ntied ? " and " : ", ") : "", g->values[u]);
		fprintf(f, " are each within %.0f%% of the fastest %s, and %s is %s.", 100 * g->in.margin,
			nq == 1 ? "there" : "in every query", g->values[a],
			d->chosen == DECISION_CURRENT ? "what the server ran: keep it" :
			d->chosen == DECISION_DEFAULT ? "the version's default (what the server ran is not among them)" :
			"the smallest (neither what the server ran nor the default is among them)");
	} else if (all_a && nq == 1)
		fprintf(f, ".");
	else if (all_a)
		fprintf(f, "; %s is the fastest in every query.", g->values[a]);
	else if (d->regime == DECISION_WITHIN)
		fprintf(f, "; %s is the smallest value within %.0f%% of the fastest %s.", g->values[a],
			100 * g->in.margin, nq == 1 ? "there" : "in every query");
	else
		fprintf(f, "; no value is shown within %.0f%% of the fastest in every query; %s costs least at worst.",
			100 * g->in.margin, g->values[a]);
}

/* What it risks: the queries it makes slower than their fastest, the
 * largest cost first (two at most), in seconds and percent. */
static void say_risk(FILE *f, const struct regret *g)
{
	const struct decision *d = &g->d;
	size_t a = d->answer, order[DECISION_MAX_QUERIES], n = 0;
	double cost[DECISION_MAX_QUERIES];
	char t[32], dt[32];

	for (size_t q = 0; q < g->in.nqueries; q++) {
		double ma = verdict_median_ms(g, q, a), mf = verdict_median_ms(g, q, d->q[q].fastest);

		cost[q] = d->q[q].fastest == a || !isfinite(ma) || !isfinite(mf) ? 0 : ma - mf;
		if (cost[q] > 0 && cost[q] / mf >= 0.005)
			order[n++] = q;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && cost[order[k]] / verdict_median_ms(g, order[k], d->q[order[k]].fastest) >
					    cost[order[k - 1]] / verdict_median_ms(g, order[k - 1], d->q[order[k - 1]].fastest); k--) {
			size_t x = order[k];

			order[k] = order[k - 1];
			order[k - 1] = x;
		}
	if (!n) {
		fprintf(f, " Risk: none measured; no query ran measurably slower at %s than at its fastest.", g->values[a]);
		return;
	}
	for (size_t i = 0; i < n && i < 2; i++) {
		size_t q = order[i], fq = d->q[q].fastest;
		double mf = verdict_median_ms(g, q, fq);

		fprintf(f, i ? "; %s %s at %s, %s (%.0f%%) more than at %s" : " Risk: %s takes %s at %s, %s (%.0f%%) more than at %s",
			g->names[q], verdict_secs(t, sizeof(t), mf + cost[q]), g->values[a], verdict_secs(dt, sizeof(dt), cost[q]),
			100 * cost[q] / mf, g->values[fq]);
	}
	fprintf(f, ".");
}
/* ---- the box ---- */

/* How sure: decided or not after how many rounds, in plain words, and the
 * judge's stability figure (the re-drawn rounds agreeing). */
static void say_sure(FILE *f, const struct regret *g, const struct stability *st)
{
	const struct decision *d = &g->d;
	size_t a = d->answer, q = loosest(g, a), other = NONE, n = 0;
	char smaller[256] = "";

	fprintf(f, "How sure: ");
	if (d->decided) {
		fprintf(f, "decided ");
		after_rounds(f, g);
	} else {
		fprintf(f, "not yet: ");
		after_rounds(f, g);
		if (d->regime == DECISION_OPEN && isfinite(d->cell[q][a].hi))
			fprintf(f, " %s could still be up to %.0f%% slower than the fastest in %s", g->values[a],
				100 * (d->cell[q][a].hi - 1), g->names[q]);
		else if (d->regime == DECISION_OPEN)
			fprintf(f, " %s has no round to compare it with another value in %s", g->values[a], g->names[q]);
		else if (d->regime == DECISION_WITHIN) {
			for (size_t u = 0; u < a; u++)
				if (d->complete[u] && !d->bad[u] && !g->dropped[u] && strlen(smaller) < 200)
					snprintf(smaller + strlen(smaller), sizeof(smaller) - strlen(smaller), "%s%s",
						 n++ ? ", " : "", g->values[u]);
			fprintf(f, " the smaller %s %s may do as well", n == 1 ? "value" : "values", smaller);
		} else
			fprintf(f, " another value may still cost less than %s at its worst", g->values[a]);
	}
	if (!st || !st->resamples) {
		fprintf(f, ".");
		return;
	}
	for (size_t u = 0; u < g->in.nvalues; u++)
		if (u != a && st->count[u] && (other == NONE || st->count[u] > st->count[other]))
			other = u;
	fprintf(f, "%s %.0f%% of %zu re-draws of these rounds gave %s or a value within %.0f%% of it", d->decided ? ";" : ".",
		100 * st->share, st->resamples, g->values[a], 100 * g->in.margin);
	if (st->stable)
		fprintf(f, ": a second run should %s.", d->decided ? "agree" : "lead with it too");
	else
		fprintf(f, ": a close call, a second run may well answer otherwise%s%s%s.",
			other != NONE ? " (" : "", other != NONE ? g->values[other] : "", other != NONE ? " came next)" : "");
}

/* One paragraph of the box from SAY. */
static void box_para(struct doc *d, const struct run_result *v, const struct regret *g, const struct stability *st,
		     void (*say)(FILE *, const struct run_result *, const struct regret *, const struct stability *))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	say(f, v, g, st);
	if (fclose(f) == 0)
		doc_text(d, text);
	free(text);
}

static void para_value(FILE *f, const struct run_result *v, const struct regret *g, const struct stability *st)
{
	(void)st;
	say_value(f, v, g);
}

static void para_why(FILE *f, const struct run_result *v, const struct regret *g, const struct stability *st)
{
	(void)v, (void)st;
	say_why(f, g);
	say_risk(f, g);
}

static void para_sure(FILE *f, const struct run_result *v, const struct regret *g, const struct stability *st)
{
	(void)v;
	say_sure(f, g, st);
}

/* How to apply it on the reader's server: their tablespace on this device
 * (the scratch cluster held everything in the one it measured). */
static void apply_box(struct doc *d, const struct run_result *v, const struct regret *g)
{
	char code[256];

	const json_t *plan = json_object_get(first_rep(v)->meta, "plan");
	const char *where = record_str_at(json_object_get(plan, "tablespace"), "location", NULL);

	if (!where)	/* pg_default: the data directory */
		where = record_str_at(v->meta, "datadir", NULL);
	if (where)
		doc_para(d, "Apply it to your tablespace on this device (here %s, in %s, held everything):",
			 measured_tablespace(v), where);
	else
		doc_para(d, "Apply it to your tablespace on this device (here %s held everything):", measured_tablespace(v));
	snprintf(code, sizeof(code), "ALTER TABLESPACE <your tablespace on this device>\n  SET (%s = %s);", EIC,
		 judge_answer(g));
	doc_code(d, code);
}

static void say_caveats(struct doc *d, const json_t *list)
{
	const json_t *c;
	size_t i;

	json_array_foreach(list, i, c)
		doc_para(d, "Caveat: %s", json_string_value(c));
}

static void per_query_bests(struct doc *d, const struct regret *g)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	fprintf(f, "Per query, for reference (the one value for the storage is the answer above): ");
	for (size_t q = 0; q < g->in.nqueries; q++)
		fprintf(f, "%s%s's own fastest was %s", q ? "; " : "", g->names[q],
			g->d.q[q].fastest == NONE ? "none" : g->values[g->d.q[q].fastest]);
	fprintf(f, ".");
	if (fclose(f) == 0)
		doc_text(d, text);
	free(text);
}

/* One table: each query's heap-phase median and speedup against 0 per value. */
static void summary_table(struct doc *d, const struct run_result *v, const struct regret *g)
{
	char heads[2 * DECISION_MAX_QUERIES + 1][80], cells[2 * DECISION_MAX_QUERIES + 1][40];
	const char *h[2 * DECISION_MAX_QUERIES + 1], *c[2 * DECISION_MAX_QUERIES + 1];
	size_t nc = 1 + 2 * g->in.nqueries;

	snprintf(heads[0], 80, "value");
	for (size_t q = 0; q < g->in.nqueries; q++) {
		snprintf(heads[1 + 2 * q], 80, "%s %s ms", g->names[q],
			 g->reps[q]->heap_phase && !regret_whole_query(g->reps[q]) ? "heap" : "query");
		snprintf(heads[2 + 2 * q], 80, "%s x vs 0", g->names[q]);
	}
	for (size_t i = 0; i < nc; i++)
		h[i] = heads[i], c[i] = cells[i];
	doc_table(d, nc, h);
	for (size_t k = 0; k < g->in.nvalues; k++) {
		snprintf(cells[0], 40, "%s", g->values[k]);
		for (size_t q = 0; q < g->in.nqueries; q++) {
			const struct sweep_result *r = g->reps[q];
			size_t gi = result_find(r, &r->groups[r->series[0].first], g->values[k]);
			const struct result_group *gr = gi == RESULT_NONE ? NULL : &r->groups[gi];

			size_t z = result_find(r, &r->groups[r->series[0].first], "0");
			double x0 = !regret_whole_query(r) ? (gr ? gr->speedup_vs_0 : NAN) :
				    z == RESULT_NONE ? NAN : verdict_unit_ms(r, &r->groups[z]) / verdict_unit_ms(r, gr);

			doc_num(cells[1 + 2 * q], 40, "%.1f", verdict_unit_ms(r, gr));
			doc_num(cells[2 + 2 * q], 40, "%.2f", x0);
		}
		doc_row(d, c);
	}
	(void)v;
}

void verdict_box(struct doc *d, const struct judgement *j)
{
	const struct run_result *v = &j->run;
	const struct regret *g = &j->storage;
	const struct stability *st = &j->stability;
	json_t *cav;

	doc_box_open(d, "The verdict");
	if (g->d.answer == NONE) {
		doc_para(d, "No value was swept in every query, so there is no one value to recommend for the storage.");
		doc_box_close(d);
		return;
	}
	box_para(d, v, g, st, para_value);
	box_para(d, v, g, st, para_why);
	verdict_classes_box(d, j);
	box_para(d, v, g, st, para_sure);
	if (g->d.decided)
		apply_box(d, v, g);
	doc_box_close(d);
	cav = caveats(v, g);
	say_caveats(d, cav);
	json_decref(cav);
	per_query_bests(d, g);
	summary_table(d, v, g);
	if (regret_whole_query(g->reps[0]))
		doc_para(d, "query ms: each query's median execution time, what the answer is decided on (EXPLAIN ANALYZE, cold; priming and flagged runs left out of the answer, not of these medians; each query's own section splits its heap phase); x vs 0: its speedup against 0.");
	else
		doc_para(d, "heap ms: each query's heap-phase median (EXPLAIN ANALYZE, cold; priming and flagged runs left out of the answer, not of these medians); x vs 0: its speedup against 0.");
}

void verdict_figures(struct doc *d, const struct run_result *v, const struct regret *g,
		     const struct stability *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (g->d.answer == NONE)
		return;
	f = open_memstream(&text, &len);
	if (f) {
		state_sentence(f, v, g);
		stability_sentence(f, g, st);
		if (fclose(f) == 0)
			doc_text(d, text);
		free(text);
	}
	regret_table(d, g);
	table_words(d, g);
}

void verdict_racing(struct doc *d, const struct run_result *v, const struct regret *g)
{
	char x[32];

	(void)v;
	{
		char *t = NULL;
		size_t tl = 0;
		FILE *f = open_memstream(&t, &tl);

		if (f) {
			fprintf(f, "Rounds: ");
			for (size_t q = 0; q < g->in.nqueries; q++)
				fprintf(f, "%s%d of %s", q ? ", " : "", g->qrounds[q], g->names[q]);
			fprintf(f, "; every round ran every value still in the race once, in a shuffled order.%s",
				g->priming ? "" : " No priming trial is recorded (a folder made before priming trials).");
			if (fclose(f) == 0)
				doc_text(d, t);
			free(t);
		}
	}
	if (g->priming)
		doc_para(d, "%zu priming trial%s (one before each sweep's first recorded trial) ran cold as the others and %s left out of every figure.",
			 g->priming, g->priming == 1 ? "" : "s", g->priming == 1 ? "is" : "are");
	if (g->ladder[0] && !g->njoins)
		doc_para(d, "The grid was to be refined on the ladder %s: no value joined, %s.", g->ladder,
			 g->rounds >= DECISION_FIRST_RACE ? "the leading value's neighbours there being in the grid from the start" :
			 "the sweeps stopping before the third round, after which refining starts");
	else if (g->ladder[0])
		doc_para(d, "The grid was refined on the ladder %s: after each round from the third the leading value's neighbours there that the grid lacked joined it.",
			 g->ladder);
	for (size_t i = 0; i < g->njoins; i++)
		doc_para(d, "%s joined the race after round %d: %s; it ran from round %d on.", g->joins[i].value,
			 g->joins[i].after_round, g->joins[i].why, g->joins[i].after_round + 1);
	if (!g->ndrops)
		doc_para(d, "No value left the race: every value ran every round%s.", g->njoins ? " from the one it joined in" : "");
	for (size_t i = 0; i < g->ndrops; i++)
		doc_para(d, "%s left the sweep of %s after round %d: %s.", g->drops[i].value, g->drops[i].query,
			 g->drops[i].after_round, g->drops[i].why);
	if (!g->nflags)
		doc_para(d, "No run was flagged as disturbed (the rule: on 13-17 an index phase over %.1fx the series' median; steal time over %.0f%%; the device over %.1fx the value's median ms per MiB read).",
			 REGRET_INDEX_X, REGRET_STEAL_PCT, REGRET_MS_PER_MIB_X);
	for (size_t i = 0; i < g->nflags; i++)
		doc_para(d, "Flagged: %s round %d at %s: %s; left out of the answer.", g->names[g->flags[i].q],
			 g->flags[i].round, g->values[g->flags[i].v], g->flags[i].why);
	if (g->differ && g->d_all.answer != NONE)
		doc_para(d, "With the flagged runs the answer would be %s (%s, worst-case regret %s) instead of %s: both are said because they differ.",
			 g->values[g->d_all.answer], g->d_all.decided ? "decided" : "provisional",
			 regret_fmt_x(x, sizeof(x), g->d_all.worst[g->d_all.answer]), judge_answer(g));
	else if (g->nflags)
		doc_para(d, "With the flagged runs the answer is the same.");
}

/* ---- JSON, schema 1 ---- */

/* X rounded to DIGITS decimals, or null. */
static json_t *fig(double x, int digits)
{
	double p = pow(10, digits);

	return isfinite(x) ? json_real(round(x * p) / p) : json_null();
}

static json_t *value_json(const char *s)
{
	char *end;
	double x = strtod(s, &end);

	return *end || end == s ? json_string(s) : json_integer((json_int_t)x);
}

static const char *regime_name(enum decision_regime r)
{
	return r == DECISION_WITHIN ? "within" : r == DECISION_OPEN ? "open" : r == DECISION_PRICE ? "price" : "none";
}

static json_t *regret_json(const struct regret *g)
{
	json_t *rows = json_array();
	char x[64];

	for (size_t v = 0; v < g->in.nvalues; v++) {
		json_t *qs = json_object();

		for (size_t q = 0; q < g->in.nqueries; q++) {
			const struct decision_cell *c = &g->d.cell[q][v];

			json_object_set_new(qs, g->names[q], json_pack("{s:o, s:o, s:o, s:I}", "regret", fig(c->est, 3),
							       "lo", fig(c->lo, 3), "hi", fig(c->hi, 3), "runs", (json_int_t)c->runs));
		}
		json_array_append_new(rows, json_pack("{s:o, s:o, s:o, s:s}", "value", value_json(g->values[v]),
						      "queries", qs, "worst", g->d.complete[v] ? fig(g->d.worst[v], 3) : json_null(),
						      "state", state_of(g, v, x, sizeof(x))));
	}
	return rows;
}

static json_t *history_json(const struct regret *g, json_t **flagged, json_t **joined)
{
	json_t *drops = json_array();

	*flagged = json_array();
	*joined = json_array();
	for (size_t i = 0; i < g->njoins; i++)
		json_array_append_new(*joined, json_pack("{s:o, s:i, s:s}", "value", value_json(g->joins[i].value),
							 "after_round", g->joins[i].after_round, "why", g->joins[i].why));
	for (size_t i = 0; i < g->ndrops; i++)
		json_array_append_new(drops, json_pack("{s:o, s:s, s:i, s:s}", "value", value_json(g->drops[i].value),
						       "query", g->drops[i].query,
						       "after_round", g->drops[i].after_round, "why", g->drops[i].why));
	for (size_t i = 0; i < g->nflags; i++)
		json_array_append_new(*flagged, json_pack("{s:s, s:o, s:i, s:s}", "query", g->names[g->flags[i].q],
							  "value", value_json(g->values[g->flags[i].v]),
							  "round", g->flags[i].round, "why", g->flags[i].why));
	return drops;
}

static json_t *stability_json(const struct regret *g, const struct stability *st)
{
	json_t *answers;

	if (!st || !st->resamples)
		return json_null();
	answers = json_object();
	for (size_t v = 0; v < g->in.nvalues; v++)
		if (st->count[v])
			json_object_set_new(answers, g->values[v], fig((double)st->count[v] / (double)st->resamples, 3));
	return json_pack("{s:o, s:I, s:b, s:o, s:o}", "share", fig(st->share, 3),
			 "resamples", (json_int_t)st->resamples, "stable", st->stable,
			 "answers", answers, "none", fig((double)st->none / (double)st->resamples, 3));
}

/* Whose verdict: the device, the host, the server's version, the setting
 * the tablespace measured ran before (null: not recorded) and the version's
 * default, as the box says them. */
static void where_json(json_t *o, const struct run_result *v)
{
	const json_t *m = first_rep(v)->meta;
	const char *host = record_str_at(v->meta, "host", "hostname") ?: record_str_at(m, "host", "hostname");
	const char *version = record_str_at(m, "server", "version");
	char buf[64];
	int own;
	const char *cur = current_of(v, buf, sizeof(buf), &own);

	json_object_set_new(o, "device", device_of(v) ? json_string(device_of(v)) : json_null());
	json_object_set_new(o, "host", host ? json_string(host) : json_null());
	json_object_set_new(o, "server_version", version ? json_string(version) : json_null());
	json_object_set_new(o, "current_setting", cur ? value_json(cur) : json_null());
	json_object_set_new(o, "default", value_json(default_of(v)));
}

json_t *verdict_box_json(const struct run_result *v, const struct regret *g, const struct stability *st)
{
	const char *a = judge_answer(g);
	char alter[256], *why = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&why, &len);
	json_t *o, *fastest = json_object(), *df = json_object(), *flagged, *drops, *joined, *with = json_null();

	if (f && a) {
		state_sentence(f, v, g);
		stability_sentence(f, g, st);
	}
	if (f)
		fclose(f);
	snprintf(alter, sizeof(alter), "ALTER TABLESPACE %s SET (%s = %s);", measured_tablespace(v), EIC, a ? a : "?");
	for (size_t q = 0; q < g->in.nqueries; q++) {
		json_object_set_new(fastest, g->names[q], g->d.q[q].fastest == NONE ? json_null() :
				    value_json(g->values[g->d.q[q].fastest]));
		json_object_set_new(df, g->names[q], fig(g->d.q[q].df, 0));
	}
	drops = history_json(g, &flagged, &joined);
	if (g->differ && g->d_all.answer != NONE)
		with = json_pack("{s:o, s:s}", "recommendation", value_json(g->values[g->d_all.answer]),
				 "state", g->d_all.decided ? "decided" : "provisional");
	o = json_pack("{s:i, s:o, s:s, s:s, s:s, s:o, s:o, s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I}",
		      "schema", VERDICT_SCHEMA,
		      "recommendation", a ? value_json(a) : json_null(),
		      "state", !a ? "none" : g->d.decided ? "decided" : "provisional",
		      "regime", regime_name(g->d.regime),
		      "why", why ? why : "",
		      "margin", fig(g->in.margin, 4),
		      "level", fig(g->in.level > 0 ? g->in.level : DECISION_LEVEL, 5),
		      "rounds", g->rounds,
		      "tablespace", measured_tablespace(v),
		      "alter", a && g->d.decided ? json_string(alter) : json_null(),
		      "regret", regret_json(g),
		      "caveats", caveats(v, g),
		      "dropped", drops,
		      "joined", joined,
		      "flagged", flagged,
		      "with_flagged", with,
		      "per_query_fastest", fastest,
		      "degrees_of_freedom", df,
		      "queries", json_array(),
		      "priming_trials", (json_int_t)g->priming);
	for (size_t q = 0; q < g->in.nqueries; q++)
		json_array_append_new(json_object_get(o, "queries"), json_string(g->names[q]));
	json_object_set_new(o, "stability", stability_json(g, st));
	where_json(o, v);
	free(why);
	return o;
}
