/*
 * bus.h: seed 002's Volga topics on NATS JetStream (libnats).
 *
 * One stream, "os-upgrade", holds both topics.  A message on topic
 * "os-upgrade:T" under producer name P has subject "os-upgrade.T.P'"
 * (P' is P with '.', '*', '>' and blanks made '_', as subject tokens
 * need) and carries P verbatim in its "Producer" header, which is what
 * readers go by.  The producer token lets a consumer filter: a worker
 * reads only "os-upgrade.control.os-upgrade-controller", the commands,
 * while the controller reads "os-upgrade.control.>".
 *
 * Volga's semantics map onto a durable pull consumer with explicit
 * AckAll acks: a durable consumer resumes at its unread position, a
 * message not acked is delivered again after the ack wait, and acking
 * one message acks every earlier one.
 */
#ifndef UPKIT_BUS_H
#define UPKIT_BUS_H

#include <stddef.h>
#include <stdint.h>

#define BUS_STREAM "os-upgrade"
#define BUS_PRODUCER_HEADER "Producer"

struct bus;
struct bus_sub;

/* A received message: valid until bus_ack or bus_drop. */
struct bus_msg {
	const char *producer;	/* "" when the header is missing */
	const char *data;
	size_t len;
	uint64_t seq;		/* the stream sequence number */
	void *impl;
};

/*
 * bus_open: connect to url and make sure the stream exists; NULL with
 * a diagnostic (naming url) if that fails.
 */
struct bus *bus_open(const char *url);
void bus_close(struct bus *b);

/* bus_subject: the subject of topic ("control") under producer. */
void bus_subject(char *buf, size_t size, const char *topic,
    const char *producer);

/*
 * bus_publish: data on topic under producer, waiting for the stream's
 * ack; *seq (if not NULL) gets the message's sequence.  0 or -1.
 */
int bus_publish(struct bus *b, const char *topic, const char *producer,
    const char *data, size_t len, uint64_t *seq);

/*
 * bus_undelivered: the messages the server holds for the durable
 * consumer name that no ack has settled (delivered and awaiting an
 * ack, or not delivered yet); -1 when it cannot tell.
 */
long bus_undelivered(struct bus *b, const char *name);

/*
 * bus_consume: the durable consumer name (created when missing, from
 * the stream's start) on subjects filter, with the given ack wait;
 * fresh deletes it first, to read the stream again from its start.
 */
struct bus_sub *bus_consume(struct bus *b, const char *name,
    const char *filter, int64_t ack_wait_ms, int fresh);
void bus_sub_free(struct bus_sub *s);

/* bus_fetch: the next message within timeout_ms: 1, 0 if none, -1. */
int bus_fetch(struct bus_sub *s, int64_t timeout_ms, struct bus_msg *m);
/* bus_ack: ack m (and so every earlier one) and free it; 0 or -1. */
int bus_ack(struct bus_msg *m);
/* bus_drop: free m without acking it. */
void bus_drop(struct bus_msg *m);

/* bus_token: name made a subject token ('.', '*', '>', blanks: '_'). */
void bus_token(char *buf, size_t size, const char *name);

#endif
