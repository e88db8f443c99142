/*
 * workload_tpcb: the configuration sweep's workload: the TPC-B driver
 * (bench/tpcb/tpcb.h) run on the server with the step's settings in force. Per
 * trial: pgbench's pre-run cleanup, a warm-up run that is not recorded, a
 * CHECKPOINT so every run starts at the same point of the checkpoint
 * cycle, then the measured run while the device and the CPUs are sampled;
 * the record keeps the driver's figures, the deltas of the checkpointer's,
 * bgwriter's and WAL statistics, and the server log lines written during
 * the run (checkpoint warnings, errors). Session settings reach every
 * client connection as libpq options. The load is a script set (a builtin,
 * or the sweep's script files and defines); steps may run loads of their
 * own. meta.json keeps every load's texts, so --resume runs what ran.
 */
#ifndef BENCH_WORKLOADS_WORKLOAD_TPCB_H
#define BENCH_WORKLOADS_WORKLOAD_TPCB_H

#include <stdbool.h>

#include "bench/tpcb/tpcb.h"
#include "bench/sweep/sweep.h"
#include "bench/workloads/workloads.h"

#define WORKLOAD_TPCB_MAX_LOADS (SWEEP_MAX_STEPS + 1)

struct tpcb_wcfg {
	struct tpcb_config run;        /* the driver's options for a measured run (scripts: load 0) */
	long long scale;               /* the tables' scale: made when missing */
	double    warmup_s;            /* before each measured run; 0: none */
	bool      no_checkpoint;
	int       sample_ms;           /* 0: 500 */
	struct tpcb_target target;     /* found by the check */
	int       nloads;
	struct tpcb_scripts *loads;    /* [0] every step's unless load_of says another */
	int       load_of[SWEEP_MAX_STEPS];   /* by combination of a plan of steps */
};

/* One load's parts as a sweep gives them. */
struct tpcb_load_spec {
	int nscripts, ndefines;
	const char *script[TPCB_MAX_SCRIPTS];  /* "FILE[@W]", or "NAME[@W]" when builtin[i] */
	bool builtin[TPCB_MAX_SCRIPTS];
	const char *define[256];               /* "NAME=VALUE" */
	const char *where[TPCB_MAX_SCRIPTS + 256];  /* each part's origin for messages, or NULL */
};

extern const struct workload workload_tpcb;

/* What a configuration sweep's runs do not vary: one try per transaction
 * (a serialization failure is counted, not retried), the clients' bound on
 * waiting for the server. */
void workload_tpcb_defaults(struct tpcb_wcfg *w);

/* Append a load to W: SPEC's scripts (files relative to BASE_DIR when not
 * absolute; FALLBACK when it names none) and defines, compiled. Its index,
 * or -EINVAL with ERR (the origin of the bad part named), -ENOMEM. */
int workload_tpcb_add_load(struct tpcb_wcfg *w, const struct tpcb_load_spec *spec,
			   const char *base_dir, enum tpcb_builtin fallback, char *err, size_t errlen);

void workload_tpcb_free(struct tpcb_wcfg *w);

#endif
