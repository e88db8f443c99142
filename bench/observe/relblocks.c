/*
 * relblocks: the heap blocks a query reads and the files they live in; see
 * relblocks.h. Only the leading "SELECT * FROM name" of a query is parsed
 * here; everything after the name goes to the server as written, so the
 * server checks the rest and its errors (class 42, 22) count as bad input.
 */
#include "bench/observe/relblocks.h"

#include <ctype.h>
#include <stdbool.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "io/emulate/control.h"
#include "io/blocks.h"
#include "io/clock.h"

#define INT8_OID   20
#define NAME_BYTES 512            /* a normalized, possibly qualified name */

/* ---- parsing the leading "SELECT * FROM name" ---- */

static const char *skip_blank(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			if (!end)
				return p;
			p = end + 2;
		} else {
			return p;
		}
	}
}

static int ident_start(int c)
{
	return isalpha(c) || c == '_' || c >= 0x80;
}

static int ident_char(int c)
{
	return ident_start(c) || isdigit(c) || c == '$';
}

/* The keyword KW at P (any case, not followed by an identifier character). */
static const char *keyword(const char *p, const char *kw)
{
	size_t n = strlen(kw);

	if (strncasecmp(p, kw, n) || ident_char((unsigned char)p[n]))
		return NULL;
	return p + n;
}

/* One name part: "quoted" (with "" for ") kept, or unquoted and lowercased. */
static const char *name_part(const char *p, char *out, size_t *len, size_t max)
{
	size_t start = *len;

	if (*p == '"') {
		for (p++; *p; p++) {
			if (*p == '"' && p[1] != '"')
				return *len > start ? p + 1 : NULL;
			if (*p == '"')
				p++;
			if (*len + 1 >= max)
				return NULL;
			out[(*len)++] = *p;
		}
		return NULL;              /* unterminated */
	}
	if (!ident_start((unsigned char)*p))
		return NULL;
	for (; ident_char((unsigned char)*p); p++) {
		if (*len + 1 >= max)
			return NULL;
		out[(*len)++] = (char)tolower((unsigned char)*p);
	}
	return p;
}

/*
 * A name of up to three parts (db.schema.name) at P, normalized into OUT: the
 * parts joined by '\x01', which no part holds. Returns the end, or NULL.
 */
static const char *qualified_name(const char *p, char *out, size_t max)
{
	size_t len = 0;

	for (int part = 0; part < 3; part++) {
		if (part) {
			if (*p != '.')
				break;
			p++;
			if (len + 1 >= max)
				return NULL;
			out[len++] = '\x01';      /* separator no part can hold */
		}
		if (!(p = name_part(p, out, &len, max)))
			return NULL;
	}
	out[len] = '\0';
	return *p == '.' ? NULL : p;
}

/* Printable form of a normalized name, for messages. */
static void show_name(const char *norm, char *out, size_t len)
{
	size_t i = 0;

	for (; *norm && i + 1 < len; norm++)
		out[i++] = *norm == '\x01' ? '.' : *norm;
	out[i] = '\0';
}

static int shape_error(const char *text, const char *relation, const char *why,
		       char *err, size_t errlen)
{
	const char *p = skip_blank(text);
	size_t n = strcspn(p, "\n");

	snprintf(err, errlen, "--query: %s; a query must start with SELECT * FROM %s (after comment lines), as in SELECT * FROM %s WHERE minor = 800; this one starts with: %.*s",
		 why, relation, relation, (int)(n > 60 ? 60 : n), p);
	return -EINVAL;
}

/* Where the query's FROM name starts, after checking the leading shape. */
static const char *from_name(const char *text, const char *relation, char *err,
			     size_t errlen)
{
	const char *p = skip_blank(text);

	if (!*p) {
		shape_error(text, relation, "the query is empty", err, errlen);
		return NULL;
	}
	if (!(p = keyword(p, "select")) || *(p = skip_blank(p)) != '*' ||
	    !(p = keyword(skip_blank(p + 1), "from"))) {
		shape_error(text, relation, "it does not start with SELECT * FROM", err, errlen);
		return NULL;
	}
	return skip_blank(p);
}

/* The query from NAME on, without trailing blanks, ';' and "--" comment lines. */
static size_t trimmed_len(const char *name)
{
	size_t n = strlen(name), before;

	do {
		const char *nl;
		before = n;
		while (n && (isspace((unsigned char)name[n - 1]) || name[n - 1] == ';'))
			n--;
		nl = memrchr(name, '\n', n);
		if (nl) {
			const char *l = nl + 1;
			while (l < name + n && isspace((unsigned char)*l))
				l++;
			if (l + 1 < name + n && l[0] == '-' && l[1] == '-')
				n = (size_t)(nl - name);
		}
	} while (n != before);
	return n;
}

