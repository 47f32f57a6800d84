/* bus.c: Volga topics on NATS JetStream through libnats (see bus.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nats/nats.h>

#include "bus.h"
#include "diag.h"
#include "xalloc.h"

struct bus {
	natsConnection *nc;
	jsCtx *js;
};

struct bus_sub {
	natsSubscription *sub;
};

/* fail: a diagnostic with libnats' reason; returns -1. */
static int
fail(const char *what, natsStatus s)
{
	const char *why = nats_GetLastError(NULL);

	diag_error(NULL, "%s: %s", what,
	    why != NULL && why[0] != '\0' ? why : natsStatus_GetText(s));
	return -1;
}

void
bus_token(char *buf, size_t size, const char *name)
{
	size_t i;

	snprintf(buf, size, "%s", name);
	for (i = 0; buf[i] != '\0'; i++)
		if (strchr(".*> \t\r\n", buf[i]) != NULL)
			buf[i] = '_';
}

void
bus_subject(char *buf, size_t size, const char *topic, const char *producer)
{
	char tok[256];

	bus_token(tok, sizeof tok, producer);
	snprintf(buf, size, "%s.%s.%s", BUS_STREAM, topic, tok);
}

/* stream_exists: the server has the stream. */
static int
stream_exists(struct bus *b)
{
	jsStreamInfo *si = NULL;
	jsErrCode err = 0;

	if (js_GetStreamInfo(&si, b->js, BUS_STREAM, NULL, &err) != NATS_OK)
		return 0;
	jsStreamInfo_Destroy(si);
	return 1;
}

/*
 * ensure_stream: the stream, created on first use.  Workers and the
 * controller start together: when another one created it between our
 * look and our create, the server refuses ours ("subjects overlap"),
 * and the stream is there all the same.
 */
static int
ensure_stream(struct bus *b)
{
	static const char *subjects[] = { BUS_STREAM ".>" };
	jsStreamConfig cfg;
	jsStreamInfo *si = NULL;
	jsErrCode err = 0;
	natsStatus s;

	if (stream_exists(b))
		return 0;
	jsStreamConfig_Init(&cfg);
	cfg.Name = BUS_STREAM;
	cfg.Subjects = subjects;
	cfg.SubjectsLen = 1;
	cfg.Storage = js_FileStorage;
	s = js_AddStream(&si, b->js, &cfg, NULL, &err);
	if (s != NATS_OK && stream_exists(b))
		return 0;
	if (s != NATS_OK)
		return fail("cannot create the stream " BUS_STREAM, s);
	jsStreamInfo_Destroy(si);
	return 0;
}

struct bus *
bus_open(const char *url)
{
	struct bus *b = xcalloc(1, sizeof *b);
	natsStatus s;
	char what[300];

	snprintf(what, sizeof what, "cannot connect to %s", url);
	if ((s = natsConnection_ConnectTo(&b->nc, url)) != NATS_OK) {
		fail(what, s);
		free(b);
		return NULL;
	}
	if ((s = natsConnection_JetStream(&b->js, b->nc, NULL)) != NATS_OK ||
	    ensure_stream(b) < 0) {
		if (s != NATS_OK)
			fail("no JetStream", s);
		bus_close(b);
		return NULL;
	}
	return b;
}

void
bus_close(struct bus *b)
{
	if (b == NULL)
		return;
	jsCtx_Destroy(b->js);
	natsConnection_Destroy(b->nc);
	free(b);
}

int
bus_publish(struct bus *b, const char *topic, const char *producer,
    const char *data, size_t len, uint64_t *seq)
{
	char subject[512];
	natsMsg *m = NULL;
	jsPubAck *ack = NULL;
	jsErrCode err = 0;
	natsStatus s;

	bus_subject(subject, sizeof subject, topic, producer);
	s = natsMsg_Create(&m, subject, NULL, data, (int)len);
	if (s == NATS_OK)
		s = natsMsgHeader_Set(m, BUS_PRODUCER_HEADER, producer);
	if (s == NATS_OK)
		s = js_PublishMsg(&ack, b->js, m, NULL, &err);
	natsMsg_Destroy(m);
	if (s != NATS_OK)
		return fail("cannot publish", s);
	if (seq != NULL)
		*seq = ack->Sequence;
	jsPubAck_Destroy(ack);
	return 0;
}

