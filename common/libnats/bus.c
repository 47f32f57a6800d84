/* bus.c: Volga topics on NATS JetStream through libnats (see bus.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nats/nats.h>

#include "bus.h"
#include "bus_impl.h"
#include "diag.h"
#include "monotonic.h"
#include "xalloc.h"

struct bus_sub {
	natsSubscription *sub;
	double failing_since;	/* monotonic seconds; 0 when it works */
	int batch;		/* messages asked for in one pull */
	natsMsgList held;	/* pulled, not handed out yet */
	int next;		/* the next of held to hand out */
};

/*
 * The waits: a server busy with a thousand workers connecting at once
 * answers late, and a cluster that lost its stream leader answers no
 * one until it has elected another, in a few seconds.
 */
#define CONNECT_MS 20000	/* a connection's handshake */
#define API_MS 20000		/* a JetStream request */
#define READY_MS 60000		/* a cluster electing its leaders, placing peers */
#define RECONNECT_MS 250	/* between two tries to reconnect */

int
bus_fail(const char *what, natsStatus s)
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

void
bus_subject_to(char *buf, size_t size, const char *topic,
    const char *producer, const char *to)
{
	char ptok[256], tok[256];

	bus_token(ptok, sizeof ptok, producer);
	bus_token(tok, sizeof tok, to);
	snprintf(buf, size, "%s.%s.%s.%s", BUS_STREAM, topic, ptok, tok);
}


/* stream_config: the stream as conf wants it. */
static void
stream_config(jsStreamConfig *cfg, const struct bus_conf *conf)
{
	static const char *subjects[] = { BUS_STREAM ".>" };

	jsStreamConfig_Init(cfg);
	cfg->Name = BUS_STREAM;
	cfg->Subjects = subjects;
	cfg->SubjectsLen = 1;
	cfg->Storage = js_FileStorage;
	cfg->MaxAge = conf->max_age * 1000000000;
	cfg->MaxBytes = conf->max_bytes;
	/* Every message's ID is remembered while the message is kept. */
	cfg->Duplicates = cfg->MaxAge;
	cfg->Replicas = conf->replicas > 0 ? conf->replicas : 1;
}

/* differs: whether the stream's limits are not those of want. */
static int
differs(const jsStreamConfig *have, const jsStreamConfig *want)
{
	return have->MaxAge != want->MaxAge ||
	    have->MaxBytes != want->MaxBytes ||
	    have->Duplicates != want->Duplicates ||
	    have->Replicas != want->Replicas;
}

/* set_limits: the limits of want on the existing stream si. */
static int
set_limits(struct bus *b, jsStreamInfo *si, const jsStreamConfig *want)
{
	jsStreamInfo *out = NULL;
	jsErrCode err = 0;
	natsStatus s;

	si->Config->MaxAge = want->MaxAge;
	si->Config->MaxBytes = want->MaxBytes;
	si->Config->Duplicates = want->Duplicates;
	si->Config->Replicas = want->Replicas;
	s = js_UpdateStream(&out, b->js, si->Config, NULL, &err);
	if (s != NATS_OK)
		return bus_fail("cannot set the limits of the stream " BUS_STREAM, s);
	jsStreamInfo_Destroy(out);
	return 0;
}

/*
 * transient: whether a JetStream answer only says the cluster is not
 * ready yet.  A cluster just formed places a stream of three replicas
 * once its peers have reported to the new meta leader, a second or two
 * after the election; until then it refuses with one of these.
 */
static int
transient(struct bus *b, natsStatus s, jsErrCode err)
{
	if (s == NATS_TIMEOUT)	/* a refused reply inbox times out too */
		return !atomic_load(&b->refused);
	return err == JSClusterNoPeersErr || err == JSClusterNotAvailErr ||
	    err == JSInsufficientResourcesErr;
}

/* stream_fail: why the stream could not be made, with JetStream's code. */
static int
stream_fail(const char *what, natsStatus s, jsErrCode err)
{
	if (err == 0)
		return bus_fail(what, s);
	diag_error(NULL, "%s: JetStream error %d (%s)", what, (int)err,
	    natsStatus_GetText(s));
	return -1;
}

