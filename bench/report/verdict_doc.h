/*
 * verdict_doc: the verdict of a run as a document; see verdict.h.
 */
#ifndef BENCH_REPORT_VERDICT_DOC_H
#define BENCH_REPORT_VERDICT_DOC_H

#include "bench/report/document.h"
#include "bench/judge/judge.h"
#include "bench/report/verdict.h"

/* Build the document of judged run J into D (plots are referenced by path). */
void verdict_document(const struct judgement *j, struct doc *d);

#endif
