/*
 * tpcb_init: pgbench's four tables, step by step as pgbench's -I gives
 * them (d drop, t create, g generate client-side, G server-side, v vacuum,
 * p primary keys, f foreign keys; default dtgvp). Client-side rows stream
 * through binary COPY, with FREEZE into tables created or emptied in the
 * same transaction (not into a partitioned pgbench_accounts, which takes no
 * FREEZE); when t comes right before g the two are one transaction per
 * session: pgbench_accounts in this one while a second session makes
 * branches, tellers and history. --unlogged-tables, --tablespace,
 * --index-tablespace and --partitions (range or hash) shape the tables as
 * pgbench's. After t, a row in eicbench_tpcb names the pgbench_accounts
 * made; tables eicbench did not make are never dropped without --force.
 * Rows are pgbench's: aid, bid = (aid - 1) / 100000 + 1, balances 0,
 * accounts' filler '' (blank-padded by the server), the other fillers NULL;
 * aid is bigint from scale 20,000.
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
	char  fill[48], space[320], index_space[340], unlogged[12], scale[24];
	bool  freeze;                  /* pgbench_accounts takes COPY ... FREEZE */
};

static bool stopped(const struct init *in)
{
	return in->cfg->stop && *in->cfg->stop;
}

static const char *aid_type(long long scale)
{
	return scale >= TPCB_BIGINT_SCALE ? "bigint" : "int";
}

