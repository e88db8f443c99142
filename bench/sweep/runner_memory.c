/*
 * runner_memory: free page reporting paused for the trials; see
 * runner_memory.h. How much memory is given back: twice the database (a
 * trial's page cache holds at most what the query reads of it, and the
 * page allocator does not always take the pages the last trial freed) and
 * 1 GiB for the server's and the replay's buffers, within the reserve
 * pagereport_back() keeps.
 */
#include "bench/sweep/runner_memory.h"

#include <stdio.h>
#include <stdlib.h>

#include <libpq-fe.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record.h"

/* The database's size in bytes, or 0 when it cannot be asked. */
static uint64_t database_bytes(struct runner *r)
{
	char err[512];
	PGconn *c = server_connect(&r->srv, NULL, err, sizeof(err));
	PGresult *res = c ? pgutil_query(c, sql_text("sweep/database_size.sql"), 0, NULL, err, sizeof(err)) : NULL;
	uint64_t n = res && PQntuples(res) == 1 ? strtoull(PQgetvalue(res, 0, 0), NULL, 10) : 0;

	PQclear(res);
	if (c)
		PQfinish(c);
	return n;
}

static void note_pause(struct runner *rs, int n, json_t *pause)
{
	for (int i = 0; i < n; i++) {
		char err[512];

		if (!rs[i].dir[0] || !memhold_record(rs[i].meta, pause))
			continue;
		if (record_meta_write(rs[i].dir, rs[i].meta, err, sizeof(err)) < 0)
			fprintf(stderr, "eicbench %s: %s\n", rs[i].cfg.command, err);
	}
	json_decref(pause);
}

void runner_memory_hold(struct runner *rs, int n, struct pagereport_hold *h)
{
	bool cold = false, keep = false;
	uint64_t bytes = 0;
	json_t *pause;

	*h = (struct pagereport_hold){ .fd = -1 };
	for (int i = 0; i < n; i++) {
		cold |= !rs[i].cfg.warm;
		keep |= rs[i].cfg.keep_page_reporting;
	}
	if (!cold)
		return;
	for (int i = 0; i < n && !bytes && !keep; i++)
		bytes = database_bytes(&rs[i]);
	if ((pause = memhold_take(h, rs[0].cfg.command, "the trials", keep, bytes)))
		note_pause(rs, n, pause);
}
