/*
 * batch-select: step 3 of the IaaS upgrade method of seed 000: select
 * the batch of resource groups to upgrade in this iteration without
 * breaking dependencies (the elimination rules) or the tenants' SLAs
 * (equations (1) to (4)), and write its runtime upgrade schedule.
 * Reads the state document, writes it back with the "batch" and
 * "schedule" sections replaced.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "cli.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "sla.h"
#include "state.h"
#include "xalloc.h"

static const char usage_doc[] =
    "Select the resource groups to upgrade in this iteration and write "
    "their runtime upgrade schedule.\vWith no FILE, or when FILE is -, "
    "read standard input.  Exit status: 0 done, 64 usage, 65 invalid "
    "input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "dedicated", 'D', "N", 0, "Compute hosts the operator dedicates to "
	  "groups that stay deactivated (default 0)", 0 },
	/* -d: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'd', 0, OPTION_ALIAS, 0, 0 },
	{ "parallel", 'j', "N", 0, "Run at most N groups of a stage at once",
	  0 },
	{ "max-freed", 'm', "N", 0, "Free at most N hosts by consolidation "
	  "(default: as many as possible)", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->failover;
		state->child_inputs[1] = &o->output;
		state->child_inputs[2] = &o->reservation;
		state->child_inputs[3] = &o->in;
		break;
	case 'D':
	case 'd':
		o->dedicated = cli_long(state, "--dedicated", arg, 0, 1000000000);
		break;
	case 'j':
		o->parallel = cli_long(state, "--parallel", arg, 0, 1000000000);
		break;
	case 'm':
		o->max_freed = cli_long(state, "--max-freed", arg, 0, 1000000000);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void
index_graphs(struct bs *b)
{
	size_t i;
	long r;

	digraph_init(&b->rgd, b->in.rg.nv);
	for (i = 0; i < b->in.rg.ne; i++)
		digraph_add_edge(&b->rgd, b->in.rg.e[i].dependent,
		    b->in.rg.e[i].sponsor);
	digraph_build(&b->rgd);
	digraph_init(&b->cgd, b->in.cg.ngroups);
	for (i = 0; i < b->in.cg.nedges; i++)
		digraph_add_edge(&b->cgd, b->in.cg.edges[i].from,
		    b->in.cg.edges[i].to);
	digraph_build(&b->cgd);
	b->res_of = xmalloc(b->in.rg.nv * sizeof *b->res_of);
	for (i = 0; i < b->in.rg.nv; i++) {
		r = idmap_find(&b->in.sc.resource_ids, b->in.rg.v[i].id);
		b->res_of[i] = r < 0 ? NONE : (size_t)r;
	}
}

static void
bs_free(struct bs *b)
{
	size_t g;

	for (g = 0; g < b->in.cg.ngroups && b->why != NULL; g++)
		json_decref(b->why[g]);
	free(b->why);
	for (g = 0; b->eq1 != NULL && g < b->cl.ncauses; g++)
		free(b->eq1[g].reason);
	free(b->eq1);
	free(b->cand);
	free(b->ruled_in);
	free(b->waiting);
	free(b->chosen);
	free(b->paired);
	free(b->affected);
	free(b->idle_before);
	free(b->res_of);
	free(b->split_unit);
	free(b->split_part);
	free(b->relying_vms);
	free(b->keep_empty);
	for (g = 0; g < b->npools; g++)
		free(b->pools[g].hosts);
	free(b->pools);
	free(b->giver);
	free(b->moves);
	free(b->final_g);
	json_decref(b->freed);
	json_decref(b->initial);
	json_decref(b->final);
	json_decref(b->sla);
	json_decref(b->advice);
	digraph_free(&b->rgd);
	digraph_free(&b->cgd);
	cloud_free(&b->cl);
	plan_inputs_free(&b->in);
}

static int
select_batch(void *options, json_t *doc)
{
	const struct options *o = options;
	struct access a;
	struct bs b;
	json_t *sched;
	int status = EXIT_DATAERR;

	memset(&b, 0, sizeof b);
	b.o = o;
	b.a = &a;
	access_init(&a, load_name(o->in.file));
	if (plan_inputs_load(&a, doc, &b.in) == 0) {
		index_graphs(&b);
		cloud_init(&b.cl, &b.in.sc);
		cloud_partition(&b.cl, &b.in.rg, &b.in.cg, &b.in.cat, NULL);
		count_relying_vms(&b);
		consolidate(&b);
		initial_batch(&b);
		final_batch(&b);
		drop_idle_consolidation(&b);
		/* built first, put second: the batch goes before it */
		sched = build_schedule(&b);
		state_put(doc, SECTION_BATCH, batch_section(&b));
		state_put(doc, SECTION_SCHEDULE, sched);
		status = output_json(doc, &o->output);
	}
	bs_free(&b);
	access_free(&a);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &failover_argp, 0, "Failover reservation F:", 0 },
		{ &output_argp, 0, 0, 0 },
		{ &scaling_argp, 0, "Scaling reservation:", 0 },
		{ &stage_input_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_PIPELINE,
		select_batch };
	/*
	 * plan_inputs_load's sections but the system and the two graphs,
	 * whose bulk is read from its text an element at a time (sysconf.h,
	 * rgraph.h, cgraph_read.h); the others pass through as text
	 * (jtext.h)
	 */
	static const char *const reads[] = { "catalog", NULL };
	struct options o = { .in.reads = reads,
	    .reservation = SLA_RESERVE_EXACT, .max_freed = -1,
	    .failover = FAILOVER_OPTS_DEFAULT };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
