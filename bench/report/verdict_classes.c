/*
 * verdict_classes: the classes' lines of the box, their table and JSON;
 * see verdict_classes.h.
 */
#include "bench/report/verdict_classes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/record/record_path.h"
#include "bench/record/semantics.h"
#include "bench/report/verdict_time.h"

#define EIC "effective_io_concurrency"

static const struct sweep_result *rep_of(const struct judgement *j, int i)
{
	return j->run.q[i].have_rep ? &j->run.q[i].rep : NULL;
}

/* Class I is left out of the answer: 1 for a forced plan, 2 for a
 * weight of 0; 0 when it counts. */
static int left_out(const struct judgement *j, int i)
{
	const struct sweep_result *r = rep_of(j, i);

	if (!r || j->counted[i])
		return 0;
	return class_weight(r, j->run.q[i].name) > 0 ? 1 : 2;
}

void verdict_classes_box(struct doc *d, const struct judgement *j)
{
	char *text = NULL;
	size_t len = 0, nforced = 0, nzero = 0;
	FILE *f;

	for (int i = 0; i < j->run.nq; i++) {
		nforced += left_out(j, i) == 1;
		nzero += left_out(j, i) == 2;
	}
	if (!j->nover && !j->all_forced && !nforced && !nzero)
		return;
	f = open_memstream(&text, &len);
	if (!f)
		return;
	for (int k = 0; k < j->nover; k++)
		fprintf(f, "%s%s %s", k ? ", " : "Where it misses a class, set it per role or session: ",
			j->run.q[j->over[k].q].name, j->over[k].value);
	if (j->nover)
		fprintf(f, ". ");
	if (j->all_forced)
		fprintf(f, "Every class's bitmap plan had to be forced (the planner chose other scans): the answer stands on them all, for scans the server would not run as measured.");
	if (nforced) {
		const char *same = NULL;
		size_t n = 0;
		int alike = 1;

		for (int i = 0; i < j->run.nq; i++)
			if (left_out(j, i) == 1) {
				const char *scan = class_planner_scan(rep_of(j, i));

				alike &= scan && (!same || !strcmp(same, scan));
				same = scan;
			}
		fprintf(f, "Not counted: ");
		for (int i = 0; i < j->run.nq; i++)
			if (left_out(j, i) == 1) {
				const char *scan = class_planner_scan(rep_of(j, i));

				fprintf(f, "%s%s", n++ ? (n == nforced ? " and " : ", ") : "", j->run.q[i].name);
				if (!alike && scan)
					fprintf(f, " (%s)", scan);
			}
		if (alike)
			fprintf(f, ": the planner runs %s %s for %s", strchr("AEIOU", same[0]) ? "an" : "a", same,
				nforced == 1 ? "it" : "each");
		else
			fprintf(f, ": the planner runs %s instead", nforced == 1 ? "that scan" : "those scans");
		fprintf(f, ", so %s forced (--include-forced counts %s).",
			nforced == 1 ? "its bitmap plan was" : "their bitmap plans were", nforced == 1 ? "it" : "them");
	}
	if (nzero) {
		size_t n = 0;

		fprintf(f, "%sLeft out by --weights: ", nforced ? " " : "");
		for (int i = 0; i < j->run.nq; i++)
			if (left_out(j, i) == 2)
				fprintf(f, "%s%s", n++ ? ", " : "", j->run.q[i].name);
		fprintf(f, ".");
	}
	if (fclose(f) == 0)
		doc_text(d, text);
	free(text);
}

static const char *default_value(const struct judgement *j)
{
	for (int i = 0; i < j->run.nq; i++)
		if (rep_of(j, i))
			return semantics_default(EIC, (int)j->run.q[i].rep.version_num);
	return NULL;
}

