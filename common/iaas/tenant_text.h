/*
 * tenant_text.h: a tenant of a system section read straight from its
 * text, for sysconf.c, when it is plain (tenant_text.c says what that
 * is); the others are built and read as JSON.
 */
#ifndef UPKIT_TENANT_TEXT_H
#define UPKIT_TENANT_TEXT_H

#include "sysconf.h"

/*
 * tenant_from_text: the tenant whose checked JSON text is text[0 .. len)
 * as sc's tenant i (room for it made), its VMs appended to sc's and its
 * id added to tenant_ids: 0.  1 when it is not plain, with nothing
 * added; the caller then reads the built tenant, which diagnoses.
 */
int tenant_from_text(struct sysconf *sc, struct idmap *tenant_ids, size_t i,
    const char *text, size_t len);

#endif