/*
 * ensure_stream: the stream, created on first use with the limits of
 * conf; the owner (osu-run) sets them on a stream that has others.
 * Workers and the controller start together: when another one created
 * it between our look and our create, the server refuses ours
 * ("subjects overlap"), and the stream is there all the same.  While
 * the cluster is not ready the look and the create are tried again,
 * for at most READY_MS: a request no leader answers takes one API wait.
 */
static int
ensure_stream(struct bus *b)
{
	int64_t until = nats_Now() + READY_MS;
	const char *what;
	jsStreamConfig cfg;
	jsStreamInfo *si = NULL;
	jsErrCode err;
	natsStatus s;
	int r = 0;

	stream_config(&cfg, b->conf);
	for (;;) {
		err = 0;
		what = "cannot read the stream " BUS_STREAM;
		s = js_GetStreamInfo(&si, b->js, BUS_STREAM, NULL, &err);
		if (s == NATS_OK) {
			if (b->conf->owner && differs(si->Config, &cfg))
				r = set_limits(b, si, &cfg);
			jsStreamInfo_Destroy(si);
			return r;
		}
		if (s == NATS_NOT_FOUND) {
			err = 0;
			what = "cannot create the stream " BUS_STREAM;
			s = js_AddStream(&si, b->js, &cfg, NULL, &err);
			if (s == NATS_OK) {
				jsStreamInfo_Destroy(si);
				return 0;
			}
			si = NULL;
			if (!transient(b, s, err) && js_GetStreamInfo(&si, b->js,
			    BUS_STREAM, NULL, NULL) == NATS_OK) {
				jsStreamInfo_Destroy(si);
				return 0;
			}
		}
		if (!transient(b, s, err) || nats_Now() >= until)
			return stream_fail(what, s, err);
		nats_Sleep(RECONNECT_MS);
	}
}

/*
 * set_user: USER:PASSWORD from the first line of file; the password
 * never is on a command line, where ps(1) would show it.
 */
