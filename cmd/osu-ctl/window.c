/*
 * window.c: the maintenance windows of the OS upgrade configuration.
 *
 * A window occurrence opens on each of its days at start-time on that
 * day's wall clock in its zone and lasts duration seconds of real time,
 * so a window that crosses midnight belongs to its start day and DST
 * changes inside it neither stretch nor shrink it.  A start-time that
 * the clocks skip opens at the jump; one they repeat, at its first
 * reading (see tz_from_local in tzone.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "osu.h"
#include "timefmt.h"
#include "xalloc.h"

static const char *const day_names[] = { "sunday", "monday", "tuesday",
	"wednesday", "thursday", "friday", "saturday" };

/* day_bit: the bit of a day name, any case; 0 if it is none. */
static unsigned
day_bit(const char *s, size_t len)
{
	size_t d, i;

	for (d = 0; d < 7; d++) {
		if (strlen(day_names[d]) != len)
			continue;
		for (i = 0; i < len; i++)
			if (tolower((unsigned char)s[i]) != day_names[d][i])
				break;
		if (i == len)
			return 1u << d;
	}
	return 0;
}

/* parse_days: "Friday, Saturday" (or the names as an array). */
static int
parse_days_string(struct access *a, const char *s, unsigned *days)
{
	const char *p = s, *end;
	unsigned bit;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		for (end = p; *end && *end != ',' && *end != ' ' &&
		    *end != '\t'; end++)
			;
		if ((bit = day_bit(p, (size_t)(end - p))) == 0)
			return access_fail(a, "not a day of the week in \"%s\"",
			    s);
		*days |= bit;
		while (*end == ' ' || *end == '\t')
			end++;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return access_fail(a, "expected a comma between days "
			    "in \"%s\"", s);
		p = end + 1;
	}
}

static int
parse_days(struct access *a, const json_t *w, unsigned *days)
{
	const char *s;
	json_t *v;
	size_t i;
	int r = 0;

	*days = 0;
	if (acc_get(a, w, "days-of-week", ACC_REQUIRED, &v) < 0)
		return -1;
	access_enter_key(a, "days-of-week");
	if (json_is_string(v)) {
		r = parse_days_string(a, json_string_value(v), days);
	} else if (acc_as_array(a, v) == 0) {
		for (i = 0; r == 0 && i < json_array_size(v); i++) {
			access_enter_index(a, i);
			r = acc_as_string(a, json_array_get(v, i), &s) < 0 ?
			    -1 : parse_days_string(a, s, days);
			access_leave(a);
		}
		if (r == 0 && *days == 0)
			r = access_fail(a, "no day of the week");
	} else {
		r = -1;
	}
	access_leave(a);
	return r;
}

/* parse_clock: "HH:MM" or "HH:MM:SS" into seconds after midnight. */
static int
parse_clock(const char *s, int64_t *out)
{
	int64_t f[3] = { 0, 0, 0 };
	int i, n;

	for (i = 0; i < 3; i++) {
		for (n = 0; n < 2; n++, s++) {
			if (!isdigit((unsigned char)*s))
				return -1;
			f[i] = f[i] * 10 + (*s - '0');
		}
		if (*s == '\0' && i >= 1)
			break;
		if (*s++ != ':' || i == 2)
			return -1;
	}
	if (f[0] > 23 || f[1] > 59 || f[2] > 59)
		return -1;
	*out = f[0] * 3600 + f[1] * 60 + f[2];
	return 0;
}

/* parse_zone: "site-local" (the site's zone) or a tz database name. */
static int
parse_zone(struct access *a, const json_t *w, const char *site_zone,
    struct tzone *z)
{
	const char *name = "site-local";

	if (acc_get_string(a, w, "timezone", ACC_OPTIONAL, &name) < 0)
		return -1;
	if (strcmp(name, "site-local") == 0) {
		if (site_zone == NULL)
			return access_fail_at(a, "timezone", "\"site-local\" "
			    "but the site's time zone is not known (set "
			    "config.site-timezone)");
		name = site_zone;
	}
	if (tz_find(name, z) < 0)
		return access_fail_at(a, "timezone", "unknown time zone "
		    "\"%s\" (not in the tz database)", name);
	return 0;
}

static int
parse_window(struct access *a, const json_t *w, size_t i, void *ctx)
{
	static const char *const keys[] = { "days-of-week", "start-time",
		"timezone", "duration", NULL };
	void **args = ctx;
	struct windows *ws = args[0];
	struct window *win = &ws->w[i];
	const char *s;

	if (acc_as_object(a, w) < 0 || acc_check_keys(a, w, keys) < 0 ||
	    parse_days(a, w, &win->days) < 0 ||
	    acc_get_string(a, w, "start-time", ACC_REQUIRED, &s) < 0)
		return -1;
	if (parse_clock(s, &win->start) < 0)
		return access_fail_at(a, "start-time", "expected HH:MM or "
		    "HH:MM:SS, got \"%s\"", s);
	if (acc_get_string(a, w, "duration", ACC_REQUIRED, &s) < 0)
		return -1;
	if (duration_parse(s, &win->duration) < 0 || win->duration == 0)
		return access_fail_at(a, "duration", "expected a duration "
		    "such as 1y2d5h10m30s, got \"%s\"", s);
	ws->n++;
	return parse_zone(a, w, args[1], &win->zone);
}

int
windows_parse(struct access *a, const json_t *config, const char *site_zone,
    struct windows *out)
{
	void *args[2] = { out, (void *)(uintptr_t)0 };
	json_t *arr;
	int r;

	out->w = NULL;
	out->n = 0;
	r = acc_get_array(a, config, "maintenance-windows", ACC_OPTIONAL, &arr);
	if (r != 0)
		return r < 0 ? -1 : 0;
	out->w = xcalloc(json_array_size(arr) + 1, sizeof *out->w);
	args[1] = (void *)site_zone;
	return acc_each_element(a, config, "maintenance-windows",
	    ACC_REQUIRED, parse_window, args) < 0 ? -1 : 0;
}

void
windows_free(struct windows *ws)
{
	free(ws->w);
	ws->w = NULL;
	ws->n = 0;
}

/* weekday: 0 for Sunday of day number d (1970-01-01 was a Thursday). */
static int
weekday(int64_t d)
{
	return (int)(((d % 7) + 7 + 4) % 7);
}

/*
 * One window: occurrences from 8 days back (the latest occurrence that
 * opened before now ends last, and one a week earlier than an open one
 * is never the only one open) to 8 days ahead.
 */
static void
window_at(const struct window *w, int64_t now, int64_t *open_at,
    int64_t *close_at, int64_t *next)
{
	int64_t today = time_floor_day(tz_to_local(&w->zone, now)), d, o;

	for (d = today - 8; d <= today + 8; d++) {
		if (!(w->days & (1u << weekday(d))))
			continue;
		o = tz_from_local(&w->zone, d * 86400 + w->start);
		if (o <= now && now < o + w->duration) {
			if (*open_at < 0 || o < *open_at)
				*open_at = o;
			if (o + w->duration > *close_at)
				*close_at = o + w->duration;
		} else if (o > now && (*next < 0 || o < *next)) {
			*next = o;
		}
	}
}

void
windows_at(const struct windows *ws, int64_t now, int64_t *open_at,
    int64_t *close_at, int64_t *next)
{
	size_t i;

	*open_at = *close_at = *next = -1;
	for (i = 0; i < ws->n; i++)
		window_at(&ws->w[i], now, open_at, close_at, next);
}
