/*
 * access.h: typed, located access to a loaded document.
 *
 * A struct access walks a document while keeping the jq-style path of
 * where it is (".tenants[3].max").  Every getter checks the type it
 * promises and, when the value is wrong or missing, prints
 *
 *	prog: file: .tenants[3].max: expected integer, got "ten"
 *
 * and returns -1; the caller returns EXIT_DATAERR.  Getters return 0
 * when the value was read and 1 when an optional field is absent (the
 * output is then left untouched, so callers preset defaults).
 *
 *	struct access a;
 *	access_init(&a, "state.json");
 *	if (acc_get_int(&a, tenant, "max", ACC_REQUIRED, &max) < 0)
 *		return EXIT_DATAERR;
 */
#ifndef UPKIT_ACCESS_H
#define UPKIT_ACCESS_H

#include <stddef.h>
#include <jansson.h>

#include "diag.h"

enum acc_flags {
	ACC_REQUIRED = 0,
	ACC_OPTIONAL = 1,
};

struct access {
	const char *file;	/* name for diagnostics */
	char *path;		/* the current path, "" at the root */
	size_t len, cap;
	size_t *marks;		/* path lengths to return to on leave */
	size_t depth, marks_cap;
};

void access_init(struct access *a, const char *file);
void access_free(struct access *a);

/* Path stack: enter a member or an element, leave it again. */
void access_enter_key(struct access *a, const char *key);
void access_enter_index(struct access *a, size_t index);
void access_leave(struct access *a);
/* access_path: the current path, "." at the root. */
const char *access_path(const struct access *a);

/* access_fail: print a diagnostic at the current path; returns -1. */
int access_fail(struct access *a, const char *fmt, ...) DIAG_PRINTF(2, 3);
/* access_fail_at: the same, at member key of the current path. */
int access_fail_at(struct access *a, const char *key, const char *fmt, ...)
    DIAG_PRINTF(3, 4);
/* access_warn: a warning at the current path. */
void access_warn(struct access *a, const char *fmt, ...) DIAG_PRINTF(2, 3);

/* describe_value: a short quoted form of v for messages. */
const char *describe_value(const json_t *v, char *buf, size_t size);

/* Type checks of the value at the current path. */
int acc_as_object(struct access *a, const json_t *v);
int acc_as_array(struct access *a, const json_t *v);
int acc_as_string(struct access *a, const json_t *v, const char **out);
int acc_as_int(struct access *a, const json_t *v, json_int_t *out);
int acc_as_number(struct access *a, const json_t *v, double *out);

/* Getters for member key of object obj (the current path). */
int acc_get(struct access *a, const json_t *obj, const char *key, int flags,
    json_t **out);
int acc_get_object(struct access *a, const json_t *obj, const char *key,
    int flags, json_t **out);
int acc_get_array(struct access *a, const json_t *obj, const char *key,
    int flags, json_t **out);
int acc_get_string(struct access *a, const json_t *obj, const char *key,
    int flags, const char **out);
int acc_get_int(struct access *a, const json_t *obj, const char *key,
    int flags, json_int_t *out);
/* acc_get_int_range: an integer in [min, max]. */
int acc_get_int_range(struct access *a, const json_t *obj, const char *key,
    int flags, json_int_t min, json_int_t max, json_int_t *out);
int acc_get_number(struct access *a, const json_t *obj, const char *key,
    int flags, double *out);
int acc_get_bool(struct access *a, const json_t *obj, const char *key,
    int flags, int *out);
/* acc_get_enum: a string among names (NULL-terminated); *out its index. */
int acc_get_enum(struct access *a, const json_t *obj, const char *key,
    int flags, const char *const *names, int *out);

/*
 * Iteration with the path kept: fn is called for each element of the
 * array (or each member of the object) at member key of obj, with the
 * current path at that element ("key[i]" or "key.name").  Iteration
 * stops at the first fn that returns -1, and so does the caller: the
 * result is -1 then, 1 when an optional member is absent, 0 otherwise.
 */
typedef int (*acc_element_fn)(struct access *a, const json_t *v, size_t i,
    void *ctx);
typedef int (*acc_member_fn)(struct access *a, const char *name,
    const json_t *v, void *ctx);
int acc_each_element(struct access *a, const json_t *obj, const char *key,
    int flags, acc_element_fn fn, void *ctx);
int acc_each_member(struct access *a, const json_t *obj, const char *key,
    int flags, acc_member_fn fn, void *ctx);
/*
 * acc_each_kept_element: acc_each_element for an array that a tool
 * left as text (a stand-in, jtext.h), without building it whole: each
 * element is built alone and handed to fn with its text, then let go
 * of before the next (a document session scope), so fn must keep
 * nothing of it, not even a string, and change no older value.  With
 * ACC_KEEP_ELEMENTS fn may keep references, and the elements stay.
 * With ACC_SHALLOW_ELEMENTS, objects whose own arrays are large, each
 * element stays too but is built one level deep (load_shallow), its
 * arrays and objects kept as text for fn to walk in turn.
 * With ACC_TEXT_FIRST fn sees each element's text first, with v NULL,
 * and returns 1 when it wants the element built (fn is then called
 * again with it): a reader that takes plain elements straight from
 * their text leaves the others, and every diagnostic, to the tree.
 * An array in the tree is walked as acc_each_element does, with text
 * NULL.
 */
enum { ACC_KEEP_ELEMENTS = 2, ACC_SHALLOW_ELEMENTS = 4, ACC_TEXT_FIRST = 8 };
typedef int (*acc_text_element_fn)(struct access *a, const json_t *v,
    size_t i, const char *text, size_t len, void *ctx);
int acc_each_kept_element(struct access *a, const json_t *obj,
    const char *key, int flags, acc_text_element_fn fn, void *ctx);
/*
 * acc_has_array: acc_get_array's check alone, for an array that may be
 * kept as text: 0 when it is there, 1 when optional and absent, -1.
 */
int acc_has_array(struct access *a, const json_t *obj, const char *key,
    int flags);

/*
 * acc_get_name_bits: an optional array of names among names[] (NULL-
 * terminated) into the bit set *bits.  A name not among them fails
 * with unknown, or, when that is NULL, with "unknown value X".
 */
int acc_get_name_bits(struct access *a, const json_t *obj, const char *key,
    const char *const *names, const char *unknown, unsigned *bits);

/* acc_get_string_array: an array of strings only. */
int acc_get_string_array(struct access *a, const json_t *obj,
    const char *key, int flags, json_t **out);

/*
 * acc_get_ref: a string member that names one of ids; *out its index.
 * what names the kind of thing ids holds, for the message ("no vertex
 * has id \"x\"").
 */
struct idmap;
int acc_get_ref(struct access *a, const json_t *obj, const char *key,
    const struct idmap *ids, const char *what, size_t *out);

/* json_strings_have: whether an array of strings holds s. */
int json_strings_have(const json_t *list, const char *s);

/*
 * acc_check_keys: every member of obj must be among known (NULL-
 * terminated), except keys starting with "x-", which are the
 * operator's own.  Catches typos such as "min_sponsor".
 */
int acc_check_keys(struct access *a, const json_t *obj,
    const char *const *known);

#endif
