/*
 * progress.h: how far an upgrade is, as upgrade-loop(1) asks it of each
 * iteration's documents: upkit-sim --progress prints it of a file, and
 * rg-build and vm-migrate-plan --progress-file of the document they
 * write.
 */
#ifndef UPKIT_PROGRESS_H
#define UPKIT_PROGRESS_H

#include <jansson.h>

/*
 * state_progress: "done" when every change set completed or failed with
 * no undo pending and no resource is left deactivated, but those failed
 * or isolated and what they contain (seed 000 III.A: no automatic
 * action is taken on them); else "suspended"
 * when the document's batch is its graph's iteration's and no schedule
 * of the iteration holds an action; else "running" (upkit-sim(1)).
 */
const char *state_progress(const json_t *doc);
/*
 * state_progress_of: state_progress for a tool that holds the resource
 * graph in its own structures (rg-build --progress-file): its iteration
 * (a JSON integer) and whether any of its resources is deactivated and
 * waited for (neither failed nor isolated, nor contained in one) are
 * given, the rest is read from doc.
 */
const char *state_progress_of(const json_t *doc, const json_t *rg_iteration,
    int deactivated);

#endif
