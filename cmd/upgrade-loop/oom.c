/*
 * oom.c: how a step ended when it did not end well (issue 43).  A step
 * killed by SIGKILL (status 137) was most often killed by the kernel's
 * out-of-memory killer; the kernel counts those kills in /proc/vmstat
 * (oom_kill, Linux 4.13 and later), so the count before and after the
 * step says whether one happened while it ran.  The message then names
 * the step's input and its size beside the machine's memory, which is
 * what the operator decides on.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcodes.h"
#include "loop.h"
#include "xalloc.h"

/* SIGKILL's status as spawn_status() gives it. */
#define KILLED_STATUS (128 + SIGKILL)

long
oom_kills(void)
{
	return proc_field("UPKIT_VMSTAT", "/proc/vmstat", "oom_kill");
}

int
step_out_of_memory(const struct loop *l, int st)
{
	return st == KILLED_STATUS && l->oom_before >= 0 &&
	    l->oom_after > l->oom_before;
}

int
step_failed_status(const struct loop *l, int st)
{
	return step_out_of_memory(l, st) ? EXIT_OSERR : tool_failed_status(st);
}

/* input_words: "its input, NAME, is N MB", or "" when input is NULL or
 * cannot be read. */
static char *
input_words(const char *input)
{
	const char *base;
	struct stat sb;

	if (input == NULL || stat(input, &sb) != 0)
		return xstrdup("");
	base = strrchr(input, '/');
	return xasprintf("; its input, %s, is %.1f MB", base ? base + 1 :
	    input, (double)sb.st_size / 1e6);
}

char *
step_failure(const struct loop *l, const char *prog, int st,
    const char *input)
{
	char *in, *s;

	if (st != KILLED_STATUS)
		return xasprintf("'%s' failed with status %d", prog, st);
	in = input_words(input);
	if (step_out_of_memory(l, st))
		s = xasprintf("'%s' ran out of memory: the kernel's "
		    "out-of-memory killer killed it (SIGKILL, status 137; "
		    "/proc/vmstat counted %ld such kill%s while it ran)%s, "
		    "and this machine has %ld MiB: run the loop again where "
		    "more memory is free", prog, l->oom_after - l->oom_before,
		    l->oom_after - l->oom_before == 1 ? "" : "s", in,
		    machine_kib() / 1024);
	else
		s = xasprintf("'%s' was killed by SIGKILL (status 137), and "
		    "the kernel counted no out-of-memory kill while it ran%s",
		    prog, in);
	free(in);
	return s;
}

const char *
input_operand(char *const argv[])
{
	const char *found = NULL;
	struct stat sb;
	size_t i;

	for (i = 1; argv[i] != NULL; i++)
		if (argv[i][0] != '-' && stat(argv[i], &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			found = argv[i];
	return found;
}