/*
 * create_consumer: the durable pull consumer, AckAll, from stream
 * sequence first (1: the start).
 */
static int
create_consumer(struct bus *b, const char *name, const char *filter,
    int64_t ack_wait_ms, uint64_t first)
{
	jsConsumerConfig cc;
	jsConsumerInfo *ci = NULL;
	jsErrCode err = 0;
	natsStatus s;

	jsConsumerConfig_Init(&cc);
	cc.Durable = name;
	cc.DeliverPolicy = first > 1 ? js_DeliverByStartSequence :
	    js_DeliverAll;
	cc.OptStartSeq = first > 1 ? first : 0;
	cc.AckPolicy = js_AckAll;
	cc.AckWait = ack_wait_ms * 1000000;
	cc.FilterSubject = filter;
	s = js_AddConsumer(&ci, b->js, BUS_STREAM, &cc, NULL, &err);
	if (s != NATS_OK)
		return fail("cannot create the consumer", s);
	jsConsumerInfo_Destroy(ci);
	return 0;
}

/* add_consumer: the durable consumer, created from the start if new. */
static int
add_consumer(struct bus *b, const char *name, const char *filter,
    int64_t ack_wait_ms)
{
	jsConsumerInfo *ci = NULL;
	jsErrCode err = 0;

	if (js_GetConsumerInfo(&ci, b->js, BUS_STREAM, name, NULL, &err) ==
	    NATS_OK) {
		jsConsumerInfo_Destroy(ci);
		return 0;
	}
	return create_consumer(b, name, filter, ack_wait_ms, 1);
}

/*
 * answers: whether consumer name answers a pull (one message, no wait)
 * within PROBE_MS: 1 it does, 0 it stays silent, -1 on error.  A
 * message the probe gets is handed back at once (-NAK), for the
 * subscription to fetch as usual.
 */
#define PROBE_MS 2000
static int
answers(struct bus *b, const char *name)
{
	static const char pull[] = "{\"batch\":1,\"no_wait\":true}";
	char subject[400];
	const char *reply;
	natsMsg *m = NULL;
	natsStatus s;

	if ((size_t)snprintf(subject, sizeof subject,
	    "$JS.API.CONSUMER.MSG.NEXT.%s.%s", BUS_STREAM, name) >=
	    sizeof subject)
		return fail("consumer name too long", NATS_INVALID_ARG);
	s = natsConnection_Request(&m, b->nc, subject, pull,
	    (int)sizeof pull - 1, PROBE_MS);
	if (s == NATS_TIMEOUT)
		return 0;
	if (s != NATS_OK)
		return fail("cannot ask the consumer", s);
	reply = natsMsg_GetReply(m);
	/* Given back at once, and sent before anything else can fail. */
	if (reply != NULL && strncmp(reply, "$JS.ACK.", 8) == 0 &&
	    (natsConnection_PublishString(b->nc, reply, "-NAK") != NATS_OK ||
	    natsConnection_FlushTimeout(b->nc, PROBE_MS) != NATS_OK))
		diag_warn(NULL, NULL, "consumer %s: a message could not be "
		    "handed back: it comes again after the ack wait", name);
	natsMsg_Destroy(m);
	return 1;
}

/*
 * renew: consumer name deleted and created again, from the first
 * message after its ack floor, so that nothing acked is read again.
 */
static int
renew(struct bus *b, const char *name, const char *filter,
    int64_t ack_wait_ms)
{
	jsConsumerInfo *ci = NULL;
	jsErrCode err = 0;
	uint64_t floor;

	if (js_GetConsumerInfo(&ci, b->js, BUS_STREAM, name, NULL, &err) !=
	    NATS_OK)
		return fail("cannot read the consumer", NATS_ERR);
	floor = ci->AckFloor.Stream;
	/* A consumer created again reports floor 0 until its first ack. */
	if (ci->Config != NULL &&
	    ci->Config->DeliverPolicy == js_DeliverByStartSequence &&
	    ci->Config->OptStartSeq > floor + 1)
		floor = ci->Config->OptStartSeq - 1;
	jsConsumerInfo_Destroy(ci);
	if (js_DeleteConsumer(b->js, BUS_STREAM, name, NULL, &err) != NATS_OK)
		return fail("cannot delete the consumer", NATS_ERR);
	return create_consumer(b, name, filter, ack_wait_ms, floor + 1);
}

