/*
 * sqltext: every SQL text the program sends lives in a file under sql/; the
 * build embeds them (scripts/embed-sql.sh) and this module finds them by
 * name, e.g. "dataset/copy.sql", and splits a file into its statements.
 */
#ifndef BENCH_PG_SQLTEXT_H
#define BENCH_PG_SQLTEXT_H

#include <stddef.h>

struct sql_file {
	const char *name;
	const char *text;
};

extern const struct sql_file sql_files[];

/* The text of sql/NAME; NULL if there is no such file. */
const char *sql_text(const char *name);

/*
 * The next statement of TEXT starting at *POS (statements end with ';' at the
 * end of a line; "--" comment lines are skipped), copied into BUF. Returns the
 * statement's length, 0 when there are no more, -1 if BUF is too small.
 */
int sql_next_statement(const char *text, size_t *pos, char *buf, size_t len);

#endif
