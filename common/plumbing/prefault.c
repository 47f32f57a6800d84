/* prefault.c: fault in fresh memory at once (see prefault.h). */
#define _DEFAULT_SOURCE		/* madvise, beyond POSIX */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prefault.h"

/* Blocks below this are mostly pages the heap has already. */
#define WORTH_IT ((size_t)64 << 10)

void
prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	static uintptr_t page;
	uintptr_t start, end;

	if (len < WORTH_IT)
		return;
	if (page == 0)
		page = (uintptr_t)sysconf(_SC_PAGESIZE);
	start = ((uintptr_t)p + page - 1) & ~(page - 1);
	end = ((uintptr_t)p + len) & ~(page - 1);
	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}
