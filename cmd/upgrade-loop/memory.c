/*
 * memory.c: the steps' peak memory against the machine's (issue 43).
 * Each step's peak resident memory comes from wait4(2) (ru_maxrss, in
 * KiB, of the step's own process).  An iteration whose largest step
 * came within PEAK_NEAR_PERCENT of the memory the loop may use is said
 * after its progress line: the next iterations of an upgrade carry more
 * than the first (the state document grows with the schedule), and an
 * operator told early can move the loop to a larger machine before the
 * kernel's out-of-memory killer ends it (oom.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "loop.h"

/* A peak at this share of the memory the loop may use is a warning. */
#define PEAK_NEAR_PERCENT 75

long
proc_field(const char *env, const char *path, const char *key)
{
	const char *over = getenv(env);
	size_t len = strlen(key);
	char line[128];
	long n = -1;
	FILE *f;

	if ((f = fopen(over != NULL && *over != '\0' ? over : path, "re")) ==
	    NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, key, len) == 0 && (line[len] == ' ' ||
		    line[len] == ':')) {
			n = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return n;
}

/*
 * cgroup_kib: the memory limit of the loop's cgroup (v2, memory.max),
 * or -1 when there is none ("max") or it cannot be read.  A container
 * with less memory than its machine is killed at its own limit.
 */
static long
cgroup_kib(void)
{
	char line[64];
	long long bytes;
	FILE *f;

	if (getenv("UPKIT_MEMINFO") != NULL)	/* a test's machine */
		return -1;
	if ((f = fopen("/sys/fs/cgroup/memory.max", "re")) == NULL)
		return -1;
	if (fgets(line, sizeof line, f) == NULL || strncmp(line, "max", 3) == 0)
		bytes = -1;
	else
		bytes = strtoll(line, NULL, 10);
	fclose(f);
	return bytes > 0 ? (long)(bytes / 1024) : -1;
}

long
machine_kib(void)
{
	long total = proc_field("UPKIT_MEMINFO", "/proc/meminfo", "MemTotal"),
	    limit = cgroup_kib();

	if (total <= 0 || (limit > 0 && limit < total))
		return limit;
	return total;
}

void
peak_note(struct loop *l, const char *prog, long kib)
{
	const char *base = strrchr(prog, '/');

	if (kib <= l->peak_kib)
		return;
	l->peak_kib = kib;
	snprintf(l->peak_prog, sizeof l->peak_prog, "%s",
	    base != NULL ? base + 1 : prog);
}

/* gib: kib in GiB, for a message. */
static double
gib(long kib)
{
	return (double)kib / (1024.0 * 1024.0);
}

void
peak_warn(struct loop *l, long n)
{
	long machine = machine_kib();

	if (machine > 0 && l->peak_kib * 100 >= machine * PEAK_NEAR_PERCENT)
		diag_warn(NULL, NULL, "iteration %ld: '%s' peaked at %.2f GiB, "
		    "%ld%% of the %.2f GiB this machine has: a later, larger "
		    "iteration may run out of memory", n, l->peak_prog,
		    gib(l->peak_kib), l->peak_kib * 100 / machine,
		    gib(machine));
	l->peak_kib = 0;
	l->peak_prog[0] = '\0';
}
