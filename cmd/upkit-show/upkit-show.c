/*
 * upkit-show: one iteration of an upkit state document for a person: a
 * numbered list of operations in the style of a dry run (what goes out
 * of service in which stage and why that is safe, which VMs move where,
 * what waits and why, grouped by rule), or with --dot the schedules as
 * a Graphviz graph with the stages as clusters; or, with --html, the
 * whole upgrade of a state directory of upgrade-loop as one HTML page
 * (picture.h).
 */
#include <argp.h>
#include <string.h>

#include "exitcodes.h"
#include "load.h"
#include "output.h"
#include "picture.h"
#include "show.h"
#include "stage.h"
#include "state.h"

struct options {
	struct stage_input in;	/* FILE; with html, the state directory */
	int dot;
	int html;
};

enum { OPT_HTML = 0x100 };

static const char usage_doc[] =
    "Show one iteration of an upkit state document (after batch-select, "
    "vm-migrate-plan or an actuator) as a numbered list of operations, "
    "or as a Graphviz graph of its schedules; with --html, the whole "
    "upgrade in the state directory DIR of upgrade-loop as one HTML page."
    "\vWith no FILE, or when FILE is -, read standard input.  Exit status: "
    "0 shown, 64 usage, 65 invalid input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "dot", 'g', 0, 0, "Write the schedules in Graphviz dot, stages "
	  "as clusters (for dot -Tsvg)", 0 },
	{ "html", OPT_HTML, 0, 0, "Read the state directory DIR of "
	  "upgrade-loop and write the whole upgrade as one HTML page with "
	  "inline SVG: a timeline with a lane per host, each tenant's VMs "
	  "out of service, the batches and what waited", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->in;
		break;
	case 'g':
		o->dot = 1;
		break;
	case OPT_HTML:
		o->html = 1;
		break;
	case ARGP_KEY_END:
		if (o->html && o->dot)
			argp_error(state, "--html and --dot exclude each other");
		if (o->html && (o->in.file == NULL || strcmp(o->in.file, "-") == 0))
			argp_error(state, "--html reads a state directory: "
			    "give DIR");
		o->in.none = o->html;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* this_report: the report section when it is of the batch's iteration. */
static json_t *
this_report(const json_t *doc, json_int_t iteration)
{
	json_t *report = state_section(doc, SECTION_REPORT);

	if (json_integer_value(json_object_get(report, "iteration")) != iteration)
		return NULL;
	return report;
}

/* compute_hosts: both partitions' hosts, to tell hosts from groups. */
static json_t *
compute_hosts(const json_t *batch)
{
	const json_t *c = json_object_get(batch, "compute"), *h;
	json_t *set = json_object();
	size_t i;

	json_array_foreach(json_object_get(c, "old"), i, h)
		if (json_is_string(h))
			json_object_set_new(set, json_string_value(h), json_true());
	json_array_foreach(json_object_get(c, "new"), i, h)
		if (json_is_string(h))
			json_object_set_new(set, json_string_value(h), json_true());
	return set;
}

static int
load_sections(struct show *s, const json_t *doc)
{
	if (state_check(s->a, doc) < 0 ||
	    state_require(s->a, doc, SECTION_BATCH, &s->batch) < 0 ||
	    state_require(s->a, doc, SECTION_SCHEDULE, &s->schedule) < 0)
		return -1;
	access_enter_key(s->a, "batch");
	if (acc_get_int(s->a, s->batch, "iteration", ACC_REQUIRED,
	    &s->iteration) < 0)
		return -1;
	access_leave(s->a);
	s->migrations = state_section(doc, SECTION_MIGRATIONS);
	s->report = this_report(doc, s->iteration);
	s->compute = compute_hosts(s->batch);
	index_products(s, doc);
	return 0;
}

static int
show(const struct options *o, const json_t *doc)
{
	struct access a;
	struct show s;
	int status = EXIT_DATAERR;

	memset(&s, 0, sizeof s);
	s.a = &a;
	s.what = json_object();
	access_init(&a, load_name(o->in.file));
	if (load_sections(&s, doc) == 0 && (s.out = output_text_begin()) != NULL) {
		if ((o->dot ? show_dot(&s) : show_text(&s)) == 0)
			status = output_text_commit(s.out);
		else
			output_text_discard(s.out);
	}
	json_decref(s.what);
	json_decref(s.compute);
	access_free(&a);
	return status;
}

/* show_html: the state directory o->in.file as one HTML page. */
static int
show_html(const struct options *o)
{
	struct picture pic;
	FILE *out;
	int status = picture_read(&pic, o->in.file);

	if (status == EXIT_OK) {
		out = output_text_begin();
		if (html_write(&pic, out) == 0) {
			status = output_text_commit(out);
		} else {
			output_text_discard(out);
			status = EXIT_OSERR;
		}
	}
	picture_free(&pic);
	return status;
}

/* run: the document, or with --html the state directory, shown. */
static int
run(void *options, json_t *doc)
{
	const struct options *o = options;

	return o->html ? show_html(o) : show(o, doc);
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &stage_input_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt,
		"[FILE]\n--html DIR", usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { 0 };

	return stage_main(&stage, &o, &o.in, argc, argv);
}
