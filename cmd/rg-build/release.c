/*
 * release.c: give temporary resources back.  Seed 000 III ("the
 * challenge of size") adds resources while spare capacity blocks a
 * change set, "at least for the missing amount", and no more: an add
 * change with a "release" action brings such resources (request_add.c).
 *
 * Once the add's change set has completed and no other change set is
 * live, nothing needs them any more: rg-build receives, as if from the
 * operator, the request "R-S-release" (for set S of request R), whose
 * one change removes them.  decommission.c takes each out, its VMs
 * evacuated first under the same rules as any batch; a host leaves with
 * the release action.  The request is kept in the model like any other,
 * so it is made once; when it fails (its undo done), another is made for
 * the hosts still there, "R-S-release-2" then "-3", and no more: what a
 * third try cannot give back stays, and the summary says so.
 */
#include <stdio.h>
#include <string.h>

#include "rgb.h"

/* temporary_add: the change of cs that brings temporary resources. */
static const struct change *
temporary_add(const struct change_set *cs)
{
	size_t k;

	for (k = 0; k < cs->nchanges; k++)
		if (cs->changes[k].op == OP_ADD &&
		    json_object_get(cs->changes[k].spec, "release") != NULL)
			return &cs->changes[k];
	return NULL;
}

/* a_release: cs gives temporary resources back (made here). */
static int
a_release(const struct change_set *cs)
{
	return cs->nchanges > 0 && cs->changes[0].op == OP_REMOVE &&
	    json_object_get(cs->changes[0].spec, "release") != NULL;
}

/* others_live: a live change set that is not a release. */
static int
others_live(const struct rgb *b)
{
	size_t q, s;

	for (q = 0; q < b->model.nreqs; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++)
			if (change_set_live(&b->model.reqs[q].sets[s]) &&
			    !a_release(&b->model.reqs[q].sets[s]))
				return 1;
	return 0;
}

/* release_doc: the request that removes what c added and the system
 * still lists, last first (a hypervisor before its host), or NULL. */
static json_t *
release_doc(const struct rgb *b, const char *id, const char *time,
    const struct change_set *cs, const struct change *c)
{
	const json_t *list = json_object_get(json_object_get(c->spec, "system"),
	    "resources");
	json_t *ids = json_array();
	size_t i;

	for (i = json_array_size(list); i-- > 0;) {
		const char *r = json_string_value(json_object_get(
		    json_array_get(list, i), "id"));
		long k = res_find(b, r);

		if (k >= 0 && b->res[k].sys >= 0)
			json_array_append_new(ids, json_string(r));
	}
	if (json_array_size(ids) == 0) {
		json_decref(ids);
		return NULL;
	}
	return json_pack("{s:i,s:s,s:s,s:[{s:s,s:I,s:[{s:s,s:{s:o},s:O}]}]}",
	    "version", 1, "id", id, "time", time, "change_sets", "id",
	    "release", "max_retry", cs->max_retry < 0 ? 0 : cs->max_retry,
	    "changes", "op", "remove", "targets", "ids", ids, "release",
	    json_object_get(c->spec, "release"));
}

#define RELEASE_TRIES 3

/* release_id: the id of try k (1, 2, 3) of the release of set cs of r. */
static void
release_id(char *id, size_t size, const struct request *r,
    const struct change_set *cs, int k)
{
	if (k == 1)
		snprintf(id, size, "%s-%s-release", r->id, cs->id);
	else
		snprintf(id, size, "%s-%s-release-%d", r->id, cs->id, k);
}

/* next_try: the first try of the release not made yet, or 0 while one
 * is under way, has given the hosts back, or the tries are spent. */
static int
next_try(const struct rgb *b, const struct request *r,
    const struct change_set *cs)
{
	const struct request *made;
	char id[512];
	int k;

	for (k = 1; k <= RELEASE_TRIES; k++) {
		release_id(id, sizeof id, r, cs, k);
		if ((made = request_find(&b->model, id)) == NULL)
			return k;
		if (made->sets[0].status != CS_FAILED || !made->sets[0].undo_done)
			return 0;
	}
	return 0;
}

/* release_one: receive the next release of set s of request q. */
static int
release_one(struct rgb *b, uint32_t q, uint32_t s, const char *time)
{
	const struct request *r = &b->model.reqs[q];
	const struct change_set *cs = &r->sets[s];
	char id[512];
	struct access a;
	json_t *doc;
	size_t first = b->model.nreqs;
	int rc, k = next_try(b, r, cs);

	if (k == 0)
		return 0;
	release_id(id, sizeof id, r, cs, k);
	if (time == NULL)
		time = r->time;
	if ((doc = release_doc(b, id, time, cs, temporary_add(cs))) == NULL)
		return 0;	/* nothing of it is left */
	json_array_append_new(b->request_docs, doc);
	access_init(&a, "rg-build");
	rc = request_read(&a, doc, b->iteration, &b->model, b->undo_requests);
	access_free(&a);
	if (rc == 0)
		rc = resolve_request(b, "rg-build", (uint32_t)first);
	return rc < 0 ? -1 : 1;
}

int
release_temporaries(struct rgb *b, const char *time)
{
	size_t q, s, n = b->model.nreqs;
	int made = 0, r;

	if (others_live(b))
		return 0;
	for (q = 0; q < n; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++) {
			if (b->model.reqs[q].sets[s].status != CS_COMPLETED ||
			    temporary_add(&b->model.reqs[q].sets[s]) == NULL)
				continue;
			if ((r = release_one(b, (uint32_t)q, (uint32_t)s,
			    time)) < 0)
				return -1;
			made += r;
		}
	return made;
}
