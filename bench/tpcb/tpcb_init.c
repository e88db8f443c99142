/*
 * tpcb_init: pgbench's four tables, made fresh. pgbench_accounts (100,000
 * rows per scale unit) streams through binary COPY with FREEZE into a table
 * created in the same transaction, then is vacuumed and gets its primary
 * key; meanwhile a second session makes branches, tellers and history (the
 * small ones) the same way. Foreign keys come last, if asked for, then a
 * row in eicbench_tpcb naming the pgbench_accounts made. Tables eicbench did
 * not make are never dropped without --force. Rows are pgbench's: aid, bid
 * = (aid - 1) / 100000 + 1, balances 0, accounts' filler '' (blank-padded
 * by the server), the other fillers NULL; aid is bigint from scale 20,000.
 */
#include "bench/tpcb/tpcb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/dataset/generator.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "io/clock.h"

#define CHUNK_ROWS 8192
#define ROW_MAX    40          /* bytes of one binary accounts row */

struct init {
	const struct server *s;
	const struct tpcb_init_config *cfg;
	tpcb_step_fn step;
	void *arg;
	char *err;
	size_t errlen;
};

static bool stopped(const struct init *in)
{
	return in->cfg->stop && *in->cfg->stop;
}

static const char *aid_type(long long scale)
{
	return scale >= TPCB_BIGINT_SCALE ? "bigint" : "int";
}

/* Every statement of sql/NAME after filling in the aid type and fillfactor. */
static int exec_formatted(PGconn *c, const struct init *in, const char *name)
{
	char text[2048], stmt[1024];
	size_t pos = 0;
	int n;

	snprintf(text, sizeof(text), sql_text(name), aid_type(in->cfg->scale),
		 in->cfg->fillfactor);
	while ((n = sql_next_statement(text, &pos, stmt, sizeof(stmt))) > 0)
		if (pgutil_exec(c, stmt, 0, NULL, in->err, in->errlen) < 0)
			return -EIO;
	return n < 0 ? -EINVAL : 0;
}

/* ---- binary COPY ------------------------------------------------------------ */

static char *put16(char *p, uint16_t v)
{
	v = htons(v);
	memcpy(p, &v, 2);
	return p + 2;
}

static char *put_int(char *p, int64_t v, bool wide)
{
	uint32_t len = htonl(wide ? 8 : 4), hi = htonl((uint32_t)((uint64_t)v >> 32));
	uint32_t lo = htonl((uint32_t)v);

	memcpy(p, &len, 4);
	if (wide) {
		memcpy(p + 4, &hi, 4);
		p += 4;
	}
	memcpy(p + 4, &lo, 4);
	return p + 8;
}

/* Rows FIRST.. of TABLE ('a' accounts, 'b' branches, 't' tellers) into BUF. */
static size_t encode_rows(char table, int64_t first, size_t count, bool wide, char *buf)
{
	char *p = buf;

	for (size_t k = 0; k < count; k++) {
		int64_t id = first + (int64_t)k;

		if (table == 'a') {
			p = put16(p, 4);
			p = put_int(p, id, wide);
			p = put_int(p, (id - 1) / TPCB_ACCOUNTS + 1, false);
			p = put_int(p, 0, false);
			memset(p, 0, 4);	/* filler: '' */
			p += 4;
		} else if (table == 't') {
			p = put16(p, 3);
			p = put_int(p, id, false);
			p = put_int(p, (id - 1) / TPCB_TELLERS + 1, false);
			p = put_int(p, 0, false);
		} else {
			p = put16(p, 2);
			p = put_int(p, id, false);
			p = put_int(p, 0, false);
		}
	}
	return (size_t)(p - buf);
}

/* End the COPY (ABORT_MSG: cancel it) and read its result. */
static int copy_finish(PGconn *c, const char *abort_msg, const struct init *in)
{
	PGresult *r;
	int ret = PQputCopyEnd(c, abort_msg) == 1 ? 0 : -EIO;

	while ((r = PQgetResult(c)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && ret == 0 && !abort_msg) {
			snprintf(in->err, in->errlen, "COPY failed: %s", PQresultErrorMessage(r));
			ret = -EIO;
		}
		PQclear(r);
	}
	return ret;
}

/* Send ROWS rows of TABLE from BUF in chunks; how many went. */
static int64_t stream_rows(PGconn *c, const struct init *in, char table, int64_t rows,
			   char *buf, size_t len)
{
	bool wide = table == 'a' && in->cfg->scale >= TPCB_BIGINT_SCALE;
	double last = 0;
	int64_t done = 0;

	while (done < rows && !stopped(in)) {
		size_t k = rows - done < CHUNK_ROWS ? (size_t)(rows - done) : CHUNK_ROWS;

		len += encode_rows(table, done + 1, k, wide, buf + len);
		if (PQputCopyData(c, buf, (int)len) != 1)
			break;
		done += (int64_t)k;
		len = 0;
		if (table == 'a' && in->step && clock_now_ms() - last > 200) {
			in->step(in->arg, "copy", (double)done, (double)rows, "rows");
			last = clock_now_ms();
		}
	}
	if (table == 'a' && in->step)
		in->step(in->arg, "copy", (double)done, (double)rows, "rows");
	return done;
}

