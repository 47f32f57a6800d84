/*
 * bus_argp.h: the command line of a program that talks on the bus
 * (bus.h), as an argp child: -s URL (--server), how to connect
 * (--tls-ca, --creds, --user-file), the stream's limits (--max-age,
 * --max-bytes, --replicas), and the one document the program works on
 * (osu-run's STATE, osu-worker's CONFIG): none or a second is a usage
 * error.  Its input is the tool's struct bus_options, which the tool's
 * parser hands over at ARGP_KEY_INIT.
 */
#ifndef UPKIT_BUS_ARGP_H
#define UPKIT_BUS_ARGP_H

#include <argp.h>

#include "bus.h"

struct bus_options {
	struct bus_conf conf;	/* the server and the stream */
	const char *file;	/* the document operand */
	const char *operand;	/* its name in messages, set by the parent
				   ("STATE") */
};

extern const struct argp bus_argp;

#endif
