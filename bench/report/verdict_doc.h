/*
 * verdict_doc: the verdict of a run as a document; see verdict.h.
 */
#ifndef BENCH_REPORT_VERDICT_DOC_H
#define BENCH_REPORT_VERDICT_DOC_H

#include "bench/report/document.h"
#include "bench/report/verdict.h"

/* Build the document of V into D (plots are referenced by path). */
void verdict_document(const struct verdict *v, struct doc *d);

#endif
