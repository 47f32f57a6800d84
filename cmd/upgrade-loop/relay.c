/*
 * relay.c: while the live line is on a terminal, the actuator's
 * standard error reaches it through the loop, a whole line at a time,
 * each over the live line (cleared first), which is then drawn again
 * below it: a group that ends (upkit-sim -v, actuate-ansible) or a
 * warning never lands in the middle of the live line.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "loop.h"
#include "xalloc.h"

/* A line longer than this is passed on in pieces. */
enum { RELAY_LINE_MAX = 65536 };

void
relay_open(struct relay *r, int fd)
{
	memset(r, 0, sizeof *r);
	r->fd = fd;
	if (fd >= 0)
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* pass_lines: the whole lines read so far (all, when all), over the
 * live line; how many. */
static int
pass_lines(struct relay *r, int all)
{
	char *nl;
	size_t used = 0, n;
	int lines = 0;

	while (used < r->len) {
		nl = memchr(r->buf + used, '\n', r->len - used);
		n = nl != NULL ? (size_t)(nl - (r->buf + used)) + 1 :
		    r->len - used;
		if (nl == NULL && !all && n < RELAY_LINE_MAX)
			break;
		used += n;
		lines++;
	}
	if (lines > 0) {
		diag_live_clear();
		diag_relay(r->buf, used);
	}
	memmove(r->buf, r->buf + used, r->len - used);
	r->len -= used;
	return lines;
}

/* take: what the actuator wrote, without waiting; 0 at its end. */
static int
take(struct relay *r)
{
	ssize_t n;

	for (;;) {
		xreserve(&r->buf, &r->cap, r->len + 4096);
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n > 0) {
			r->len += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

int
relay_wait(struct relay *r, int ms)
{
	struct pollfd p = { r->fd, POLLIN, 0 };

	if (r->fd < 0 || r->done) {
		(void)poll(NULL, 0, ms);
		return 0;
	}
	if (poll(&p, 1, ms) <= 0)
		return 0;
	r->done = !take(r);
	return pass_lines(r, 0);
}

void
relay_close(struct relay *r)
{
	if (r->fd >= 0) {
		if (!r->done)
			(void)take(r);
		(void)pass_lines(r, 1);
		close(r->fd);
	}
	free(r->buf);
	memset(r, 0, sizeof *r);
	r->fd = -1;
}
