/*
 * progress.h: how far an upgrade is, as upgrade-loop(1) asks it of each
 * iteration's documents: upkit-sim --progress prints it of a file, and
 * vm-migrate-plan --progress-file of the plan it writes.
 */
#ifndef UPKIT_PROGRESS_H
#define UPKIT_PROGRESS_H

#include <jansson.h>

/*
 * state_progress: "done" when every change set completed or failed with
 * no undo pending and no resource is left deactivated; else "suspended"
 * when the document's batch is its graph's iteration's and no schedule
 * of the iteration holds an action; else "running" (upkit-sim(1)).
 */
const char *state_progress(const json_t *doc);

#endif
