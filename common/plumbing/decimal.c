/* decimal.c: JSON number text to double, with Clinger's fast path. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>

#include "decimal.h"

/* Every power of ten up to 1e22 is a double exactly. */
static const double exact_ten[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

#define MAX_EXACT_DIGITS 15	/* 10^15 < 2^53 */
#define MAX_EXACT_POWER 22

/*
 * fast_path: text as mantissa * 10^e10 with an exact mantissa and an
 * exactly represented power, -1 when it is not (too many digits, too
 * large an exponent, a form this does not read).
 */
static int
fast_path(const char *p, double *out)
{
	uint64_t mant = 0;
	int digits = 0, e10 = 0, neg = 0, eneg = 0, exp = 0;

	if (*p == '-')
		neg = 1, p++;
	for (; *p >= '0' && *p <= '9'; p++)
		if (mant != 0 || *p != '0')
			mant = 10 * mant + (uint64_t)(*p - '0'), digits++;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, e10--)
			if (mant != 0 || *p != '0')
				mant = 10 * mant + (uint64_t)(*p - '0'), digits++;
	if (digits > MAX_EXACT_DIGITS)
		return -1;
	if (*p == 'e' || *p == 'E') {
		if (*++p == '+' || *p == '-')
			eneg = *p++ == '-';
		for (; *p >= '0' && *p <= '9' && exp <= 999; p++)
			exp = 10 * exp + (*p - '0');
		e10 += eneg ? -exp : exp;
	}
	if (*p != '\0' || e10 > MAX_EXACT_POWER || e10 < -MAX_EXACT_POWER)
		return -1;
	*out = e10 >= 0 ? (double)mant * exact_ten[e10] :
	    (double)mant / exact_ten[-e10];
	if (neg)
		*out = -*out;
	return 0;
}

double
decimal_to_double(const char *text)
{
	double d;

	/* Exact only where doubles are computed as doubles (not x87). */
	if (FLT_EVAL_METHOD == 0 && fast_path(text, &d) == 0)
		return d;
	return strtod(text, NULL);
}
