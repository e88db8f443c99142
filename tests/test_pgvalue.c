/*
 * test_pgvalue: setting values read as the server reads them, both ways:
 * as an integer setting (a leading 0 octal, 0x hex, a fraction or exponent
 * read as a decimal number) and as a real one; units scaled to bytes or
 * microseconds with a fraction rounded to the next smaller unit; what the
 * server would refuse refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>

#include "bench/sweep/pgvalue.h"

static const struct {
	const char *v;
	bool in_ok;  double in;  char in_unit;
	bool re_ok;  double re;  char re_unit;
	bool radix;
} cases[] = {
	{ "16", true, 16, 'n', true, 16, 'n', false },
	{ "010", true, 8, 'n', true, 10, 'n', true },
	{ "010MB", true, 8 << 20, 'b', true, 10 << 20, 'b', true },
	{ "0x10", true, 16, 'n', true, 16, 'n', true },
	{ "0X1f", true, 31, 'n', true, 31, 'n', true },
	{ "08", false, 0, 0, true, 8, 'n', true },	/* not octal: an integer setting refuses it */
	{ "1.5", true, 1.5, 'n', true, 1.5, 'n', false },
	{ "1e3", true, 1000, 'n', true, 1000, 'n', false },
	{ " +4 ", true, 4, 'n', true, 4, 'n', false },
	{ "-0", true, 0, 'n', true, 0, 'n', false },
	{ "1.5kB", true, 1536, 'b', true, 1536, 'b', false },
	{ "1.0001kB", true, 1024, 'b', true, 1024, 'b', false },	/* to the byte */
	{ "4 MB", true, 4 << 20, 'b', true, 4 << 20, 'b', false },
	{ "5min", true, 3e8, 't', true, 3e8, 't', false },
	{ "1.5ms", true, 1500, 't', true, 1500, 't', false },
	{ "1.5us", true, 1.5, 't', true, 1.5, 't', false },	/* nothing smaller */
	{ "64mb", false, 0, 0, false, 0, 0, false },	/* units as PostgreSQL spells them */
	{ "4 MBs", false, 0, 0, false, 0, 0, false },
	{ "4MB x", false, 0, 0, false, 0, 0, false },
	{ "3000000000", false, 0, 0, true, 3e9, 'n', false },	/* past an int */
	{ "nan", false, 0, 0, false, 0, 0, false },
	{ "inf", false, 0, 0, false, 0, 0, false },
	{ "on", false, 0, 0, false, 0, 0, false },
	{ "", false, 0, 0, false, 0, 0, false },
};

static void readings(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pgvalue in = { 0 }, re = { 0 };
		bool in_ok = pgvalue_int(cases[i].v, &in), re_ok = pgvalue_real(cases[i].v, &re);

		if (in_ok != cases[i].in_ok || re_ok != cases[i].re_ok)
			fail_msg("'%s': read %d/%d, wanted %d/%d", cases[i].v, in_ok, re_ok, cases[i].in_ok, cases[i].re_ok);
		if (in_ok && (in.x != cases[i].in || (char)in.unit != cases[i].in_unit || in.radix != cases[i].radix))
			fail_msg("'%s' as an integer: %.17g %c %d", cases[i].v, in.x, in.unit, in.radix);
		if (re_ok && (re.x != cases[i].re || (char)re.unit != cases[i].re_unit))
			fail_msg("'%s' as a real: %.17g %c", cases[i].v, re.x, re.unit);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(readings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
