/*
 * access_kept.c: the elements of an array kept as text, read one at a
 * time in the memory of one (access.h, acc_each_kept_element).
 */
#include "access.h"
#include "docsession.h"
#include "jbuild.h"
#include "jtext.h"
#include "jwalk.h"
#include "load.h"

struct tree_walk {
	acc_text_element_fn fn;
	void *ctx;
};

static int
tree_element(struct access *a, const json_t *v, size_t i, void *ctx)
{
	const struct tree_walk *t = ctx;

	return t->fn(a, v, i, NULL, 0, t->ctx);
}

/* white: past white space and, if there is one, a comma after it. */
static const char *
white(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
	    *p == ',')
		p++;
	return p;
}

/*
 * An array kept as text, walked element by element.  Its text is copied
 * out of jtext's entry, which moves when an element keeps text of its
 * own (load_shallow).
 */
struct kept_walk {
	struct jbuild *build;
	const char *end;
	int canonical;		/* the array's text is in compact form */
	int flags;
	acc_text_element_fn fn;
	void *ctx;
};

/*
 * element: build the element at *pp, hand it to fn, let go of it; *pp
 * goes past it.
 */
static int
element(struct access *a, const struct kept_walk *k, const char **pp,
    size_t i)
{
	struct docsession_scope scope;
	const char *text = *pp;
	json_t *v;
	int r;

	if (k->flags & ACC_TEXT_FIRST) {
		size_t len = jwalk_length(text, k->end);

		access_enter_index(a, i);
		r = k->fn(a, NULL, i, text, len, k->ctx);
		access_leave(a);
		if (r != 1) {
			*pp += len;
			return r;
		}
	}
	if (!(k->flags & (ACC_KEEP_ELEMENTS | ACC_SHALLOW_ELEMENTS)))
		docsession_enter(&scope);
	if ((k->flags & ACC_SHALLOW_ELEMENTS) && **pp == '{')
		v = load_shallow(pp, k->end, k->canonical);
	else
		v = jbuild_next(k->build, pp);
	access_enter_index(a, i);
	r = k->fn(a, v, i, text, (size_t)(*pp - text), k->ctx);
	access_leave(a);
	if (k->flags & (ACC_KEEP_ELEMENTS | ACC_SHALLOW_ELEMENTS))
		json_decref(v);
	else
		docsession_leave(&scope, v);
	return r;
}

/* kept_array: the text of obj's member key when it is an array kept. */
static const struct jtext *
kept_array(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	const struct jtext *kept = v != NULL ? jtext_find(v) : NULL;

	return kept != NULL && kept->stand_in && kept->text[0] == '[' ?
	    kept : NULL;
}

int
acc_has_array(struct access *a, const json_t *obj, const char *key,
    int flags)
{
	json_t *list;

	return kept_array(obj, key) != NULL ? 0 :
	    acc_get_array(a, obj, key, flags, &list);
}

int
acc_each_kept_element(struct access *a, const json_t *obj, const char *key,
    int flags, acc_text_element_fn fn, void *ctx)
{
	struct tree_walk t = { fn, ctx };
	const struct jtext *kept = kept_array(obj, key);
	struct kept_walk k;
	const char *p;
	size_t i = 0;
	int r = 0;

	/* in the tree, or not an array: acc_each_element says it all */
	if (kept == NULL)
		return acc_each_element(a, obj, key, flags & ACC_OPTIONAL,
		    tree_element, &t);
	k.build = flags & ACC_KEEP_ELEMENTS ? jbuild_new() : jbuild_unshared();
	k.end = kept->text + kept->len;
	k.canonical = kept->canonical;
	k.flags = flags;
	k.fn = fn;
	k.ctx = ctx;
	p = kept->text;
	access_enter_key(a, key);
	/* jscan checked the text: elements are separated by commas */
	for (p = white(p + 1); r >= 0 && *p != ']'; p = white(p))
		r = element(a, &k, &p, i++);
	access_leave(a);
	jbuild_free(k.build);
	return r < 0 ? -1 : 0;
}
