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

static const struct argp bus_argp = { bus_options, parse_bus, 0, 0, 0, 0,
	0 };

/* The inputs of the two children of the root parser. */
struct inputs {
	void *tool;
	struct bus_options *bus;
};

static error_t
parse_root(int key, char *arg, struct argp_state *state)
{
	const struct inputs *in = state->input;

	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = in->tool;
	state->child_inputs[1] = in->bus;
	return 0;
}

void
bus_argp_parse(const struct argp *tool, int argc, char **argv,
    void *input, struct bus_options *bus)
{
	const struct argp_child children[] = {
		{ tool, 0, 0, 0 }, { &bus_argp, 0, 0, 0 }, { 0 }
	};
	const struct argp root = { 0, parse_root, 0, 0, children, 0, 0 };
	struct inputs in = { input, bus };

	argp_parse(&root, argc, argv, 0, NULL, &in);
}
