/*
 * pgaios: PostgreSQL 18's pg_aios (one row per I/O handle in use) sampled
 * from a connection of its own, by a thread, every interval_ms (20 by
 * default) while a query runs: per sample the handles in each state and
 * the bytes of the I/Os in flight. In flight means state SUBMITTED: handed
 * to the kernel (io_uring) or to an I/O worker, completion not yet
 * processed. Optionally only one backend's I/Os (and its parallel
 * workers'). Afterwards a time-weighted summary (each sample holds until
 * the next) over the run or any window, and the time line, as JSON. Times
 * are io/clock.h ns. Below 18: PGSTATS_NOT_AVAILABLE and no thread.
 */
#ifndef BENCH_OBSERVE_PGAIOS_H
#define BENCH_OBSERVE_PGAIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/observe/pgstats.h"
#include "bench/pg/server.h"
#include "io/ticker.h"

#define PGAIOS_DEFAULT_INTERVAL_MS 20

/* The states of pg_aios.state, in their order of progress; OTHER for a name
 * this build does not know. */
enum pgaios_state {
	PGAIOS_HANDED_OUT, PGAIOS_DEFINED, PGAIOS_STAGED, PGAIOS_SUBMITTED,
	PGAIOS_COMPLETED_IO, PGAIOS_COMPLETED_SHARED, PGAIOS_COMPLETED_LOCAL,
	PGAIOS_OTHER, PGAIOS_NSTATES
};

struct pgaios_cfg {
	int   interval_ms;     /* 0: PGAIOS_DEFAULT_INTERVAL_MS */
	pid_t pid;             /* only this backend's I/Os and its parallel workers'; 0: all */
};

struct pgaios_sample {
	uint64_t t_ns;                       /* midway through the sample's query */
	uint32_t handles[PGAIOS_NSTATES];
	uint64_t bytes_in_flight;            /* sum of length over SUBMITTED handles */
};

struct pgaios {
	struct pgaios_cfg     cfg;
	PGconn               *conn;
	int                   version_num;
	struct pgaios_sample *samples;
	size_t                n, cap;
	uint64_t              max_gap_ns;      /* the longest time between samples */
	uint64_t              max_query_ns;    /* the slowest sample's round trip */
	unsigned              failed;          /* samples whose query failed */
	char                  last_error[256]; /* the last failure's message */
	struct ticker         ticker;
	int                   error;           /* -errno that ended the thread, 0 */
};

/*
 * Take the first sample on CONN (which the sampler owns from now on, and
 * closes; NULL: a failed connect, -EIO with ERR as the caller left it) and
 * start the thread. 0; PGSTATS_NOT_AVAILABLE below 18 (ERR says so, CONN
 * closed, no thread); -errno with ERR (e.g. no right to read pg_aios).
 */
int pgaios_start(struct pgaios *a, PGconn *conn, const struct pgaios_cfg *cfg,
		 char *err, size_t errlen);

/* The same on a new connection to the managed or external server. */
int pgaios_start_server(struct pgaios *a, const struct server *srv,
			const struct pgaios_cfg *cfg, char *err, size_t errlen);

/* The same on a new connection from a conninfo string or URI. */
int pgaios_start_dsn(struct pgaios *a, const char *conninfo,
		     const struct pgaios_cfg *cfg, char *err, size_t errlen);

/* Wake the thread at once, join it, close the connection (safe to repeat,
 * and after a start that did not start). Read the samples only after this. */
void pgaios_stop(struct pgaios *a);

void pgaios_free(struct pgaios *a);

/* Add one sample at T_NS from a result with pg_aios' state and length. 0 or -errno. */
int pgaios_add_sample(struct pgaios *a, uint64_t t_ns, const PGresult *r);

/* The state named NAME, PGAIOS_OTHER if unknown; and the name of a state. */
enum pgaios_state pgaios_state_of(const char *name);
const char *pgaios_state_name(enum pgaios_state s);

struct pgaios_summary {
	size_t   samples;           /* samples in force somewhere in the window */
	double   span_ms;
	double   in_flight_mean;    /* time-weighted */
	uint32_t in_flight_max;
	double   bytes_mean;        /* bytes in flight, time-weighted */
	uint64_t bytes_max;
	double   handles_mean;      /* handles in use in any state */
	uint32_t handles_max;
	double   busy_share;        /* share of the time with an I/O in flight */
};

/*
 * Summary over [T0, T1], clamped to the samples; the sample at or before a
 * moment is the value then. 0, -ENOENT without samples, -ERANGE for an
 * empty window. A window of one instant gives that instant's values.
 */
int pgaios_summarize(const struct pgaios *a, uint64_t t0, uint64_t t1,
		     struct pgaios_summary *out);

json_t *pgaios_summary_json(const struct pgaios_summary *s);

/* The summary of [T0, T1] as JSON, or null when that window is empty. */
json_t *pgaios_window_json(const struct pgaios *a, uint64_t t0, uint64_t t1);

/*
 * {"available": true, "interval_ms", "pid" (null: all), "samples",
 * "max_gap_ms", "max_query_ms", "failed_samples", "last_error",
 * "summary": {...whole run...}, "timeline": {"t_ms" (from ZERO_NS),
 * "in_flight", "bytes_in_flight", "handles": {state: counts, for the
 * states seen}}}.
 */
json_t *pgaios_json(const struct pgaios *a, uint64_t zero_ns);

#endif
