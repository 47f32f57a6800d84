/*
 * seconds.c: durations given on the command line or in a timeline, in
 * seconds with at most three decimals ("41", "0.6", "0.23"), read
 * exactly into milliseconds: no floating point, so 0.23 s is 230 ms.
 */
#include <ctype.h>

#include "sim.h"

/* Ten years: far beyond any upgrade, far from overflow. */
#define MAX_SECONDS 315360000LL

int
parse_seconds(const char *s, ms_t *out)
{
	ms_t whole = 0, frac = 0;
	int digits = 0, decimals = 0;

	for (; isdigit((unsigned char)*s); s++, digits++) {
		whole = whole * 10 + (*s - '0');
		if (whole > MAX_SECONDS)
			return -1;
	}
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, decimals++) {
			if (decimals == 3)
				return -1;
			frac = frac * 10 + (*s - '0');
		}
	if (*s != '\0' || digits == 0)
		return -1;
	for (; decimals < 3; decimals++)
		frac *= 10;
	*out = whole * 1000 + frac;
	return 0;
}
