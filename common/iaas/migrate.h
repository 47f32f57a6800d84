/*
 * migrate.h: the schedule action that moves one VM between compute
 * hosts, with its undo (moving it back) and, in step 4, its replacement
 * (a new VM instantiated on the destination when the move fails; seed
 * 000 IV step 4).  See upkit-state(5), "The schedule section".
 *
 * The command is the "migrate" action of the hypervisor product on the
 * destination, with {vm}, {source} and {destination} put in as whole
 * arguments (a host's service_host, the name nova's --host takes, when
 * it has one, else its id); without one, MIGRATE_DEFAULT_ARGV, 23 seconds (the live
 * migration measured in seed 000 section V), which upkit-sim's rolling
 * baseline also assumes.
 */
#ifndef UPKIT_MIGRATE_H
#define UPKIT_MIGRATE_H

#include <jansson.h>

#include "catalog.h"

#define MIGRATE_DEFAULT_DURATION 23

/* A hypervisor product by name and version (either may be NULL). */
struct hv_product {
	const char *name, *version;
};

struct migration {
	const char *id;		/* the action id */
	const char *phase;	/* "migration" or "prerequisite" */
	const char *vm, *source, *destination;
	/* the names nova knows the hosts by (service_host), or NULL for
	 * their ids: what {source} and {destination} become in argv */
	const char *source_name, *destination_name;
	struct hv_product from, to;	/* on the source and the destination */
	int replaceable;	/* step 4: add on_failure */
};

/* migration_action: the action object for m. */
json_t *migration_action(const struct catalog *cat, const struct migration *m);
/*
 * migration_def: the catalog's migrate action of hypervisor product to,
 * or NULL when it has none (then MIGRATE_DEFAULT_ARGV, 23 seconds).
 */
const struct cat_action_def *migration_def(const struct catalog *cat,
    struct hv_product to);
/* migration_duration: the time one move takes on hypervisor to. */
long migration_duration(const struct catalog *cat, struct hv_product to);

#endif
