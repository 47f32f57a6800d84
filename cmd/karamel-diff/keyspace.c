/* keyspace.c: numbering the keys of both definitions (see keyspace.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyspace.h"
#include "xalloc.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* compare_number: two runs of digits by value; advances *a and *b. */
static int
compare_number(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	size_t xl, yl;
	int c;

	while (*x == '0' && is_digit(x[1]))
		x++;
	while (*y == '0' && is_digit(y[1]))
		y++;
	for (xl = 0; is_digit(x[xl]); xl++)
		;
	for (yl = 0; is_digit(y[yl]); yl++)
		;
	if (xl != yl)
		return xl < yl ? -1 : 1;
	c = strncmp(x, y, xl);
	*a = x + xl;
	*b = y + yl;
	return c;
}

int
natural_compare(const char *a, const char *b)
{
	const char *x = a, *y = b;
	int c;

	while (*x != '\0' && *y != '\0') {
		if (is_digit(*x) && is_digit(*y)) {
			if ((c = compare_number(&x, &y)) != 0)
				return c;
		} else if (*x != *y) {
			return (unsigned char)*x - (unsigned char)*y;
		} else {
			x++;
			y++;
		}
	}
	if (*x != *y)
		return (unsigned char)*x - (unsigned char)*y;
	return strcmp(a, b);	/* "a01" and "a1": still a total order */
}

static int
before(const struct idmap *ids, size_t x, size_t y)
{
	return natural_compare(idmap_key(ids, x), idmap_key(ids, y)) < 0;
}

/* merge: the sorted runs [a, mid) and [mid, end) of from into to. */
static void
merge(const struct idmap *ids, const size_t *from, size_t *to, size_t a,
    size_t mid, size_t end)
{
	size_t i = a, j = mid, k = a;

	while (i < mid && j < end)
		to[k++] = before(ids, from[j], from[i]) ? from[j++] : from[i++];
	while (i < mid)
		to[k++] = from[i++];
	while (j < end)
		to[k++] = from[j++];
}

/*
 * sort_machines: a merge sort of the ascending runs already there.
 * Machines are numbered group by group, index by index, so the ids
 * come in a few sorted runs and sorting costs little more than a pass.
 */
static void
sort_machines(const struct idmap *ids, size_t *v, size_t n)
{
	size_t *tmp = xcalloc(n, sizeof *tmp), *runs, nruns = 0, i;
	size_t *from = v, *to = tmp, *t;

	runs = xcalloc(n + 2, sizeof *runs);
	for (i = 0; i < n; i++)
		if (i == 0 || before(ids, v[i], v[i - 1]))
			runs[nruns++] = i;
	runs[nruns] = n;
	while (nruns > 1) {
		for (i = 0; i < nruns; i += 2)
			merge(ids, from, to, runs[i], runs[i + 1],
			    runs[i + 2 <= nruns ? i + 2 : nruns]);
		for (i = 0; 2 * i < nruns; i++)
			runs[i] = runs[2 * i];
		nruns = (nruns + 1) / 2;
		runs[nruns] = n;
		t = from, from = to, to = t;
	}
	if (from != v)
		memcpy(v, from, n * sizeof *v);
	free(runs);
	free(tmp);
}

static const struct group *
group_of(const struct cluster *c, size_t machine)
{
	long g = cluster_group_of(c, machine);

	return g >= 0 ? &c->groups[g] : NULL;
}

static size_t
total_keys(const struct cluster *c)
{
	size_t i, n = 0;

	for (i = 0; i < c->ngroups; i++)
		n += c->groups[i].nrecipes * c->groups[i].nmachines;
	return n;
}

static void
add_key(struct keyspace *ks, size_t machine, size_t recipe, int in)
{
	ks->machine[ks->nkeys] = machine;
	ks->recipe[ks->nkeys] = recipe;
	ks->in[ks->nkeys++] = (unsigned char)in;
}

/* add_machine: merge the machine's old and new recipe lists (by rank). */
static void
add_machine(struct keyspace *ks, const struct names *n, size_t machine,
    const struct group *old, const struct group *new)
{
	size_t i = 0, j = 0, no = old ? old->nrecipes : 0;
	size_t nn = new ? new->nrecipes : 0, ro, rn;

	ks->first[machine] = ks->nkeys;
	while (i < no || j < nn) {
		ro = i < no ? n->rank[old->recipes[i]] : (size_t)-1;
		rn = j < nn ? n->rank[new->recipes[j]] : (size_t)-1;
		if (ro == rn) {
			add_key(ks, machine, old->recipes[i], IN_OLD | IN_NEW);
			i++;
			j++;
		} else if (ro < rn) {
			add_key(ks, machine, old->recipes[i++], IN_OLD);
		} else {
			add_key(ks, machine, new->recipes[j++], IN_NEW);
		}
	}
	ks->count[machine] = ks->nkeys - ks->first[machine];
}

void
keyspace_build(struct keyspace *ks, const struct world *w,
    const struct cluster *old, const struct cluster *new)
{
	size_t n = w->machines.count, cap = total_keys(old) + total_keys(new);
	size_t i, m;

	memset(ks, 0, sizeof *ks);
	ks->nmachines = n;
	ks->machines = xcalloc(n, sizeof *ks->machines);
	for (i = 0; i < n; i++)
		ks->machines[i] = i;
	sort_machines(&w->machines, ks->machines, n);
	ks->first = xcalloc(n, sizeof *ks->first);
	ks->count = xcalloc(n, sizeof *ks->count);
	ks->machine = xcalloc(cap, sizeof *ks->machine);
	ks->recipe = xcalloc(cap, sizeof *ks->recipe);
	ks->in = xcalloc(cap, sizeof *ks->in);
	for (i = 0; i < n; i++) {
		m = ks->machines[i];
		add_machine(ks, &w->names, m, group_of(old, m), group_of(new, m));
	}
}

void
keyspace_free(struct keyspace *ks)
{
	free(ks->machines);
	free(ks->first);
	free(ks->count);
	free(ks->machine);
	free(ks->recipe);
	free(ks->in);
	memset(ks, 0, sizeof *ks);
}

long
keyspace_find(const struct keyspace *ks, size_t machine, size_t recipe)
{
	size_t k, end = ks->first[machine] + ks->count[machine];

	/* A machine runs a handful of recipes: a scan beats a search. */
	for (k = ks->first[machine]; k < end; k++)
		if (ks->recipe[k] == recipe)
			return (long)k;
	return -1;
}

const char *
keyspace_name(const struct keyspace *ks, const struct world *w, size_t key,
    char **buf, size_t *size)
{
	const char *recipe = names_recipe_name(&w->names, ks->recipe[key]);
	const char *machine = idmap_key(&w->machines, ks->machine[key]);
	size_t rl = strlen(recipe), ml = strlen(machine);

	/* Called for every key: memcpy, not snprintf, makes it cheap. */
	xreserve(buf, size, rl + ml + 2);
	memcpy(*buf, recipe, rl);
	(*buf)[rl] = '@';
	memcpy(*buf + rl + 1, machine, ml + 1);
	return *buf;
}
