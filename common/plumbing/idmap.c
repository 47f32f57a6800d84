/* idmap.c: an open-addressing hash from string ids to indices. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "exitcodes.h"
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
	strpool_free(&m->copies);
	free(m->keys);
	free(m->hashes);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* probe: the slot holding id (hash h), or the empty one for it. */
static size_t
probe(const struct idmap *m, const char *id, uint64_t h)
{
	size_t mask = m->nslots - 1, i = (size_t)h & mask;
	uint32_t tag = (uint32_t)(h >> 32);
	const struct idmap_slot *s;

	for (s = &m->slots[i]; s->index1 != 0; s = &m->slots[i]) {
		if (s->tag == tag && strcmp(m->keys[s->index1 - 1], id) == 0)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

/*
 * resize: n slots (a power of two, more than twice the ids), filled
 * again from the hashes kept: the ids differ, so each goes to the first
 * free slot of its probe, and no string is read.
 */
static void
resize(struct idmap *m, size_t n)
{
	size_t i, k, mask = n - 1;
	uint64_t h;

	free(m->slots);
	m->slots = xcalloc(n, sizeof *m->slots);
	m->nslots = n;
	for (i = 0; i < m->count; i++) {
		h = m->hashes[i];
		for (k = (size_t)h & mask; m->slots[k].index1 != 0;
		    k = (k + 1) & mask)
			continue;
		m->slots[k] = (struct idmap_slot){ (uint32_t)(i + 1),
		    (uint32_t)(h >> 32) };
	}
}

static void
reserve_keys(struct idmap *m, size_t n)
{
	if (n <= m->keys_cap)
		return;
	m->keys_cap = n;
	m->keys = xreallocarray(m->keys, m->keys_cap, sizeof *m->keys);
	m->hashes = xreallocarray(m->hashes, m->keys_cap, sizeof *m->hashes);
}

void
idmap_borrow_keys(struct idmap *m)
{
	m->borrows = 1;
}

void
idmap_reserve(struct idmap *m, size_t n)
{
	size_t slots = m->nslots ? m->nslots : 64;

	while (2 * n >= slots)
		slots *= 2;
	if (slots > m->nslots)
		resize(m, slots);
	reserve_keys(m, n);
}

long
idmap_find(const struct idmap *m, const char *id)
{
	uint32_t index1;

	if (m->nslots == 0)
		return -1;
	index1 = m->slots[probe(m, id, idmap_hash(id))].index1;
	return index1 ? (long)index1 - 1 : -1;
}

long
idmap_add(struct idmap *m, const char *id)
{
	uint64_t h = idmap_hash(id);
	size_t i;

	/* Keep the load factor under one half. */
	if (2 * (m->count + 1) > m->nslots)
		resize(m, m->nslots ? 2 * m->nslots : 64);
	i = probe(m, id, h);
	if (m->slots[i].index1 != 0)
		return -(long)m->slots[i].index1;
	if (m->count == UINT32_MAX - 1)
		diag_fatal(EXIT_SOFTWARE, "more than %u ids", UINT32_MAX - 1);
	if (m->count == m->keys_cap)
		reserve_keys(m, m->keys_cap ? 2 * m->keys_cap : 64);
	m->keys[m->count] = m->borrows ? id : strpool_copy(&m->copies, id);
	m->hashes[m->count] = h;
	m->slots[i] = (struct idmap_slot){ (uint32_t)++m->count,
	    (uint32_t)(h >> 32) };
	return (long)m->count - 1;
}

/*
 * Emptying the slot of the latest id breaks no probe: every id added
 * before it found its own slot while that one was still empty (growing
 * adds them again in the same order), and the later ones are gone.
 * Their copies stay in the pool until idmap_free.
 */
void
idmap_truncate(struct idmap *m, size_t n)
{
	size_t mask = m->nslots - 1, k;

	while (m->count > n) {
		m->count--;
		for (k = (size_t)m->hashes[m->count] & mask;
		    m->slots[k].index1 != m->count + 1; k = (k + 1) & mask)
			continue;
		m->slots[k].index1 = 0;
	}
}

const char *
idmap_key(const struct idmap *m, size_t i)
{
	return i < m->count ? m->keys[i] : NULL;
}
