/*
 * stopsig.h: a stop request by SIGTERM or SIGINT, for the tools that
 * run until told to stop (osu-worker, osu-run): the handler only sets
 * a flag, and the tool's loop ends at its next look at it.
 */
#ifndef UPKIT_STOPSIG_H
#define UPKIT_STOPSIG_H

#include <signal.h>

extern volatile sig_atomic_t stop_requested;

/* stop_on_signals: SIGTERM and SIGINT set stop_requested. */
void stop_on_signals(void);

#endif
