/*
 * boot.c: the host's boot ID, which Linux draws anew at every boot
 * (random(4)): the worker compares the one it saw as a reboot began
 * with the one it sees when the command comes back, and so knows
 * whether the host rebooted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "worker.h"
#include "xalloc.h"

char *
boot_id_read(const char *file)
{
	char buf[128];
	FILE *f = fopen(file, "r");
	size_t n;

	if (f == NULL || fgets(buf, sizeof buf, f) == NULL) {
		diag_error(file, "cannot read the boot ID: %s", f == NULL ||
		    ferror(f) ? strerror(errno) : "empty file");
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	fclose(f);
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	if (n == 0) {
		diag_error(file, "cannot read the boot ID: empty line");
		return NULL;
	}
	return xstrdup(buf);
}
