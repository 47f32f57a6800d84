/* plan.c: one run, from the input files to the ordered plan. */
#include <string.h>

#include "exitcodes.h"
#include "karamelfile.h"
#include "plan.h"

int
plan_load(struct plan *p, const char *old, const char *new,
    char *const *karamelfiles, size_t nkaramelfiles)
{
	size_t i;
	int status = EXIT_OK;

	memset(p, 0, sizeof *p);
	world_init(&p->world);
	for (i = 0; i < nkaramelfiles && status == EXIT_OK; i++)
		status = karamelfile_load(&p->world, karamelfiles[i]);
	if (status == EXIT_OK)
		status = cluster_load(&p->world, old, &p->old);
	if (status == EXIT_OK)
		status = cluster_load(&p->world, new, &p->new);
	if (status != EXIT_OK)
		return status;
	names_freeze(&p->world.names);
	/* Warnings are about the new definition: the old one is history. */
	if (cluster_check(&p->world, &p->old, 0) < 0 ||
	    cluster_check(&p->world, &p->new, 1) < 0)
		return EXIT_DATAERR;
	return EXIT_OK;
}

int
plan_compute(struct plan *p)
{
	keyspace_build(&p->keys, &p->world, &p->old, &p->new);
	diff_compute(&p->diff, &p->world, &p->keys, &p->old, &p->new);
	if (plan_graph_build(&p->graph, &p->world, &p->keys, &p->diff,
	    &p->old, &p->new) < 0)
		return EXIT_DATAERR;
	return EXIT_OK;
}

void
plan_free(struct plan *p)
{
	plan_graph_free(&p->graph);
	diff_free(&p->diff);
	keyspace_free(&p->keys);
	cluster_free(&p->old);
	cluster_free(&p->new);
	world_free(&p->world);
}
