/*
 * tap.h: the smallest TAP producer, for C unit tests of common/.
 * Each test program prints "ok N - what" lines and a closing plan, so
 * prove(1) runs it beside the shell tests.
 */
#ifndef UPKIT_TAP_H
#define UPKIT_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_count, tap_failures;

static void
ok(int cond, const char *what)
{
	tap_count++;
	if (!cond)
		tap_failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_count, what);
}

static void
is_long(long got, long want, const char *what)
{
	ok(got == want, what);
	if (got != want)
		printf("#   got %ld, expected %ld\n", got, want);
}

static void
is_str(const char *got, const char *want, const char *what)
{
	int same = got != NULL && want != NULL && strcmp(got, want) == 0;

	ok(same, what);
	if (!same)
		printf("#   got '%s', expected '%s'\n", got ? got : "(null)",
		    want ? want : "(null)");
}

static int
done_testing(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures != 0;
}

#endif
