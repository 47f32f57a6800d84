/*
 * load.c: libFuzzer target for the document loader (JSON and YAML).
 * Any input must either load or be refused with a diagnostic: no crash,
 * no leak, no hang, no sanitizer report.  Run with "make fuzz".
 */
#include <stddef.h>
#include <stdint.h>

#include "load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = NULL;

	/* Diagnostics on stderr are expected; -close_fd_mask=2 hides them. */
	if (load_buffer("fuzz", (const char *)data, size, &doc) == 0)
		json_decref(doc);
	return 0;
}
