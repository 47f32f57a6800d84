/*
 * collect.c: the replies on os-upgrade:control, taken from the
 * controller's durable consumer.  Its own commands and messages at or
 * before the floor (the last prepare it published: older runs) are
 * skipped.  A reply that is not JSON is passed on as a string, for
 * osu-ctl to warn about.  The messages are acked only after the step
 * that took them has been saved (see drive.c).
 */
#include <signal.h>
#include <string.h>
#include <time.h>

#include "run.h"

#define LINGER_MS 20		/* after a reply, wait this long for more */

static void
take(struct driver *d, struct bus_msg *m)
{
	json_t *msg = NULL;

	if (m->len > 0) {
		msg = json_loadb(m->data, m->len, 0, NULL);
		if (msg == NULL)
			msg = json_stringn(m->data, m->len);
	}
	if (msg == NULL)
		msg = json_string("(empty, or not UTF-8)");
	json_array_append_new(d->replies, json_pack("{s:s, s:I, s:o}",
	    "producer", m->producer, "seq", (json_int_t)m->seq, "message",
	    msg));
	d->received++;
}

int
collect(struct driver *d, int64_t deadline,
    volatile sig_atomic_t *stopping)
{
	struct bus_msg m;
	int64_t left;
	int r;

	while (!*stopping) {
		if (bus_lease_renew(d->lease) < 0) {
			d->lease_lost = 1;
			return -1;
		}
		left = (deadline - (int64_t)time(NULL)) * 1000;
		if (left <= 0)
			break;
		if (json_array_size(d->replies) > 0)
			left = LINGER_MS;
		else if (left > 1000)
			left = 1000;
		if ((r = bus_fetch(d->sub, left, &m)) < 0)
			return -1;
		if (r == 0) {
			if (json_array_size(d->replies) > 0)
				break;
			continue;
		}
		if (strcmp(m.producer, BUS_CONTROLLER) != 0 &&
		    m.seq > d->floor)
			take(d, &m);
		if (d->have_last)
			bus_drop(&d->last);
		d->last = m;
		d->have_last = 1;
	}
	return 0;
}