int relblocks_rewrite(const char *text, const char *relation, char **out,
		      char *err, size_t errlen)
{
	char want[NAME_BYTES], got[NAME_BYTES], a[NAME_BYTES], b[NAME_BYTES];
	const char *name, *end, *tmpl = sql_text("probe/blocks.sql");
	char *inner;
	int rc;

	*out = NULL;
	end = qualified_name(relation, want, sizeof(want));
	if (!end || *end) {
		snprintf(err, errlen, "--relation '%s': not a relation name (name or schema.name; quote with \"\" for mixed case)",
			 relation);
		return -EINVAL;
	}
	if (!(name = from_name(text, relation, err, errlen)))
		return -EINVAL;
	end = qualified_name(name, got, sizeof(got));
	if (!end || !(!*end || isspace((unsigned char)*end) || *end == ';' ||
		      (end[0] == '-' && end[1] == '-') || (end[0] == '/' && end[1] == '*')))
		return shape_error(text, relation, "FROM is not followed by one relation name", err, errlen);
	if (strcmp(got, want)) {
		show_name(got, a, sizeof(a));
		show_name(want, b, sizeof(b));
		snprintf(err, errlen, "--query: the query reads FROM %s, but --relation is %s; they must name the same relation the same way",
			 a, b);
		return -EINVAL;
	}
	if (!tmpl) {
		snprintf(err, errlen, "no SQL file sql/probe/blocks.sql in this build");
		return -EINVAL;
	}
	/* The template is ours; the query's text goes in as an argument. */
	if (asprintf(&inner, "FROM %.*s", (int)trimmed_len(name), name) < 0)
		return -ENOMEM;
	rc = asprintf(out, tmpl, inner);
	free(inner);
	if (rc < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* ---- asking the server ---- */

/* Run SQL; a server error of class 42 (syntax, names) or 22 (data) is bad input. */
static int query_checked(PGconn *c, const char *sql, int nparams, const char *const *params,
	       int binary, PGresult **out, char *err, size_t errlen)
{
	PGresult *r = PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, binary);
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
	ExecStatusType st = PQresultStatus(r);
	bool bad;

	*out = NULL;
	if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
		*out = r;
		return 0;
	}
	snprintf(err, errlen, "%s", msg && *msg ? msg : "no result from the server");
	err[strcspn(err, "\n")] = '\0';
	bad = state && (!strncmp(state, "42", 2) || !strncmp(state, "22", 2));
	PQclear(r);
	return bad ? -EINVAL : -EIO;
}

int relblocks_datadir(PGconn *c, char *out, size_t len, char *err, size_t errlen)
{
	PGresult *r;
	char why[512];

	if (query_checked(c, sql_text("probe/datadir.sql"), 0, NULL, 0, &r, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "cannot learn the server's data_directory (%s): the relation form reads the table's files, so connect as a superuser or a role with pg_read_all_settings",
			 why);
		return -EINVAL;
	}
	snprintf(out, len, "%s", PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "");
	PQclear(r);
	return 0;
}

/* BASE, BASE.1, ... while they exist; BASE itself must be readable here. */
/*
 * For a --dsn server, files at the same path here could belong to another
 * cluster: they must at least hold exactly the relation's size.
 */
static int same_size(const struct relblocks *rb, const char *relation,
		     char *err, size_t errlen)
{
	uint64_t bytes = 0;
	struct stat st;

	for (unsigned i = 0; i < rb->nsegments; i++)
		if (stat(rb->segments[i], &st) == 0)
			bytes += (uint64_t)st.st_size;
	if (bytes == rb->relation_blocks * rb->block_bytes)
		return 0;
	snprintf(err, errlen, "the files at %s hold %" PRIu64 " bytes but relation %s has %" PRIu64 ": they are not this server's (is it on another machine?)",
		 rb->base, bytes, relation, rb->relation_blocks * rb->block_bytes);
	return -EINVAL;
}

int relblocks_readable(const char *relation, const char *base, bool remote,
		       char *err, size_t errlen)
{
	int fd = open(base, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == ENOTCONN) {	/* on a FUSE mount that lost its server */
		char what[192];

		snprintf(what, sizeof(what), "the files of relation %s", relation);
		emulate_check_reachable(what, base, err, errlen);
		return -EINVAL;
	}
	snprintf(err, errlen, "the files of relation %s are at %s%s, which cannot be read here (%s): %s",
		 relation, base, remote ? " on the server's machine" : "", strerror(errno),
		 remote ? "run eicbench on that machine, as root or as the server's user" :
		 "run eicbench as root or as the server's user");
	return -EINVAL;
}

static int find_segments(struct relblocks *rb, const char *relation, bool remote,
			 char *err, size_t errlen)
{
	int rc = relblocks_readable(relation, rb->base, remote, err, errlen);

	if (rc == 0 && blocks_segment_paths(rb->base, &rb->segments, &rb->nsegments) < 0)
		rc = -ENOMEM;
	if (rc == 0 && remote)
		rc = same_size(rb, relation, err, errlen);
	return rc;
}

