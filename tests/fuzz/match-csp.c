/*
 * match-csp.c: libFuzzer target for match-csp's constraint language.
 * The input is one requirement string; it is lexed, parsed and, when it
 * parses, compiled against a small fixed model (tests/match-csp/
 * tiny.yaml, inlined below) for three nodes.  Any input must either
 * compile or be refused with a located diagnostic: no crash, no leak,
 * no hang, no sanitizer report.  Built with the tool's own .c files
 * except match-csp.c (its main); run with "make fuzz".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "problem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char model_text[] =
    "{\"clouds\": [{\"id\": \"aws\", \"type\": \"PUBLIC\"},"
    " {\"id\": \"priv\", \"type\": \"PRIVATE\"}],"
    "\"locations\": ["
    " {\"id\": \"aws-eu\", \"locationScope\": \"REGION\", \"geoLocation\":"
    "  {\"country\": \"DE\", \"city\": \"Frankfurt\"}, \"cloud\": \"aws\"},"
    " {\"id\": \"aws-eu-a\", \"locationScope\": \"ZONE\","
    "  \"parent\": \"aws-eu\"},"
    " {\"id\": \"aws-us\", \"locationScope\": \"REGION\", \"geoLocation\":"
    "  {\"country\": \"US\"}, \"cloud\": \"aws\"},"
    " {\"id\": \"priv-no\", \"geoLocation\": {\"country\": \"NO\","
    "  \"latitude\": 59.9, \"longitude\": 10.7}, \"cloud\": \"priv\"}],"
    "\"hardware\": ["
    " {\"id\": \"aws-small\", \"cores\": 2, \"ram\": 2048, \"cloud\": \"aws\","
    "  \"locations\": [\"aws-eu\", \"aws-us\"]},"
    " {\"id\": \"aws-big\", \"cores\": 8, \"ram\": 8192, \"disk\": 100,"
    "  \"cloud\": \"aws\", \"locations\": [\"aws-eu\", \"aws-us\"]},"
    " {\"id\": \"priv-vm\", \"cores\": 4, \"ram\": 4096, \"cloud\": \"priv\"}],"
    "\"images\": ["
    " {\"id\": \"aws-ubuntu\", \"operatingSystem\": {\"family\": \"UBUNTU\","
    "  \"version\": \"22.04\", \"architecture\": \"AMD64\"}, \"cloud\": \"aws\"},"
    " {\"id\": \"priv-debian\", \"operatingSystem\": {\"family\": \"DEBIAN\","
    "  \"version\": \"12\", \"architecture\": \"AMD64\"}, \"cloud\": \"priv\"}],"
    "\"prices\": ["
    " {\"hardware\": \"aws-small\", \"image\": \"aws-ubuntu\","
    "  \"location\": \"aws-eu-a\", \"price\": 0.10},"
    " {\"hardware\": \"aws-small\", \"image\": \"aws-ubuntu\","
    "  \"location\": \"aws-us\", \"price\": 0.09},"
    " {\"hardware\": \"aws-big\", \"image\": \"aws-ubuntu\","
    "  \"location\": \"aws-eu-a\", \"price\": 0.40},"
    " {\"id\": \"priv-4c\", \"hardware\": \"priv-vm\", \"image\":"
    "  \"priv-debian\", \"location\": \"priv-no\", \"price\": 0.05}]}";

/* Loaded once; the model keeps pointers into the document. */
static json_t *model_doc;
static struct mc_model model;

/* load_model: a model that fails to load is a bug of this file. */
static void
load_model(void)
{
	struct access a;

	if (model_doc != NULL)
		return;
	access_init(&a, "model");
	if (load_buffer("model", model_text, sizeof model_text - 1,
	    &model_doc) != 0 || model_load(&a, model_doc, &model) < 0)
		abort();
	access_free(&a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src src = { "fuzz", ".requirements[0]", NULL };
	struct mc_problem prob;
	struct arena *ar;
	struct expr *e;
	char *text;

	/* A requirement is a C string: a NUL would end it. */
	if (memchr(data, '\0', size) != NULL)
		return -1;
	load_model();
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	src.text = text;
	ar = arena_new();
	/* Diagnostics on stderr are expected; -close_fd_mask=2 hides them. */
	if ((e = parse_requirement(ar, &src)) != NULL) {
		memset(&prob, 0, sizeof prob);
		(void)problem_compile(&prob, &model, &e, &src, 1, 3);
		problem_free(&prob);
	}
	arena_free(ar);
	free(text);
	return 0;
}
