/*
 * tpcb_script: pgbench's three built-in transactions and their parameters.
 * The statements come from sql/tpcb/<builtin>.sql exactly as pgbench sends
 * them, with its variables :aid, :bid, :tid and :delta. For the simple
 * protocol the values are written into the text; for extended and prepared
 * each variable becomes $n in order of first use and its value goes as a
 * text parameter. The draws are pgbench's: aid uniform in 1..100000*scale,
 * bid in 1..scale, tid in 1..10*scale, delta in -5000..5000, each from the
 * caller's seeded generator (one per client); select-only draws aid alone.
 */
#ifndef BENCH_TPCB_TPCB_SCRIPT_H
#define BENCH_TPCB_TPCB_SCRIPT_H

#include <stddef.h>
#include <stdint.h>

#include "bench/tpcb/tpcb.h"
#include "io/rng.h"

enum tpcb_var { TPCB_AID, TPCB_BID, TPCB_TID, TPCB_DELTA, TPCB_NVARS };

#define TPCB_STMT_MAX   256     /* bytes of one statement's text */
#define TPCB_SEGS_MAX   16      /* literal runs and variables in one statement */
#define TPCB_NUM_MAX    21      /* "-9223372036854775808" and its NUL */

struct tpcb_seg {
	short off, len;         /* a literal run of text[] */
	signed char var;        /* or a variable (-1: literal) */
};

struct tpcb_stmt {
	char text[TPCB_STMT_MAX];       /* as in the file, on one line */
	char param_sql[TPCB_STMT_MAX];  /* variables replaced by $1, $2 ... */
	int  nparams;
	signed char param_var[TPCB_NVARS];  /* the variable of $1, $2 ... */
	int  nsegs;
	struct tpcb_seg seg[TPCB_SEGS_MAX];
};

struct tpcb_script {
	enum tpcb_builtin builtin;
	unsigned    draws;              /* bit (1 << var) for each variable used */
	int         nstmts;
	struct tpcb_stmt stmt[TPCB_MAX_STMTS];
};

/* One transaction's values and their decimal texts. */
struct tpcb_params {
	int64_t v[TPCB_NVARS];
	char    txt[TPCB_NVARS][TPCB_NUM_MAX];
};

/* Read and compile the builtin's statements. 0 or -EINVAL with ERR. */
int tpcb_script_load(enum tpcb_builtin b, struct tpcb_script *out,
		     char *err, size_t errlen);

/* Draw the variables S uses, at SCALE, from R (unused ones are 0). */
void tpcb_draw(struct rng *r, const struct tpcb_script *s, long long scale,
	       struct tpcb_params *p);

/* S with P's values written in (simple protocol): its length, or -1. */
int tpcb_stmt_render(const struct tpcb_stmt *s, const struct tpcb_params *p,
		     char *buf, size_t len);

/* The texts of $1 .. $nparams of S from P. */
void tpcb_stmt_values(const struct tpcb_stmt *s, const struct tpcb_params *p,
		      const char **values);

/* Decimal text of V into BUF (at least TPCB_NUM_MAX bytes); its length. */
int tpcb_format_int(int64_t v, char *buf);

#endif