/* Stream ROWS rows of TABLE through the COPY of sql/NAME. */
static int copy_table(PGconn *c, const struct init *in, const char *name, char table,
		      int64_t rows)
{
	char *buf = malloc(CHUNK_ROWS * ROW_MAX + GEN_COPY_HEADER_BYTES);
	PGresult *r = buf ? PQexec(c, sql_text(name)) : NULL;
	int64_t done;

	if (PQresultStatus(r) != PGRES_COPY_IN) {
		snprintf(in->err, in->errlen, "COPY did not start: %s",
			 r ? PQresultErrorMessage(r) : "out of memory");
		PQclear(r);
		free(buf);
		return -EIO;
	}
	PQclear(r);
	done = stream_rows(c, in, table, rows, buf, gen_copy_header(buf));
	if (done == rows && PQputCopyData(c, buf, (int)gen_copy_trailer(buf)) != 1)
		done = -1;
	free(buf);
	if (done == rows)
		return copy_finish(c, NULL, in);
	snprintf(in->err, in->errlen, "%s", stopped(in) ? "interrupted while copying rows" :
		 PQerrorMessage(c));
	copy_finish(c, "interrupted", in);
	return stopped(in) ? -EINTR : -EIO;
}

/* ---- the two sessions ------------------------------------------------------ */

static PGconn *session(const struct init *in)
{
	PGconn *c = server_connect(in->s, NULL, in->err, in->errlen);

	if (c && pgutil_exec_file(c, "tpcb/init_session.sql", in->err, in->errlen) < 0) {
		PQfinish(c);
		return NULL;
	}
	return c;
}

static double since(double *t)
{
	double now = clock_now_ms(), d = (now - *t) / 1e3;

	*t = now;
	return d;
}

/*
 * In one transaction: create FILE's tables, then COPY each with FREEZE.
 * CREATE_S (may be NULL) gets the time the tables took to make.
 */
static int create_and_copy(PGconn *c, const struct init *in, const char *file,
			   const char *const *copies, const char *tables, const int64_t *rows,
			   double *create_s)
{
	double t = clock_now_ms();
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, in->err, in->errlen);

	if (ret == 0)
		ret = exec_formatted(c, in, file);
	if (create_s)
		*create_s = since(&t);
	for (int i = 0; ret == 0 && copies[i]; i++)
		ret = copy_table(c, in, copies[i], tables[i], rows[i]);
	if (ret == 0)
		return pgutil_exec(c, "COMMIT", 0, NULL, in->err, in->errlen);
	PQclear(PQexec(c, "ROLLBACK"));
	return ret;
}

struct small {
	struct init in;
	char err[1024];
	int ret;
};

/* Branches, tellers and history: the second session, in its own thread. */
static void *load_small(void *arg)
{
	static const char *const copies[] = { "tpcb/copy_branches.sql", "tpcb/copy_tellers.sql", NULL };
	struct small *sm = arg;
	const struct init *in = &sm->in;
	int64_t rows[] = { in->cfg->scale, in->cfg->scale * TPCB_TELLERS };
	PGconn *c = session(in);

	sm->ret = c ? create_and_copy(c, in, "tpcb/init_small.sql", copies, "bt", rows, NULL) : -EIO;
	if (sm->ret == 0)
		sm->ret = pgutil_exec_file(c, "tpcb/keys_small.sql", sm->err, sizeof(sm->err));
	if (sm->ret == 0)
		sm->ret = pgutil_exec_file(c, "tpcb/vacuum_small.sql", sm->err, sizeof(sm->err));
	PQfinish(c);
	return NULL;
}

/* pgbench_accounts: create and copy, vacuum, key; each step timed. */
static int load_accounts(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	static const char *const copies[] = { "tpcb/copy_accounts.sql", NULL };
	int64_t rows[] = { in->cfg->scale * TPCB_ACCOUNTS };
	double t = clock_now_ms();
	int ret = create_and_copy(c, in, "tpcb/init_accounts.sql", copies, "a", rows,
				  &out->create_s);

	out->generate_s = since(&t) - out->create_s;
	if (in->step)
		in->step(in->arg, "vacuum", 0, 1, "");
	if (ret == 0)
		ret = pgutil_exec_file(c, "tpcb/vacuum_accounts.sql", in->err, in->errlen);
	out->vacuum_s = since(&t);
	if (in->step)
		in->step(in->arg, "keys", 0, 1, "");
	if (ret == 0)
		ret = pgutil_exec_file(c, "tpcb/keys_accounts.sql", in->err, in->errlen);
	out->keys_s = since(&t);
	return ret;
}

