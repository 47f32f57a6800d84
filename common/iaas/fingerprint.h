/*
 * fingerprint.h: the digest upgrade-loop(1) compares to find an
 * iteration that repeats the one before: upkit-sim --fingerprint prints
 * it of a file, and vm-migrate-plan --progress-file of the plan it
 * writes.
 */
#ifndef UPKIT_FINGERPRINT_H
#define UPKIT_FINGERPRINT_H

#include <jansson.h>

/* 32 hexadecimal digits and the NUL. */
#define STATE_FINGERPRINT_SIZE 33

/*
 * state_fingerprint: the digest of doc's system, the failed attempts of
 * its graph's vertices and the stages of its schedule and planned
 * sub-iterations, the iteration numbers taken out of the ids.
 */
void state_fingerprint(const json_t *doc, char out[STATE_FINGERPRINT_SIZE]);

#endif
