/*
 * cg-coarsen: step 2 of the IaaS upgrade method of seed 000: coarsen
 * the resource graph into the control graph, whose vertices are the
 * resource groups to be upgraded at the same time.  Reads the state
 * document, writes it back with the "control_graph" section replaced.
 */
#include <argp.h>
#include <stdio.h>

#include "coarsen.h"
#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "stage.h"
#include "state.h"

struct options {
	struct stage_input in;	/* FILE, and the sections read */
	int dot;
	struct output_opts output;	/* -c */
};

static const char usage_doc[] =
    "Coarsen the resource graph of a state document into the control "
    "graph.\vWith no FILE, or when FILE is -, read standard input.  "
    "Exit status: 0 done, 64 usage, 65 invalid input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "dot", 'g', 0, 0, "Write the control graph in Graphviz dot "
	  "instead of the document", 0 },
	/* -d: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'd', 0, OPTION_ALIAS, 0, 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		state->child_inputs[1] = &o->in;
		break;
	case 'g':
	case 'd':
		o->dot = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int
write_result(const struct options *o, json_t *doc, const struct cgraph *cg)
{
	FILE *fp;

	if (o->dot) {
		fp = output_text_begin();
		cgraph_dot(cg, fp);
		return output_text_commit(fp);
	}
	/* an empty section to fill: it keeps its place in the document */
	state_put(doc, SECTION_CONTROL_GRAPH, json_object());
	return output_json_with(doc, &o->output,
	    state_section(doc, SECTION_CONTROL_GRAPH), cgraph_write, cg);
}

/* coarsen: read the RG of doc, contract it, write the result. */
static int
coarsen(void *options, json_t *doc)
{
	const struct options *o = options;
	struct access a;
	struct rgraph rg;
	struct unionfind uf = { 0 };
	struct cgraph cg = { 0 };
	json_t *sec;
	int status = EXIT_DATAERR;

	access_init(&a, load_name(o->in.file));
	rgraph_init(&rg);
	if (state_check(&a, doc) == 0 &&
	    state_require(&a, doc, SECTION_RESOURCE_GRAPH, &sec) == 0) {
		access_enter_key(&a, "resource_graph");
		if (rgraph_load(&a, sec, &rg) == 0) {
			uf_init(&uf, rg.nv);
			if (contract(&a, &rg, &uf) == 0) {
				build_groups(&rg, &uf, &cg);
				status = write_result(o, doc, &cg);
			}
		}
	}
	cgraph_free(&cg);
	uf_free(&uf);
	rgraph_free(&rg);
	access_free(&a);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { &stage_input_argp, 0, 0, 0 },
		{ 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[FILE]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_PIPELINE, coarsen };
	/*
	 * Every section passes through as text (jtext.h); the resource
	 * graph is read from its text a vertex at a time (rgraph.h).
	 */
	static const char *const reads[] = { NULL };
	struct options o = { .in.reads = reads };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
