/*
 * load.h: read one JSON or YAML document into jansson values.
 *
 * A file operand of "-" (or NULL) means standard input, shown in
 * diagnostics as "<stdin>".  The format is sniffed, not taken from the
 * file name: a document whose first significant character is '{' or
 * '[' is JSON, anything else is YAML.  YAML is read with the YAML 1.2
 * core schema (so "no" and "NO" stay strings) and with limits on
 * nesting and alias expansion; see upkit-state(5), INPUT FORMATS.
 *
 * On failure a located diagnostic has been printed and the return value
 * is the exit status to use (EXIT_NOINPUT, EXIT_IOERR, EXIT_DATAERR).
 */
#ifndef UPKIT_LOAD_H
#define UPKIT_LOAD_H

#include <stddef.h>
#include <jansson.h>

/* Nesting deeper than this is refused (both JSON and YAML). */
#define LOAD_MAX_DEPTH 512
/*
 * An input larger than this is refused (EXIT_DATAERR) before more of
 * it is read, so memory stays bounded: 256 MiB, documented in README.md.
 * The environment variable UPKIT_MAX_INPUT (bytes) sets another limit.
 */
#define LOAD_MAX_BYTES ((size_t)256 << 20)
/*
 * Nodes that YAML aliases may add, beyond the number of nodes written
 * out in the document itself.  A legitimate document reuses a few
 * anchors; an alias bomb multiplies them exponentially.
 */
#define LOAD_ALIAS_ALLOWANCE 10000

/* load_name: the name diagnostics use for a file operand. */
const char *load_name(const char *file);

/* load_document: read and parse file into *out (a new reference). */
int load_document(const char *file, json_t **out);

/*
 * load_document_reading: load_document for a tool that reads only the
 * top-level members named in reads (NULL-terminated; NULL for all of
 * them) and passes the others on.  Those are checked but kept as text, written back by
 * jwriter as read (see jtext.h); they appear in *out as objects whose
 * scalars are there and whose arrays and objects are empty stand-ins.
 * The members read are kept as text too while the tool leaves them in
 * place.  The text is kept by the open document session
 * (docsession.h), which must outlive the output.
 */
int load_document_reading(const char *file, const char *const *reads,
    json_t **out);
/*
 * load_section_reading: a file that holds one section, read as
 * load_document_reading leaves a section the tool does not read: its
 * scalars built, its arrays and objects kept as text behind stand-ins,
 * for the tool to walk (acc_each_kept_element) and write back as read.
 */
int load_section_reading(const char *file, json_t **out);

/*
 * load_shallow: the object at *pp in text that jscan accepted (as kept
 * text is), one level deep, as load_document_reading leaves a section a
 * tool does not read: its scalars built, its arrays and objects kept
 * as text behind stand-ins (jtext.h); *pp goes past it.  canonical:
 * the text it is part of is in jwriter's compact form (jtext.h), and
 * so every part of it is.
 */
json_t *load_shallow(const char **pp, const char *end, int canonical);

/*
 * load_read: read file (NUL-terminated) into *bufp, to be freed by the
 * caller, for callers that look at the text before parsing it.
 */
int load_read(const char *file, char **bufp, size_t *lenp);

/* load_buffer: parse an in-memory document; name is for diagnostics. */
int load_buffer(const char *name, const char *buf, size_t len, json_t **out);

/*
 * load_json_quiet: buf as JSON if load_buffer would accept it as JSON
 * (same nesting limit, duplicate keys refused), else NULL; prints
 * nothing, for callers with a fallback that diagnoses.
 */
json_t *load_json_quiet(const char *buf, size_t len);

/*
 * load_duplicate_keys_win: from now on a duplicate YAML mapping key is a
 * located warning and the last one wins, as Karamel's YAML reader
 * (SnakeYAML) has it, instead of an error.  JSON keeps refusing them.
 */
void load_duplicate_keys_win(void);

/* yaml_to_json: parse YAML (used by load_buffer; see yaml2json.c). */
int yaml_to_json(const char *name, const char *buf, size_t len, json_t **out);

#endif
