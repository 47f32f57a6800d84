/*
 * live_queue.c: nova-compute runs at most max_concurrent_live_migrations
 * live migrations out of one host at once (nova.conf, default 1); a
 * further one waits in nova's queue until one of them ends.  Each source
 * host has that many slots; a migration starts when it is ready and a
 * slot of its source host is free.  Without the setting in the system
 * section, migrations run as soon as they are ready (section V).
 */
#include <stdlib.h>

#include "sim.h"
#include "xalloc.h"

void
live_queue_init(struct live_queue *q, long per_host)
{
	q->per_host = per_host;
	idmap_init(&q->hosts);
	q->slots = NULL;
}

void
live_queue_free(struct live_queue *q)
{
	size_t i;

	for (i = 0; q->slots != NULL && i < q->hosts.count; i++)
		slots_free(&q->slots[i]);
	free(q->slots);
	idmap_free(&q->hosts);
}

/* host_slots: the slots of host, made free from time 0 when first met. */
static struct slots *
host_slots(struct live_queue *q, const char *host)
{
	long i = idmap_find(&q->hosts, host);

	if (i < 0) {
		i = idmap_add(&q->hosts, host);
		q->slots = xreallocarray(q->slots, q->hosts.count,
		    sizeof *q->slots);
		slots_init(&q->slots[i], (size_t)q->per_host, 0);
	}
	return &q->slots[i];
}

ms_t
live_queue_start(struct live_queue *q, const char *host, ms_t ready)
{
	ms_t free_at;

	if (q->per_host <= 0 || host == NULL)
		return ready;
	free_at = slots_first_free(host_slots(q, host));
	return free_at > ready ? free_at : ready;
}

void
live_queue_end(struct live_queue *q, const char *host, ms_t end)
{
	if (q->per_host > 0 && host != NULL)
		slots_reuse(host_slots(q, host), end);
}
