/*
 * handle.c: one message of the controller's commands, by the seed's
 * worker rules.
 *
 * A command for another host is acked without action: the worker
 * handles one message at a time, so no command of its own is in
 * progress then, except a reboot it started, whose message must come
 * again after the reboot; while rebooting nothing else is acked (an
 * ack acks every earlier message).  A command whose stream sequence is
 * not after the state's seq was acted on already: it runs nothing, but
 * an interrupted upgrade is answered with an error (running it again
 * could upgrade twice), a reboot that was started is answered as done
 * (the host came back), and a reply lost in a crash is sent again.
 */
#include <string.h>
#include <time.h>

#include "diag.h"
#include "timefmt.h"
#include "worker.h"

static void
save(struct worker *w)
{
	(void)wstate_save(w->cfg.state_file, &w->st);
}

/* reply: publish {"action", "result"}, remember it, then ack m. */
static int
reply(struct worker *w, struct bus_msg *m, const char *action,
    const char *result)
{
	json_t *r = json_pack("{s:s, s:s}", "action", action, "result",
	    result);
	char *text = json_dumps(r, JSON_PRESERVE_ORDER | JSON_COMPACT);
	int rc;

	json_decref(w->st.reply);
	w->st.reply = r;
	save(w);
	rc = bus_publish(w->bus, "control", w->cfg.host, text, strlen(text),
	    NULL);
	free(text);
	if (rc < 0) {
		bus_drop(m);	/* delivered again after the ack wait */
		return -1;
	}
	return bus_ack(m);
}

/* skip: a message that needs no action. */
static int
skip(struct worker *w, struct bus_msg *m)
{
	if (w->st.phase == PH_REBOOTING) {
		bus_drop(m);
		return 0;
	}
	return bus_ack(m);
}

/* begin: record that the command at seq is being executed. */
static void
begin(struct worker *w, const struct bus_msg *m, enum phase ph)
{
	w->st.seq = (json_int_t)m->seq;
	w->st.phase = ph;
	json_decref(w->st.reply);
	w->st.reply = NULL;
	save(w);
}

static int
do_prepare(struct worker *w, struct bus_msg *m)
{
	int st;

	begin(w, m, PH_PREPARING);
	st = run_argv(w->cfg.prepare, NULL);
	w->st.phase = st == 0 ? PH_PREPARED : PH_IDLE;
	return reply(w, m, "prepare", st == 0 ? "done" :
	    "prepare command failed");
}

static int
do_upgrade(struct worker *w, struct bus_msg *m)
{
	int st;

	if (w->st.phase != PH_PREPARED)
		return skip(w, m);	/* not prepared since the last upgrade */
	begin(w, m, PH_UPGRADING);
	st = run_argv(w->cfg.upgrade, NULL);
	if (st == 0 || st == REBOOT_REQUIRED_STATUS) {
		w->st.phase = st == 0 ? PH_UPGRADED : PH_REBOOT_REQUESTED;
		st = reply(w, m, "upgrade", st == 0 ? "done" :
		    "reboot-required");
		publish_versions(w);
		return st;
	}
	w->st.phase = PH_IDLE;
	return reply(w, m, "upgrade", "upgrade command failed");
}

static int
do_reboot(struct worker *w, struct bus_msg *m)
{
	if (w->st.phase != PH_REBOOT_REQUESTED) {
		/* Not requested: this is the message after the reboot. */
		w->st.seq = (json_int_t)m->seq;
		w->st.phase = PH_IDLE;
		publish_versions(w);
		return reply(w, m, "reboot", "done");
	}
	begin(w, m, PH_REBOOTING);
	if (run_argv(w->cfg.reboot, NULL) != 0) {
		w->st.phase = PH_IDLE;
		return reply(w, m, "reboot", "reboot command failed");
	}
	bus_drop(m);		/* neither acked nor answered: see above */
	w->stop = 1;
	return 0;
}

