/*
 * tpcb_exprparse: pgbench's expression language, parsed by hand (a lexer
 * and a recursive-descent parser that climbs one table of precedences:
 * OR, AND, NOT, IS, comparisons, bitwise, + -, * / %, unary) into nodes of
 * a tpcb_exprs pool. The grammar is pgbench's: non-associative comparisons
 * and IS, "a > b" as "b < a", "-x" as "0 - x", "~x" as "-1 # x", the one
 * constant -9223372036854775808, case-blind keywords and function names,
 * hash() and permute() taking :default_seed when the seed is left out,
 * argument counts checked. Errors carry pgbench's message and the byte
 * offset in the text where it was found.
 */
#ifndef BENCH_TPCB_TPCB_EXPRPARSE_H
#define BENCH_TPCB_TPCB_EXPRPARSE_H

#include <stddef.h>

#include "bench/tpcb/tpcb_expr.h"

#define TPCB_EXPR_DEPTH_MAX 200    /* nesting of an expression */

/* The slot of variable NAME (LEN bytes), made on first use: >= 0, or -ENOMEM. */
typedef int (*tpcb_slot_fn)(void *arg, const char *name, size_t len);

struct tpcb_parse_error {
	size_t offset;                 /* in the text given */
	char   msg[256];               /* "syntax error", "unexpected function name (foo)" ... */
};

/*
 * Parse TEXT[0..LEN) (backslash-newline continuations are blanks) into X;
 * the expression's node in *ROOT. 0, -EINVAL with *ERR, or -ENOMEM.
 */
int tpcb_expr_parse(struct tpcb_exprs *x, const char *text, size_t len,
		    tpcb_slot_fn slot, void *arg, int *root, struct tpcb_parse_error *err);

#endif
