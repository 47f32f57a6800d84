/* ipaddr.c: IPv4 addresses and ranges (see ipaddr.h). */
#include <string.h>

#include "ipaddr.h"

static const char *
skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* parse_quad: [s, end) minus surrounding blanks is a dotted quad. */
static int
parse_quad(const char *s, const char *end, uint32_t *out)
{
	uint32_t addr = 0, part;
	int parts, digits;

	s = skip_blanks(s, end);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	for (parts = 0; parts < 4; parts++) {
		if (parts > 0 && (s == end || *s++ != '.'))
			return -1;
		for (part = 0, digits = 0; s < end && *s >= '0' && *s <= '9';
		    s++, digits++)
			part = part * 10 + (uint32_t)(*s - '0');
		/* No empty parts, no "010": leading zeros read as octal elsewhere. */
		if (digits == 0 || digits > 3 || part > 255 ||
		    (digits > 1 && s[-digits] == '0'))
			return -1;
		addr = addr << 8 | part;
	}
	if (s != end)
		return -1;
	*out = addr;
	return 0;
}

const char *
ip_range(const char *text, uint32_t *first, uint32_t *last)
{
	const char *end = text + strlen(text), *dash = strchr(text, '-');

	if (dash == NULL) {
		if (parse_quad(text, end, first) < 0)
			return "is not an IPv4 address";
		*last = *first;
		return NULL;
	}
	if (strchr(dash + 1, '-') != NULL || parse_quad(text, dash, first) < 0 ||
	    parse_quad(dash + 1, end, last) < 0)
		return "is not an IPv4 address or range (first-last)";
	if (*last < *first)
		return "is a range whose start is greater than its end";
	if (*last - *first >= IP_RANGE_MAX)
		return "is a range of more than 1048576 addresses";
	return NULL;
}

void
ip_format(uint32_t addr, char *buf)
{
	int shift, n;
	unsigned part;

	/* By hand: once per bare-metal machine, snprintf shows in profiles. */
	for (shift = 24; shift >= 0; shift -= 8) {
		part = addr >> shift & 255;
		n = part >= 100 ? 3 : part >= 10 ? 2 : 1;
		buf[n - 1] = (char)('0' + part % 10);
		if (n > 1)
			buf[n - 2] = (char)('0' + part / 10 % 10);
		if (n > 2)
			buf[0] = (char)('0' + part / 100);
		buf += n;
		*buf++ = shift ? '.' : '\0';
	}
}
