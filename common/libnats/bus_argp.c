/*
 * bus_argp.c: -s URL, the NATS server, and the document operand (see
 * bus_argp.h).
 */
#include <argp.h>

#include "bus_argp.h"

static error_t
parse_bus(int key, char *arg, struct argp_state *state)
{
	struct bus_options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		o->server = BUS_DEFAULT_URL;
		o->file = NULL;
		break;
	case 's':
		o->server = arg;
		break;
	case ARGP_KEY_ARG:
		if (o->file != NULL)
			argp_error(state, "more than one %s", o->operand);
		o->file = arg;
		break;
	case ARGP_KEY_END:
		if (o->file == NULL)
			argp_error(state, "no %s", o->operand);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option bus_options[] = {
	{ "server", 's', "URL", 0, "The NATS server (default "
	  BUS_DEFAULT_URL ")", 0 },
	{ 0 }
};

const struct argp bus_argp = { bus_options, parse_bus, 0, 0, 0, 0, 0 };
