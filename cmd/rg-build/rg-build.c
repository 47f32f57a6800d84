/*
 * rg-build: step 1 of the IaaS upgrade method of seed 000: create or
 * update the resource graph and the upgrade request model.
 *
 * It reads the system configuration, the resource upgrade catalog, new
 * upgrade requests and, from the second iteration on, the previous state
 * document with its request model, resource graph and the actuator's
 * iteration report; it writes the state document with the system and
 * catalog copied in and its own sections, "requests" and
 * "resource_graph", replaced.  Every other section passes through.
 */
#include <argp.h>
#include <stdlib.h>

#include "answer_file.h"
#include "cli.h"
#include "exitcodes.h"
#include "docsession.h"
#include "load.h"
#include "output.h"
#include "progress.h"
#include "rgb.h"
#include "stage.h"
#include "state.h"
#include "xalloc.h"

static const char usage_doc[] =
    "Create or update the resource graph of an IaaS cloud upgrade.\v"
    "FILE is the previous state document (- for standard input); without "
    "it, standard input is read unless --system is given.  "
    "Exit status: 0 done, 64 usage, 65 invalid input, 66 cannot open, "
    "71 out of memory, 73 cannot write the progress file, 74 I/O error.";

enum { OPT_PROGRESS_FILE = 256 };

