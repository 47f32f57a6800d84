/*
 * karamelfile.h: read the Karamelfiles of the cookbooks.
 *
 *	dependencies:
 *	  - recipe: hops::dn
 *	    local:  [hops::install]
 *	    global: [hops::nn]
 *
 * "local" recipes must run earlier on the same machine (one-to-one),
 * "global" ones earlier on every machine that runs them (all-to-all).
 * A recipe may be declared once across all Karamelfiles.
 */
#ifndef KARAMEL_KARAMELFILE_H
#define KARAMEL_KARAMELFILE_H

#include "world.h"

/*
 * karamelfile_load: read operand, a Karamelfile or a directory holding
 * Karamelfiles ("Karamelfile", "*.Karamelfile", "*" "/Karamelfile"),
 * into w.  Returns an exit status; failures are diagnosed.
 */
int karamelfile_load(struct world *w, const char *operand);

#endif
