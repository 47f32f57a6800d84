/*
 * state.c: libFuzzer target for the state-document readers that every
 * planner uses.  The input is one document.  A state document (one
 * with a "format" member) goes through state_check() and then through
 * the loader of each section it holds: sysconf_load(), catalog_load(),
 * request_model_load(), rgraph_load() and, over a resource graph that
 * loaded, cgraph_load().  Any other document is read as an operator's
 * upgrade request (request_read(), as rg-build -r does).  Any input must
 * either load or be refused with a diagnostic: no crash, no leak, no
 * hang, no sanitizer report.  Run with "make fuzz".
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "catalog.h"
#include "cgraph_read.h"
#include "load.h"
#include "request.h"
#include "rgraph.h"
#include "state.h"
#include "sysconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* section: enter section s of doc, if there, and report whether it is. */
static json_t *
section(struct access *a, const json_t *doc, enum section s)
{
	json_t *sec = state_section(doc, s);

	if (sec != NULL)
		access_enter_key(a, section_desc(s)->name);
	return sec;
}

static void
read_state(struct access *a, const json_t *doc)
{
	struct sysconf sc;
	struct catalog cat;
	struct request_model m;
	struct rgraph rg;
	struct cgraph cg;
	json_t *sec;
	int rg_ok = 0;

	if (state_check(a, doc) < 0)
		return;
	if ((sec = section(a, doc, SECTION_SYSTEM)) != NULL) {
		memset(&sc, 0, sizeof sc);
		(void)sysconf_load(a, sec, &sc);
		sysconf_free(&sc);
		access_leave(a);
	}
	if ((sec = section(a, doc, SECTION_CATALOG)) != NULL) {
		memset(&cat, 0, sizeof cat);
		(void)catalog_load(a, sec, &cat);
		catalog_free(&cat);
		access_leave(a);
	}
	if ((sec = section(a, doc, SECTION_REQUESTS)) != NULL) {
		request_model_init(&m);
		(void)request_model_load(a, sec, &m);
		request_model_free(&m);
		access_leave(a);
	}
	rgraph_init(&rg);
	if ((sec = section(a, doc, SECTION_RESOURCE_GRAPH)) != NULL) {
		rg_ok = rgraph_load(a, sec, &rg) == 0;
		access_leave(a);
	}
	if (rg_ok && (sec = section(a, doc, SECTION_CONTROL_GRAPH)) != NULL) {
		memset(&cg, 0, sizeof cg);
		(void)cgraph_load(a, sec, &rg, &cg);
		cgraph_free(&cg);
		access_leave(a);
	}
	rgraph_free(&rg);
}

static void
read_request(struct access *a, const json_t *doc)
{
	struct request_model m;
	json_t *undo = json_array();

	request_model_init(&m);
	(void)request_read(a, doc, 1, &m, undo);
	request_model_free(&m);
	json_decref(undo);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct access a;
	json_t *doc;

	/* Diagnostics on stderr are expected; -close_fd_mask=2 hides them. */
	if (load_buffer("fuzz", (const char *)data, size, &doc) != 0)
		return 0;
	access_init(&a, "fuzz");
	if (json_object_get(doc, "format") != NULL)
		read_state(&a, doc);
	else
		read_request(&a, doc);
	access_free(&a);
	json_decref(doc);
	return 0;
}
