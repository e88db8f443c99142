/*
 * pgstats-watch: a driver for tests/it/pgstats.sh that runs the server-side
 * watchers the way a trial does, on a real server: list the I/O workers,
 * snapshot pg_stat_io, start the pg_aios sampler on a second connection,
 * run QUERY (after the -s statements) while a third connection looks for
 * the backend's parallel workers, stop, snapshot again, and print one JSON
 * object: {"server_version_num", "backend_pid", "query_ms", "result" (the
 * first cell, as JSON when it is), "pg_stat_io", "pg_aios", "procs",
 * "parallel_workers"}. "Not available" parts say so and are no error.
 *
 * usage: pgstats-watch [-i INTERVAL_MS] [-s SQL]... CONNINFO QUERY
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libpq-fe.h>

#include "bench/observe/pgaios.h"
#include "bench/observe/pgprocs.h"
#include "bench/observe/pgstats.h"
#include "io/clock.h"

#define MAX_SETUP 16

struct args {
	int         interval_ms;
	const char *setup[MAX_SETUP];
	int         nsetup;
	const char *conninfo, *query;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	int opt;

	memset(a, 0, sizeof(*a));
	while ((opt = getopt(argc, argv, "i:s:")) != -1) {
		if (opt == 'i')
			a->interval_ms = atoi(optarg);
		else if (opt == 's' && a->nsetup < MAX_SETUP)
			a->setup[a->nsetup++] = optarg;
		else
			return -EINVAL;
	}
	if (argc - optind != 2)
		return -EINVAL;
	a->conninfo = argv[optind];
	a->query = argv[optind + 1];
	return 0;
}

static PGconn *connect_to(const char *conninfo)
{
	PGconn *c = PQconnectdb(conninfo);

	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "pgstats-watch: cannot connect: %s", PQerrorMessage(c));
		PQfinish(c);
		return NULL;
	}
	return c;
}

/* PROCS as JSON, or "not available" / the error. */
static json_t *procs_json(int ret, const struct pgprocs *p, const char *err)
{
	if (ret == PGSTATS_NOT_AVAILABLE)
		return pgstats_not_available_json(err);
	if (ret < 0)
		return json_pack("{s:s}", "error", err);
	return json_pack("{s:b, s:b, s:i, s:o}", "available", 1, "io_workers_possible",
			 p->io_workers_possible, "io_workers", pgprocs_count(p, "io worker"),
			 "list", pgprocs_json(p));
}

/* Add the parallel workers of P not yet in SEEN. */
static void merge_parallel(json_t *seen, const struct pgprocs *p)
{
	for (int i = 0; i < p->n; i++) {
		size_t k;
		json_t *v;
		int found = 0;

		if (strcmp(p->p[i].role, "parallel worker"))
			continue;
		json_array_foreach(seen, k, v)
			found |= json_integer_value(v) == p->p[i].pid;
		if (!found)
			json_array_append_new(seen, json_integer(p->p[i].pid));
	}
}

/* Run the query, looking for the leader's parallel workers meanwhile. */
static PGresult *run_query(PGconn *c, PGconn *look, const char *query, json_t *parallel)
{
	pid_t leader = PQbackendPID(c);
	PGresult *r, *extra;

	if (!PQsendQuery(c, query))
		return NULL;
	while (PQisBusy(c)) {
		struct pollfd p = { .fd = PQsocket(c), .events = POLLIN };
		struct pgprocs procs;
		char err[256];

		if (look && pgprocs_list(look, leader, &procs, err, sizeof(err)) == 0)
			merge_parallel(parallel, &procs);
		poll(&p, 1, 10);
		if (!PQconsumeInput(c))
			break;
	}
	r = PQgetResult(c);
	while ((extra = PQgetResult(c)) != NULL)
		PQclear(extra);
	return r;
}

static json_t *first_cell(const PGresult *r)
{
	json_t *j;

	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) < 1)
		return json_null();
	j = json_loads(PQgetvalue(r, 0, 0), JSON_DECODE_ANY, NULL);
	return j ? j : json_string(PQgetvalue(r, 0, 0));
}

static json_t *stats_json(int ra, int rb, const struct pgstats_io *a,
			  const struct pgstats_io *b, const char *err)
{
	if (ra == PGSTATS_NOT_AVAILABLE)
		return pgstats_not_available_json(err);
	if (ra < 0 || rb != 0)
		return json_pack("{s:s}", "error", err);
	return pgstats_io_delta_json(a, b);
}

static int watch(const struct args *a, PGconn *c, PGconn *look, json_t *out)
{
	struct pgaios_cfg cfg = { .interval_ms = a->interval_ms, .pid = PQbackendPID(c) };
	struct pgstats_io s0 = { 0 }, s1 = { 0 };
	struct pgaios aios;
	struct pgprocs procs;
	char err[512] = "", aerr[512] = "", perr[512] = "";
	int rp = pgprocs_list(c, 0, &procs, perr, sizeof(perr));
	int r0 = pgstats_io_snapshot(c, &s0, err, sizeof(err)), r1 = -1, ra;
	json_t *parallel = json_array();
	uint64_t sent, done;
	PGresult *res;

	ra = pgaios_start_dsn(&aios, a->conninfo, &cfg, aerr, sizeof(aerr));
	sent = clock_now_ns();
	res = run_query(c, look, a->query, parallel);
	done = clock_now_ns();
	pgaios_stop(&aios);
	if (r0 == 0)
		r1 = pgstats_io_snapshot(c, &s1, err, sizeof(err));
	json_object_set_new(out, "query_ms", json_real((double)(done - sent) / 1e6));
	json_object_set_new(out, "query_error", PQresultStatus(res) == PGRES_TUPLES_OK ? json_null()
			    : json_string(PQresultErrorMessage(res)));
	json_object_set_new(out, "result", first_cell(res));
	json_object_set_new(out, "pg_stat_io", stats_json(r0, r1, &s0, &s1, err));
	json_object_set_new(out, "pg_aios", ra == 0 ? pgaios_json(&aios, sent)
			    : ra == PGSTATS_NOT_AVAILABLE ? pgstats_not_available_json(aerr)
			    : json_pack("{s:s}", "error", aerr));
	json_object_set_new(out, "procs", procs_json(rp, &procs, perr));
	json_object_set_new(out, "parallel_workers", parallel);
	PQclear(res);
	pgaios_free(&aios);
	pgstats_io_free(&s0);
	pgstats_io_free(&s1);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	PGconn *c, *look;
	json_t *out;

	if (parse_args(argc, argv, &a) < 0) {
		fprintf(stderr, "usage: pgstats-watch [-i INTERVAL_MS] [-s SQL]... CONNINFO QUERY\n");
		return 2;
	}
	if (!(c = connect_to(a.conninfo)) || !(look = connect_to(a.conninfo)))
		return 1;
	for (int i = 0; i < a.nsetup; i++) {
		PGresult *r = PQexec(c, a.setup[i]);

		if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
			fprintf(stderr, "pgstats-watch: %s: %s", a.setup[i], PQresultErrorMessage(r));
			return 1;
		}
		PQclear(r);
	}
	out = json_pack("{s:i, s:i}", "server_version_num", PQserverVersion(c),
			"backend_pid", PQbackendPID(c));
	watch(&a, c, look, out);
	json_dumpf(out, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(out);
	PQfinish(look);
	PQfinish(c);
	return 0;
}
