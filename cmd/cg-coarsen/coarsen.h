/* coarsen.h: what the parts of cg-coarsen share. */
#ifndef COARSEN_H
#define COARSEN_H

#include "access.h"
#include "cgraph.h"
#include "rgraph.h"
#include "unionfind.h"

/* contract.c: union the RG vertices that form one group; 0 or -1. */
int contract(struct access *a, const struct rgraph *rg, struct unionfind *uf);

/* groups.c: the control graph of the contracted vertices. */
void build_groups(const struct rgraph *rg, struct unionfind *uf,
    struct cgraph *cg);

#endif
