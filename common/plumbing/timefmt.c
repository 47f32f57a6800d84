/* timefmt.c: ISO 8601 <-> epoch seconds, by arithmetic (see timefmt.h). */
#include <stdio.h>

#include "timefmt.h"

/* days_from_civil: days since 1970-01-01 of a proleptic Gregorian date. */
int64_t
time_days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
time_civil_from_days(int64_t z, int64_t *y, int64_t *m, int64_t *d)
{
	int64_t era, doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp + (mp < 10 ? 3 : -9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* digits: n decimal digits at *p into *out; advances *p. */
static int
digits(const char **p, int n, int64_t *out)
{
	int64_t v = 0;

	for (; n > 0; n--, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (**p - '0');
	}
	*out = v;
	return 0;
}

static int
expect(const char **p, char c)
{
	return *(*p)++ == c ? 0 : -1;
}

static int
parse_zone(const char *p, int64_t *offset)
{
	int64_t hh, mm;
	int sign;

	if (*p == 'Z' || *p == 'z') {
		*offset = 0;
		return p[1] == '\0' ? 0 : -1;
	}
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p++ == '-' ? -1 : 1;
	if (digits(&p, 2, &hh) < 0 || expect(&p, ':') < 0 ||
	    digits(&p, 2, &mm) < 0 || *p != '\0' || hh > 23 || mm > 59)
		return -1;
	*offset = sign * (hh * 3600 + mm * 60);
	return 0;
}

int
time_parse(const char *s, int64_t *out)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31,
		30, 31 };
	int64_t y, mo, d, h, mi, se, offset;
	const char *p = s;

	if (digits(&p, 4, &y) < 0 || expect(&p, '-') < 0 ||
	    digits(&p, 2, &mo) < 0 || expect(&p, '-') < 0 ||
	    digits(&p, 2, &d) < 0 || (*p != 'T' && *p != 't') ||
	    (p++, digits(&p, 2, &h)) < 0 || expect(&p, ':') < 0 ||
	    digits(&p, 2, &mi) < 0 || expect(&p, ':') < 0 ||
	    digits(&p, 2, &se) < 0)
		return -1;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++)
			;
	if (parse_zone(p, &offset) < 0 || mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] || h > 23 || mi > 59 || se > 60)
		return -1;
	*out = time_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se -
	    offset;
	return 0;
}

void
time_format(int64_t t, char *buf, size_t size)
{
	int64_t days = time_floor_day(t), secs = t - days * 86400;
	int64_t y, m, d;

	time_civil_from_days(days, &y, &m, &d);
	snprintf(buf, size, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
	    (long long)y, (long long)m, (long long)d, (long long)(secs / 3600),
	    (long long)(secs / 60 % 60), (long long)(secs % 60));
}

int64_t
time_floor_day(int64_t t)
{
	return (t >= 0 ? t : t - 86399) / 86400;
}
