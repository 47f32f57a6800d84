/* summary.h: per-section counts of a checked document (--summary). */
#ifndef UPKIT_VALIDATE_SUMMARY_H
#define UPKIT_VALIDATE_SUMMARY_H

#include <jansson.h>

#include "state.h"

/*
 * summarize: for each section, the size of each list or map it holds;
 * for "system" also resources per kind and per role, and VMs.  When
 * only is not SECTION_COUNT, doc is that one section.
 */
json_t *summarize(const json_t *doc, enum section only);

#endif
