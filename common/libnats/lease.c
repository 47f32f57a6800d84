/*
 * lease.c: one holder per key of a JetStream key-value bucket whose
 * entries expire (see bus.h).  Taking is a create, which the server
 * refuses while the key has a value; renewing is an update against the
 * revision last written, which it refuses when someone else wrote
 * since.  A lease whose holder was a process of this host that is gone
 * (a driver killed by a crash) is taken over at once instead of after
 * its TTL.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bus_impl.h"
#include "diag.h"
#include "monotonic.h"
#include "timefmt.h"
#include "xalloc.h"

struct bus_lease {
	kvStore *kv;
	char key[256];
	char holder[400];	/* "pid N on HOST since TIME" */
	uint64_t rev;		/* the revision we last wrote */
	int64_t ttl;		/* seconds */
	double written;		/* monotonic seconds of that write */
};

/* open_bucket: the bucket, created with entries that live ttl s. */
static kvStore *
open_bucket(struct bus *b, int64_t ttl)
{
	kvStore *kv = NULL;
	kvConfig kc;
	natsStatus s;

	if (js_KeyValue(&kv, b->js, BUS_LEASE_BUCKET) == NATS_OK)
		return kv;
	kvConfig_Init(&kc);
	kc.Bucket = BUS_LEASE_BUCKET;
	kc.History = 1;
	kc.TTL = ttl * 1000000000;
	kc.StorageType = js_FileStorage;
	kc.Replicas = b->conf->replicas > 0 ? b->conf->replicas : 1;
	if ((s = js_CreateKeyValue(&kv, b->js, &kc)) == NATS_OK)
		return kv;
	if (js_KeyValue(&kv, b->js, BUS_LEASE_BUCKET) == NATS_OK)
		return kv;	/* another created it meanwhile */
	bus_fail("cannot open the lease bucket " BUS_LEASE_BUCKET, s);
	return NULL;
}

/* this_host: the host name, "" when it cannot be told. */
static void
this_host(char *buf, size_t size)
{
	if (gethostname(buf, size - 1) != 0)
		buf[0] = '\0';
	buf[size - 1] = '\0';
}

/* gone: holder was a process of this host that no longer exists. */
static int
gone(const char *holder)
{
	char host[256], here[256];
	long pid;

	if (sscanf(holder, "pid %ld on %255s", &pid, host) != 2 || pid <= 0)
		return 0;
	this_host(here, sizeof here);
	return strcmp(host, here) == 0 && kill((pid_t)pid, 0) != 0 &&
	    errno == ESRCH;
}

/*
 * take_over: the lease from a holder of this host that is gone, by an
 * update against its revision; 1 taken, 0 not.
 */
static int
take_over(struct bus_lease *l, kvEntry *e)
{
	const char *was = kvEntry_ValueString(e);

	if (was == NULL || !gone(was))
		return 0;
	if (kvStore_UpdateString(&l->rev, l->kv, l->key, l->holder,
	    kvEntry_Revision(e)) != NATS_OK)
		return 0;
	diag_warn(NULL, NULL, "lease %s: taken over from %s, which is gone",
	    l->key, was);
	return 1;
}

/*
 * refused: why the create failed: 1 another holds the lease (said),
 * 0 an error (said), -1 the lease was taken over and is ours.
 */
static int
refused(struct bus_lease *l, natsStatus s)
{
	kvEntry *e = NULL;
	int r = 1;

	if (kvStore_Get(&e, l->kv, l->key) != NATS_OK) {
		bus_fail("cannot take the lease", s);
		return 0;
	}
	if (take_over(l, e))
		r = -1;
	else
		diag_error(NULL, "lease %s of bucket %s is held by %s: another "
		    "osu-run drives this site; it lapses %lld s after its "
		    "holder last renewed it", l->key, BUS_LEASE_BUCKET,
		    kvEntry_ValueString(e), (long long)l->ttl);
	kvEntry_Destroy(e);
	return r;
}

struct bus_lease *
bus_lease_take(struct bus *b, const char *key, int64_t ttl, int *held)
{
	struct bus_lease *l = xcalloc(1, sizeof *l);
	char host[256], since[32];
	natsStatus s;
	int why;

	*held = 0;
	this_host(host, sizeof host);
	time_format((int64_t)time(NULL), since, sizeof since);
	snprintf(l->key, sizeof l->key, "%s", key);
	snprintf(l->holder, sizeof l->holder, "pid %ld on %s since %s",
	    (long)getpid(), host[0] != '\0' ? host : "?", since);
	l->ttl = ttl;
	if ((l->kv = open_bucket(b, ttl)) == NULL) {
		free(l);
		return NULL;
	}
	s = kvStore_CreateString(&l->rev, l->kv, l->key, l->holder);
	if (s != NATS_OK && (why = refused(l, s)) >= 0) {
		*held = why;
		kvStore_Destroy(l->kv);
		free(l);
		return NULL;
	}
	l->written = monotonic_seconds();
	return l;
}

int
bus_lease_renew(struct bus_lease *l)
{
	double now = monotonic_seconds();
	natsStatus s;

	if (now - l->written < l->ttl / 3.0)
		return 0;
	s = kvStore_UpdateString(&l->rev, l->kv, l->key, l->holder, l->rev);
	if (s == NATS_OK) {
		l->written = now;
		return 0;
	}
	if (now - l->written < l->ttl) {
		diag_warn(NULL, NULL, "lease %s: cannot renew it yet: %s",
		    l->key, natsStatus_GetText(s));
		return 0;
	}
	diag_error(NULL, "lease %s: lost: not renewed in its %lld s",
	    l->key, (long long)l->ttl);
	return -1;
}

void
bus_lease_free(struct bus_lease *l)
{
	kvEntry *e = NULL;

	if (l == NULL)
		return;
	if (kvStore_Get(&e, l->kv, l->key) == NATS_OK &&
	    kvEntry_Revision(e) == l->rev)
		kvStore_Delete(l->kv, l->key);
	kvEntry_Destroy(e);
	kvStore_Destroy(l->kv);
	free(l);
}
