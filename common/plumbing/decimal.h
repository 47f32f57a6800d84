/*
 * decimal.h: a JSON number's text as a double, as strtod reads it.
 *
 * strtod is exact for every input and pays for it on every input: about
 * a thousand instructions for a price like 0.0196889226951.  Most
 * numbers in upkit's inputs have at most 15 significant digits and a
 * small exponent, and for those one correctly rounded multiplication or
 * division of two exactly represented doubles gives the same double
 * (Clinger's fast path, "How to read floating point numbers
 * accurately", PLDI 1990).  Everything else goes to strtod.
 */
#ifndef UPKIT_DECIMAL_H
#define UPKIT_DECIMAL_H

/*
 * decimal_to_double: the number text, NUL-terminated and in JSON's
 * grammar, as strtod(text, NULL) would read it; errno as strtod sets it
 * when it falls back to it, else unchanged.
 */
double decimal_to_double(const char *text);

#endif
