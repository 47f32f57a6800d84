/* tzone.c: tz database zones through TZ and localtime_r (see tzone.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timefmt.h"
#include "tzone.h"

/* name_ok: a relative path of plain components, as zone names are. */
static int
name_ok(const char *name)
{
	const char *p, *comp = name;
	size_t len = strlen(name);

	if (len == 0 || len > 128 || name[0] == '/')
		return 0;
	for (p = name; ; p++) {
		if (*p == '/' || *p == '\0') {
			if (p == comp || (p - comp == 1 && comp[0] == '.') ||
			    (p - comp == 2 && comp[0] == '.' && comp[1] == '.'))
				return 0;
			if (*p == '\0')
				return 1;
			comp = p + 1;
		} else if (!((*p >= 'A' && *p <= 'Z') ||
		    (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("._+-", *p) != NULL))
			return 0;
	}
}

int
tz_find_file(const char *path, struct tzone *z)
{
	char magic[4];
	FILE *fp;
	int ok;

	if (strlen(path) >= sizeof z->path || (fp = fopen(path, "rb")) == NULL)
		return -1;
	ok = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "TZif", 4) == 0;
	fclose(fp);
	if (!ok)
		return -1;
	snprintf(z->path, sizeof z->path, "%s", path);
	return 0;
}

int
tz_find(const char *name, struct tzone *z)
{
	const char *dir = getenv("TZDIR");
	char path[TZ_PATH_MAX];
	int n;

	if (!name_ok(name))
		return -1;
	if (dir == NULL || dir[0] == '\0')
		dir = "/usr/share/zoneinfo";
	n = snprintf(path, sizeof path, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= sizeof path)
		return -1;
	return tz_find_file(path, z);
}

/* use_zone: point TZ at z's file, unless it already is. */
static void
use_zone(const struct tzone *z)
{
	static char current[TZ_PATH_MAX + 2] = "";
	char want[TZ_PATH_MAX + 2];

	snprintf(want, sizeof want, ":%s", z->path[0] ? z->path : "UTC");
	if (strcmp(want, current) == 0)
		return;
	setenv("TZ", want, 1);
	tzset();
	memcpy(current, want, sizeof current);
}

int64_t
tz_to_local(const struct tzone *z, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (z->path[0] == '\0')
		return t;
	use_zone(z);
	if (localtime_r(&tt, &tm) == NULL)
		return t;
	return time_days_from_civil(tm.tm_year + 1900LL, tm.tm_mon + 1,
	    tm.tm_mday) * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 +
	    tm.tm_sec;
}

int64_t
tz_offset(const struct tzone *z, int64_t t)
{
	return tz_to_local(z, t) - t;
}

/* jump: the first instant in (lo, hi] whose offset is not lo's. */
static int64_t
jump(const struct tzone *z, int64_t lo, int64_t hi)
{
	int64_t off = tz_offset(z, lo), mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (tz_offset(z, mid) == off)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

int64_t
tz_from_local(const struct tzone *z, int64_t local)
{
	/* Offsets a day either side cover every real transition. */
	int64_t before = tz_offset(z, local - 86400);
	int64_t after = tz_offset(z, local + 86400);
	int64_t t1 = local - before, t2 = local - after;

	if (tz_offset(z, t1) == before)
		return t1;	/* the earlier reading in a repeat, or the only */
	if (tz_offset(z, t2) == after)
		return t2;
	/* A gap: the clocks jumped over local between t2 and t1. */
	return jump(z, t2 < t1 ? t2 : t1, t2 < t1 ? t1 : t2);
}
