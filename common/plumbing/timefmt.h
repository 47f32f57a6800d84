/*
 * timefmt.h: ISO 8601 timestamps <-> seconds since the epoch (UTC).
 *
 * upkit documents carry times as strings such as "2026-11-21T08:00:00Z"
 * or "2026-11-21T10:00:00+02:00".  The conversion is pure arithmetic
 * (no TZ, no locale, no timegm), so results are the same everywhere.
 */
#ifndef UPKIT_TIMEFMT_H
#define UPKIT_TIMEFMT_H

#include <stddef.h>
#include <stdint.h>

/*
 * time_parse: "YYYY-MM-DDTHH:MM:SS" with optional ".fraction" (dropped)
 * and a zone "Z" or "+HH:MM"/"-HH:MM"; 0 and *out set, or -1.
 */
int time_parse(const char *s, int64_t *out);

/* time_format: t as "YYYY-MM-DDTHH:MM:SSZ" into buf (>= 21 bytes). */
void time_format(int64_t t, char *buf, size_t size);

/*
 * Calendar arithmetic of the proleptic Gregorian calendar, for callers
 * that convert wall-clock times themselves: days since 1970-01-01 of a
 * date, and the date of such a day number.
 */
int64_t time_days_from_civil(int64_t y, int64_t m, int64_t d);
void time_civil_from_days(int64_t days, int64_t *y, int64_t *m, int64_t *d);
/* time_floor_day: the day number of t (seconds since the epoch). */
int64_t time_floor_day(int64_t t);

/*
 * Durations in the form "1y2d5h10m30s": each of y (365 days), d, h, m
 * and s at most once, in that order, at least one of them.  Parsing
 * refuses anything else and anything over 100 years; formatting writes
 * the non-zero units largest first, "0s" for zero.
 */
#define DURATION_MAX_SECONDS (100LL * 365 * 86400)
int duration_parse(const char *s, int64_t *out);
void duration_format(int64_t seconds, char *buf, size_t size);

#endif