/* ---- around the load ------------------------------------------------------- */

/* Refuse pgbench tables that the last finished init did not make. */
static int check_owner(PGconn *c, const struct init *in)
{
	PGresult *r = pgutil_query(c, sql_text("tpcb/init_owner.sql"), 0, NULL, in->err, in->errlen);
	bool any, marker, owned = false;

	if (!r)
		return -EIO;
	any = !strcmp(PQgetvalue(r, 0, 0), "t");
	marker = !strcmp(PQgetvalue(r, 0, 1), "t");
	PQclear(r);
	if (any && marker) {
		r = pgutil_query(c, sql_text("tpcb/init_owned.sql"), 0, NULL, in->err, in->errlen);
		if (!r)
			return -EIO;
		owned = !strcmp(PQgetvalue(r, 0, 0), "t");
		PQclear(r);
	}
	if (!any || owned || in->cfg->force)
		return 0;
	snprintf(in->err, in->errlen, "the database holds pgbench tables that eicbench did not make (pgbench -i's, or another tool's); eicbench will not drop them: give --force to replace them, or use another database");
	return -EINVAL;
}

static int record(PGconn *c, const struct init *in, const struct tpcb_init_result *out)
{
	char scale[32], *info;
	json_t *j = json_pack("{s:I, s:i, s:b, s:f, s:f, s:f, s:f, s:f}",
			      "scale", (json_int_t)out->scale, "fillfactor", in->cfg->fillfactor,
			      "foreign_keys", in->cfg->foreign_keys, "generate_s", out->generate_s,
			      "vacuum_s", out->vacuum_s, "keys_s", out->keys_s,
			      "create_s", out->create_s, "drop_s", out->drop_s);
	const char *p[2] = { scale, NULL };
	int ret;

	snprintf(scale, sizeof(scale), "%lld", out->scale);
	info = json_dumps(j, JSON_COMPACT);
	p[1] = info;
	ret = pgutil_exec(c, sql_text("tpcb/init_record.sql"), 2, p, in->err, in->errlen);
	free(info);
	json_decref(j);
	return ret;
}

static int read_sizes(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	PGresult *r = pgutil_query(c, sql_text("tpcb/sizes.sql"), 0, NULL, in->err, in->errlen);

	if (!r)
		return -EIO;
	out->accounts_bytes = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
	out->total_bytes = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
	PQclear(r);
	return 0;
}

static int prepare(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	double t = clock_now_ms();
	int ret = check_owner(c, in);

	if (in->cfg->scale < 1 || in->cfg->scale > TPCB_MAX_SCALE ||
	    in->cfg->fillfactor < 10 || in->cfg->fillfactor > 100) {
		snprintf(in->err, in->errlen, "scale %lld or fillfactor %d is out of range (1..%lld, 10..100)",
			 in->cfg->scale, in->cfg->fillfactor, TPCB_MAX_SCALE);
		return -EINVAL;
	}
	if (ret == 0)
		ret = pgutil_exec_file(c, "tpcb/init_marker.sql", in->err, in->errlen);
	if (ret == 0)
		ret = pgutil_exec_file(c, "tpcb/init_drop.sql", in->err, in->errlen);
	out->drop_s = since(&t);
	return ret;
}

/* Both sessions at once; the small tables' errors come second. */
static int load(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	struct small sm = { .in = *in };
	pthread_t tid;
	int ret, started;

	sm.in.err = sm.err;
	sm.in.errlen = sizeof(sm.err);
	sm.in.step = NULL;
	started = pthread_create(&tid, NULL, load_small, &sm) == 0;
	if (!started)
		load_small(&sm);
	ret = load_accounts(c, in, out);
	if (started)
		pthread_join(tid, NULL);
	if (ret == 0 && sm.ret < 0) {
		snprintf(in->err, in->errlen, "%s", sm.err);
		ret = sm.ret;
	}
	return ret;
}

int tpcb_init(const struct server *s, const struct tpcb_init_config *cfg,
	      tpcb_step_fn step, void *arg, struct tpcb_init_result *out,
	      char *err, size_t errlen)
{
	struct init in = { s, cfg, step, arg, err, errlen };
	double t0 = clock_now_ms();
	PGconn *c = session(&in);
	int ret = c ? 0 : -EIO;

	memset(out, 0, sizeof(*out));
	out->scale = cfg->scale;
	if (ret == 0)
		ret = prepare(c, &in, out);
	if (ret == 0)
		ret = load(c, &in, out);
	if (ret == 0 && cfg->foreign_keys) {
		double t = clock_now_ms();

		ret = pgutil_exec_file(c, "tpcb/foreign_keys.sql", err, errlen);
		out->keys_s += since(&t);
	}
	out->total_s = (clock_now_ms() - t0) / 1e3;
	if (ret == 0)
		ret = record(c, &in, out);
	if (ret == 0)
		ret = read_sizes(c, &in, out);
	PQfinish(c);
	return ret;
}
