/*
 * fingerprint.c: upkit-sim --fingerprint, the digest of
 * common/iaas/fingerprint.h, printed.
 */
#include <stdio.h>

#include "fingerprint.h"
#include "output.h"
#include "sim.h"

int
fingerprint_run(const struct options *o, json_t *doc)
{
	char digest[STATE_FINGERPRINT_SIZE];
	FILE *fp;

	(void)o;
	state_fingerprint(doc, digest);
	fp = output_text_begin();
	fprintf(fp, "%s\n", digest);
	return output_text_commit(fp);
}
