/*
 * runner_memory: free page reporting paused for the trials; see
 * runner_memory.h. How much memory is given back: twice the database (a
 * trial's page cache holds at most what the query reads of it, and the
 * page allocator does not always take the pages the last trial freed) and
 * 1 GiB for the server's and the replay's buffers, within the reserve
 * pagereport_back() keeps.
 */
#include "bench/sweep/runner_memory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static json_t *pause_json(const struct pagereport_hold *h, bool kept, int recovered)
{
	if (kept)
		return json_pack("{s:b, s:b}", "kept", 1, "put_back_a_dead_pause", recovered > 0);
	if (!h->paused)
		return json_pack("{s:b, s:s}", "paused", 0, "why", h->why[0] ? h->why : "not paused");
	return json_pack("{s:b, s:s, s:I, s:o, s:f, s:f}", "paused", 1,
			 "by", h->by_us ? "this command" : h->found_paused ?
			       "nobody: found paused with no eicbench holding it, and left so" :
			       "another eicbench, still running",
			 "order", (json_int_t)h->order_paused,
			 "order_put_back", h->order_before >= 0 ? json_integer(h->order_before) : json_null(),
			 "memory_given_back_mib", h->backed_mib, "memory_given_back_s", h->backed_s);
}

static void record(struct runner *rs, int n, json_t *pause)
{
	for (int i = 0; i < n; i++) {
		json_t *host = json_object_get(rs[i].meta, "host");
		json_t *fpr = json_object_get(host, "free_page_reporting");
		char err[512];

		if (!json_is_object(fpr) || !rs[i].dir[0])
			continue;
		json_object_set(fpr, "pause", pause);
		if (record_meta_write(rs[i].dir, rs[i].meta, err, sizeof(err)) < 0)
			fprintf(stderr, "eicbench %s: %s\n", rs[i].cfg.command, err);
	}
	json_decref(pause);
}

void runner_memory_hold(struct runner *rs, int n, struct pagereport_hold *h)
{
	const char *env = getenv("EICBENCH_PAGE_REPORTING");
	const char *cmd = rs[0].cfg.command;
	bool cold = false, keep = env && strcmp(env, "keep") == 0;
	uint64_t want = 0;

	*h = (struct pagereport_hold){ .fd = -1 };
	for (int i = 0; i < n; i++) {
		cold |= !rs[i].cfg.warm;
		keep |= rs[i].cfg.keep_page_reporting;
	}
	if (!cold)
		return;
	(void)mkdir(RUNNER_MEMORY_DIR, 0755);
	if (keep) {
		int back = pagereport_recover(NULL, NULL, RUNNER_MEMORY_STATE);

		if (back > 0)
			fprintf(stderr, "eicbench %s: free page reporting put back as an earlier eicbench that died had left it\n", cmd);
		record(rs, n, pause_json(h, true, back));
		return;
	}
	(void)pagereport_pause(h, NULL, NULL, RUNNER_MEMORY_STATE);
	if (!h->on)
		return;
	if (!h->paused) {
		fprintf(stderr, "eicbench %s: the host takes free memory back, and reporting could not be paused (%s): the cold figures include the host's refaults\n",
			cmd, h->why);
		record(rs, n, pause_json(h, false, 0));
		return;
	}
	if (pagereport_gives_back(h)) {
		for (int i = 0; i < n && !want; i++)
			want = database_bytes(&rs[i]);
		want = (2 * want + (1ull << 30) + PAGEREPORT_BACK_CHUNK - 1) / PAGEREPORT_BACK_CHUNK * PAGEREPORT_BACK_CHUNK;
		if (h->by_us)
			fprintf(stderr, "eicbench %s: the host takes free memory back: free page reporting paused for the trials (page_reporting_order %ld, put back to %ld after); giving back up to %.1f GiB of memory first\n",
				cmd, h->order_paused, h->order_before, (double)want / (1ull << 30));
		else
			fprintf(stderr, "eicbench %s: free page reporting was found paused (page_reporting_order %ld) with no eicbench holding it: left so after; giving back up to %.1f GiB of memory first\n",
				cmd, h->order_paused, (double)want / (1ull << 30));
		pagereport_back(h, NULL, want);
		fprintf(stderr, "eicbench %s: %.1f GiB given back in %.1f s\n", cmd, h->backed_mib / 1024, h->backed_s);
	}
	record(rs, n, pause_json(h, false, 0));
}

int runner_memory_check_env(char *err, size_t errlen)
{
	const char *env = getenv("EICBENCH_PAGE_REPORTING");

	if (!env || !strcmp(env, "keep") || !strcmp(env, "pause"))
		return 0;
	snprintf(err, errlen, "EICBENCH_PAGE_REPORTING '%.64s' is neither 'keep' (leave the host's free page reporting on) nor 'pause' (the default); set one, or unset it",
		 env);
	return -EINVAL;
}
