/*
 * bus_argp.h: the command line of a program that talks on the bus
 * (bus.h), as an argp child: -s URL (--server), and the one document
 * the program works on (osu-run's STATE, osu-worker's CONFIG): none or
 * a second is a usage error.  Its input is the tool's struct
 * bus_options, which the tool's parser hands over at ARGP_KEY_INIT.
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

extern const struct argp bus_argp;

#endif
