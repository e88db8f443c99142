/*
 * pgvalue: setting values read as the server reads them; see pgvalue.h.
 * Written from PostgreSQL's documented rules for numeric settings (a number,
 * then optionally blanks and a unit of at most three characters, then
 * blanks), not from its code.
 */
#include "bench/sweep/pgvalue.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_MAX 3

/* Each unit in its base (bytes, µs), and the next smaller one's scale that
 * a fraction is rounded to (0: none smaller). */
static const struct {
	const char *name;
	double scale, finer;
	enum pgvalue_unit unit;
} units[] = {
	{ "B", 1, 0, PGVALUE_BYTES },
	{ "kB", 0x1p10, 1, PGVALUE_BYTES },
	{ "MB", 0x1p20, 0x1p10, PGVALUE_BYTES },
	{ "GB", 0x1p30, 0x1p20, PGVALUE_BYTES },
	{ "TB", 0x1p40, 0x1p30, PGVALUE_BYTES },
	{ "us", 1, 0, PGVALUE_MICROSECONDS },
	{ "ms", 1e3, 1, PGVALUE_MICROSECONDS },
	{ "s", 1e6, 1e3, PGVALUE_MICROSECONDS },
	{ "min", 6e7, 1e6, PGVALUE_MICROSECONDS },
	{ "h", 3.6e9, 6e7, PGVALUE_MICROSECONDS },
	{ "d", 8.64e10, 3.6e9, PGVALUE_MICROSECONDS },
};

/* REST (blanks already skipped) as a unit and trailing blanks; X scaled. */
static bool apply_unit(const char *rest, struct pgvalue *out)
{
	size_t n = 0;

	out->unit = PGVALUE_PLAIN;
	if (!*rest)
		return true;
	while (rest[n] && !isspace((unsigned char)rest[n]) && n < UNIT_MAX)
		n++;
	for (const char *t = rest + n; *t; t++)
		if (!isspace((unsigned char)*t))
			return false;	/* a longer unit, or something after it */
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double x;

		if (strlen(units[i].name) != n || strncmp(rest, units[i].name, n))
			continue;
		x = out->x * units[i].scale;
		if (units[i].finer > 0)
			x = rint(x / units[i].finer) * units[i].finer;
		out->x = x;
		out->unit = units[i].unit;
		return isfinite(x);
	}
	return false;
}

/* Was V written with a leading 0 followed by a digit or x (after blanks and
 * a sign)? */
static bool radix_prefix(const char *v)
{
	while (isspace((unsigned char)*v))
		v++;
	v += *v == '+' || *v == '-';
	return v[0] == '0' && (isdigit((unsigned char)v[1]) || v[1] == 'x' || v[1] == 'X');
}

static bool finish(const char *v, const char *end, double x, struct pgvalue *out)
{
	if (end == v || errno == ERANGE || !isfinite(x))
		return false;
	while (isspace((unsigned char)*end))
		end++;
	out->x = x == 0 ? 0.0 : x;	/* -0 is 0 */
	out->radix = radix_prefix(v);
	return apply_unit(end, out);
}

bool pgvalue_int(const char *v, struct pgvalue *out)
{
	char *end;
	double x;

	errno = 0;
	x = (double)strtol(v, &end, 0);
	if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
		errno = 0;
		x = strtod(v, &end);
	}
	if (!finish(v, end, x, out))
		return false;
	return out->unit != PGVALUE_PLAIN || (rint(out->x) >= INT_MIN && rint(out->x) <= INT_MAX);
}

bool pgvalue_real(const char *v, struct pgvalue *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	return finish(v, end, x, out);
}
