/*
 * run.c: a run's hosts and their status, read from and written to the
 * section's "run" member, and the hosts a new run takes: those where a
 * service of one of the worker-applications is scheduled.
 */
#include <stdlib.h>
#include <string.h>

#include "osu.h"
#include "timefmt.h"
#include "xalloc.h"

const char *const hstatus_names[] = { "pending", "prepared", "upgrading",
	"reboot-required", "rebooting", "upgraded", "failed", "not-upgraded",
	"no-reply", NULL };

static int
host_cmp(const void *x, const void *y)
{
	return strcmp(((const struct host *)x)->name,
	    ((const struct host *)y)->name);
}

/* add_host: a host once, whatever the number of its services. */
static void
add_host(struct run *r, const char *name, enum hstatus st)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->hosts[i].name, name) == 0)
			return;
	r->hosts = xreallocarray(r->hosts, r->n + 1, sizeof *r->hosts);
	r->hosts[r->n].name = name;
	r->hosts[r->n].st = st;
	r->hosts[r->n].error = NULL;
	r->n++;
}

static int
get_time(struct access *a, const json_t *obj, const char *key, int64_t *out)
{
	const char *s;

	if (acc_get_string(a, obj, key, ACC_REQUIRED, &s) < 0)
		return -1;
	if (time_parse(s, out) < 0)
		return access_fail_at(a, key, "expected a timestamp such as "
		    "2023-03-17T01:00:00Z, got \"%s\"", s);
	return 0;
}

static int
load_host(struct access *a, const json_t *h, size_t i, void *ctx)
{
	static const char *const keys[] = { "hostname", "status", "error",
		NULL };
	struct run *r = ctx;
	const char *name;
	int st;

	(void)i;
	if (acc_as_object(a, h) < 0 || acc_check_keys(a, h, keys) < 0 ||
	    acc_get_string(a, h, "hostname", ACC_REQUIRED, &name) < 0 ||
	    acc_get_enum(a, h, "status", ACC_REQUIRED, hstatus_names,
	    &st) < 0)
		return -1;
	add_host(r, name, (enum hstatus)st);
	return acc_get_string(a, h, "error", ACC_OPTIONAL,
	    &r->hosts[r->n - 1].error) < 0 ? -1 : 0;
}

int
run_load(struct access *a, const json_t *sec, struct run *r)
{
	static const char *const keys[] = { "trigger", "start-time",
		"not-after", "last-seq", "hosts", NULL };
	static const char *const triggers[] = { "window", "manual", NULL };
	json_t *run;
	int t = 0, rc;

	memset(r, 0, sizeof *r);
	r->last_seq = -1;
	rc = acc_get_object(a, sec, "run", ACC_OPTIONAL, &run);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	access_enter_key(a, "run");
	rc = acc_check_keys(a, run, keys) < 0 ||
	    acc_get_enum(a, run, "trigger", ACC_REQUIRED, triggers, &t) < 0 ||
	    get_time(a, run, "start-time", &r->start) < 0 ||
	    get_time(a, run, "not-after", &r->not_after) < 0 ||
	    acc_get_int_range(a, run, "last-seq", ACC_OPTIONAL, 0,
	    INT64_MAX, &r->last_seq) < 0 ||
	    acc_each_element(a, run, "hosts", ACC_REQUIRED, load_host, r) < 0;
	access_leave(a);
	r->active = 1;
	r->trigger = triggers[t];
	return rc ? -1 : 0;
}

/* Members of scheduled-workers: a host and its application. */
static int
take_worker(struct access *a, const json_t *w, size_t i, void *ctx)
{
	static const char *const keys[] = { "host", "application", NULL };
	void **args = ctx;
	struct run *r = args[0];
	const json_t *apps = args[1];
	const char *host, *app;
	json_t *x;
	size_t k;

	(void)i;
	if (acc_as_object(a, w) < 0 || acc_check_keys(a, w, keys) < 0 ||
	    acc_get_string(a, w, "host", ACC_REQUIRED, &host) < 0 ||
	    acc_get_string(a, w, "application", ACC_REQUIRED, &app) < 0)
		return -1;
	json_array_foreach(apps, k, x)
		if (strcmp(json_string_value(json_object_get(x, "name")),
		    app) == 0)
			add_host(r, host, H_PENDING);
	return 0;
}

static int
check_app(struct access *a, const json_t *app, size_t i, void *ctx)
{
	static const char *const keys[] = { "name", NULL };
	const char *name;

	(void)i;
	(void)ctx;
	return acc_as_object(a, app) < 0 || acc_check_keys(a, app, keys) < 0 ||
	    acc_get_string(a, app, "name", ACC_REQUIRED, &name) < 0 ? -1 : 0;
}

int
run_start(struct access *a, const json_t *sec, struct run *r)
{
	json_t *config = json_object_get(sec, "config");
	json_t *apps = json_object_get(config, "worker-applications");
	void *args[2] = { r, apps };

	if (acc_each_element(a, sec, "scheduled-workers", ACC_OPTIONAL,
	    take_worker, args) < 0)
		return -1;
	if (r->n > 0)
		qsort(r->hosts, r->n, sizeof *r->hosts, host_cmp);
	r->active = 1;
	return 0;
}

int
run_check_apps(struct access *a, const json_t *config)
{
	return acc_each_element(a, config, "worker-applications",
	    ACC_REQUIRED, check_app, NULL) < 0 ? -1 : 0;
}

void
run_free(struct run *r)
{
	free(r->hosts);
	r->hosts = NULL;
	r->n = 0;
}

json_t *
hosts_json(const struct run *r)
{
	json_t *arr = json_array(), *h;
	size_t i;

	for (i = 0; i < r->n; i++) {
		h = json_pack("{s:s, s:s}", "hostname", r->hosts[i].name,
		    "status", hstatus_names[r->hosts[i].st]);
		if (r->hosts[i].error != NULL)
			json_object_set_new(h, "error",
			    json_string(r->hosts[i].error));
		json_array_append_new(arr, h);
	}
	return arr;
}

json_t *
run_json(const struct run *r)
{
	char start[32], end[32];
	json_t *o;

	time_format(r->start, start, sizeof start);
	time_format(r->not_after, end, sizeof end);
	o = json_pack("{s:s, s:s, s:s}", "trigger", r->trigger,
	    "start-time", start, "not-after", end);
	if (r->last_seq >= 0)
		json_object_set_new(o, "last-seq", json_integer(r->last_seq));
	json_object_set_new(o, "hosts", hosts_json(r));
	return o;
}
