/* monotonic.c: the monotonic clock (see monotonic.h). */
#include <time.h>

#include "monotonic.h"

double
monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
