/*
 * jwalk.h: the parts of JSON text that jscan_value accepted, found
 * without building it: the elements of an array, the members of an
 * object, one at a time, each as the slice of text that holds it.
 */
#ifndef UPKIT_JWALK_H
#define UPKIT_JWALK_H

#include <stddef.h>

struct jwalk {
	const char *p, *end;
};

/* jwalk_begin: walk the array or object text[0 .. len). */
void jwalk_begin(struct jwalk *w, const char *text, size_t len);
/*
 * jwalk_next: the next element's text, or the next member's key (its
 * bytes between the quotes: jscan allows no escapes in keys) and its
 * value's text; 0 at the end.  The caller tells which: key and keylen
 * are NULL to walk an array, and not NULL to walk an object (an
 * array's string element would otherwise be read as a key).
 */
int jwalk_next(struct jwalk *w, const char **key, size_t *keylen,
    const char **value, size_t *len);
/* jwalk_length: the length of the value at text, which ends by end. */
size_t jwalk_length(const char *text, const char *end);
/* jwalk_member: the text of member key of the object text; 0: none,
 * or text is not an object. */
int jwalk_member(const char *text, size_t len, const char *key,
    const char **value, size_t *vlen);

#endif
