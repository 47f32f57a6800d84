/*
 * monotonic.h: the one clock upkit tools time themselves with
 * (CLOCK_MONOTONIC): a step's seconds, a solver's time limit, the -T
 * file.  Never the time of day: it does not jump.
 */
#ifndef UPKIT_MONOTONIC_H
#define UPKIT_MONOTONIC_H

/* monotonic_seconds: seconds since an arbitrary fixed point. */
double monotonic_seconds(void);

#endif
