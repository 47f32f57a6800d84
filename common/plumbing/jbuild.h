/*
 * jbuild.h: jansson values from JSON text that jscan_value accepted.
 *
 * Once jscan has checked a value, building it needs no more checks:
 * no lexer reading a character at a time, no duplicate lookups (jscan
 * refused duplicates), no UTF-8 decoding of strings without escapes.
 * The few strings and small integers that a state document repeats
 * hundreds of thousands of times ("host", "current/future", a version,
 * a duration) are built once and shared, as jshare does for output;
 * jansson values are reference counted, so the tree is the same to
 * every reader and writer.
 */
#ifndef UPKIT_JBUILD_H
#define UPKIT_JBUILD_H

#include <stddef.h>
#include <jansson.h>

struct jbuild;

/* jbuild_new, jbuild_free: the tables of shared values. */
struct jbuild *jbuild_new(void);
void jbuild_free(struct jbuild *b);
/*
 * jbuild_unshared: a builder that shares nothing, for values made in a
 * document session scope: a shared value made there would go with it.
 */
struct jbuild *jbuild_unshared(void);

/*
 * jbuild_value: the value of text[0 .. len), which jscan_value must
 * have accepted with that length.
 */
json_t *jbuild_value(struct jbuild *b, const char *text, size_t len);
/* jbuild_next: the value at *pp, which jscan accepted; *pp goes past it. */
json_t *jbuild_next(struct jbuild *b, const char **pp);

#endif