/*
 * working_consumer: consumer name, known to answer.  nats-server 2.9.10
 * sometimes makes a consumer created just after its stream unable to
 * deliver: it counts every delivery, to any subscriber, and none
 * arrives, not even the status of an expired pull, until the server
 * restarts.  tests/osu-nats.t caught it about once in fifteen runs
 * under load, on the first consumers created.  Such a consumer is
 * created again, at most twice.
 */
static int
working_consumer(struct bus *b, const char *name, const char *filter,
    int64_t ack_wait_ms)
{
	int tries, r;

	for (tries = 0; (r = answers(b, name)) == 0 && tries < 2; tries++) {
		diag_warn(NULL, NULL, "consumer %s does not answer pulls in %d ms: "
		    "created again after its last ack", name, PROBE_MS);
		if (renew(b, name, filter, ack_wait_ms) < 0)
			return -1;
	}
	if (r == 0)
		diag_error(NULL, "consumer %s does not answer pulls", name);
	return r == 1 ? 0 : -1;
}

long
bus_undelivered(struct bus *b, const char *name)
{
	jsConsumerInfo *ci = NULL;
	jsErrCode err = 0;
	long n;

	if (js_GetConsumerInfo(&ci, b->js, BUS_STREAM, name, NULL, &err) !=
	    NATS_OK)
		return -1;
	n = (long)(ci->NumAckPending + ci->NumPending);
	jsConsumerInfo_Destroy(ci);
	return n;
}

struct bus_sub *
bus_consume(struct bus *b, const char *name, const char *filter,
    int64_t ack_wait_ms, int fresh)
{
	struct bus_sub *sub;
	jsSubOptions so;
	jsErrCode err = 0;
	natsStatus s;

	if (fresh)
		js_DeleteConsumer(b->js, BUS_STREAM, name, NULL, &err);
	if (add_consumer(b, name, filter, ack_wait_ms) < 0 ||
	    working_consumer(b, name, filter, ack_wait_ms) < 0)
		return NULL;
	sub = xcalloc(1, sizeof *sub);
	jsSubOptions_Init(&so);
	so.Stream = BUS_STREAM;
	so.Consumer = name;
	s = js_PullSubscribe(&sub->sub, b->js, filter, name, NULL, &so, &err);
	if (s != NATS_OK) {
		fail("cannot subscribe", s);
		free(sub);
		return NULL;
	}
	return sub;
}

void
bus_sub_free(struct bus_sub *s)
{
	if (s == NULL)
		return;
	natsSubscription_Destroy(s->sub);
	free(s);
}

int
bus_fetch(struct bus_sub *s, int64_t timeout_ms, struct bus_msg *m)
{
	natsMsgList list = { NULL, 0 };
	jsMsgMetaData *meta = NULL;
	jsErrCode err = 0;
	natsMsg *msg;
	natsStatus st;

	st = natsSubscription_Fetch(&list, s->sub, 1, timeout_ms, &err);
	if (st == NATS_TIMEOUT || (st == NATS_OK && list.Count == 0)) {
		natsMsgList_Destroy(&list);
		return 0;
	}
	if (st != NATS_OK)
		return fail("cannot fetch", st);
	msg = list.Msgs[0];
	list.Msgs[0] = NULL;
	natsMsgList_Destroy(&list);
	memset(m, 0, sizeof *m);
	m->impl = msg;
	if (natsMsgHeader_Get(msg, BUS_PRODUCER_HEADER, &m->producer) !=
	    NATS_OK)
		m->producer = "";
	m->data = natsMsg_GetData(msg);
	m->len = (size_t)natsMsg_GetDataLength(msg);
	if (natsMsg_GetMetaData(&meta, msg) == NATS_OK) {
		m->seq = meta->Sequence.Stream;
		jsMsgMetaData_Destroy(meta);
	}
	return 1;
}

int
bus_ack(struct bus_msg *m)
{
	jsErrCode err = 0;
	natsStatus s = natsMsg_AckSync(m->impl, NULL, &err);

	natsMsg_Destroy(m->impl);
	m->impl = NULL;
	return s == NATS_OK ? 0 : fail("cannot ack", s);
}

void
bus_drop(struct bus_msg *m)
{
	natsMsg_Destroy(m->impl);
	m->impl = NULL;
}
