/* stopsig.c: SIGTERM and SIGINT as a stop request (see stopsig.h). */
#include <stddef.h>

#include "stopsig.h"

volatile sig_atomic_t stop_requested;

static void
on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

void
stop_on_signals(void)
{
	struct sigaction sa;

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}
