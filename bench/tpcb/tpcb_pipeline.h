/*
 * tpcb_pipeline: --pipeline N for a client, several transactions in flight
 * in libpq's pipeline mode: filling the pipeline, and the results as they
 * come. Part of the client (tpcb_client.c).
 */
#ifndef BENCH_TPCB_TPCB_PIPELINE_H
#define BENCH_TPCB_TPCB_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/tpcb/tpcb_cstate.h"

void tpcb_pipe_fill(struct tpcb_client *c, uint64_t now);
void tpcb_pipe_result(struct tpcb_client *c, const PGresult *r, uint64_t now);
/* libpq's NULL after a command's results. False: stop reading. */
bool tpcb_pipe_null(struct tpcb_client *c, uint64_t now);

#endif
