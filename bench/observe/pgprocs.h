/*
 * pgprocs: the server processes that work for a query besides its backend,
 * so their CPU can be sampled (io/sampler.h) and each named in the record:
 * PostgreSQL 18's I/O workers (pg_stat_activity.backend_type 'io worker';
 * they live as long as the server, under io_method = worker) and the
 * parallel workers of one leader (they exist only while its query runs:
 * list them from another connection during the query). Pids are the
 * server's: their CPU can be read from /proc only on the same host.
 */
#ifndef BENCH_OBSERVE_PGPROCS_H
#define BENCH_OBSERVE_PGPROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "io/sampler.h"

#define PGPROCS_MAX 64

struct pgprocs_proc {
	pid_t pid;
	char  role[32];          /* "io worker", "parallel worker" */
};

struct pgprocs {
	int                 n;
	struct pgprocs_proc p[PGPROCS_MAX];
	bool                io_workers_possible;   /* 18 and later */
	bool                truncated;             /* more than PGPROCS_MAX */
	int                 hidden;                /* processes whose type this role may not see */
};

/*
 * The I/O workers, and the parallel workers of LEADER (0: none asked).
 * 0 (a list that may be empty: no io workers under sync or io_uring),
 * PGSTATS_NOT_AVAILABLE below 13 (no leader_pid; ERR says so), -EACCES
 * when the role may not see some processes' types (OUT holds what it could
 * see; ERR names pg_read_all_stats), or another -errno.
 */
int pgprocs_list(PGconn *c, pid_t leader, struct pgprocs *out, char *err, size_t errlen);

/* The rows of a (pid, backend_type) result into OUT (a NULL type counts
 * as hidden). 0 or -EPROTO. */
int pgprocs_parse(const PGresult *r, struct pgprocs *out);

/* How many of ROLE (NULL: any). */
int pgprocs_count(const struct pgprocs *p, const char *role);

/*
 * Append P's pids to CFG's pids (as many as fit in SAMPLER_MAX_PIDS);
 * returns the index in CFG of the first one appended: process i of P is
 * CFG's pid (that index + i). *ADDED_OUT says how many fit.
 */
int pgprocs_to_sampler(const struct pgprocs *p, struct sampler_cfg *cfg, int *added_out);

/*
 * {"procs": [{"pid", "role", "user_s", "system_s", "cpu_share"} for each of
 * the ADDED processes sampled from index FIRST of SM (pgprocs_to_sampler),
 * over [T0, T1]; figures null for one that could not be read], "by_role":
 * {role: {"count", "user_s", "system_s", "cpu_share" (summed: cores busy)}}}.
 * Only after sampler_stop().
 */
json_t *pgprocs_cpu_json(const struct pgprocs *p, const struct sampler *sm, int first,
			 int added, uint64_t t0, uint64_t t1);

/* [{"pid", "role"}, ...]. */
json_t *pgprocs_json(const struct pgprocs *p);

#endif
