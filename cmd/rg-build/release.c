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
 * so it is made once.
 */
#include <stdio.h>
#include <string.h>

#include "rgb.h"

static int
live(const struct change_set *cs)
{
	return cs->status == CS_NEW || cs->status == CS_SCHEDULED;
}

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
			if (live(&b->model.reqs[q].sets[s]) &&
			    !a_release(&b->model.reqs[q].sets[s]))
				return 1;
	return 0;
}

/* release_doc: the request that removes what c added, listed last
 * first (a hypervisor before its host). */
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

		if (res_find(b, r) >= 0)
			json_array_append_new(ids, json_string(r));
	}
	return json_pack("{s:i,s:s,s:s,s:[{s:s,s:I,s:[{s:s,s:{s:o},s:O}]}]}",
	    "version", 1, "id", id, "time", time, "change_sets", "id",
	    "release", "max_retry", cs->max_retry < 0 ? 0 : cs->max_retry,
	    "changes", "op", "remove", "targets", "ids", ids, "release",
	    json_object_get(c->spec, "release"));
}

/* release_one: receive the release of set s of request q, once. */
static int
release_one(struct rgb *b, uint32_t q, uint32_t s, const char *time)
{
	const struct request *r = &b->model.reqs[q];
	const struct change_set *cs = &r->sets[s];
	char id[512];
	struct access a;
	json_t *doc;
	size_t first = b->model.nreqs;
	int rc;

	snprintf(id, sizeof id, "%s-%s-release", r->id, cs->id);
	if (time == NULL)
		time = r->time;
	if (request_find(&b->model, id) != NULL)
		return 0;
	doc = release_doc(b, id, time, cs, temporary_add(cs));
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
