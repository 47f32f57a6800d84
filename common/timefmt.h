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

#endif
