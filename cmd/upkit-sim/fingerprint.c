/*
 * fingerprint.c: upkit-sim --fingerprint, a digest of what an iteration
 * plans on which system, for upgrade-loop(1) to tell an iteration that
 * would only repeat the one before (III.B: nothing changed, nothing
 * failed in between, so nothing would change).  It covers the system,
 * the failed attempts of the resource graph's vertices and the stages
 * of the schedule and of the planned sub-iterations, with the iteration
 * taken out of the ids: "i3/..." reads "i/...", "i3.s2/..." "i.s2/...".
 * The loop used to compute it with jq, which at 1,000 hosts took half
 * of the loop's own time per iteration.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "sim.h"

/* Two 64-bit hashes of different kinds, so that 128 bits differ. */
struct digest {
	uint64_t fnv, mix;
};

static void
feed(struct digest *d, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		d->fnv = (d->fnv ^ (unsigned char)s[i]) * 1099511628211ULL;
		d->mix = (d->mix << 5) + d->mix + (unsigned char)s[i] +
		    (d->mix >> 59);
	}
}

/* iteration_prefix: the length of "i<digits>" that starts an id. */
static size_t
iteration_prefix(const char *s, size_t n)
{
	size_t i = 1;

	if (n < 3 || s[0] != 'i' || s[1] < '0' || s[1] > '9')
		return 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i + 1 < n && s[i] == '.' && s[i + 1] == 's') {
		size_t j = i + 2;

		while (j < n && s[j] >= '0' && s[j] <= '9')
			j++;
		if (j > i + 2 && j < n && s[j] == '/')
			return i;
	}
	return i < n && s[i] == '/' ? i : 0;
}

/* feed_text: a string or key, quoted, its iteration number left out. */
static void
feed_text(struct digest *d, const char *s, size_t n)
{
	size_t cut = iteration_prefix(s, n);

	feed(d, "\"", 1);
	if (cut > 0) {
		feed(d, "i", 1);
		s += cut;
		n -= cut;
	}
	feed(d, s, n);
	feed(d, "\"", 1);
}

static void
feed_value(struct digest *d, const json_t *v)
{
	char num[40];
	const char *key;
	json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		feed(d, "{", 1);
		json_object_foreach((json_t *)v, key, x) {
			feed_text(d, key, strlen(key));
			feed_value(d, x);
		}
		feed(d, "}", 1);
		break;
	case JSON_ARRAY:
		feed(d, "[", 1);
		json_array_foreach(v, i, x)
			feed_value(d, x);
		feed(d, "]", 1);
		break;
	case JSON_STRING:
		feed_text(d, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		feed(d, num, strlen(num));
		break;
	case JSON_REAL:
		snprintf(num, sizeof num, "%.17g", json_real_value(v));
		feed(d, num, strlen(num));
		break;
	default:
		feed(d, json_is_true(v) ? "t" : json_is_false(v) ? "f" : "n",
		    1);
		break;
	}
}

/* feed_each: member key of every element of array, null when absent. */
static void
feed_each(struct digest *d, const json_t *array, const char *key)
{
	json_t *x;
	size_t i;

	feed(d, "[", 1);
	json_array_foreach(array, i, x)
		feed_value(d, json_object_get(x, key) != NULL ?
		    json_object_get(x, key) : json_null());
	feed(d, "]", 1);
}

int
fingerprint_run(const struct options *o, json_t *doc)
{
	struct digest d = { 14695981039346656037ULL, 5381 };
	const json_t *mig = json_object_get(doc, "migrations"), *sub;
	FILE *fp;
	size_t i;

	(void)o;
	feed_value(&d, json_object_get(doc, "system") != NULL ?
	    json_object_get(doc, "system") : json_null());
	feed_each(&d, json_object_get(json_object_get(doc, "resource_graph"),
	    "vertices"), "failed_attempts");
	feed_value(&d, json_object_get(json_object_get(doc, "schedule"),
	    "stages") != NULL ? json_object_get(json_object_get(doc,
	    "schedule"), "stages") : json_null());
	feed(&d, "[", 1);
	json_array_foreach(json_object_get(mig, "sub_iterations"), i, sub)
		feed_value(&d, json_object_get(json_object_get(sub, "schedule"),
		    "stages") != NULL ? json_object_get(json_object_get(sub,
		    "schedule"), "stages") : json_null());
	feed(&d, "]", 1);
	fp = output_text_begin();
	fprintf(fp, "%016llx%016llx\n", (unsigned long long)d.fnv,
	    (unsigned long long)d.mix);
	return output_text_commit(fp);
}
