/*
 * replies.c: the replies received since the last step.
 *
 * The seed's replies carry no host: a reply is the host's because the
 * worker publishes it under its host name as producer name.  The input
 * is an array of {"producer": "h02", "seq": 17, "message": {...}}, in
 * the order received; seq, the transport's sequence number, is
 * optional.  Messages of the controller's own producer are its
 * commands and are skipped.  A reply is taken only when its host is
 * waiting for a reply to that action; anything else (another run's
 * reply, a duplicate, a replay, a malformed message) is ignored with a
 * warning, because the topic is not ours to validate.
 */
#include <string.h>

#include "osu.h"
#include "xalloc.h"

static int
load_reply(struct access *a, const json_t *v, size_t i, void *ctx)
{
	static const char *const keys[] = { "producer", "seq", "message",
		NULL };
	struct replies *rs = ctx;
	struct reply *r = &rs->r[i];
	json_t *msg;

	r->seq = -1;
	if (acc_as_object(a, v) < 0 || acc_check_keys(a, v, keys) < 0 ||
	    acc_get_string(a, v, "producer", ACC_REQUIRED, &r->producer) < 0 ||
	    acc_get_int_range(a, v, "seq", ACC_OPTIONAL, 0, INT64_MAX,
	    &r->seq) < 0 || acc_get(a, v, "message", ACC_REQUIRED, &msg) < 0)
		return -1;
	r->msg = msg;
	rs->n++;
	return 0;
}

int
replies_load(struct access *a, const json_t *doc, struct replies *out)
{
	size_t i;
	int r = 0;

	out->a = a;
	out->n = 0;
	out->r = NULL;
	if (acc_as_array(a, doc) < 0)
		return -1;
	out->r = xcalloc(json_array_size(doc) + 1, sizeof *out->r);
	for (i = 0; r == 0 && i < json_array_size(doc); i++) {
		access_enter_index(a, i);
		r = load_reply(a, json_array_get(doc, i), i, out);
		access_leave(a);
	}
	return r;
}

static struct host *
find_host(struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->hosts[i].name, name) == 0)
			return &r->hosts[i];
	return NULL;
}

/* waiting: the action host h is waiting for a reply to, or NULL. */
static const char *
waiting(const struct host *h)
{
	switch (h->st) {
	case H_PENDING:
		return "prepare";
	case H_UPGRADING:
		return "upgrade";
	case H_REBOOTING:
		return "reboot";
	default:
		return NULL;
	}
}

/* record: the result of the action h waited for. */
static void
record(struct host *h, const char *result)
{
	if (strcmp(result, "done") == 0)
		h->st = h->st == H_PENDING ? H_PREPARED : H_UPGRADED;
	else if (h->st == H_UPGRADING && strcmp(result, "reboot-required") == 0)
		h->st = H_REBOOT_REQUIRED;
	else {
		h->st = H_FAILED;
		h->error = result;
	}
}

/* apply_one: 0 taken, else the reason it was ignored. */
static const char *
apply_one(struct run *r, const struct reply *rp)
{
	const char *action, *result, *want;
	struct host *h;

	if (!json_is_object(rp->msg))
		return "the message is not a JSON object";
	action = json_string_value(json_object_get(rp->msg, "action"));
	result = json_string_value(json_object_get(rp->msg, "result"));
	if (action == NULL || result == NULL)
		return "the message has no string action and result";
	if ((h = find_host(r, rp->producer)) == NULL)
		return "the producer is not a host of the run";
	want = waiting(h);
	if (want == NULL || strcmp(want, action) != 0)
		return "the host is not waiting for a reply to this action";
	record(h, result);
	return NULL;
}

void
replies_apply(struct run *r, const struct replies *rs)
{
	struct access *a = rs->a;
	const char *why;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct reply *rp = &rs->r[i];

		if (strcmp(rp->producer, OSU_PRODUCER) == 0)
			continue;
		access_enter_index(a, i);
		if (rp->seq >= 0 && rp->seq <= r->last_seq)
			why = "a replay: seq is not after the run's last-seq";
		else
			why = apply_one(r, rp);
		if (rp->seq > r->last_seq)
			r->last_seq = rp->seq;
		if (why != NULL)
			access_warn(a, "reply of \"%s\" ignored: %s",
			    rp->producer, why);
		access_leave(a);
	}
}