/* Every statement of sql/NAME with its %n$s filled from A..E (as many as it names). */
static int exec_args(PGconn *c, const struct init *in, const char *name, const char *a,
		     const char *b, const char *cc, const char *d, const char *e)
{
	char text[4096], stmt[2048];
	size_t pos = 0;
	int n;

	snprintf(text, sizeof(text), sql_text(name), a, b, cc, d, e);
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

	if (table == 'a' && in->step)
		in->step(in->arg, "copy", 0, (double)rows, "rows");
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

/* ---- sessions and steps ------------------------------------------------------ */

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

static void say(const struct init *in, const char *what)
{
	if (in->step)
		in->step(in->arg, what, 0, 0, "");
}

static const char *accounts_copy(const struct init *in)
{
	return in->freeze ? "tpcb/copy_accounts.sql" : "tpcb/copy_accounts_plain.sql";
}

/* The partitions of pgbench_accounts, pgbench's bounds. */
static int partitions(PGconn *c, const struct init *in)
{
	const struct tpcb_init_config *cfg = in->cfg;
	long long rows = cfg->scale * TPCB_ACCOUNTS, size = (rows + cfg->partitions - 1) / cfg->partitions;
	int ret = 0;

	for (int p = 1; ret == 0 && p <= cfg->partitions; p++) {
		char no[16], bounds[96], lo[24], hi[24];

		snprintf(no, sizeof(no), "%d", p);
		if (cfg->partition_method == TPCB_PART_HASH) {
			snprintf(bounds, sizeof(bounds), "WITH (MODULUS %d, REMAINDER %d)", cfg->partitions, p - 1);
		} else {
			snprintf(lo, sizeof(lo), p == 1 ? "MINVALUE" : "%lld", (p - 1) * size + 1);
			snprintf(hi, sizeof(hi), p == cfg->partitions ? "MAXVALUE" : "%lld", p * size + 1);
			snprintf(bounds, sizeof(bounds), "FROM (%s) TO (%s)", lo, hi);
		}
		ret = exec_args(c, in, "tpcb/init_partition.sql", in->unlogged, no, bounds, in->fill, in->space);
	}
	return ret;
}

static int create_accounts(PGconn *c, const struct init *in)
{
	const char *part = in->cfg->partitions == 0 ? "" :
			   in->cfg->partition_method == TPCB_PART_HASH ? " PARTITION BY HASH (aid)" :
			   " PARTITION BY RANGE (aid)";
	int ret = exec_args(c, in, "tpcb/init_accounts.sql", aid_type(in->cfg->scale),
			    in->cfg->partitions ? "" : in->fill, in->unlogged, in->space, part);

	return ret == 0 && in->cfg->partitions ? partitions(c, in) : ret;
}

static int create_small(PGconn *c, const struct init *in)
{
	return exec_args(c, in, "tpcb/init_small.sql", aid_type(in->cfg->scale), in->fill,
			 in->unlogged, in->space, "");
}

/* In one transaction: make (CREATE) or empty the tables, then COPY each. */
static int fill_tables(PGconn *c, const struct init *in, int (*make)(PGconn *, const struct init *),
		       const char *const *copies, const char *tables, const int64_t *rows,
		       double *create_s)
{
	double t = clock_now_ms();
	int ret = pgutil_exec(c, "BEGIN", 0, NULL, in->err, in->errlen);

	if (ret == 0)
		ret = make(c, in);
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

/* Branches, tellers and history made and filled: the second session's part of tg. */
static void *make_small(void *arg)
{
	static const char *const copies[] = { "tpcb/copy_branches.sql", "tpcb/copy_tellers.sql", NULL };
	struct small *sm = arg;
	const struct init *in = &sm->in;
	int64_t rows[] = { in->cfg->scale, in->cfg->scale * TPCB_TELLERS };
	PGconn *c = session(in);

	sm->ret = c ? fill_tables(c, in, create_small, copies, "bt", rows, NULL) : -EIO;
	PQfinish(c);
	return NULL;
}

/* t then g: both sessions at once; the small tables' errors come second. */
static int create_and_generate(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	const char *copies[] = { accounts_copy(in), NULL };
	int64_t rows[] = { in->cfg->scale * TPCB_ACCOUNTS };
	struct small sm = { .in = *in };
	double t = clock_now_ms();
	pthread_t tid;
	int ret, started;

	say(in, "creating tables...");
	sm.in.err = sm.err;
	sm.in.errlen = sizeof(sm.err);
	sm.in.step = NULL;
	started = pthread_create(&tid, NULL, make_small, &sm) == 0;
	if (!started)
		make_small(&sm);
	say(in, "generating data (client-side)...");
	ret = fill_tables(c, in, create_accounts, copies, "a", rows, &out->create_s);
	if (started)
		pthread_join(tid, NULL);
	out->generate_s = since(&t) - out->create_s;
	if (ret == 0 && sm.ret < 0) {
		snprintf(in->err, in->errlen, "%s", sm.err);
		ret = sm.ret;
	}
	return ret;
}

static int create_all(PGconn *c, const struct init *in)
{
	int ret = create_small(c, in);

	return ret == 0 ? create_accounts(c, in) : ret;
}

static int truncate_all(PGconn *c, const struct init *in)
{
	return pgutil_exec_file(c, "tpcb/truncate_all.sql", in->err, in->errlen);
}

/* g alone: empty every table and fill it, in one transaction. */
static int generate_client(PGconn *c, const struct init *in)
{
	const char *copies[] = { "tpcb/copy_branches.sql", "tpcb/copy_tellers.sql", accounts_copy(in), NULL };
	int64_t rows[] = { in->cfg->scale, in->cfg->scale * TPCB_TELLERS, in->cfg->scale * TPCB_ACCOUNTS };

	say(in, "generating data (client-side)...");
	return fill_tables(c, in, truncate_all, copies, "bta", rows, NULL);
}

static int keys(PGconn *c, const struct init *in)
{
	int ret;

	say(in, "creating primary keys...");
	ret = exec_args(c, in, "tpcb/keys_small.sql", in->index_space, "", "", "", "");
	return ret == 0 ? exec_args(c, in, "tpcb/keys_accounts.sql", in->index_space, "", "", "", "") : ret;
}

static int vacuum(PGconn *c, const struct init *in)
{
	int ret;

	say(in, "vacuuming...");
	ret = pgutil_exec_file(c, "tpcb/vacuum_small.sql", in->err, in->errlen);
	return ret == 0 ? pgutil_exec_file(c, "tpcb/vacuum_accounts.sql", in->err, in->errlen) : ret;
}

/* ---- around the steps ------------------------------------------------------- */

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

static int save_init_result(PGconn *c, const struct init *in, const struct tpcb_init_result *out)
{
	char scale[32], *info;
	json_t *j = json_pack("{s:I, s:i, s:s, s:b, s:i, s:f, s:f, s:f, s:f, s:f}",
			      "scale", (json_int_t)out->scale, "fillfactor", in->cfg->fillfactor,
			      "steps", out->steps, "unlogged", in->cfg->unlogged,
			      "partitions", in->cfg->partitions, "generate_s", out->generate_s,
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

static void read_sizes(PGconn *c, const struct init *in, struct tpcb_init_result *out)
{
	char err[256];
	PGresult *r = pgutil_query(c, sql_text("tpcb/sizes.sql"), 0, NULL, err, sizeof(err));

	(void)in;
	if (!r)
		return;	/* without all the tables there is nothing to size */
	out->accounts_bytes = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
	out->total_bytes = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
	PQclear(r);
}

/* The clauses of the options, identifiers quoted by the server's rules. */
/* Tablespace NAME (OPT names the option): there, and tables may be made in
 * it by this user; asked before any step, so a wrong one drops nothing. */
static int check_tablespace(PGconn *c, const struct init *in, const char *opt, const char *name)
{
	PGresult *r;
	bool there, may, global;

	if (!name)
		return 0;
	r = pgutil_query(c, sql_text("tpcb/init_tablespace.sql"), 1, &name, in->err, in->errlen);
	if (!r)
		return -EIO;
	there = !strcmp(PQgetvalue(r, 0, 0), "t");
	may = !strcmp(PQgetvalue(r, 0, 1), "t");
	global = !strcmp(PQgetvalue(r, 0, 2), "t");
	PQclear(r);
	if (there && may && !global)
		return 0;
	snprintf(in->err, in->errlen, "%s \"%.200s\": %s; nothing was dropped: give a tablespace of this server (SELECT spcname FROM pg_tablespace) where this user may create tables",
		 opt, name, !there ? "no such tablespace" : global ? "pg_global holds shared catalogs only" :
		 "this user may not create tables in it");
	return -EINVAL;
}

static int clauses(PGconn *c, struct init *in)
{
	const struct tpcb_init_config *cfg = in->cfg;
	char *q;

	snprintf(in->fill, sizeof(in->fill), " WITH (fillfactor = %d)", cfg->fillfactor);
	snprintf(in->unlogged, sizeof(in->unlogged), "%s", cfg->unlogged ? "UNLOGGED " : "");
	snprintf(in->scale, sizeof(in->scale), "%lld", cfg->scale);
	in->freeze = cfg->partitions == 0;
	if (cfg->tablespace) {
		if (!(q = PQescapeIdentifier(c, cfg->tablespace, strlen(cfg->tablespace))))
			return -ENOMEM;
		snprintf(in->space, sizeof(in->space), " TABLESPACE %s", q);
		PQfreemem(q);
	}
	if (cfg->index_tablespace) {
		if (!(q = PQescapeIdentifier(c, cfg->index_tablespace, strlen(cfg->index_tablespace))))
			return -ENOMEM;
		snprintf(in->index_space, sizeof(in->index_space), " USING INDEX TABLESPACE %s", q);
		PQfreemem(q);
	}
	return 0;
}

int tpcb_init_check(const struct tpcb_init_config *cfg, char *err, size_t errlen)
{
	const char *steps = cfg->steps ? cfg->steps : TPCB_INIT_STEPS_DEFAULT;
	bool any = false;

	for (const char *p = steps; *p; p++) {
		if (*p != ' ' && !strchr(TPCB_INIT_STEPS_ALL, *p)) {
			snprintf(err, errlen, "unrecognized initialization step \"%c\"; allowed step characters are: \"%s\"",
				 *p, TPCB_INIT_STEPS_ALL);
			return -EINVAL;
		}
		any |= *p != ' ';
	}
	if (!any) {
		snprintf(err, errlen, "no initialization steps specified; give -I with some of \"%s\"",
			 TPCB_INIT_STEPS_ALL);
		return -EINVAL;
	}
	if (cfg->scale < 1 || cfg->scale > TPCB_MAX_SCALE || cfg->fillfactor < 10 || cfg->fillfactor > 100) {
		snprintf(err, errlen, "scale %lld or fillfactor %d is out of range (1..%lld, 10..100)",
			 cfg->scale, cfg->fillfactor, TPCB_MAX_SCALE);
		return -EINVAL;
	}
	if (cfg->partitions < 0 || (cfg->partitions == 0 && cfg->partition_method != TPCB_PART_NONE)) {
		snprintf(err, errlen, "--partition-method requires greater than zero --partitions");
		return -EINVAL;
	}
	return 0;
}

/* One step; T is what it is timed into. */
static int init_step(PGconn *c, const struct init *in, char s, const char *next,
		struct tpcb_init_result *out, bool *fused)
{
	*fused = false;
	switch (s) {
	case 'd':
		say(in, "dropping old tables...");
		return pgutil_exec_file(c, "tpcb/init_drop.sql", in->err, in->errlen);
	case 't':
		if (*next == 'g') {
			*fused = true;
			return create_and_generate(c, in, out);
		}
		say(in, "creating tables...");
		return create_all(c, in);
	case 'g':
		return generate_client(c, in);
	case 'G':
		say(in, "generating data (server-side)...");
		out->server_side = true;
		return exec_args(c, in, "tpcb/generate_server.sql", in->scale, "", "", "", "");
	case 'v':
		return vacuum(c, in);
	case 'p':
		return keys(c, in);
	case 'f':
		say(in, "creating foreign keys...");
		return pgutil_exec_file(c, "tpcb/foreign_keys.sql", in->err, in->errlen);
	default:
		return 0;
	}
}

static double *timer_of(struct tpcb_init_result *out, char s)
{
	switch (s) {
	case 'd': return &out->drop_s;
	case 't': return &out->create_s;
	case 'g': case 'G': return &out->generate_s;
	case 'v': return &out->vacuum_s;
	case 'p': return &out->keys_s;
	default:  return &out->fkeys_s;
	}
}

static int run_steps(PGconn *c, const struct init *in, const char *steps,
		     struct tpcb_init_result *out, bool *created)
{
	size_t n = 0;
	int ret = 0;

	for (const char *p = steps; *p && ret == 0; p++) {
		double t = clock_now_ms();
		bool fused;

		if (*p == ' ')
			continue;
		if (n + 1 < sizeof(out->steps))
			out->steps[n++] = *p;
		ret = init_step(c, in, *p, p + 1, out, &fused);
		*created |= *p == 't';
		if (fused) {	/* t and g at once: each timed inside */
			out->steps[n++] = *++p;
			continue;
		}
		*timer_of(out, *p) += since(&t);
		if (in->cfg->stop && *in->cfg->stop && ret == 0) {
			snprintf(in->err, in->errlen, "interrupted after step %c", *p);
			ret = -EINTR;
		}
	}
	out->steps[n] = '\0';
	return ret;
}

int tpcb_init(const struct server *s, const struct tpcb_init_config *cfg,
	      tpcb_step_fn step_fn, void *arg, struct tpcb_init_result *out,
	      char *err, size_t errlen)
{
	struct init in = { .s = s, .cfg = cfg, .step = step_fn, .arg = arg, .err = err, .errlen = errlen };
	const char *steps = cfg->steps ? cfg->steps : TPCB_INIT_STEPS_DEFAULT;
	double t0 = clock_now_ms();
	bool created = false;
	PGconn *c;
	int ret = tpcb_init_check(cfg, err, errlen);

	memset(out, 0, sizeof(*out));
	out->scale = cfg->scale;
	if (ret < 0)
		return ret;
	if (!(c = session(&in)))
		return -EIO;
	ret = clauses(c, &in);
	if (ret == 0)
		ret = check_tablespace(c, &in, "--tablespace", cfg->tablespace);
	if (ret == 0)
		ret = check_tablespace(c, &in, "--index-tablespace", cfg->index_tablespace);
	if (ret == 0 && strchr(steps, 'd'))
		ret = check_owner(c, &in);
	if (ret == 0)
		ret = pgutil_exec_file(c, "tpcb/init_marker.sql", err, errlen);
	if (ret == 0)
		ret = run_steps(c, &in, steps, out, &created);
	out->total_s = (clock_now_ms() - t0) / 1e3;
	if (ret == 0 && created)
		ret = save_init_result(c, &in, out);
	if (ret == 0)
		read_sizes(c, &in, out);
	PQfinish(c);
	return ret;
}
