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
 * could upgrade twice) unless the upgrade may reboot the host and did,
 * a reboot that was started is answered as done if the boot ID changed
 * (the host came back) and failed if not, and a reply lost in a crash
 * is sent again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diag.h"
#include "stopsig.h"
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

/* reply_failed: answer action with how its command what failed (o). */
static int
reply_failed(struct worker *w, struct bus_msg *m, const char *action,
    const char *what, const struct outcome *o)
{
	char *msg = outcome_error(what, o);
	int rc;

	w->st.phase = PH_IDLE;
	rc = reply(w, m, action, msg);
	free(msg);
	return rc;
}

/*
 * begin: record that the command at seq is being executed, and the
 * boot ID when it may reboot the host.
 */
static void
begin(struct worker *w, const struct bus_msg *m, enum phase ph)
{
	w->st.seq = (json_int_t)m->seq;
	w->st.phase = ph;
	json_decref(w->st.reply);
	w->st.reply = NULL;
	free(w->st.boot_id);
	w->st.boot_id = NULL;
	if (ph == PH_REBOOTING || (ph == PH_UPGRADING &&
	    w->cfg.upgrade_reboots))
		w->st.boot_id = boot_id_read(w->boot_id_file);
	save(w);
}

/*
 * rebooted: whether the host booted since begin: 1, 0, or -1 when it
 * cannot tell (no boot ID then or now).
 */
static int
rebooted(const struct worker *w)
{
	char *now;
	int r;

	if (w->st.boot_id == NULL ||
	    (now = boot_id_read(w->boot_id_file)) == NULL)
		return -1;
	r = strcmp(now, w->st.boot_id) != 0;
	free(now);
	return r;
}

/*
 * going_down: the worker was told to stop while a command that may
 * reboot the host ran, and the command did not succeed: the host is
 * shutting down, perhaps by that command.  The message is neither
 * acked nor answered; it comes again after the reboot (again).
 */
static int
going_down(struct worker *w, struct bus_msg *m, const struct outcome *o)
{
	if (!stop_requested || o->status == 0)
		return 0;
	bus_drop(m);
	w->stop = 1;
	return 1;
}

static int
do_prepare(struct worker *w, struct bus_msg *m)
{
	struct outcome o;

	begin(w, m, PH_PREPARING);
	run_command(w->cfg.prepare, &o);
	if (o.status != 0)
		return reply_failed(w, m, "prepare", "prepare", &o);
	w->st.phase = PH_PREPARED;
	return reply(w, m, "prepare", "done");
}

/* upgraded: the upgrade done, or needing a reboot; versions again. */
static int
upgraded(struct worker *w, struct bus_msg *m, enum phase ph)
{
	int rc;

	w->st.phase = ph;
	rc = reply(w, m, "upgrade", ph == PH_UPGRADED ? "done" :
	    "reboot-required");
	publish_versions(w);
	return rc;
}

static int
do_upgrade(struct worker *w, struct bus_msg *m)
{
	struct outcome o;

	if (w->st.phase != PH_PREPARED)
		return skip(w, m);	/* not prepared since the last upgrade */
	begin(w, m, PH_UPGRADING);
	run_command(w->cfg.upgrade, &o);
	if (o.status == 0 || o.status == REBOOT_REQUIRED_STATUS)
		return upgraded(w, m, o.status == 0 ? PH_UPGRADED :
		    PH_REBOOT_REQUESTED);
	if (w->cfg.upgrade_reboots && going_down(w, m, &o))
		return 0;
	return reply_failed(w, m, "upgrade", "upgrade", &o);
}

static int
do_reboot(struct worker *w, struct bus_msg *m)
{
	struct outcome o;

	if (w->st.phase != PH_REBOOT_REQUESTED) {
		/* Not requested: this is the message after the reboot. */
		w->st.seq = (json_int_t)m->seq;
		w->st.phase = PH_IDLE;
		publish_versions(w);
		return reply(w, m, "reboot", "done");
	}
	begin(w, m, PH_REBOOTING);
	run_command(w->cfg.reboot, &o);
	if (o.status != 0 && !going_down(w, m, &o))
		return reply_failed(w, m, "reboot", "reboot", &o);
	if (o.status == 0) {
		bus_drop(m);	/* neither acked nor answered: see above */
		w->stop = 1;
	}
	return 0;
}

/*
 * reboot_back: the reboot command again after the worker started it:
 * done if the boot ID changed since, else failed.
 */
static int
reboot_back(struct worker *w, struct bus_msg *m)
{
	char msg[400];
	int r = rebooted(w);

	w->st.phase = PH_IDLE;
	if (r == 1) {
		publish_versions(w);
		return reply(w, m, "reboot", "done");
	}
	if (r == 0)
		snprintf(msg, sizeof msg, "reboot command did not reboot the "
		    "host: its boot ID is still %s", w->st.boot_id);
	else
		snprintf(msg, sizeof msg, "reboot not verified: no boot ID "
		    "to compare from before and after it (%s)",
		    w->boot_id_file);
	return reply(w, m, "reboot", msg);
}

/*
 * upgrade_back: the upgrade command again after the worker stopped
 * while it ran.  When the upgrade may reboot the host and the boot ID
 * changed, it did so: done, once upgrade-check (if any) agrees.  Else
 * it was interrupted, and running it again could upgrade twice.
 */
static int
upgrade_back(struct worker *w, struct bus_msg *m)
{
	struct outcome o;

	if (!w->cfg.upgrade_reboots || rebooted(w) != 1) {
		w->st.phase = PH_IDLE;
		return reply(w, m, "upgrade", w->cfg.upgrade_reboots ?
		    "upgrade interrupted (the worker stopped while it ran, "
		    "and the host did not reboot); not run again" :
		    "upgrade interrupted (the worker stopped while it ran); "
		    "not run again");
	}
	if (w->cfg.upgrade_check != NULL) {
		run_command(w->cfg.upgrade_check, &o);
		if (o.status != 0)
			return reply_failed(w, m, "upgrade", "upgrade-check",
			    &o);
	}
	return upgraded(w, m, PH_UPGRADED);
}

/* again: a command at the state's own seq, acted on already. */
static int
again(struct worker *w, struct bus_msg *m, const char *action)
{
	if (w->st.phase == PH_UPGRADING && strcmp(action, "upgrade") == 0)
		return upgrade_back(w, m);
	if (w->st.phase == PH_REBOOTING && strcmp(action, "reboot") == 0)
		return reboot_back(w, m);
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
