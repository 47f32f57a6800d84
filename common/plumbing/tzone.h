/*
 * tzone.h: wall-clock time in a zone of the tz database.
 *
 * The zone's rules come from its compiled file under $TZDIR (default
 * /usr/share/zoneinfo), read by the C library through TZ and
 * localtime_r().  tz_find() checks the file is there and is a tz file
 * first, because the C library silently treats a TZ it cannot find as
 * UTC.  Wall-clock times are given as "local seconds": the seconds
 * since 1970-01-01T00:00 of the calendar date and time on the wall, as
 * if that were UTC.
 */
#ifndef UPKIT_TZONE_H
#define UPKIT_TZONE_H

#include <stdint.h>

#define TZ_PATH_MAX 512

struct tzone {
	char path[TZ_PATH_MAX];	/* the zone file, or "" for UTC */
};

/* tz_find: zone name ("Europe/Berlin", "UTC"); 0 or -1 if unknown. */
int tz_find(const char *name, struct tzone *z);
/* tz_find_file: a zone file given by path ("/etc/localtime"). */
int tz_find_file(const char *path, struct tzone *z);

/* tz_offset: seconds east of UTC in force at t. */
int64_t tz_offset(const struct tzone *z, int64_t t);
/* tz_to_local: the local seconds of instant t. */
int64_t tz_to_local(const struct tzone *z, int64_t t);

/*
 * tz_from_local: the first instant whose wall clock reads local.  In a
 * repeated hour (clocks set back) that is the earlier of the two; in a
 * skipped hour (clocks set forward) no instant reads local, and the
 * result is the instant of the jump, the first one whose wall clock
 * reads later than local.
 */
int64_t tz_from_local(const struct tzone *z, int64_t local);

#endif