/* again: a command at the state's own seq, acted on already. */
static int
again(struct worker *w, struct bus_msg *m, const char *action)
{
	if (w->st.phase == PH_UPGRADING && strcmp(action, "upgrade") == 0) {
		w->st.phase = PH_IDLE;
		return reply(w, m, "upgrade", "upgrade interrupted (the "
		    "worker stopped while it ran); not run again");
	}
	if (w->st.phase == PH_REBOOTING && strcmp(action, "reboot") == 0) {
		w->st.phase = PH_IDLE;
		publish_versions(w);
		return reply(w, m, "reboot", "done");
	}
	if (w->st.phase == PH_PREPARING && strcmp(action, "prepare") == 0)
		return do_prepare(w, m);
	if (w->st.reply != NULL) {
		json_t *r = json_incref(w->st.reply);
		int rc = reply(w, m, action, json_string_value(
		    json_object_get(r, "result")));

		json_decref(r);
		return rc;
	}
	return skip(w, m);
}

/* for_me: the command concerns this host (and is not stale). */
static int
for_me(struct worker *w, const json_t *cmd, const char *action)
{
	const char *s;
	json_t *h;
	size_t i;
	int64_t t;

	if (strcmp(action, "prepare") != 0) {
		s = json_string_value(json_object_get(cmd, "host"));
		return s != NULL && strcmp(s, w->cfg.host) == 0;
	}
	s = json_string_value(json_object_get(cmd, "not-after"));
	if (s == NULL || time_parse(s, &t) < 0 || (int64_t)time(NULL) >= t)
		return 0;	/* past its not-after: ignored, acked */
	json_array_foreach(json_object_get(cmd, "hosts"), i, h)
		if (json_is_string(h) && strcmp(json_string_value(h),
		    w->cfg.host) == 0)
			return 1;
	return 0;
}

int
handle(struct worker *w, struct bus_msg *m)
{
	json_t *cmd = m->len > 0 ? json_loadb(m->data, m->len, 0, NULL) : NULL;
	const char *action = json_string_value(json_object_get(cmd, "action"));
	int rc;

	if (action == NULL || !for_me(w, cmd, action))
		rc = skip(w, m);
	else if ((json_int_t)m->seq < w->st.seq)
		rc = skip(w, m);
	else if ((json_int_t)m->seq == w->st.seq)
		rc = again(w, m, action);
	else if (strcmp(action, "prepare") == 0)
		rc = do_prepare(w, m);
	else if (strcmp(action, "upgrade") == 0)
		rc = do_upgrade(w, m);
	else if (strcmp(action, "reboot") == 0)
		rc = do_reboot(w, m);
	else
		rc = skip(w, m);
	json_decref(cmd);
	return rc;
}

/* flat: an object of strings and numbers, as the seed asks. */
static int
flat(const json_t *v)
{
	const char *k;
	json_t *x;

	if (!json_is_object(v))
		return 0;
	json_object_foreach((json_t *)v, k, x)
		if (!json_is_string(x) && !json_is_number(x))
			return 0;
	return 1;
}

void
publish_versions(struct worker *w)
{
	char *out = NULL, *text;
	json_t *v;

	if (w->cfg.versions == NULL || run_argv(w->cfg.versions, &out) != 0) {
		free(out);
		return;
	}
	v = json_loads(out, 0, NULL);
	free(out);
	if (!flat(v)) {
		diag_error(NULL, "versions: the command's output is not a flat "
		    "JSON object");
		json_decref(v);
		return;
	}
	if (w->st.versions != NULL && json_equal(v, w->st.versions)) {
		json_decref(v);
		return;
	}
	text = json_dumps(v, JSON_PRESERVE_ORDER | JSON_COMPACT);
	if (bus_publish(w->bus, "versions", w->cfg.host, text, strlen(text),
	    NULL) == 0) {
		json_decref(w->st.versions);
		w->st.versions = json_incref(v);
		save(w);
	}
	free(text);
	json_decref(v);
}
