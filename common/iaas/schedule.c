/* schedule.c: build and check runtime upgrade schedules (schedule.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "jshare.h"
#include "schedule.h"
#include "xalloc.h"

json_t *
sched_new(const char *id)
{
	return json_pack("{s:s, s:i, s:[]}", "id", id, "concurrency", 1,
	    "stages");
}

json_t *
sched_stage(json_t *sched, const char *id, const char *phase)
{
	json_t *groups = json_array();

	json_array_append_new(json_object_get(sched, "stages"),
	    json_pack("{s:s, s:s, s:o}", "id", id, "phase", phase, "groups",
	    groups));
	return groups;
}

json_t *
sched_group(json_t *groups, const char *id)
{
	json_t *group = json_object(), *actions = json_array();

	/* member by member: see sched_step */
	json_object_set_new(group, "id", json_string(id));
	json_object_set_new(group, "actions", actions);
	json_array_append_new(groups, group);
	return actions;
}

void
sched_require(json_t *groups, const char *action_id)
{
	json_t *g = json_array_get(groups, json_array_size(groups) - 1);
	json_t *req = json_object_get(g, "requires"), *v;
	size_t i;

	if (req == NULL) {
		/* before "actions", in the order a reader asks the questions */
		json_t *actions = json_incref(json_object_get(g, "actions"));

		req = json_array();
		json_object_del(g, "actions");
		json_object_set_new(g, "requires", req);
		json_object_set_new(g, "actions", actions);
	}
	json_array_foreach(req, i, v)
		if (strcmp(json_string_value(v), action_id) == 0)
			return;
	json_array_append_new(req, json_string(action_id));
}

void
sched_require_all(json_t *groups, const json_t *ids)
{
	const json_t *v;
	size_t i;

	json_array_foreach(ids, i, v)
		sched_require(groups, json_string_value(v));
}

void
sched_finish(json_t *sched, long limit)
{
	json_t *stages = json_object_get(sched, "stages"), *kept = json_array();
	json_t *st;
	size_t i, n, widest = 1;

	json_array_foreach(stages, i, st) {
		n = json_array_size(json_object_get(st, "groups"));
		if (n == 0)
			continue;
		if (n > widest)
			widest = n;
		json_array_append(kept, st);
	}
	json_object_set_new(sched, "stages", kept);
	if (limit > 0 && (size_t)limit < widest)
		widest = (size_t)limit;
	json_object_set_new(sched, "concurrency", json_integer((json_int_t)widest));
}

/* placeholder: the index of the name among names that s is, or n. */
static size_t
placeholder(const char *s, const char *const *names, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (strcmp(s, names[k]) == 0)
			break;
	return k;
}

json_t *
sched_argv(const json_t *tmpl, const char *const *names,
    const char *const *values, size_t n)
{
	json_t *out = json_array(), *v;
	size_t i, k;

	json_array_foreach(tmpl, i, v) {
		k = placeholder(json_string_value(v), names, n);
		json_array_append_new(out, k < n ? jshare(values[k]) :
		    json_incref(v));
	}
	return out;
}

json_t *
sched_argv_words(const char *const *words, const char *const *names,
    const char *const *values, size_t n)
{
	json_t *out = json_array();
	size_t k;

	for (; *words != NULL; words++) {
		k = placeholder(*words, names, n);
		json_array_append_new(out, jshare(k < n ? values[k] : *words));
	}
	return out;
}

/*
 * The steps and actions are built member by member, not with json_pack:
 * at 100,000 hosts batch-select builds a million of them, and parsing
 * the format each time was a twentieth of its run.
 */
json_t *
sched_step(const char *id, const char *host, json_t *argv,
    const char *manual, long duration)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "host", jshare(host));

	if (argv != NULL)
		json_object_set_new(o, "argv", argv);
	else
		json_object_set_new(o, "manual", json_string(manual));
	json_object_set_new(o, "duration", json_integer(duration));
	return o;
}

