/*
 * inputs.c: gather rg-build's inputs.  The system configuration comes
 * from --system, else from the report's refreshed system, else from the
 * document; the catalog from --catalog, else from the document.  The
 * previous request model and resource graph come from the document, and
 * its report is taken in once: only when it reports on the iteration
 * of the resource graph beside it.
 */
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "docsession.h"
#include "load.h"
#include "rgb.h"
#include "state.h"
#include "timefmt.h"

/*
 * load_section_file: a file holding one section's object.  Its members
 * are written out as read (jtext.h): the system of a large cloud is
 * most of what rg-build writes.  The system's arrays stay text, which
 * sysconf_load walks an element at a time (its million VMs at 100,000
 * hosts were a fifth of rg-build as a tree).
 */
static int
load_section_file(const char *file, enum section s, json_t **out)
{
	struct access a;
	int status = s == SECTION_SYSTEM ? load_section_reading(file, out) :
	    load_document_reading(file, NULL, out);

	if (status != EXIT_OK)
		return status;
	access_init(&a, load_name(file));
	if (state_check_section(&a, s, *out) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	return status;
}

/* report_applies: the report is about the previous RG's iteration. */
static int
report_applies(struct rgb *b, struct access *a, json_t *report)
{
	json_int_t it;
	const char *time;

	access_enter_key(a, "report");
	if (acc_get_int_range(a, report, "iteration", ACC_REQUIRED, 1,
	    1000000000, &it) < 0 ||
	    acc_get_string(a, report, "time", ACC_REQUIRED, &time) < 0)
		return -1;
	if (time_parse(time, &b->now) < 0)
		return access_fail_at(a, "time", "\"%s\" is not an ISO 8601 time",
		    time);
	if (!b->have_prev)
		return access_fail(a, "a report but no resource_graph to apply "
		    "it to");
	if (it > b->prev.iteration)
		return access_fail_at(a, "iteration", "report on iteration %"
		    JSON_INTEGER_FORMAT " but the resource graph is at %ld", it,
		    b->prev.iteration);
	access_leave(a);
	b->have_now = 1;	/* a stale report still tells the time */
	return it == b->prev.iteration;
}

static int
load_previous(struct rgb *b, struct access *a)
{
	json_t *sec, *report;
	int r;

	if ((sec = state_section(b->doc, SECTION_REQUESTS)) != NULL) {
		access_enter_key(a, "requests");
		if (request_model_load(a, sec, &b->model) < 0)
			return -1;
		access_leave(a);
	}
	if ((sec = state_section(b->doc, SECTION_RESOURCE_GRAPH)) != NULL) {
		access_enter_key(a, "resource_graph");
		if (rgraph_load(a, sec, &b->prev) < 0)
			return -1;
		access_leave(a);
		b->have_prev = 1;
	}
	if ((report = state_section(b->doc, SECTION_REPORT)) == NULL)
		return 0;
	if ((r = report_applies(b, a, report)) < 0)
		return -1;
	b->report = r ? report : NULL;
	return 0;
}

/*
 * pick_section: --FILE wins, then the report's copy (system only), then
 * the document's.  *name is what diagnostics call the place.
 */
static int
pick_section(struct rgb *b, enum section s, const char *file, json_t **out,
    const char **name)
{
	json_t *rep = b->report ? json_object_get(b->report, "system") : NULL;
	int status;

	if (file != NULL) {
		if ((status = load_section_file(file, s, out)) != EXIT_OK)
			return status;
		*name = load_name(file);
		return EXIT_OK;
	}
	*name = b->state_name;
	if (s == SECTION_SYSTEM && rep != NULL) {
		struct access a;

		access_init(&a, b->state_name);
		access_enter_key(&a, "report");
		access_enter_key(&a, "system");
		status = state_check_section(&a, s, rep);
		access_free(&a);
		*out = json_incref(rep);
		return status < 0 ? EXIT_DATAERR : EXIT_OK;
	} else if ((*out = json_incref(state_section(b->doc, s))) == NULL) {
		diag_error(b->state_name, "no %s section: give --%s FILE",
		    section_desc(s)->name, section_desc(s)->name);
		return EXIT_DATAERR;
	}
	return EXIT_OK;
}

static int
check_sections(struct rgb *b)
{
	struct access a;
	int r;

	access_init(&a, b->system_name);
	if (b->opt->system == NULL && b->report != NULL &&
	    json_object_get(b->report, "system") != NULL)
		access_enter_key(&a, "report");
	if (b->opt->system == NULL)
		access_enter_key(&a, "system");
	r = sysconf_load(&a, b->system_sec, &b->sc);
	access_free(&a);
	if (r < 0)
		return EXIT_DATAERR;
	access_init(&a, b->catalog_name);
	if (b->opt->catalog == NULL)
		access_enter_key(&a, "catalog");
	r = catalog_load(&a, b->catalog_sec, &b->cat);
	access_free(&a);
	return r < 0 ? EXIT_DATAERR : EXIT_OK;
}

/*
 * The sections of a state document rg-build builds whole; the others
 * (the system, which sysconf_load reads from its text, and those it
 * only passes on) stay text: every iteration after the first reads the
 * last report's whole document.
 */
static const char *const state_reads[] = { "requests", "report", "catalog",
	"resource_graph", NULL };

int
rgb_load_inputs(struct rgb *b)
{
	struct access a;
	int status = EXIT_OK;

	b->state_name = load_name(b->opt->state);
	if (b->opt->state == NULL)
		b->doc = state_new();
	else if ((status = load_document_reading(b->opt->state, state_reads,
	    &b->doc)) != EXIT_OK)
		return status;
	access_init(&a, b->state_name);
	if (b->opt->state != NULL && (state_check(&a, b->doc) < 0 ||
	    load_previous(b, &a) < 0))
		status = EXIT_DATAERR;
	access_free(&a);
	if (status != EXIT_OK)
		return status;
	if ((status = pick_section(b, SECTION_SYSTEM, b->opt->system,
	    &b->system_sec, &b->system_name)) != EXIT_OK ||
	    (status = pick_section(b, SECTION_CATALOG, b->opt->catalog,
	    &b->catalog_sec, &b->catalog_name)) != EXIT_OK)
		return status;
	return check_sections(b);
}

void
rgb_free(struct rgb *b)
{
	size_t i;

	for (i = 0; i < b->nres; i++) {
		free(b->res[i].att);
		free(b->res[i].tr);
	}
	free(b->res);
	served_free(b);
	idmap_free(&b->res_ids);
	digraph_free(&b->sysg);
	request_model_free(&b->model);
	rgraph_free(&b->prev);
	rgraph_free(&b->out);
	sysconf_free(&b->sc);
	catalog_free(&b->cat);
	docsession_drop(b->system_sec);
	docsession_drop(b->catalog_sec);
	docsession_drop(b->undo_requests);
	docsession_drop(b->request_docs);
	docsession_drop(b->doc);
}
