/*
 * vm-migrate-plan: step 4 of the IaaS upgrade method of seed 000: while
 * an upgrade splits the compute hosts into an old and a new partition,
 * plan which VMs move (and are upgraded) from the old one to the new one
 * in this iteration, V_i by equation (5), in sub-iterations that never
 * move two VMs of one anti-affinity group at once.  Reads the state
 * document after batch-select, writes it back with the "migrations"
 * section replaced.
 */
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer_file.h"
#include "cli.h"
#include "exitcodes.h"
#include "fingerprint.h"
#include "load.h"
#include "output.h"
#include "progress.h"
#include "sla.h"
#include "state.h"
#include "vmp.h"

static const char usage_doc[] =
    "Plan the VM migrations of this iteration from the old compute "
    "partition to the new one.\vWith no FILE, or when FILE is -, read "
    "standard input.  Exit status: 0 done, 64 usage, 65 invalid input, "
    "66 cannot open, "
    "71 out of memory, 73 cannot write the progress file, 74 I/O error.";

enum { OPT_PROGRESS_FILE = 256 };

static const struct argp_option option_list[] = {
	{ "new-capacity", 'k', "N", 0, "K': VMs a host of the new partition "
	  "runs (default: the hosts' own capacity)", 0 },
	{ "standby-first", 's', 0, 0, "Move the standby VM of an active/"
	  "standby pair before its active", 0 },
	{ "order", 'O', "ORDER", 0, "Which VMs move first: hosts (the "
	  "default: empty the old hosts holding fewest VMs, whole hosts) or "
	  "groups (the paper's: tenants with most old VMs first)", 0 },
	{ "progress-file", OPT_PROGRESS_FILE, "FILE", 0, "Also write to FILE "
	  "the plan's progress and fingerprint, the two lines upkit-sim "
	  "--progress --fingerprint prints of the output", 0 },
	{ 0 }
};

/*
 * The sections read: the catalog and step 3's batch; the system, the
 * two graphs and step 3's schedule are read from their text an element
 * at a time (sysconf.h, rgraph.h, cgraph_read.h, schedule.h); every
 * section passes through as text (jtext.h).  With --progress-file, the
 * change sets' statuses too (progress.h).
 */
static const char *const reads[] = { "catalog", "batch", NULL };
static const char *const progress_reads[] = { "catalog", "batch",
	"requests", NULL };

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
	case 'k':
		o->new_capacity = cli_long(state, "--new-capacity", arg, 1, 1000000);
		break;
	case 's':
		o->standby_first = 1;
		break;
	case 'O':
		if (strcmp(arg, "hosts") == 0)
			o->order = ORDER_HOSTS;
		else if (strcmp(arg, "groups") == 0)
			o->order = ORDER_GROUPS;
		else
			argp_error(state, "--order: '%s' is neither hosts nor "
			    "groups", arg);
		break;
	case OPT_PROGRESS_FILE:
		o->progress_file = arg;
		break;
	case ARGP_KEY_END:
		o->in.reads = o->progress_file != NULL ? progress_reads :
		    reads;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* load_inputs: the planners' sections, and step 3's results. */
static int
load_inputs(struct vmp *p, json_t *doc)
{
	json_t *sched;

	return plan_inputs_load(p->a, doc, &p->in) == 0 &&
	    state_require(p->a, doc, SECTION_BATCH, &p->batch) == 0 &&
	    state_require(p->a, doc, SECTION_SCHEDULE, &sched) == 0 ? 0 : -1;
}

/* ordered: the section's members in the documented order. */
static json_t *
ordered(const struct vmp *p)
{
	static const char *const keys[] = { "status", "note", "sla",
		"sub_iterations", NULL };
	json_t *o = json_pack("{s:I}", "iteration", (json_int_t)p->in.rg.iteration);
	size_t k;

	for (k = 0; keys[k] != NULL; k++)
		if (json_object_get(p->section, keys[k]) != NULL)
			json_object_set(o, keys[k],
			    json_object_get(p->section, keys[k]));
	return o;
}

static void
vmp_free(struct vmp *p)
{
	free(p->done);
	free(p->svc);
	free(p->ready);
	free(p->group_first);
	free(p->group_vms);
	free(p->new_hosts);
	json_decref(p->section);
	conditions_free(&p->cond);
	cloud_free(&p->cl);
	plan_inputs_free(&p->in);
}

/*
 * write_progress: upgrade-loop's two questions of the plan, answered
 * before it is written, so that the loop does not read it back.
 */
static int
write_progress(const char *file, const json_t *doc)
{
	char digest[STATE_FINGERPRINT_SIZE];

	state_fingerprint(doc, digest);
	return answer_file_write(file, state_progress(doc), digest);
}

static int
plan(void *options, json_t *doc)
{
	const struct options *o = options;
	struct access a;
	struct vmp p;
	int status = EXIT_DATAERR;

	memset(&p, 0, sizeof p);
	p.o = o;
	p.a = &a;
	p.section = json_object();
	conditions_init(&p.cond);
	access_init(&a, load_name(o->in.file));
	rgraph_init(&p.in.rg);
	if (load_inputs(&p, doc) == 0) {
		cloud_init(&p.cl, &p.in.sc);
		if (replay_step3(&p, doc) == 0) {
			find_ready(&p);
			plan_migrations(&p);
			state_put(doc, SECTION_MIGRATIONS, ordered(&p));
			status = o->progress_file == NULL ? EXIT_OK :
			    write_progress(o->progress_file, doc);
			if (status == EXIT_OK)
				status = output_json(doc, &o->output);
		}
	}
	vmp_free(&p);
	access_free(&a);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &failover_argp, 0, "Failover reservation of the new "
		  "partition:", 0 },
		{ &output_argp, 0, 0, 0 },
		{ &scaling_argp, 0, "Scaling reservation of the new partition:", 0 },
		{ &stage_input_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_PIPELINE, plan };
	struct options o = { .reservation = SLA_RESERVE_EXACT,
	    .order = ORDER_HOSTS, .failover = FAILOVER_OPTS_DEFAULT };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