json_t *
sched_action(const char *id, const char *phase, const char *op,
    const char *resource, const char *host, json_t *argv,
    const char *manual, long duration)
{
	json_t *o = json_object();

	json_object_set_new(o, "id", json_string(id));
	json_object_set_new(o, "phase", jshare(phase));
	json_object_set_new(o, "op", jshare(op));
	json_object_set_new(o, "resource", jshare(resource));
	json_object_set_new(o, "host", jshare(host));

	if (argv != NULL)
		json_object_set_new(o, "argv", argv);
	else
		json_object_set_new(o, "manual", json_string(manual));
	json_object_set_new(o, "duration", json_integer(duration));
	json_object_set_new(o, "undo", json_array());
	return o;
}

void
sched_add_undo(json_t *action, json_t *undo)
{
	json_array_append_new(json_object_get(action, "undo"), undo);
}

char *
sched_id_with(const char *id, const char *suffix)
{
	size_t n = strlen(id), m = strlen(suffix);
	char *s = xmalloc(n + m + 1);

	memcpy(s, id, n);
	memcpy(s + n, suffix, m + 1);
	return s;
}

char *
sched_format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static const char *
text_of(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s != NULL ? s : "?";
}

/* host_placeholder: is t one of sched_host_placeholders()? */
static int
host_placeholder(const char *t)
{
	const char *const *n;

	for (n = sched_host_placeholders(); *n != NULL; n++)
		if (strcmp(t, *n) == 0)
			return 1;
	return 0;
}

/* same_argv: template tmpl, with "{resource}" as res, is argv (a host
 * placeholder stands for whatever the argv has there). */
static int
same_argv(const json_t *tmpl, const char *res, const json_t *argv)
{
	const char *t, *a;
	size_t i;

	if (json_array_size(tmpl) != json_array_size(argv))
		return 0;
	for (i = 0; i < json_array_size(tmpl); i++) {
		t = json_string_value(json_array_get(tmpl, i));
		a = json_string_value(json_array_get(argv, i));
		if (t == NULL || a == NULL)
			return 0;
		if (!host_placeholder(t) && strcmp(strcmp(t, "{resource}") ==
		    0 ? res : t, a) != 0)
			return 0;
	}
	return 1;
}

/*
 * service_product: the catalog product whose action named op, made for
 * the action's resource, is the action's argv (what an activate or
 * deactivate action runs); NULL when none is, or more than one.
 */
static const json_t *
service_product(const json_t *action, const char *op, const json_t *catalog)
{
	const json_t *p, *found = NULL;
	size_t i;

	json_array_foreach(json_object_get(catalog, "products"), i, p)
		if (same_argv(json_object_get(json_object_get(json_object_get(p,
		    "actions"), op), "argv"), text_of(action, "resource"),
		    json_object_get(action, "argv"))) {
			if (found != NULL)
				return NULL;
			found = p;
		}
	return found;
}

/* task_words: what action does, in a person's words (a new string). */
static char *
task_words(const json_t *action, const json_t *rg_action,
    const json_t *catalog)
{
	const char *op = text_of(action, "op");
	const json_t *p;

	if (json_object_get(action, "manual") != NULL)
		return sched_format("%s", text_of(action, "manual"));
	if (strcmp(op, "migrate") == 0)
		return sched_format("migrate %s from %s to %s", text_of(action,
		    "vm"), text_of(action, "source"), text_of(action,
		    "destination"));
	if (json_is_string(json_object_get(rg_action, "product")))
		return sched_format("%s %s %s %s %s", op, text_of(rg_action,
		    "product"), text_of(rg_action, "version"),
		    strcmp(op, "remove") == 0 ? "from" : "on",
		    text_of(action, "resource"));
	if ((strcmp(op, "activate") == 0 || strcmp(op, "deactivate") == 0) &&
	    (p = service_product(action, op, catalog)) != NULL)
		return sched_format("%s %s %s on %s", op, text_of(p, "name"),
		    text_of(p, "version"), text_of(action, "resource"));
	return sched_format("%s %s", op, text_of(action, "resource"));
}

char *
sched_task_name(const json_t *step, const json_t *action,
    const json_t *rg_action, const json_t *catalog)
{
	const char *prefix = "";
	char *words, *name;

	if (step != action)
		prefix = step == json_object_get(action, "on_failure") ?
		    "replace: " : "undo: ";
	words = json_object_get(step, "manual") != NULL ?
	    task_words(step, NULL, NULL) : task_words(action, rg_action,
	    catalog);
	name = sched_format("%s%s [%s]", prefix, words, text_of(step, "id"));
	free(words);
	return name;
}
