/* idmap.c: an open-addressing hash from string ids to indices. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "xalloc.h"

uint64_t
idmap_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

void
idmap_init(struct idmap *m)
{
	memset(m, 0, sizeof *m);
}

void
idmap_free(struct idmap *m)
{
	size_t i;

	for (i = 0; i < m->count; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* probe: the slot holding id, or the empty slot where it would go. */
static size_t
probe(const struct idmap *m, const char *id)
{
	size_t mask = m->nslots - 1, i = (size_t)idmap_hash(id) & mask;

	while (m->slots[i] != 0 && strcmp(m->keys[m->slots[i] - 1], id) != 0)
		i = (i + 1) & mask;
	return i;
}

static void
grow(struct idmap *m)
{
	size_t i, n = m->nslots ? 2 * m->nslots : 64;

	free(m->slots);
	m->slots = xcalloc(n, sizeof *m->slots);
	m->nslots = n;
	for (i = 0; i < m->count; i++)
		m->slots[probe(m, m->keys[i])] = i + 1;
}

long
idmap_find(const struct idmap *m, const char *id)
{
	size_t slot;

	if (m->nslots == 0)
		return -1;
	slot = m->slots[probe(m, id)];
	return slot ? (long)slot - 1 : -1;
}

long
idmap_add(struct idmap *m, const char *id)
{
	size_t i;

	/* Keep the load factor under one half. */
	if (2 * (m->count + 1) > m->nslots)
		grow(m);
	i = probe(m, id);
	if (m->slots[i] != 0)
		return -(long)m->slots[i];
	if (m->count == m->keys_cap) {
		m->keys_cap = m->keys_cap ? 2 * m->keys_cap : 64;
		m->keys = xreallocarray(m->keys, m->keys_cap, sizeof *m->keys);
	}
	m->keys[m->count] = xstrdup(id);
	m->slots[i] = ++m->count;
	return (long)m->count - 1;
}

const char *
idmap_key(const struct idmap *m, size_t i)
{
	return i < m->count ? m->keys[i] : NULL;
}
