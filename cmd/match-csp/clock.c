/*
 * clock.c: the monotonic clock the solvers' time limit and the report's
 * timings read (solver.h), in a file of its own so that the solvers
 * and their driver do not depend on each other for it.
 */
#include <time.h>

#include "solver.h"

double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