static natsStatus
set_user(natsOptions *opts, const char *file)
{
	char line[1024], *colon;
	natsStatus s = NATS_ERR;
	FILE *f = fopen(file, "r");

	if (f == NULL) {
		diag_error(file, "cannot open: %s", strerror(errno));
		return NATS_ERR;
	}
	if (fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\r\n")] = '\0';
	if ((colon = strchr(line, ':')) == NULL || colon == line)
		diag_error(file, "the first line is not USER:PASSWORD");
	else {
		*colon = '\0';
		s = natsOptions_SetUserInfo(opts, line, colon + 1);
	}
	memset(line, 0, sizeof line);
	return s;
}

/*
 * denied: what the server said it refused (a permission violation),
 * which the refused call itself only sees as a timeout.
 */
static void
denied(natsConnection *nc, natsSubscription *sub, natsStatus err,
    void *closure)
{
	struct bus *b = closure;
	const char *why = NULL;

	(void)sub;
	atomic_store(&b->refused, 1);
	if (natsConnection_GetLastError(nc, &why) == NATS_OK || why == NULL)
		why = natsStatus_GetText(err);
	diag_warn(NULL, NULL, "the server refused: %s", why);
}

/* set_servers: the comma-separated URLs of list. */
#define MAX_SERVERS 16
static natsStatus
set_servers(natsOptions *opts, const char *list)
{
	const char *urls[MAX_SERVERS];
	char *copy = xstrdup(list), *p = copy, *comma;
	int n = 0;
	natsStatus s;

	while (n < MAX_SERVERS) {
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		if (*p != '\0')
			urls[n++] = p;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	s = n > 0 ? natsOptions_SetServers(opts, urls, n) : NATS_INVALID_ARG;
	free(copy);
	return s;
}

/*
 * connect_options: the server URLs, TLS, credentials and waits of b's
 * conf, inboxes under "_INBOX.who'", and the handler that tells b of
 * what the server refused.
 */
static natsStatus
connect_options(natsOptions **opts, struct bus *b, const char *who)
{
	const struct bus_conf *conf = b->conf;
	char tok[256], inbox[300];
	natsStatus s;

	bus_token(tok, sizeof tok, who);
	snprintf(inbox, sizeof inbox, "_INBOX.%s", tok);
	if ((s = natsOptions_Create(opts)) != NATS_OK)
		return s;
	s = set_servers(*opts, conf->url);
	if (s == NATS_OK)
		s = natsOptions_SetCustomInboxPrefix(*opts, inbox);
	if (s == NATS_OK)
		s = natsOptions_SetTimeout(*opts, CONNECT_MS);
	if (s == NATS_OK)
		s = natsOptions_SetErrorHandler(*opts, denied, b);
	if (s == NATS_OK)
		s = natsOptions_SetReconnectWait(*opts, RECONNECT_MS);
	if (s == NATS_OK)
		s = natsOptions_SetMaxReconnect(*opts,
		    BUS_RETRY_MS / RECONNECT_MS);
	if (s == NATS_OK && conf->ca_file != NULL) {
		s = natsOptions_SetSecure(*opts, true);
		if (s == NATS_OK)
			s = natsOptions_LoadCATrustedCertificates(*opts,
			    conf->ca_file);
	}
	if (s == NATS_OK && conf->creds_file != NULL)
		s = natsOptions_SetUserCredentialsFromFiles(*opts,
		    conf->creds_file, NULL);
	if (s == NATS_OK && conf->user_file != NULL)
		s = set_user(*opts, conf->user_file);
	return s;
}

struct bus *
bus_open(const struct bus_conf *conf, const char *who)
{
	struct bus *b = xcalloc(1, sizeof *b);
	natsOptions *opts = NULL;
	jsOptions jo;
	natsStatus s;
	char what[1100];

	b->conf = conf;
	snprintf(what, sizeof what, "cannot connect to %s", conf->url);
	atomic_init(&b->refused, 0);
	s = connect_options(&opts, b, who);
	if (s == NATS_OK)
		s = natsConnection_Connect(&b->nc, opts);
	natsOptions_Destroy(opts);
	if (s != NATS_OK) {
		bus_fail(what, s);
		free(b);
		return NULL;
	}
	jsOptions_Init(&jo);
	jo.Wait = API_MS;
	if ((s = natsConnection_JetStream(&b->js, b->nc, &jo)) != NATS_OK ||
	    ensure_stream(b) < 0) {
		if (s != NATS_OK)
			bus_fail("no JetStream", s);
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
	struct bus_out m = { topic, producer, NULL, NULL, data, len };

	return bus_publish_to(b, &m, seq);
}

/* publish_once: one try at publishing m on subject; the ack or NULL. */
static natsStatus
publish_once(struct bus *b, const char *subject, const struct bus_out *out,
    jsPubAck **ack)
{
	natsMsg *m = NULL;
	jsPubOptions po;
	jsErrCode err = 0;
	natsStatus s;

	jsPubOptions_Init(&po);
	po.MsgId = out->id;
	s = natsMsg_Create(&m, subject, NULL, out->data, (int)out->len);
	if (s == NATS_OK)
		s = natsMsgHeader_Set(m, BUS_PRODUCER_HEADER, out->producer);
	if (s == NATS_OK)
		s = js_PublishMsg(ack, b->js, m, &po, &err);
	natsMsg_Destroy(m);
	return s;
}

/*
 * bus_publish_to: a message that got no answer may have been stored
 * all the same; sent again with its ID it is not stored twice.
 */
int
bus_publish_to(struct bus *b, const struct bus_out *out, uint64_t *seq)
{
	char subject[768];
	jsPubAck *ack = NULL;
	double until = monotonic_seconds() + BUS_RETRY_MS / 1000.0;
	natsStatus s;

	if (out->to != NULL)
		bus_subject_to(subject, sizeof subject, out->topic,
		    out->producer, out->to);
	else
		bus_subject(subject, sizeof subject, out->topic,
		    out->producer);
	while ((s = publish_once(b, subject, out, &ack)) != NATS_OK &&
	    s != NATS_NO_MEMORY && monotonic_seconds() < until)
		nats_Sleep(RECONNECT_MS);
	if (s != NATS_OK)
		return bus_fail("cannot publish", s);
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
	cc.Name = name;	/* for $JS.API.CONSUMER.CREATE.STREAM.NAME.FILTER */
	cc.DeliverPolicy = first > 1 ? js_DeliverByStartSequence :
	    js_DeliverAll;
	cc.OptStartSeq = first > 1 ? first : 0;
	cc.AckPolicy = js_AckAll;
	cc.AckWait = ack_wait_ms * 1000000;
	cc.FilterSubject = filter;
	s = js_AddConsumer(&ci, b->js, BUS_STREAM, &cc, NULL, &err);
	if (s != NATS_OK)
		return bus_fail("cannot create the consumer", s);
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
		return bus_fail("consumer name too long", NATS_INVALID_ARG);
	s = natsConnection_Request(&m, b->nc, subject, pull,
	    (int)sizeof pull - 1, PROBE_MS);
	if (s == NATS_TIMEOUT)
		return 0;
	if (s != NATS_OK)
		return bus_fail("cannot ask the consumer", s);
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
		return bus_fail("cannot read the consumer", NATS_ERR);
	floor = ci->AckFloor.Stream;
	/* A consumer created again reports floor 0 until its first ack. */
	if (ci->Config != NULL &&
	    ci->Config->DeliverPolicy == js_DeliverByStartSequence &&
	    ci->Config->OptStartSeq > floor + 1)
		floor = ci->Config->OptStartSeq - 1;
	jsConsumerInfo_Destroy(ci);
	if (js_DeleteConsumer(b->js, BUS_STREAM, name, NULL, &err) != NATS_OK)
		return bus_fail("cannot delete the consumer", NATS_ERR);
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
	sub->batch = 1;
	jsSubOptions_Init(&so);
	so.Stream = BUS_STREAM;
	so.Consumer = name;
	s = js_PullSubscribe(&sub->sub, b->js, filter, name, NULL, &so, &err);
	if (s != NATS_OK) {
		bus_fail("cannot subscribe", s);
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
	natsMsgList_Destroy(&s->held);	/* not acked: delivered again */
	natsSubscription_Destroy(s->sub);
	free(s);
}

/*
 * fetch_failed: 0 (nothing yet) while the failures have lasted less
 * than BUS_RETRY_MS, as when a cluster elects a new leader for the
 * consumer; then -1.
 */
static int
fetch_failed(struct bus_sub *s, natsStatus st)
{
	double now = monotonic_seconds();

	if (s->failing_since == 0)
		s->failing_since = now;
	if (now - s->failing_since > BUS_RETRY_MS / 1000.0)
		return bus_fail("cannot fetch", st);
	nats_Sleep(RECONNECT_MS);
	return 0;
}

void
bus_sub_batch(struct bus_sub *s, int batch)
{
	s->batch = batch > 0 ? batch : 1;
}

/* pull: up to s->batch messages into s->held: 1, 0 none, -1. */
static int
pull(struct bus_sub *s, int64_t timeout_ms)
{
	jsErrCode err = 0;
	natsStatus st;

	natsMsgList_Destroy(&s->held);
	memset(&s->held, 0, sizeof s->held);
	s->next = 0;
	st = natsSubscription_Fetch(&s->held, s->sub, s->batch, timeout_ms,
	    &err);
	if (st == NATS_TIMEOUT || (st == NATS_OK && s->held.Count == 0)) {
		s->failing_since = 0;
		return 0;
	}
	if (st != NATS_OK)
		return fetch_failed(s, st);
	s->failing_since = 0;
	return 1;
}

int
bus_fetch(struct bus_sub *s, int64_t timeout_ms, struct bus_msg *m)
{
	jsMsgMetaData *meta = NULL;
	natsMsg *msg;
	int r;

	if (s->next >= s->held.Count && (r = pull(s, timeout_ms)) <= 0)
		return r;
	msg = s->held.Msgs[s->next];
	s->held.Msgs[s->next++] = NULL;
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
	double until = monotonic_seconds() + BUS_RETRY_MS / 1000.0;
	jsErrCode err = 0;
	natsStatus s;

	while ((s = natsMsg_AckSync(m->impl, NULL, &err)) != NATS_OK &&
	    s != NATS_ILLEGAL_STATE && monotonic_seconds() < until)
		nats_Sleep(RECONNECT_MS);

	natsMsg_Destroy(m->impl);
	m->impl = NULL;
	return s == NATS_OK ? 0 : bus_fail("cannot ack", s);
}

void
bus_drop(struct bus_msg *m)
{
	natsMsg_Destroy(m->impl);
	m->impl = NULL;
}