static const struct argp_option option_list[] = {
	{ "system", 's', "FILE", 0, "The system configuration (a system "
	  "section)", 0 },
	{ "catalog", 'k', "FILE", 0, "The resource upgrade catalog (a catalog "
	  "section)", 0 },
	{ "request", 'r', "FILE", 0, "A new upgrade request (repeatable)", 0 },
	{ "dot", 'g', 0, 0, "Write the resource graph in Graphviz dot "
	  "instead of the document", 0 },
	/* -d: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'd', 0, OPTION_ALIAS, 0, 0 },
	{ "progress-file", OPT_PROGRESS_FILE, "FILE", 0, "Also write to FILE "
	  "the document's progress, the line upkit-sim --progress prints of "
	  "the output", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		/* every argument could be a -r */
		o->requests = xcalloc((size_t)state->argc, sizeof *o->requests);
		break;
	case 's':
		o->system = arg;
		break;
	case 'k':
		o->catalog = arg;
		break;
	case 'r':
		o->requests[o->nrequests++] = arg;
		break;
	case 'g':
	case 'd':
		o->dot = 1;
		break;
	case OPT_PROGRESS_FILE:
		o->progress_file = arg;
		break;
	case ARGP_KEY_ARG:
		o->state = cli_one_input(state, o->state, arg);
		break;
	case ARGP_KEY_END:
		if (o->dot && o->progress_file != NULL)
			argp_error(state, "--dot writes no document for "
			    "--progress-file to answer for");
		if (o->state == NULL && o->system == NULL)
			o->state = "-";
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* read_requests: the new requests, received in this iteration. */
static int
read_requests(struct rgb *b)
{
	size_t i, first;
	json_t *doc;
	int status;

	for (i = 0; i < b->opt->nrequests; i++) {
		struct access a;
		const char *name = load_name(b->opt->requests[i]);

		if ((status = load_document(b->opt->requests[i], &doc)) != EXIT_OK)
			return status;
		json_array_append_new(b->request_docs, doc);
		first = b->model.nreqs;
		access_init(&a, name);
		status = request_read(&a, doc, b->iteration, &b->model,
		    b->undo_requests) < 0 ? EXIT_DATAERR : EXIT_OK;
		access_free(&a);
		if (status == EXIT_OK && b->model.nreqs > first &&
		    resolve_request(b, name, (uint32_t)first) < 0)
			status = EXIT_DATAERR;
		if (status == EXIT_OK && b->model.nreqs > first) {
			b->arrived = xreallocarray(b->arrived, b->narrived + 1,
			    sizeof *b->arrived);
			b->arrived[b->narrived++] = (struct arrival){
				(uint32_t)first, name };
		}
		if (status != EXIT_OK)
			return status;
	}
	return EXIT_OK;
}

/* request_undos: change sets the administrator asked to undo. */
static int
request_undos(struct rgb *b)
{
	json_t *v;
	size_t i;
	uint32_t q, s;

	json_array_foreach(b->undo_requests, i, v) {
		struct change_set *cs = find_set(b, json_string_value(v), &q, &s);

		if (cs == NULL || cs->status == CS_COMPLETED) {
			diag_error(NULL, "cannot undo \"%s\": %s",
			    json_string_value(v), cs ? "it is completed (request "
			    "a new change instead)" : "no such change set");
			return EXIT_DATAERR;
		}
		if (cs->status != CS_FAILED)
			cs->undo = UNDO_REQUESTED;
	}
	return EXIT_OK;
}

static int
plan(struct rgb *b)
{
	size_t i;
	int status;

	b->iteration = !b->have_prev ? 1 : b->prev.iteration + (b->report != NULL);
	res_table_build(b);
	if (check_contradictions(b) < 0 || check_dep_ends(b) < 0 ||
	    apply_report(b) < 0)
		return EXIT_DATAERR;
	if ((status = read_requests(b)) != EXIT_OK ||
	    (status = request_undos(b)) != EXIT_OK)
		return status;
	evaluate_change_sets(b);
	for (i = 0; i < b->narrived; i++)
		if (check_arrivals(b, b->arrived[i].req, b->arrived[i].file) < 0)
			return EXIT_DATAERR;
	rgraph_init(&b->out);
	b->out.iteration = b->iteration;
	if (b->report != NULL)
		b->out.time = json_string_value(json_object_get(b->report, "time"));
	if (release_temporaries(b, b->out.time) < 0)
		return EXIT_DATAERR;
	if (plan_vertices(b) < 0 || plan_edges(b) < 0)
		return EXIT_DATAERR;
	plan_units(b);
	return EXIT_OK;
}

/*
 * waited_for: a vertex is deactivated, its operator has not disabled it
 * (a disabled resource stays out of service by choice), and nothing
 * grouped with it through containment or composition, either way, is
 * failed or isolated: the upgrade waits for it to come back into
 * service (progress.h).  gone[] marks the vertices out of play.
 */
static int
waited_for(const struct rgb *b)
{
	const struct rgraph *g = &b->out;
	char *gone = xcalloc(g->nv ? g->nv : 1, 1);
	size_t i, x, y;
	long r;
	int more = 1, waiting = 0;

	for (i = 0; i < g->nv; i++)
		gone[i] = (char)(g->v[i].failed || g->v[i].isolated);
	while (more) {
		more = 0;
		for (i = 0; i < g->ne; i++) {
			x = g->e[i].dependent;
			y = g->e[i].sponsor;
			if ((g->e[i].type == DEP_CONTAINED ||
			    g->e[i].type == DEP_COMPOSITION) &&
			    gone[x] != gone[y])
				more = gone[x] = gone[y] = 1;
		}
	}
	for (i = 0; i < g->nv && !waiting; i++) {
		r = idmap_find(&b->sc.resource_ids, g->v[i].id);
		waiting = g->v[i].deactivated && !gone[i] &&
		    !(r >= 0 && b->sc.resources[r].disabled);
	}
	free(gone);
	return waiting;
}

/*
 * write_progress: upgrade-loop's question of the graph, "done?",
 * answered before the document is written, from the graph as built.
 */
static int
write_progress(const struct rgb *b)
{
	json_t *iteration = json_integer(b->iteration);
	int status;

	status = answer_file_write(b->opt->progress_file,
	    state_progress_of(b->doc, iteration, waited_for(b)), NULL);
	json_decref(iteration);
	return status;
}

static int
write_result(struct rgb *b)
{
	json_t *old;
	FILE *fp;
	int status;

	if (b->opt->dot) {
		fp = output_text_begin();
		rgraph_dot(&b->out, fp);
		return output_text_commit(fp);
	}
	/* the sections replaced hold strings the new graph still points to */
	old = json_copy(b->doc);
	state_put(b->doc, SECTION_SYSTEM, json_incref(b->system_sec));
	state_put(b->doc, SECTION_CATALOG, json_incref(b->catalog_sec));
	state_put(b->doc, SECTION_REQUESTS, request_model_to_json(&b->model));
	/* an empty section to fill: it keeps its place in the document */
	state_put(b->doc, SECTION_RESOURCE_GRAPH, json_object());
	status = b->opt->progress_file == NULL ? EXIT_OK : write_progress(b);
	if (status == EXIT_OK)
		status = output_json_with(b->doc, &b->opt->output,
	    state_section(b->doc, SECTION_RESOURCE_GRAPH), rgraph_write,
	    &b->out);
	docsession_drop(old);
	return status;
}

/* build: the resource graph from the inputs the options name. */
static int
build(void *options, json_t *no_input)
{
	struct rgb b = { .opt = options };
	int status;

	(void)no_input;
	b.undo_requests = json_array();
	b.request_docs = json_array();
	request_model_init(&b.model);
	rgraph_init(&b.prev);
	status = rgb_load_inputs(&b);
	if (status == EXIT_OK)
		status = plan(&b);
	if (status == EXIT_OK)
		status = write_result(&b);
	free(b.lv);
	free(b.arrived);
	rgb_free(&b);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_PIPELINE, build };
	struct options o = { 0 };
	int status = stage_main(&stage, &o, NULL, argc, argv);

	free(o.requests);
	return status;
}
