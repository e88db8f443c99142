/*
 * pgstats: what PostgreSQL's own I/O statistics (pg_stat_io, 16 and later)
 * counted between two moments: a snapshot of the view taken on a
 * connection, and the difference of two snapshots as JSON for a record.
 * On 16 and 17 a read is one block of op_bytes; on 18 op_bytes is gone and
 * a read is one I/O (neighbouring blocks combined) of read_bytes, so bytes
 * come from read_bytes on 18 and from reads x op_bytes before. Times are the
 * view's milliseconds (non-zero only with track_io_timing). Below 16 there is
 * no such view: PGSTATS_NOT_AVAILABLE, which is an answer, not an error.
 */
#ifndef BENCH_OBSERVE_PGSTATS_H
#define BENCH_OBSERVE_PGSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <libpq-fe.h>

/* Returned (positive) when the server has no such statistics; ERR says why. */
#define PGSTATS_NOT_AVAILABLE 1

/* The counters of every version (op_bytes is 16/17's, the *_BYTES 18's). */
enum pgstats_io_field {
	PGSTATS_READS, PGSTATS_READ_BYTES, PGSTATS_READ_TIME,
	PGSTATS_WRITES, PGSTATS_WRITE_BYTES, PGSTATS_WRITE_TIME,
	PGSTATS_WRITEBACKS, PGSTATS_WRITEBACK_TIME,
	PGSTATS_EXTENDS, PGSTATS_EXTEND_BYTES, PGSTATS_EXTEND_TIME,
	PGSTATS_HITS, PGSTATS_EVICTIONS, PGSTATS_REUSES,
	PGSTATS_FSYNCS, PGSTATS_FSYNC_TIME, PGSTATS_OP_BYTES,
	PGSTATS_IO_NFIELDS
};

/* One row of pg_stat_io: bit F of PRESENT is set when counter F is a
 * column of this version and not NULL (NULL: never happens there). */
struct pgstats_io_row {
	char     backend_type[64];
	char     object[32];
	char     context[32];
	char     stats_reset[48];
	double   v[PGSTATS_IO_NFIELDS];
	uint32_t present;
};

struct pgstats_io {
	int                    version_num;   /* server_version_num */
	bool                   bytes_columns; /* read_bytes and co. (18), not op_bytes */
	uint64_t               taken_ns;      /* io/clock.h, after the result came */
	struct pgstats_io_row *rows;
	size_t                 n;
};

/*
 * Flush this backend's pending statistics, then read pg_stat_io into SNAP
 * (on the query's own connection, so that its reads are in). 0,
 * PGSTATS_NOT_AVAILABLE below 16, or -errno with ERR filled.
 */
int pgstats_io_snapshot(PGconn *c, struct pgstats_io *snap, char *err, size_t errlen);

/* The rows of a pg_stat_io result (columns found by name) into SNAP. 0 or -errno. */
int pgstats_io_parse(const PGresult *r, int version_num, struct pgstats_io *snap,
		     char *err, size_t errlen);

void pgstats_io_free(struct pgstats_io *snap);

/*
 * What changed from A to B: {"available": true, "server_version_num",
 * "reads_are": "blocks" | "I/Os", "bytes_from": "op_bytes" | "read_bytes",
 * "elapsed_ms", "reset_between", "rows": [each backend_type/object/context
 * row that changed, with every counter it has], "totals": {backend type:
 * sums over its rows apart from object wal, for the client backend always,
 * io worker always on 18, and any other type that changed}}. A statistics
 * reset between the two leaves rows empty and totals null.
 */
json_t *pgstats_io_delta_json(const struct pgstats_io *a, const struct pgstats_io *b);

/*
 * 0 when a server of VERSION_NUM (server_version_num) is at least NEED;
 * else PGSTATS_NOT_AVAILABLE with ERR "WHAT needs PostgreSQL N or later
 * (the server is 15.18)".
 */
int pgstats_need_version(int version_num, int need, const char *what,
			 char *err, size_t errlen);

/* The embedded SQL file that reads pg_stat_io on VERSION_NUM (16 or later). */
const char *pgstats_io_sql(int version_num);

/* {"available": false, "why": WHY}: what a record carries when not available. */
json_t *pgstats_not_available_json(const char *why);

#endif
