/*
 * tpcb_value: the values of TPC-B script variables and expressions, as
 * pgbench has them: null, boolean, 64-bit integer or double. A variable
 * holds a value (from \set) or a text (from -D, \gset, \aset) that becomes
 * a value when an expression first reads it: "null", a prefix of true/yes
 * or false/no, on/off, an integer, or else a double, as pgbench reads
 * them. In SQL a variable is its text: integers in decimal, doubles with 15
 * significant digits, booleans as true/false, null as NULL. Variables live
 * in a client's array, indexed by the slot the script set gave each name;
 * texts grow their own buffers and are kept across transactions, so the
 * running path allocates only when a text outgrows its buffer.
 */
#ifndef BENCH_TPCB_TPCB_VALUE_H
#define BENCH_TPCB_TPCB_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TPCB_NUM_MAX 32    /* the text of any value, with its NUL */

enum tpcb_vtype { TPCB_NONE = 0, TPCB_NULL, TPCB_INT, TPCB_DOUBLE, TPCB_BOOL };

struct tpcb_value {
	enum tpcb_vtype type;
	union {
		int64_t i;
		double  d;
		bool    b;
	} u;
};

struct tpcb_var {
	struct tpcb_value v;       /* TPCB_NONE while only the text is known */
	char    *s;                /* the text, when has_s */
	uint32_t len, cap;
	bool     set, has_s;
};

static inline struct tpcb_value tpcb_int(int64_t i)
{
	return (struct tpcb_value){ .type = TPCB_INT, .u.i = i };
}

static inline struct tpcb_value tpcb_double(double d)
{
	return (struct tpcb_value){ .type = TPCB_DOUBLE, .u.d = d };
}

static inline struct tpcb_value tpcb_bool(bool b)
{
	return (struct tpcb_value){ .type = TPCB_BOOL, .u.b = b };
}

static inline struct tpcb_value tpcb_null(void)
{
	return (struct tpcb_value){ .type = TPCB_NULL };
}

/* "null", "boolean", "int", "double" (pgbench's names, for messages). */
const char *tpcb_type_name(enum tpcb_vtype t);

/* Decimal text of V into BUF (TPCB_NUM_MAX bytes); its length. */
int tpcb_format_int(int64_t v, char *buf);
/* The text of V as SQL receives it, into BUF (TPCB_NUM_MAX bytes); its length. */
int tpcb_value_text(const struct tpcb_value *v, char *buf);

/* pgbench's reading of a text as a value: 0, or -EINVAL when it is none
 * (an empty text, an integer that overflows, a malformed number). */
int tpcb_value_parse(const char *s, struct tpcb_value *out);

/* Whole number text ("^\s*[-+]?[0-9]+$" without overflow) into *OUT: 0 or -EINVAL. */
int tpcb_parse_int(const char *s, int64_t *out);

static inline void tpcb_var_set(struct tpcb_var *x, struct tpcb_value v)
{
	x->v = v;
	x->set = true;
	x->has_s = false;
}

/* Give X the text S (LEN bytes): 0, or -ENOMEM. */
int tpcb_var_set_text(struct tpcb_var *x, const char *s, size_t len);

/* X's value, reading its text the first time: 0, or -EINVAL (no value). */
int tpcb_var_value(struct tpcb_var *x, struct tpcb_value *out);

/* X's text for SQL: its own, or V formatted into BUF (TPCB_NUM_MAX); its length in *LEN. */
const char *tpcb_var_text(const struct tpcb_var *x, char *buf, size_t *len);

void tpcb_var_free(struct tpcb_var *x);

/* A valid variable name: a letter, '_' or a byte above 127, then those or digits. */
bool tpcb_valid_name(const char *s, size_t len);

#endif
