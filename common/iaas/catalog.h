/*
 * catalog.h: the "catalog" section, the resource upgrade catalog of
 * seed 000 section II.B, read into checked C structures.
 *
 * One infrastructure component description per product and version:
 * the resource kind the product instantiates (a hypervisor, a virtual
 * storage...), the kinds of resources its components install on, what
 * it requires of other products (the source of complementary changes,
 * II.D), the versions it is compatible with along which dependency
 * types (the source of the incompatibility-factor, II.E), its actions
 * with the vendor's estimated durations, and for storage products the
 * minimum hosts for configuration and capacity (equation (1)).
 * See upkit-state(5), "The catalog section".
 */
#ifndef UPKIT_CATALOG_H
#define UPKIT_CATALOG_H

#include <stddef.h>
#include <jansson.h>

#include "access.h"
#include "idmap.h"
#include "sysconf.h"

/*
 * Actions of a product.  install/remove run on each resource a component
 * goes on (a hypervisor, a host); create/delete on the resource the
 * product instantiates (a virtual storage), when it is added or removed;
 * activate/deactivate are the prerequisite and wrap-up actions of step 3;
 * migrate (hypervisors) moves a VM, with {vm}, {source}, {destination}.
 */
enum cat_action {
	CAT_INSTALL, CAT_REMOVE, CAT_CREATE, CAT_DELETE, CAT_ACTIVATE,
	CAT_DEACTIVATE, CAT_MIGRATE, CAT_ACTION_COUNT
};

struct cat_action_def {
	json_t *argv;		/* array of strings, NULL when absent */
	long duration;		/* seconds */
	int on_control;		/* run_on: control (an API call, run once
				 * from the control node, not the host) */
};

struct cat_require {
	const char *product;
	enum resource_kind on;	/* the kind of resource it must be on */
	const char *version;	/* NULL: any version, the newest if added */
};

struct cat_compat {
	const char *product;
	json_t *versions;	/* array of version strings */
	unsigned along;		/* bits of enum dep_type */
};

struct cat_product {
	const char *name, *version;
	int kind;		/* enum resource_kind it instantiates, or -1 */
	unsigned installs_on;	/* bits of enum resource_kind */
	long min_hosts_config, min_hosts_capacity;	/* 0 when not given */
	struct cat_require *requires;
	size_t nrequires;
	struct cat_compat *compat;
	size_t ncompat;
	struct cat_action_def actions[CAT_ACTION_COUNT];
};

struct catalog {
	struct cat_product *products;
	size_t nproducts;
	struct idmap keys;	/* "name@version" -> index */
};

extern const char *const cat_action_names[];	/* by enum cat_action */

/*
 * catalog_action_load: obj's action key, {"argv": [...], "duration": N},
 * into *def: 0, 1 when obj has no such key, or -1 (diagnosed).
 */
int catalog_action_load(struct access *a, const json_t *obj, const char *key,
    struct cat_action_def *def);
/* catalog_load: read section (the "catalog" object); 0 or -1. */
int catalog_load(struct access *a, const json_t *section, struct catalog *c);
void catalog_free(struct catalog *c);

/* catalog_find: the description of name at version, or NULL. */
const struct cat_product *catalog_find(const struct catalog *c,
    const char *name, const char *version);
/* catalog_newest: the highest version of name (version_cmp), or NULL. */
const struct cat_product *catalog_newest(const struct catalog *c,
    const char *name);

/*
 * catalog_compatible: may a resource running a@av and one running b@bv
 * depend on each other along type?  Either description may restrict
 * the other product's versions along that type; with no rule they are
 * compatible.  1 or 0.
 */
int catalog_compatible(const struct catalog *c, const char *a,
    const char *av, const char *b, const char *bv, enum dep_type type);

/*
 * catalog_declares: does a@av list b@bv as compatible along type?
 * Used where silence means "no" (replacing a VM-supporting storage).
 */
int catalog_declares(const struct catalog *c, const char *a, const char *av,
    const char *b, const char *bv, enum dep_type type);

/*
 * version_cmp: compare dotted versions segment by segment, numerically
 * where both segments are digits ("6.10" > "6.9"), else bytewise.
 */
int version_cmp(const char *a, const char *b);

#endif
