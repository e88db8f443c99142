/*
 * tpcb_scan: a pgbench script's text cut into its commands, as psql's
 * lexer cuts it for pgbench: an SQL command runs to a semicolon outside
 * quotes ('...', E'...', "...", $tag$...$tag$), comments and parentheses,
 * or to a backslash, which starts a meta-command that runs to the end of
 * its line (a backslash before the newline continues it). "\;" and "\:"
 * are a literal ';' and ':' in SQL (so "SELECT 1 \; SELECT 2;" is one
 * command). Leading blanks and "--" comment lines of an SQL command are
 * dropped; a command of nothing but those is none. Offsets are the text's,
 * so errors can name a line and a column.
 */
#ifndef BENCH_TPCB_TPCB_SCAN_H
#define BENCH_TPCB_TPCB_SCAN_H

#include <stdbool.h>
#include <stddef.h>

struct tpcb_raw {
	bool   meta;
	size_t off;                /* where it starts in the text (SQL: its first character) */
	/* SQL: its text with \; and \: resolved (owned by the scanner, valid
	 * during the callback); meta: NULL */
	const char *sql;
	size_t sql_len;
	/* meta: the name after the backslash, and the rest of the command
	 * (after the name, up to its final newline) as offsets into the text */
	char   name[32];
	size_t name_off, args_off, end_off;
};

/* Called for each command in order; a negative return stops the scan. */
typedef int (*tpcb_scan_fn)(void *arg, const struct tpcb_raw *cmd);

/* Cut TEXT into commands. The callback's first negative return, -ENOMEM, or 0. */
int tpcb_scan(const char *text, tpcb_scan_fn fn, void *arg);

/* The line (from 1) and column (from 1) of offset OFF in TEXT. */
void tpcb_scan_where(const char *text, size_t off, int *line, int *col);

/* The line of TEXT holding OFF, without its newline, into BUF (cut to fit). */
void tpcb_scan_line(const char *text, size_t off, char *buf, size_t len);

#endif