/* Take the row of probe/relation.sql. */
static int take_relation(PGresult *r, const char *relation, struct relblocks *rb,
			 char *err, size_t errlen)
{
	char kind = *PQgetvalue(r, 0, 1);

	if (kind != 'r' && kind != 'm' && kind != 't') {
		snprintf(err, errlen, "--relation %s: is not a table (relkind '%c'); give a table with a heap",
			 relation, kind);
		return -EINVAL;
	}
	rb->oid = (unsigned)strtoul(PQgetvalue(r, 0, 0), NULL, 10);
	rb->relation_blocks = strtoull(PQgetvalue(r, 0, 3), NULL, 10);
	rb->block_bytes = (uint32_t)strtoul(PQgetvalue(r, 0, 4), NULL, 10);
	snprintf(rb->server_version, sizeof(rb->server_version), "%s", PQgetvalue(r, 0, 5));
	rb->tuples_per_page = strtod(PQgetvalue(r, 0, 6), NULL);
	return 0;
}

int relblocks_lookup(PGconn *c, const char *relation, const char *datadir,
		     struct relblocks *rb, char *err, size_t errlen)
{
	const char *params[] = { relation };
	char dir[PATH_MAX];
	PGresult *r;
	int rc;

	memset(rb, 0, sizeof(*rb));
	rc = query_checked(c, sql_text("probe/relation.sql"), 1, params, 0, &r, dir, sizeof(dir));
	if (rc < 0) {
		snprintf(err, errlen, "--relation %s: %s", relation, dir);
		return rc;
	}
	if (PQntuples(r) != 1) {
		snprintf(err, errlen, "--relation %s: no such relation in database %s", relation, PQdb(c));
		PQclear(r);
		return -EINVAL;
	}
	rc = take_relation(r, relation, rb, err, errlen);
	if (rc == 0 && !datadir)
		rc = relblocks_datadir(c, dir, sizeof(dir), err, errlen);
	if (rc == 0 && asprintf(&rb->base, "%s/%s", datadir ? datadir : dir, PQgetvalue(r, 0, 2)) < 0) {
		rb->base = NULL;
		rc = -ENOMEM;
	}
	PQclear(r);
	if (rc == 0)
		rc = find_segments(rb, relation, !datadir, err, errlen);
	return rc;
}

/* Row I's binary int8 in column COL into *OUT; false when null or malformed. */
static bool int8_at(const PGresult *r, size_t i, int col, uint64_t *out)
{
	uint64_t be;

	if (PQgetisnull(r, (int)i, col) || PQgetlength(r, (int)i, col) != 8)
		return false;
	memcpy(&be, PQgetvalue(r, (int)i, col), 8);
	*out = be64toh(be);
	return true;
}

/* The binary int8 columns of R (block, rows) into rb, checking blocks ascend. */
static int take_blocks(const PGresult *r, struct relblocks *rb, char *err, size_t errlen)
{
	size_t n = (size_t)PQntuples(r);
	uint64_t rows;

	if (PQnfields(r) != 2 || PQftype(r, 0) != INT8_OID || PQftype(r, 1) != INT8_OID ||
	    PQfformat(r, 0) != 1) {
		snprintf(err, errlen, "the block query returned an unexpected shape (%d columns)", PQnfields(r));
		return -EIO;
	}
	rb->blocks = malloc(n * sizeof(*rb->blocks));
	rb->ntuples = malloc(n * sizeof(*rb->ntuples));
	if (!rb->blocks || !rb->ntuples)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!int8_at(r, i, 0, &rb->blocks[i]) || !int8_at(r, i, 1, &rows) || rows > UINT32_MAX) {
			snprintf(err, errlen, "the block query returned a null or malformed block number (row %zu)", i + 1);
			return -EIO;
		}
		rb->ntuples[i] = (uint32_t)rows;
		rb->rows += rows;
		if (i && rb->blocks[i] <= rb->blocks[i - 1]) {
			snprintf(err, errlen, "the block query's result is not distinct and ascending at row %zu", i + 1);
			return -EIO;
		}
	}
	rb->nblocks = n;
	return 0;
}

int relblocks_fetch(PGconn *c, const char *block_query, struct relblocks *rb,
		    char *err, size_t errlen)
{
	PGresult *r;
	char why[1024];
	double t0;
	int rc = pgutil_exec_file(c, "probe/session.sql", err, errlen);

	if (rc < 0)
		return rc;
	t0 = clock_now_s();
	rc = query_checked(c, block_query, 0, NULL, 1, &r, why, sizeof(why));
	rb->query_s = clock_now_s() - t0;
	if (rc == 0 && (rc = pgutil_exec_file(c, "probe/session_end.sql", err, errlen)) < 0) {
		PQclear(r);
		return rc;
	}
	if (rc < 0) {
		snprintf(err, errlen, "the server refused the block query made from --query: %s", why);
		return rc;
	}
	if (PQntuples(r) == 0) {
		snprintf(err, errlen, "the query selects no rows: no heap blocks to replay");
		rc = -EINVAL;
	} else {
		rc = take_blocks(r, rb, err, errlen);
	}
	PQclear(r);
	return rc;
}

void relblocks_free(struct relblocks *rb)
{
	blocks_free_paths(rb->segments, rb->nsegments);
	free(rb->base);
	free(rb->blocks);
	free(rb->ntuples);
	memset(rb, 0, sizeof(*rb));
}
