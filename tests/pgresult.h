/*
 * pgresult: query results for unit tests, built with libpq's own
 * PQmakeEmptyPGresult / PQsetResultAttrs / PQsetvalue from text in psql's
 * unaligned form ("col|col" header, then "val|val" rows; an empty cell is
 * NULL), so modules that read a PGresult are tested on fixture rows without
 * a server. Every column is text.
 */
#ifndef TESTS_PGRESULT_H
#define TESTS_PGRESULT_H

#include <libpq-fe.h>

/* A PGRES_TUPLES_OK result from TEXT, or NULL when TEXT has no header. */
PGresult *pgresult_from_text(const char *text);

/* The same from a file under tests/fixtures/; NULL when it cannot be read. */
PGresult *pgresult_from_fixture(const char *name);

#endif
