/*
 * wstate.c: the worker's transient state file,
 *
 *	{"seq": 42, "phase": "upgraded",
 *	 "reply": {"action": "upgrade", "result": "done"},
 *	 "versions": {"linux-image-amd64": "6.1.76-1"},
 *	 "boot-id": "0e6b1a47-3f7b-4a47-9a3c-6c2f1b0d8e55"}
 *
 * seq is the stream sequence of the last command acted on, phase where
 * its execution got to, reply the reply sent for it (so that a reply
 * lost in a crash is sent again), versions the last ones published, boot-id the host's boot ID when an
 * upgrade or a reboot began (to tell, when it comes back, whether the
 * host rebooted).  A
 * new version is written to FILE.tmp, synced, and renamed over FILE, so
 * a crash leaves the old state or the new one, never half of one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access.h"
#include "diag.h"
#include "durable.h"
#include "load.h"
#include "worker.h"
#include "xalloc.h"

const char *const phase_names[] = { "idle", "preparing", "prepared",
	"upgrading", "upgraded", "reboot-requested", "rebooting", NULL };

static int
parse(const char *file, json_t *doc, struct wstate *w)
{
	static const char *const keys[] = { "seq", "phase", "reply",
		"versions", "boot-id", NULL };
	struct access a;
	json_t *v;
	const char *boot = NULL;
	int ph = 0, r;

	access_init(&a, file);
	r = acc_as_object(&a, doc) < 0 || acc_check_keys(&a, doc, keys) < 0 ||
	    acc_get_int_range(&a, doc, "seq", ACC_REQUIRED, 0, INT64_MAX,
	    &w->seq) < 0 || acc_get_enum(&a, doc, "phase", ACC_REQUIRED,
	    phase_names, &ph) < 0 ||
	    acc_get_object(&a, doc, "reply", ACC_OPTIONAL, &v) < 0 ||
	    acc_get_object(&a, doc, "versions", ACC_OPTIONAL, &v) < 0 ||
	    acc_get_string(&a, doc, "boot-id", ACC_OPTIONAL, &boot) < 0;
	access_free(&a);
	if (r)
		return -1;
	w->phase = (enum phase)ph;
	w->reply = json_incref(json_object_get(doc, "reply"));
	w->versions = json_incref(json_object_get(doc, "versions"));
	w->boot_id = boot != NULL ? xstrdup(boot) : NULL;
	return 0;
}

int
wstate_load(const char *file, struct wstate *w)
{
	json_t *doc;
	int r;

	memset(w, 0, sizeof *w);
	if (access(file, F_OK) != 0 && errno == ENOENT)
		return 0;
	if (load_document(file, &doc) != 0)
		return -1;
	r = parse(file, doc, w);
	json_decref(doc);
	return r;
}

json_t *
wstate_json(const struct wstate *w)
{
	json_t *o = json_pack("{s:I, s:s}", "seq", (json_int_t)w->seq,
	    "phase", phase_names[w->phase]);

	if (w->reply != NULL)
		json_object_set(o, "reply", w->reply);
	if (w->versions != NULL)
		json_object_set(o, "versions", w->versions);
	if (w->boot_id != NULL)
		json_object_set_new(o, "boot-id", json_string(w->boot_id));
	return o;
}

int
wstate_save(const char *file, const struct wstate *w)
{
	char tmp[4096];
	json_t *o = wstate_json(w);
	int fd, r = -1;

	snprintf(tmp, sizeof tmp, "%s.tmp", file);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0 && json_dumpfd(o, fd, JSON_PRESERVE_ORDER | JSON_COMPACT)
	    == 0 && write(fd, "\n", 1) == 1)
		r = 0;
	if (fd >= 0 && close(fd) != 0)
		r = -1;
	if (r == 0 && durable_rename(tmp, file) != 0)
		r = -1;
	if (r < 0)
		diag_error(file, "cannot save the state: %s", strerror(errno));
	json_decref(o);
	return r;
}

void
wstate_free(struct wstate *w)
{
	json_decref(w->reply);
	json_decref(w->versions);
	w->reply = w->versions = NULL;
	free(w->boot_id);
	w->boot_id = NULL;
}
