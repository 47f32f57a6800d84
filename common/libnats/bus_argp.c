/*
 * bus_argp.c: -s URL, the NATS server, how to connect to it, the
 * stream's limits, and the document operand (see bus_argp.h).
 */
#include <argp.h>
#include <inttypes.h>
#include <stdlib.h>

#include "bus_argp.h"
#include "timefmt.h"

enum {
	OPT_MAX_AGE = 0x100, OPT_MAX_BYTES, OPT_REPLICAS, OPT_TLS_CA,
	OPT_CREDS, OPT_USER_FILE
};

/* number: arg as a whole number in [min, max], or a usage error. */
static long long
number(struct argp_state *state, const char *opt, const char *arg,
    long long min, long long max)
{
	char *end;
	long long n = strtoll(arg, &end, 10);

	if (end == arg || *end != '\0' || n < min || n > max)
		argp_error(state, "%s: '%s' is not a number from %lld to %lld",
		    opt, arg, min, max);
	return n;
}

static error_t
parse_bus(int key, char *arg, struct argp_state *state)
{
	struct bus_options *o = state->input;
	struct bus_conf *c = &o->conf;
	int64_t t;

	switch (key) {
	case ARGP_KEY_INIT:
		c->url = BUS_DEFAULT_URL;
		c->max_age = BUS_DEFAULT_MAX_AGE;
		c->max_bytes = BUS_DEFAULT_MAX_BYTES;
		c->replicas = 1;
		o->file = NULL;
		break;
	case 's':
		c->url = arg;
		break;
	case OPT_MAX_AGE:
		if (duration_parse(arg, &t) < 0 || t < 1)
			argp_error(state, "--max-age: '%s' is not a duration "
			    "such as 7d or 12h", arg);
		c->max_age = t;
		break;
	case OPT_MAX_BYTES:
		c->max_bytes = number(state, "--max-bytes", arg, 1024,
		    INT64_MAX);
		break;
	case OPT_REPLICAS:
		c->replicas = (int)number(state, "--replicas", arg, 1, 5);
		break;
	case OPT_TLS_CA:
		c->ca_file = arg;
		break;
	case OPT_CREDS:
		c->creds_file = arg;
		break;
	case OPT_USER_FILE:
		c->user_file = arg;
		break;
	case ARGP_KEY_ARG:
		if (o->file != NULL)
			argp_error(state, "more than one %s", o->operand);
		o->file = arg;
		break;
	case ARGP_KEY_END:
		if (o->file == NULL)
			argp_error(state, "no %s", o->operand);
		if (c->creds_file != NULL && c->user_file != NULL)
			argp_error(state, "--creds and --user-file exclude "
			    "each other");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_option bus_options[] = {
	{ "server", 's', "URL", 0, "The NATS server (default "
	  BUS_DEFAULT_URL "); several, comma-separated, for a cluster", 0 },
	{ "tls-ca", OPT_TLS_CA, "FILE", 0, "Connect with TLS and trust the "
	  "server whose certificate the CA certificates in FILE signed", 0 },
	{ "creds", OPT_CREDS, "FILE", 0, "Authenticate with the user JWT "
	  "and nkey seed of the .creds FILE", 0 },
	{ "user-file", OPT_USER_FILE, "FILE", 0, "Authenticate with the "
	  "USER:PASSWORD on the first line of FILE", 0 },
	{ "max-age", OPT_MAX_AGE, "DURATION", 0, "The stream keeps a message "
	  "this long, and drops a re-published one this long (default 7d)",
	  0 },
	{ "max-bytes", OPT_MAX_BYTES, "BYTES", 0, "The stream's size; the "
	  "oldest messages go first (default 1073741824)", 0 },
	{ "replicas", OPT_REPLICAS, "N", 0, "Copies of the stream and the "
	  "lease bucket in a cluster, 1 to 5 (default 1)", 0 },
	{ 0 }
};

const struct argp bus_argp = { bus_options, parse_bus, 0, 0, 0, 0, 0 };
