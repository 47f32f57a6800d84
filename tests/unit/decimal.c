/*
 * decimal.c: unit tests of decimal_to_double, which must give the
 * very double strtod gives for every JSON number, on its fast path and
 * off it: edge cases, then a million seeded random numbers of every
 * shape (1 to 20 significant digits, leading zeros, fractions,
 * exponents around the fast path's limits).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "tap.h"

static uint64_t seed = 88172645463325252ULL;

static uint64_t
next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* same: decimal_to_double and strtod agree on text, bit for bit. */
static int
same(const char *text)
{
	double a = decimal_to_double(text), b = strtod(text, NULL);

	return memcmp(&a, &b, sizeof a) == 0;
}

static void
digits(char **p, int n, int nonzero_first)
{
	int i;

	for (i = 0; i < n; i++)
		*(*p)++ = (char)('0' + (i == 0 && nonzero_first ?
		    1 + next() % 9 : next() % 10));
}

/* random_number: one JSON number of a random shape into buf. */
static void
random_number(char *buf)
{
	char *p = buf;
	int whole = (int)(next() % 12), frac = (int)(next() % 21);

	if (next() % 4 == 0)
		*p++ = '-';
	if (whole == 0)
		*p++ = '0';
	digits(&p, whole, 1);
	if (frac > 0 || whole == 0) {
		*p++ = '.';
		if (next() % 3 == 0)
			digits(&p, (int)(next() % 6), 0), *p++ = '0';
		digits(&p, frac ? frac : 1, 0);
	}
	if (next() % 3 == 0)
		p += sprintf(p, "%s%d", next() % 2 ? "e" : "E-",
		    (int)(next() % 40));
	*p = '\0';
}

int
main(void)
{
	static const char *const edge[] = {
		"0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "1e22",
		"1e23", "9007199254740993", "999999999999999", "1000000000000000",
		"123456789012345.6", "0.0196889226951", "1.7976931348623157e308",
		"1e309", "4.9e-324", "1e-400", "2.2250738585072011e-308",
		"1E+2", "1e-22", "1e-23", "0.000000000000000000000001",
		"12345678901234567890", "1e999999", NULL };
	char buf[128], what[200], got[64], want[64];
	int i, bad = 0;

	for (i = 0; edge[i] != NULL; i++) {
		snprintf(what, sizeof what, "%s reads as strtod reads it", edge[i]);
		snprintf(got, sizeof got, "%a", decimal_to_double(edge[i]));
		snprintf(want, sizeof want, "%a", strtod(edge[i], NULL));
		is_str(got, want, what);
	}
	for (i = 0; i < 1000000; i++) {
		random_number(buf);
		if (!same(buf) && bad++ < 5)
			printf("# differs from strtod: %s\n", buf);
	}
	is_long(bad, 0, "a million random numbers read as strtod reads them");
	errno = 0;
	(void)decimal_to_double("1e999");
	is_long(errno, ERANGE, "an overflow sets errno, as strtod does");
	return done_testing();
}