void verdict_classes_table(struct doc *d, const struct judgement *j)
{
	static const char *const heads[] = { "class", "pages read", "planner's plan", "counts", "own answer",
					     "at 0", "at the answer", "at the default" };
	const struct regret *g = &j->storage;
	const char *answer = judge_answer(g), *def = default_value(j);
	char cells[8][96];
	const char *c[8];

	for (int k = 0; k < 8; k++)
		c[k] = cells[k];
	doc_table(d, 8, heads);
	for (int i = 0; i < j->run.nq; i++) {
		const struct sweep_result *r = rep_of(j, i);
		const struct regret *o = j->own && j->own_ok[i] ? &j->own[i] : NULL;
		const char *scan = r ? class_planner_scan(r) : NULL;
		double share = r ? class_page_share(r) : NAN;
		char t[32];

		if (!r)
			continue;
		snprintf(cells[0], 96, "%s", j->run.q[i].name);
		if (isfinite(share))
			snprintf(cells[1], 96, share < 0.01 ? "%.2f%%" : "%.1f%%", 100 * share);
		else
			snprintf(cells[1], 96, "?");
		snprintf(cells[2], 96, "%s%s", scan ? scan : "not recorded", class_forced(r) ? " (forced)" : "");
		if (j->counted[i])
			snprintf(cells[3], 96, "yes, weight %g", class_weight(r, j->run.q[i].name));
		else
			snprintf(cells[3], 96, "no");
		snprintf(cells[4], 96, "%s", o && judge_answer(o) ? judge_answer(o) : "none");
		snprintf(cells[5], 96, "%s", o ? verdict_secs(t, sizeof(t), verdict_median_ms(o, 0, regret_value_index(o, "0"))) : "?");
		snprintf(cells[6], 96, "%s", o ? verdict_secs(t, sizeof(t), verdict_median_ms(o, 0, regret_value_index(o, answer))) : "?");
		snprintf(cells[7], 96, "%s", o ? verdict_secs(t, sizeof(t), verdict_median_ms(o, 0, regret_value_index(o, def))) : "?");
		doc_row(d, c);
	}
	doc_para(d, "pages read: the median share of the table's heap pages each trial's scan read (a Bitmap Heap Scan's exact and lossy heap blocks; a Seq Scan's or parallel workers' heap buffers, read or found); planner's plan: the scan the planner chose for the query with nothing switched off, and \"(forced)\" when it was not the scan the class measures, which was then measured with the other scans switched off; counts: whether the class is in the answer for the storage, and its weight (--weights); own answer: the class decided alone; at 0, at the answer (%s), at the default (%s): its median whole-query times, cold.",
		 answer ? answer : "none", def ? def : "?");
}

json_t *verdict_classes_json(const struct judgement *j)
{
	json_t *list = json_array();


	for (int i = 0; list && i < j->run.nq; i++) {
		const struct sweep_result *r = rep_of(j, i);
		const struct regret *o = j->own && j->own_ok[i] ? &j->own[i] : NULL;
		const char *scan = r ? class_planner_scan(r) : NULL, *own = o ? judge_answer(o) : NULL;
		double share = r ? class_page_share(r) : NAN;
		json_t *c;

		if (!r)
			continue;
		c = json_pack("{s:s, s:o, s:o, s:b, s:b, s:f, s:o}", "class", j->run.q[i].name,
			      "page_share", isfinite(share) ? json_real(round(share * 1e5) / 1e5) : json_null(),
			      "planner_scan", scan ? json_string(scan) : json_null(), "forced", class_forced(r),
			      "counted", j->counted[i], "weight", class_weight(r, j->run.q[i].name),
			      "own_answer", own ? json_string(own) : json_null());
		for (int k = 0; c && k < j->nover; k++)
			if (j->over[k].q == i)
				json_object_set_new(c, "override", json_pack("{s:s, s:f}", "value", j->over[k].value,
						    "cost_at_answer", round(j->over[k].cost_at_answer * 1000) / 1000));
		json_array_append_new(list, c);
	}
	return list;
}
