/*
 * bus_argp.h: the command line of a program that talks on the bus
 * (bus.h), as an argp child: -s URL (--server), and the one document
 * the program works on (osu-run's STATE, osu-worker's CONFIG): none or
 * a second is a usage error.  bus_argp_parse parses a tool's own argp
 * beside it.
 */
#ifndef UPKIT_BUS_ARGP_H
#define UPKIT_BUS_ARGP_H

#include <argp.h>

#define BUS_DEFAULT_URL "nats://127.0.0.1:4222"

struct bus_options {
	const char *server;	/* the NATS server (BUS_DEFAULT_URL) */
	const char *file;	/* the document operand */
	const char *operand;	/* its name in messages, set by the parent
				   ("STATE") */
};

/*
 * bus_argp_parse: argp_parse of argc and argv with the tool's argp,
 * whose parser gets input, and the bus options into bus.
 */
void bus_argp_parse(const struct argp *tool, int argc, char **argv,
    void *input, struct bus_options *bus);

#endif
