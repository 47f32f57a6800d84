/*
 * timezone.c: unit tests of the time plumbing the OS upgrade windows
 * use: "1y2d5h10m30s" durations both ways, tz database zones with their
 * DST gaps and repeats, and unknown zones refused rather than taken as
 * UTC.
 */
#include <stdint.h>
#include <stdio.h>

#include "tap.h"
#include "timefmt.h"
#include "tzone.h"

static void
test_duration(void)
{
	static const char *const bad[] = { "", "4", "h", "4 h", "4h4h", "30m4h",
		"1w", "-1h", "101y", "4H", NULL };
	char buf[64];
	int64_t s = -1;
	int i, refused = 0;

	ok(duration_parse("1y2d5h10m30s", &s) == 0 &&
	    s == 365LL * 86400 + 2 * 86400 + 5 * 3600 + 10 * 60 + 30,
	    "duration: the seed's 1y2d5h10m30s");
	ok(duration_parse("10m30s", &s) == 0 && s == 630, "duration: 10m30s");
	for (i = 0; bad[i] != NULL; i++)
		refused += duration_parse(bad[i], &s) < 0;
	is_long(refused, i, "duration: malformed forms are refused");
	duration_format(1 * 86400 + 4 * 3600 + 18, buf, sizeof buf);
	is_str(buf, "1d4h18s", "duration: the seed's next-upgrade-in 1d4h18s");
	duration_format(0, buf, sizeof buf);
	is_str(buf, "0s", "duration: zero is 0s");
	duration_format(366LL * 86400, buf, sizeof buf);
	is_str(buf, "1y1d", "duration: a year is 365 days");
}

static void
test_zones(void)
{
	struct tzone z;
	int64_t t, local;

	ok(tz_find("Europe/Atlantis", &z) < 0, "tz: unknown zone refused");
	ok(tz_find("../../etc/passwd", &z) < 0, "tz: path escapes refused");
	ok(tz_find("/etc/localtime", &z) < 0, "tz: absolute names refused");
	ok(tz_find("Europe/Berlin", &z) == 0, "tz: Europe/Berlin found");
	time_parse("2023-01-15T12:00:00Z", &t);
	is_long((long)tz_offset(&z, t), 3600, "tz: CET is +01:00");
	time_parse("2023-07-15T12:00:00Z", &t);
	is_long((long)tz_offset(&z, t), 7200, "tz: CEST is +02:00");
	/* 2023-03-26 02:30 does not exist in Berlin: the jump, 01:00Z. */
	local = time_days_from_civil(2023, 3, 26) * 86400 + 2 * 3600 + 1800;
	time_parse("2023-03-26T01:00:00Z", &t);
	is_long((long)(tz_from_local(&z, local) - t), 0,
	    "tz: a skipped wall time maps to the jump");
	/* 2023-10-29 02:30 happens twice: the first is 00:30Z. */
	local = time_days_from_civil(2023, 10, 29) * 86400 + 2 * 3600 + 1800;
	time_parse("2023-10-29T00:30:00Z", &t);
	is_long((long)(tz_from_local(&z, local) - t), 0,
	    "tz: a repeated wall time maps to its first reading");
	ok(tz_find("America/New_York", &z) == 0, "tz: America/New_York found");
	local = time_days_from_civil(2023, 3, 17) * 86400 + 3600;
	time_parse("2023-03-17T05:00:00Z", &t);
	is_long((long)(tz_from_local(&z, local) - t), 0,
	    "tz: 01:00 EDT is 05:00Z");
}

int
main(void)
{
	test_duration();
	test_zones();
	return done_testing();
}
