/*
 * pgvalue: a setting's value read as the server reads it, without asking
 * it: a number as an integer setting takes one (strtol with base 0, so a
 * leading 0 is octal and 0x hex, read again as a decimal fraction when it
 * stops at '.', 'e' or 'E' or overflows) or as a real setting takes one
 * (strtod: 010 is ten), blanks allowed before it and around its unit, the
 * unit's case as PostgreSQL spells it (kB, MB, ms, min). Values are scaled
 * to bytes or microseconds, a fraction rounded to the next smaller unit as
 * the server rounds it. Which type a setting is, and its own base unit, only
 * the server knows; callers read a value both ways when it matters.
 */
#ifndef BENCH_SWEEP_PGVALUE_H
#define BENCH_SWEEP_PGVALUE_H

#include <stdbool.h>

/* What a number is counted in: no unit, bytes, microseconds. */
enum pgvalue_unit { PGVALUE_PLAIN = 'n', PGVALUE_BYTES = 'b', PGVALUE_MICROSECONDS = 't' };

struct pgvalue {
	double x;                 /* finite; in bytes or microseconds with a unit */
	enum pgvalue_unit unit;
	bool radix;               /* written with a leading 0 (octal) or 0x (hex) */
};

/* V as an integer setting reads it (false: not a number it takes). A plain
 * number is kept as read, a fraction not rounded. */
bool pgvalue_int(const char *v, struct pgvalue *out);

/* V as a real (floating-point) setting reads it. */
bool pgvalue_real(const char *v, struct pgvalue *out);

#endif
