/*
 * workload_tpcb: the configuration sweep's workload: the TPC-B driver
 * (bench/tpcb/tpcb.h) run on the server with the step's settings in force. Per
 * trial: pgbench's pre-run cleanup, a warm-up run that is not recorded, a
 * CHECKPOINT so every run starts at the same point of the checkpoint
 * cycle, then the measured run while the device and the CPUs are sampled;
 * the record keeps the driver's figures, the deltas of the checkpointer's,
 * bgwriter's and WAL statistics, and the server log lines written during
 * the run (checkpoint warnings, errors). Session settings reach every
 * client connection as libpq options.
 */
#ifndef BENCH_WORKLOADS_WORKLOAD_TPCB_H
#define BENCH_WORKLOADS_WORKLOAD_TPCB_H

#include <stdbool.h>

#include "bench/tpcb/tpcb.h"
#include "bench/workloads/workloads.h"

struct tpcb_wcfg {
	struct tpcb_config run;        /* the driver's options for a measured run */
	long long scale;               /* the tables' scale: made when missing */
	double    warmup_s;            /* before each measured run; 0: none */
	bool      no_checkpoint;
	int       sample_ms;           /* 0: 500 */
	struct tpcb_target target;     /* found by the check */
};

extern const struct workload workload_tpcb;

/* What a configuration sweep's runs do not vary: one try per transaction
 * (a serialization failure is counted, not retried), the clients' bound on
 * waiting for the server. */
void workload_tpcb_defaults(struct tpcb_wcfg *w);

#endif
