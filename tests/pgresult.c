/*
 * pgresult: fixture rows as libpq results; see pgresult.h.
 */
#include "tests/pgresult.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/file.h"

#define MAX_COLS 64
#define TEXT_OID 25

/* Split LINE (modified) at '|' into at most MAX_COLS cells. */
static int split(char *line, char **cells)
{
	int n = 0;

	for (char *p = line; n < MAX_COLS;) {
		cells[n++] = p;
		p = strchr(p, '|');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static int set_header(PGresult *r, char *line)
{
	char *names[MAX_COLS];
	PGresAttDesc att[MAX_COLS];
	int n = split(line, names);

	memset(att, 0, sizeof(att));
	for (int i = 0; i < n; i++) {
		att[i].name = names[i];
		att[i].typid = TEXT_OID;
		att[i].typlen = -1;
		att[i].atttypmod = -1;
	}
	return PQsetResultAttrs(r, n, att) ? n : -1;
}

static int add_row(PGresult *r, int row, char *line, int ncols)
{
	char *cells[MAX_COLS];
	int n = split(line, cells);

	for (int i = 0; i < ncols; i++) {
		const char *v = i < n ? cells[i] : "";

		if (!PQsetvalue(r, row, i, *v ? (char *)v : NULL, *v ? (int)strlen(v) : -1))
			return -1;
	}
	return 0;
}

PGresult *pgresult_from_text(const char *text)
{
	char *copy = strdup(text), *save = NULL, *line;
	PGresult *r = PQmakeEmptyPGresult(NULL, PGRES_TUPLES_OK);
	int ncols = -1, row = 0;

	line = copy ? strtok_r(copy, "\n", &save) : NULL;
	if (r && line)
		ncols = set_header(r, line);
	while (ncols > 0 && (line = strtok_r(NULL, "\n", &save)) != NULL)
		if (add_row(r, row++, line, ncols) < 0)
			ncols = -1;
	free(copy);
	if (ncols <= 0) {
		PQclear(r);
		return NULL;
	}
	return r;
}

PGresult *pgresult_from_fixture(const char *name)
{
	char path[512];
	char *text = NULL;
	size_t len;
	PGresult *r;

	snprintf(path, sizeof(path), "tests/fixtures/%s", name);
	if (file_read_all(path, 1u << 20, &text, &len) < 0)
		return NULL;
	r = pgresult_from_text(text);
	free(text);
	return r;
}
