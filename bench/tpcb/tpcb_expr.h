/*
 * tpcb_expr: compiled \set and \if expressions and their evaluation, with
 * pgbench's semantics: integer arithmetic that refuses to overflow, double
 * arithmetic when either side is a double (never for %), comparisons,
 * AND/OR/NOT over booleans with NULL propagating, IS [NOT] NULL/TRUE/FALSE,
 * CASE, bitwise operators on integers, and pgbench's functions (abs, debug,
 * double, exp, greatest, hash, hash_fnv1a, hash_murmur2, int, least, ln,
 * mod, permute, pi, pow/power, random, random_exponential, random_gaussian,
 * random_zipfian, sqrt). Expressions are nodes in one pool per script set,
 * parsed once (tpcb_exprparse.h); evaluating one allocates nothing: values
 * live on the stack, variables in the client's array by slot. A run-time
 * error (division by zero, an undefined variable, ...) returns -EINVAL with
 * pgbench's message; the client then aborts, as pgbench's does.
 */
#ifndef BENCH_TPCB_TPCB_EXPR_H
#define BENCH_TPCB_TPCB_EXPR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/tpcb/tpcb_random.h"
#include "bench/tpcb/tpcb_value.h"

#define TPCB_MAX_FARGS 16          /* arguments of a function, CASE aside */

enum tpcb_func {
	TPCB_F_ADD, TPCB_F_SUB, TPCB_F_MUL, TPCB_F_DIV, TPCB_F_MOD,
	TPCB_F_DEBUG, TPCB_F_ABS, TPCB_F_LEAST, TPCB_F_GREATEST, TPCB_F_INT,
	TPCB_F_DOUBLE, TPCB_F_PI, TPCB_F_SQRT, TPCB_F_LN, TPCB_F_EXP,
	TPCB_F_RANDOM, TPCB_F_RANDOM_GAUSSIAN, TPCB_F_RANDOM_EXPONENTIAL,
	TPCB_F_RANDOM_ZIPFIAN, TPCB_F_POW, TPCB_F_AND, TPCB_F_OR, TPCB_F_NOT,
	TPCB_F_BITAND, TPCB_F_BITOR, TPCB_F_BITXOR, TPCB_F_LSHIFT, TPCB_F_RSHIFT,
	TPCB_F_EQ, TPCB_F_NE, TPCB_F_LE, TPCB_F_LT, TPCB_F_IS, TPCB_F_CASE,
	TPCB_F_HASH_FNV1A, TPCB_F_HASH_MURMUR2, TPCB_F_PERMUTE,
};

enum tpcb_ekind { TPCB_E_CONST, TPCB_E_VAR, TPCB_E_FUNC };

struct tpcb_enode {
	uint8_t  kind;                 /* enum tpcb_ekind */
	uint8_t  func;                 /* enum tpcb_func, for TPCB_E_FUNC */
	uint16_t nargs;
	int32_t  a;                    /* a function's first argument in arg[]; a variable's slot */
	struct tpcb_value c;           /* a constant */
};

/* The node pool of one script set; grows while scripts are parsed only. */
struct tpcb_exprs {
	struct tpcb_enode *node;
	int32_t *arg;                  /* node indexes of the functions' arguments */
	int      nnodes, capnodes, nargs, capargs;
};

/* What an evaluation reads and where it says what went wrong. */
struct tpcb_eval {
	struct tpcb_var *vars;         /* the client's, by slot */
	const char *const *names;      /* the slots' names */
	struct tpcb_prng *rng;         /* the client's generator */
	FILE *debug;                   /* where debug() writes (stderr) */
	int   script, command;         /* debug()'s "script=S,command=C" (command from 1) */
	char *err;
	size_t errlen;
};

/* Append a node (a constant, a variable slot, or a function over the ARGS
 * nodes); its index, or -ENOMEM. */
int tpcb_exprs_const(struct tpcb_exprs *x, struct tpcb_value v);
int tpcb_exprs_var(struct tpcb_exprs *x, int slot);
int tpcb_exprs_func(struct tpcb_exprs *x, enum tpcb_func f, const int *args, int nargs);
void tpcb_exprs_free(struct tpcb_exprs *x);

/* Evaluate NODE into *OUT: 0, or -EINVAL with E->err filled. */
int tpcb_eval(const struct tpcb_exprs *x, int node, struct tpcb_eval *e, struct tpcb_value *out);

/* pgbench's truth of a value for \if: non-zero numbers and true; NULL is false. */
bool tpcb_value_truth(const struct tpcb_value *v);

/* The value as an integer (doubles rounded, as pgbench does): 0 or -EINVAL. */
int tpcb_value_int(const struct tpcb_value *v, int64_t *out, char *err, size_t errlen);

#endif
