/*
 * cluster: what a command does with its server before it works on it, in
 * one place: the options resolved (server_resolve), the cluster's lock held
 * until the command ends (bench/pg/lock.h), a settings journal a killed
 * command left put back (first: a value it left may keep the server from
 * starting), and the managed server started or its database made. Returns 0 or -errno with a message in the caller's buffer
 * (-EINVAL: bad input, nothing was changed).
 */
#ifndef BENCH_PG_CLUSTER_H
#define BENCH_PG_CLUSTER_H

#include <stddef.h>

#include "bench/pg/server.h"

enum cluster_need {
	CLUSTER_START   = 1 << 0,  /* the managed server running (a --dsn one is left alone) */
	CLUSTER_DB      = 1 << 1,  /* ... and the suite's database made when missing */
	CLUSTER_RECOVER = 1 << 2,  /* a settings journal left behind put back (WHO names the command) */
};

/*
 * CFG resolved into S, S's cluster held, and NEED done (an OR of
 * enum cluster_need). WHO ("load", "sweep") names the command in the
 * recovery's lines on stderr.
 */
int cluster_take(const struct server_cfg *cfg, struct server *s, unsigned need,
		 const char *who, char *err, size_t errlen);

#endif
