/*
 * duration.c: durations written "1y2d5h10m30s" (see timefmt.h), the
 * form of the OS upgrade configuration's window durations, trigger
 * timeouts and next-upgrade-in.
 */
#include <stdio.h>

#include "timefmt.h"

static const struct unit {
	char letter;
	int64_t seconds;
} units[] = {
	{ 'y', 365LL * 86400 }, { 'd', 86400 }, { 'h', 3600 }, { 'm', 60 },
	{ 's', 1 },
};
#define NUNITS (sizeof units / sizeof units[0])

/* unit_index: the unit named c at or after from, or NUNITS. */
static size_t
unit_index(char c, size_t from)
{
	for (; from < NUNITS; from++)
		if (units[from].letter == c)
			return from;
	return NUNITS;
}

int
duration_parse(const char *s, int64_t *out)
{
	int64_t total = 0, n;
	size_t next = 0, u;
	int digits;

	if (*s == '\0')
		return -1;
	while (*s != '\0') {
		for (n = 0, digits = 0; *s >= '0' && *s <= '9'; s++, digits++) {
			n = n * 10 + (*s - '0');
			if (n > DURATION_MAX_SECONDS)
				return -1;
		}
		if (digits == 0 || (u = unit_index(*s, next)) == NUNITS)
			return -1;
		if (n > (DURATION_MAX_SECONDS - total) / units[u].seconds)
			return -1;
		total += n * units[u].seconds;
		next = u + 1;
		s++;
	}
	*out = total;
	return 0;
}

void
duration_format(int64_t seconds, char *buf, size_t size)
{
	size_t u, len = 0;
	int n;

	buf[0] = '\0';
	if (seconds <= 0) {
		snprintf(buf, size, "0s");
		return;
	}
	for (u = 0; u < NUNITS && len < size; u++) {
		if (seconds / units[u].seconds == 0)
			continue;
		n = snprintf(buf + len, size - len, "%lld%c",
		    (long long)(seconds / units[u].seconds), units[u].letter);
		if (n < 0)
			return;
		len += (size_t)n;
		seconds %= units[u].seconds;
	}
}
