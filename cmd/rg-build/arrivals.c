/*
 * arrivals.c: a new resource arrives at the target of the upgrade under
 * way.  A product version that a live change set takes other resources
 * away from is refused, naming the version to add instead, so that
 * nothing added needs upgrading after its install.
 *
 * This is checked once the change sets are evaluated (evaluate.c): a
 * set that fails in this very iteration no longer moves anything, and
 * a new resource may then come with what the others still run.
 */
#include "rgb.h"

/* moves_away: the transition of cs that takes a resource away from p,
 * or NULL. */
static const struct transition *
moves_away(const struct change_set *cs, struct pv p)
{
	size_t k, i;

	for (k = 0; k < cs->nchanges; k++)
		for (i = 0; i < cs->changes[k].ntr; i++) {
			const struct transition *t = &cs->changes[k].tr[i];

			if (t->from.product != NULL && pv_equal(t->from, p) &&
			    !pv_equal(t->from, t->to))
				return t;
		}
	return NULL;
}

/* changing: the transition of a live set other than skip that takes
 * some resource away from p, or NULL; *set names the set. */
static const struct transition *
changing(const struct rgb *b, const struct change_set *skip, struct pv p,
    const char **set)
{
	const struct transition *t;
	size_t q, s;

	for (q = 0; q < b->model.nreqs; q++)
		for (s = 0; s < b->model.reqs[q].nsets; s++) {
			const struct change_set *cs = &b->model.reqs[q].sets[s];

			if (cs != skip && change_set_live(cs) &&
			    (t = moves_away(cs, p)) != NULL) {
				*set = cs->uid;
				return t;
			}
		}
	return NULL;
}

/* at_target: product name@version of a new resource is no version on
 * its way out. */
static int
at_target(const struct rgb *b, struct access *a, const struct change_set *cs,
    const char *name, const char *version)
{
	const struct transition *t;
	const char *set;

	if ((t = changing(b, cs, (struct pv){ name, version }, &set)) == NULL)
		return 0;
	if (t->to.product == NULL)
		return access_fail_at(a, name, "%s is being removed by %s: add "
		    "the resource without it", name, set);
	return access_fail_at(a, name, "%s %s is being changed to %s %s by "
	    "%s: add the resource with what that change leads to, so that it "
	    "needs no upgrade after its install", name, t->from.version,
	    t->to.product, t->to.version, set);
}

/* resources_at_target: every product of the new resources of change ch. */
static int
resources_at_target(const struct rgb *b, struct access *a,
    const struct change_set *cs, const struct change *c)
{
	const json_t *list = json_object_get(json_object_get(c->spec, "system"),
	    "resources"), *r, *version;
	const char *name;
	size_t i;
	int rc = 0;

	access_enter_key(a, "system");
	access_enter_key(a, "resources");
	json_array_foreach(list, i, r) {
		access_enter_index(a, i);
		access_enter_key(a, "products");
		json_object_foreach((json_t *)json_object_get(r, "products"), name,
		    version)
			if (rc == 0)
				rc = at_target(b, a, cs, name,
				    json_string_value(version));
		access_leave(a);
		access_leave(a);
	}
	access_leave(a);
	access_leave(a);
	return rc;
}

int
check_arrivals(const struct rgb *b, uint32_t q, const char *file)
{
	const struct request *r = &b->model.reqs[q];
	struct access a;
	size_t s, k;
	int rc = 0;

	access_init(&a, file);
	access_enter_key(&a, "change_sets");
	for (s = 0; rc == 0 && s < r->nsets; s++) {
		access_enter_index(&a, s);
		access_enter_key(&a, "changes");
		for (k = 0; rc == 0 && k < r->sets[s].nchanges; k++) {
			const struct change *c = &r->sets[s].changes[k];

			if (c->op != OP_ADD ||
			    json_object_get(c->spec, "system") == NULL)
				continue;
			access_enter_index(&a, k);
			rc = resources_at_target(b, &a, &r->sets[s], c);
			access_leave(&a);
		}
		access_leave(&a);
		access_leave(&a);
	}
	access_free(&a);
	return rc;
}
