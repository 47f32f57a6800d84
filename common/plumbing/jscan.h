/*
 * jscan.h: check one JSON value in text without building it.
 *
 * A tool that passes a large part of its input through untouched need
 * not parse it into jansson values, only make sure that jansson would
 * have accepted it: jscan_value() says so, and how long the value is.
 * It is deliberately stricter than jansson where the rule would cost a
 * decoder (an escaped object key, a number longer than 64 bytes): such
 * text is "not sure", and the caller parses it with jansson instead,
 * which either accepts it or says precisely what is wrong.
 */
#ifndef UPKIT_JSCAN_H
#define UPKIT_JSCAN_H

#include <stddef.h>

/*
 * jscan_value: the length of the JSON value at the start of text (no
 * leading white space), or 0 when it is not one jansson would accept
 * with JSON_REJECT_DUPLICATES, or not surely.  *canonical is set when
 * the value is written exactly as jwriter writes it compact: no white
 * space, no escapes, no real numbers, no "-0".
 */
size_t jscan_value(const char *text, size_t len, int *canonical);

/*
 * jscan_unescape: the content of a string that jscan_value accepted,
 * p..end without its quotes, decoded into out (end - p bytes at most).
 * Returns the decoded length.
 */
size_t jscan_unescape(const char *p, const char *end, char *out);

#endif
