/*
 * bus.h: seed 002's Volga topics on NATS JetStream (libnats).
 *
 * One stream, "os-upgrade", holds both topics.  A message on topic
 * "os-upgrade:T" under producer name P has subject "os-upgrade.T.P'"
 * (P' is P with '.', '*', '>' and blanks made '_', as subject tokens
 * need) and carries P verbatim in its "Producer" header, which is what
 * readers go by.  A message meant for one host H alone, the controller's
 * commands, has a fourth token, H' ("os-upgrade.control.
 * os-upgrade-controller.H'"), so that a worker reads only its own host's
 * commands and a server can be told to let it read no others, while the
 * controller reads "os-upgrade.control.>".
 *
 * The stream is bounded by age and size (struct bus_conf).  A message
 * published with an ID (Nats-Msg-Id) that the stream saw within its
 * duplicates window, which is its whole max age, is not stored again:
 * the server answers with the first one's sequence.  That makes a
 * re-publish safe, after a crash or a lost acknowledgement.
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
#define BUS_CONTROLLER "os-upgrade-controller"
#define BUS_DEFAULT_URL "nats://127.0.0.1:4222"
#define BUS_DEFAULT_MAX_AGE (7 * 86400)		/* seconds */
#define BUS_DEFAULT_MAX_BYTES (1LL << 30)

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

/* How to reach the server, and the stream's limits. */
struct bus_conf {
	const char *url;	/* a URL, or several, comma-separated */
	const char *ca_file;	/* TLS: the CA that signed the server */
	const char *creds_file;	/* a .creds file: user JWT, nkey seed */
	const char *user_file;	/* "USER:PASSWORD" on its first line */
	int64_t max_age;	/* seconds a message is kept */
	int64_t max_bytes;	/* the stream's size */
	int replicas;		/* the stream's copies in a cluster */
	int owner;		/* apply the limits to a stream that exists */
};

/*
 * bus_open: connect as who (a host, or BUS_CONTROLLER: its inboxes are
 * "_INBOX.who'.>", for a server to tell them apart) and make sure the
 * stream exists; NULL with a diagnostic (naming the URL) if that fails.
 */
struct bus *bus_open(const struct bus_conf *conf, const char *who);
void bus_close(struct bus *b);

/* bus_subject: the subject of topic ("control") under producer. */
void bus_subject(char *buf, size_t size, const char *topic,
    const char *producer);
/* bus_subject_to: the same for a message to host to alone. */
void bus_subject_to(char *buf, size_t size, const char *topic,
    const char *producer, const char *to);

/*
 * bus_publish: data on topic under producer, waiting for the stream's
 * ack; *seq (if not NULL) gets the message's sequence.  0 or -1.
 * While the server (or a cluster's stream leader) does not answer, it
 * tries again for up to BUS_RETRY_MS.
 */
#define BUS_RETRY_MS 30000
int bus_publish(struct bus *b, const char *topic, const char *producer,
    const char *data, size_t len, uint64_t *seq);

/* What bus_publish_to sends: to and id may be NULL. */
struct bus_out {
	const char *topic, *producer;
	const char *to;		/* the one host the message is for */
	const char *id;		/* its Nats-Msg-Id */
	const char *data;
	size_t len;
};

/*
 * bus_publish_to: m as bus_publish does; a message whose ID the stream
 * holds already is not stored again, and *seq gets the first one's
 * sequence.
 */
int bus_publish_to(struct bus *b, const struct bus_out *m, uint64_t *seq);

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

/*
 * bus_sub_batch: pull up to batch messages at a time (1 by default):
 * one round trip to a busy server for all that are waiting.  Those
 * pulled and not yet handed out when s is freed come again after the
 * ack wait.
 */
void bus_sub_batch(struct bus_sub *s, int batch);
/* bus_fetch: the next message within timeout_ms: 1, 0 if none, -1. */
int bus_fetch(struct bus_sub *s, int64_t timeout_ms, struct bus_msg *m);
/* bus_ack: ack m (and so every earlier one) and free it; 0 or -1. */
int bus_ack(struct bus_msg *m);
/* bus_drop: free m without acking it. */
void bus_drop(struct bus_msg *m);

/* bus_token: name made a subject token ('.', '*', '>', blanks: '_'). */
void bus_token(char *buf, size_t size, const char *name);

/*
 * A lease: one key of the key-value bucket BUS_LEASE_BUCKET, whose
 * entries live ttl seconds after their last write.  The holder renews
 * it well within that; a process that finds it held refuses to start.
 */
#define BUS_LEASE_BUCKET "os-upgrade-leases"
struct bus_lease;

/*
 * bus_lease_take: key for this process ("pid N on HOST since TIME"),
 * or NULL: 1 in *held when another holds it (with a diagnostic naming
 * that one), 0 on another error.
 */
struct bus_lease *bus_lease_take(struct bus *b, const char *key,
    int64_t ttl, int *held);
/*
 * bus_lease_renew: write the lease again when a third of its TTL has
 * passed since the last write; -1 (with a diagnostic) when it was lost.
 */
int bus_lease_renew(struct bus_lease *l);
/* bus_lease_free: give the lease up (if still held) and free it. */
void bus_lease_free(struct bus_lease *l);

#endif
