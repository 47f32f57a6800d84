/*
 * diag.h: the one place upkit tools print diagnostics.
 *
 * Every message goes to stderr on a single line, prefixed with the
 * program name and, when known, the input and the place in it:
 *
 *	prog: file:line:col: message		syntax errors (diag_at)
 *	prog: file: .path.in.document: message	semantic errors (diag_path)
 *	prog: file: message			whole-file errors (diag_error)
 *	prog: file: .path: warning: message	warnings (diag_warn)
 *	prog: message				progress a tool was asked
 *						for (diag_note)
 *
 * A part longer than a few hundred bytes is cut in the middle, but in
 * the whole notes (diag_note_whole, diag_fatal_whole), which are a
 * tool's result (upgrade-loop: the change sets an upgrade left, however
 * many).  A program that drives others also has a live line, redrawn
 * on a terminal (diag_live), and passes on the lines they write
 * (diag_relay).
 *
 * Control characters coming from input are escaped (\n, \t, \xHH), so
 * one diagnostic is always one line.  Tools never call fprintf(stderr)
 * themselves.
 */
#ifndef UPKIT_DIAG_H
#define UPKIT_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define DIAG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DIAG_PRINTF(f, a)
#endif

/* diag_init: remember the program name (the basename of argv0). */
void diag_init(const char *argv0);
const char *diag_progname(void);

/* The file argument may be NULL when no input is involved. */
void diag_error(const char *file, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_at(const char *file, long line, long col, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
void diag_path(const char *file, const char *path, const char *fmt, ...)
    DIAG_PRINTF(3, 4);
void diag_warn(const char *file, const char *path, const char *fmt, ...)
    DIAG_PRINTF(3, 4);
void diag_vpath(const char *file, const char *path, const char *fmt,
    va_list ap);

/* diag_note: a line of progress, "prog: message", asked for (-v). */
void diag_note(const char *fmt, ...) DIAG_PRINTF(1, 2);

/* diag_fatal: print "prog: message" and exit with status. */
_Noreturn void diag_fatal(int status, const char *fmt, ...) DIAG_PRINTF(2, 3);

/*
 * diag_note_whole: "prog: message", never cut, after what the tool
 * wrote on stdout so far (flushed first, for when both go to one file).
 */
void diag_note_whole(const char *fmt, ...) DIAG_PRINTF(1, 2);
void diag_vnote_whole(const char *fmt, va_list ap);
_Noreturn void diag_fatal_whole(int status, const char *fmt, ...)
    DIAG_PRINTF(2, 3);

/*
 * diag_live: "prog: message" over the terminal's current line (a
 * carriage return and an erase first), with no newline: drawn again
 * later, or erased by diag_live_clear.
 */
void diag_live(const char *fmt, ...) DIAG_PRINTF(1, 2);
void diag_live_clear(void);

/*
 * diag_relay: n bytes of lines another program wrote, passed on as
 * they are but with control characters escaped, each ended with a
 * newline (the last one too).
 */
void diag_relay(const char *text, size_t n);

#endif
