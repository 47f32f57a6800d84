/*
 * changes.c: a change made by rg-build itself, not written in the
 * request: a complementary change of a change set (seed 000 II.D),
 * added by the catalog's completion (complement.c) and by the
 * replacement of a storage or controller (ppu.c).
 */
#include "rgb.h"

uint32_t
new_change(struct rgb *b, uint32_t q, uint32_t s, uint32_t root,
    enum change_op op, struct pv from, struct pv to)
{
	struct change_set *cs = &b->model.reqs[q].sets[s];
	struct change *c = change_add(cs);
	json_t *spec = json_object();

	json_object_set_new(spec, "op", json_string(change_op_names[op]));
	if (from.product != NULL)
		json_object_set_new(spec, "product", json_string(from.product));
	if (op == OP_ADD)
		json_object_set_new(spec, "product", json_string(to.product));
	if (op == OP_ADD)
		json_object_set_new(spec, "version", json_string(to.version));
	if (op == OP_UPGRADE)
		json_object_set_new(spec, "to", json_pack("{s:s, s:s}",
		    "product", to.product, "version", to.version));
	c->op = op;
	c->spec = spec;
	c->of = root + 1;
	c->ppu = cs->changes[root].ppu;	/* part of the same method */
	return (uint32_t)(cs->nchanges - 1);
}
