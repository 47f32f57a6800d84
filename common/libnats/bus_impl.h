/*
 * bus_impl.h: what the files of the bus library share and its users
 * do not see: the connection behind struct bus.
 */
#ifndef UPKIT_BUS_IMPL_H
#define UPKIT_BUS_IMPL_H

#include <stdatomic.h>

#include <nats/nats.h>

#include "bus.h"

struct bus {
	natsConnection *nc;
	jsCtx *js;
	const struct bus_conf *conf;
	atomic_int refused;	/* the server refused something (a
				   permission violation), said by libnats'
				   thread: a timeout since is no wait */
};

/* bus_fail: a diagnostic "what: libnats' reason"; returns -1. */
int bus_fail(const char *what, natsStatus s);

#endif
