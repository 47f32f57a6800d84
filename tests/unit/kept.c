/*
 * kept.c: unit tests of reading the system, the resource graph and the
 * control graph kept as text an element at a time (sysconf.h,
 * rgraph.h, cgraph_read.h, acc_each_kept_element, document session scopes,
 * jwalk).  Read from the tree and read from their text, the sections
 * of every document of the repository must come out the same:
 * resources, dependencies, tenants and VMs; vertices, edges, units,
 * the fields of every action and its object (rgraph_action_value);
 * groups and their edges; the schedule's actions, checked and walked
 * (schedule_check_each, as vm-migrate-plan reads it).  A document
 * edited at random must be refused with the same diagnostic.
 * The arena is on, as in the stages, so that a value kept from a
 * scope that was left shows up as a difference (or under ASan, where
 * the arena is off and leaving a scope frees).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "access.h"
#include "cgraph_read.h"
#include "docsession.h"
#include "jtext.h"
#include "jwalk.h"
#include "load.h"
#include "rgraph.h"
#include "sanitized.h"
#include "schedule.h"
#include "slurp.h"
#include "stderr.h"
#include "tap.h"
#include "xalloc.h"

static char path[] = "/tmp/kept.XXXXXX";

struct read {
	int status;		/* of rgraph_load; 2: no graph */
	int sys_status, cg_status, sched_status;	/* 2: none */
	char *walk;		/* the schedule's actions as walked */
	size_t walk_len;
	int from_text;		/* its vertices were kept as text */
	char diag[4096];
	struct sysconf sc;
	struct rgraph g;
	struct cgraph cg;
	json_t *doc;
};

/* note_action: an action as schedule_check_each or _each_action meet it. */
static int
note_action(const json_t *act, size_t stage, size_t group, void *ctx)
{
	FILE *fp = ctx;

	fprintf(fp, "%zu/%zu %s\n", stage, group,
	    json_string_value(json_object_get(act, "id")));
	return 0;
}

/*
 * walk_schedule: check the schedule and walk its actions, from the text
 * in one pass (as vm-migrate-plan does) or from the tree in two.
 */
static int
walk_schedule(struct access *a, const json_t *sched, int kept,
    struct read *r)
{
	FILE *fp = open_memstream(&r->walk, &r->walk_len);
	int st = kept ? schedule_check_each(a, sched, note_action, fp) :
	    schedule_check(a, sched);

	if (!kept && st == 0)
		st = schedule_each_action(sched, note_action, fp);
	fclose(fp);
	return st;
}

/* load: section key of r->doc, when there is one, with the path kept. */
#define LOAD(r, a, key, call)						\
	(json_object_get((r)->doc, key) == NULL ? 2 :			\
	 (access_enter_key(a, key), sec = json_object_get((r)->doc, key), \
	  st = (call), access_leave(a), st))

/*
 * read_sections: the system, the graph and the control graph in path,
 * from their text (kept) or their tree.
 */
static void
read_sections(int kept, struct read *r)
{
	static const char *const reads[] = { "catalog", NULL };
	struct access a;
	json_t *sec;
	int st;

	memset(r, 0, sizeof *r);
	rgraph_init(&r->g);
	r->status = r->sys_status = r->cg_status = r->sched_status = 2;
	capture_begin();
	if ((kept ? load_document_reading(path, reads, &r->doc) :
	    load_document(path, &r->doc)) == 0 && json_is_object(r->doc)) {
		access_init(&a, path);
		r->sys_status = LOAD(r, &a, "system", sysconf_load(&a, sec,
		    &r->sc));
		r->status = LOAD(r, &a, "resource_graph", rgraph_load(&a, sec,
		    &r->g));
		if (r->status == 0)
			r->cg_status = LOAD(r, &a, "control_graph",
			    cgraph_load(&a, sec, &r->g, &r->cg));
		r->sched_status = LOAD(r, &a, "schedule", walk_schedule(&a, sec,
		    kept, r));
		sec = json_object_get(r->doc, "resource_graph");
		r->from_text = json_object_get(sec, "vertices") != NULL &&
		    jtext_find(json_object_get(sec, "vertices")) != NULL;
		access_free(&a);
	}
	snprintf(r->diag, sizeof r->diag, "%s", capture_end());
}

static void
read_free(struct read *r)
{
	cgraph_free(&r->cg);
	rgraph_free(&r->g);
	sysconf_free(&r->sc);
	free(r->walk);
	docsession_drop(r->doc);
}

static int
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* same_json: json_equal, which says two NULLs differ. */
static int
same_json(const json_t *a, const json_t *b)
{
	return (a == NULL && b == NULL) || json_equal(a, b);
}

/* same_action: action k of both graphs, its fields and its object. */
static int
same_action(const struct rgraph *t, const struct rgraph *x, size_t k)
{
	const struct rg_action *p = &t->act[k], *q = &x->act[k];
	json_t *u = rgraph_action_value(t, k), *v = rgraph_action_value(x, k);
	json_t *ua = rgraph_action_member(t, k, "argv");
	json_t *va = rgraph_action_member(x, k, "argv");
	json_t *uu = rgraph_action_member(t, k, "undo");
	json_t *vu = rgraph_action_member(x, k, "undo");
	int r = same_str(p->id, q->id) && same_str(p->op, q->op) &&
	    same_str(p->undo_unit, q->undo_unit) &&
	    same_str(p->product, q->product) &&
	    same_str(p->version, q->version) && p->change == q->change &&
	    p->duration == q->duration &&
	    p->undo_duration == q->undo_duration && json_equal(u, v) &&
	    same_str(p->id, json_string_value(json_object_get(v, "id"))) &&
	    same_json(ua, va) && same_json(uu, vu) &&
	    same_json(ua, json_object_get(v, "argv")) &&
	    same_json(uu, json_object_get(v, "undo"));

	json_decref(u);
	json_decref(v);
	json_decref(ua);
	json_decref(va);
	json_decref(uu);
	json_decref(vu);
	return r;
}

static int
same_vertex(const struct rgraph *t, const struct rgraph *x, size_t i)
{
	const struct rg_vertex *p = &t->v[i], *q = &x->v[i];
	size_t k;

	if (!same_str(p->id, q->id) || p->kind != q->kind || p->mod != q->mod ||
	    p->deactivated != q->deactivated || p->isolated != q->isolated ||
	    p->failed != q->failed || p->nuu != q->nuu ||
	    p->nlevels != q->nlevels || p->natt != q->natt)
		return 0;
	for (k = 0; k < p->nuu; k++)
		if (!same_str(t->undo_units[p->first_uu + k],
		    x->undo_units[q->first_uu + k]))
			return 0;
	for (k = 0; k < p->natt; k++)
		if (!same_str(t->att[p->first_att + k].undo_unit,
		    x->att[q->first_att + k].undo_unit) ||
		    t->att[p->first_att + k].count !=
		    x->att[q->first_att + k].count)
			return 0;
	return 1;
}

static int
same_graph(const struct rgraph *t, const struct rgraph *x)
{
	size_t i;

	if (t->nv != x->nv || t->ne != x->ne || t->nunits != x->nunits ||
	    t->nactions != x->nactions || t->nlevels != x->nlevels ||
	    t->iteration != x->iteration || !same_str(t->time, x->time))
		return 0;
	for (i = 0; i < t->nv; i++)
		if (!same_vertex(t, x, i))
			return 0;
	for (i = 0; i < t->ne; i++)
		if (t->e[i].type != x->e[i].type ||
		    t->e[i].dependent != x->e[i].dependent ||
		    t->e[i].sponsor != x->e[i].sponsor ||
		    t->e[i].presence != x->e[i].presence ||
		    t->e[i].incompatible != x->e[i].incompatible)
			return 0;
	for (i = 0; i < t->nunits; i++)
		if (!same_str(t->units[i].id, x->units[i].id) ||
		    !same_str(t->units[i].old_id, x->units[i].old_id) ||
		    !same_str(t->units[i].new_id, x->units[i].new_id) ||
		    !same_json(t->units[i].partitions, x->units[i].partitions))
			return 0;
	for (i = 0; i < t->nlevels; i++)
		if (memcmp(&t->levels[i], &x->levels[i], sizeof t->levels[i]))
			return 0;
	for (i = 0; i < t->nactions; i++)
		if (!same_action(t, x, i))
			return 0;
	return 1;
}

static int
same_resource(const struct resource *p, const struct resource *q)
{
	return same_str(p->id, q->id) && p->kind == q->kind &&
	    p->roles == q->roles && p->status == q->status &&
	    p->capacity == q->capacity && p->min_sponsors == q->min_sponsors &&
	    same_json(p->products, q->products) &&
	    same_str(p->address, q->address);
}

static int
same_sysconf(const struct sysconf *t, const struct sysconf *x)
{
	size_t i;

	if (t->nresources != x->nresources || t->ndeps != x->ndeps ||
	    t->ntenants != x->ntenants || t->nvms != x->nvms ||
	    t->host_capacity != x->host_capacity)
		return 0;
	for (i = 0; i < t->nresources; i++)
		if (!same_resource(&t->resources[i], &x->resources[i]))
			return 0;
	for (i = 0; i < t->ndeps; i++)
		if (t->deps[i].type != x->deps[i].type ||
		    t->deps[i].dependent != x->deps[i].dependent ||
		    t->deps[i].sponsor != x->deps[i].sponsor)
			return 0;
	for (i = 0; i < t->ntenants; i++)
		if (!same_str(t->tenants[i].id, x->tenants[i].id) ||
		    t->tenants[i].min != x->tenants[i].min ||
		    t->tenants[i].max != x->tenants[i].max ||
		    t->tenants[i].scaling_adjustment !=
		    x->tenants[i].scaling_adjustment ||
		    t->tenants[i].cooldown != x->tenants[i].cooldown ||
		    t->tenants[i].first_vm != x->tenants[i].first_vm ||
		    t->tenants[i].nvms != x->tenants[i].nvms)
			return 0;
	for (i = 0; i < t->nvms; i++)
		if (!same_str(t->vms[i].id, x->vms[i].id) ||
		    t->vms[i].tenant != x->vms[i].tenant ||
		    t->vms[i].host != x->vms[i].host ||
		    !same_str(t->vms[i].group, x->vms[i].group) ||
		    !same_str(t->vms[i].role, x->vms[i].role))
			return 0;
	return 1;
}

static int
same_cgraph(const struct cgraph *t, const struct cgraph *x)
{
	const struct cg_group *p, *q;
	size_t i;

	if (t->ngroups != x->ngroups || t->nedges != x->nedges ||
	    memcmp(t->group_of, x->group_of, (t->rg->nv + 1) *
	    sizeof *t->group_of) != 0)
		return 0;
	for (i = 0; i < t->ngroups; i++) {
		p = &t->groups[i];
		q = &x->groups[i];
		if (!same_str(p->id, q->id) || p->nmembers != q->nmembers ||
		    memcmp(p->members, q->members, p->nmembers *
		    sizeof *p->members) != 0 || p->mod != q->mod ||
		    p->deactivated != q->deactivated ||
		    p->isolated != q->isolated || p->failed != q->failed)
			return 0;
	}
	for (i = 0; i < t->nedges; i++)
		if (t->edges[i].from != x->edges[i].from ||
		    t->edges[i].to != x->edges[i].to ||
		    t->edges[i].type != x->edges[i].type ||
		    t->edges[i].presence != x->edges[i].presence ||
		    t->edges[i].incompatible != x->edges[i].incompatible)
			return 0;
	return 1;
}

/*
 * agree: text read both ways gives the same graph or the same
 * diagnostic; *graphs counts the graphs read.
 */
static int from_text;	/* reads whose vertices were kept as text */
static int systems, cgraphs, schedules;	/* sections read */
static int systems_read_last;	/* the last agree() read a system */

static int
agree(const char *text, size_t len, int *graphs)
{
	FILE *fp = fopen(path, "w");
	struct read t, x;
	int r;

	fwrite(text, 1, len, fp);
	fclose(fp);
	read_sections(0, &t);
	read_sections(1, &x);
	r = t.status == x.status && t.sys_status == x.sys_status &&
	    t.cg_status == x.cg_status && strcmp(t.diag, x.diag) == 0 &&
	    (t.status != 0 || same_graph(&t.g, &x.g)) &&
	    (t.sys_status != 0 || same_sysconf(&t.sc, &x.sc)) &&
	    (t.cg_status != 0 || same_cgraph(&t.cg, &x.cg)) &&
	    t.sched_status == x.sched_status &&
	    (t.sched_status != 0 || same_str(t.walk, x.walk));
	schedules += t.sched_status == 0;
	systems += t.sys_status == 0;
	systems_read_last = t.sys_status == 0;
	cgraphs += t.cg_status == 0;
	*graphs = t.status == 0;
	from_text += x.from_text;
	if (!r)
		printf("#   status %d/%d\n#   %s#   %s\n", t.status, x.status,
		    t.diag, x.diag);
	read_free(&t);
	read_free(&x);
	jtext_table_free(&docsession_needed("test")->texts);
	return r;
}

/* each_json: agree() on every .json file under dir. */
static void
each_json(const char *dir, size_t *graphs, size_t *bad, char **sample,
    size_t *sample_len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char file[1024], *text;
	size_t len, n;
	int g;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
		n = strlen(e->d_name);
		if (n > 5 && strcmp(e->d_name + n - 5, ".json") == 0 &&
		    (text = slurp(file, &len)) != NULL) {
			if (!agree(text, len, &g)) {
				printf("#   in %s\n", file);
				(*bad)++;
			}
			*graphs += g;
			/* the largest small graph is the one to edit */
			if (g && len > *sample_len && len < 20000) {
				free(*sample);
				*sample = xstrdup(text);
				*sample_len = len;
			}
			free(text);
		} else if (strchr(e->d_name, '.') == NULL) {
			each_json(file, graphs, bad, sample, sample_len);
		}
	}
	if (d != NULL)
		closedir(d);
}

/* test_mutations: edits of the sections are refused alike. */
static void
test_mutations(const char *sample, size_t len)
{
	static const char alphabet[] = "{}[],:\"\\ 0-1tfnx";
	const char *rg = strstr(sample, "\"system\"");
	size_t from = rg != NULL ? (size_t)(rg - sample) : 0, k;
	char *text = xmalloc(len + 1);
	uint32_t seed = 2026;
	int i, bad = 0, g, refused = 0, before = from_text;

	for (i = 0; i < 2000; i++) {
		memcpy(text, sample, len + 1);
		for (k = 0; k < 1 + (size_t)(i % 2); k++) {
			seed = seed * 1103515245u + 12345u;
			text[from + (seed >> 8) % (len - from)] =
			    alphabet[(seed >> 20) % (sizeof alphabet - 1)];
		}
		if (!agree(text, len, &g))
			bad++;
		refused += !g;
	}
	is_long(bad, 0, "mutations: 2,000 edited documents agree");
	ok(refused > 200, "mutations: and many of them were refused");
	ok(from_text - before > 300, "mutations: and hundreds were read from "
	    "their text");
	free(text);
}

/* max_rss: the peak resident memory so far, in KiB. */
static long
max_rss(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/*
 * test_scopes: values made before a scope outlive it, and what a scope
 * made, in several chunks and a block of its own, takes no memory after
 * it: fifty scopes of 5 MB each stay far below 250 MB.
 */
static void
test_scopes(void)
{
	json_t *old = json_pack("{s:s, s:[i, i]}", "k", "before", "l", 1, 2);
	char *big = xmalloc(1 << 20);
	struct docsession_scope s;
	long before = max_rss();
	int i, k, intact = 1;
	json_t *v;

	memset(big, 'x', (1 << 20) - 1);
	big[(1 << 20) - 1] = '\0';
	for (i = 0; i < 50; i++) {
		docsession_enter(&s);
		v = json_array();
		for (k = 0; k < 100000; k++)
			json_array_append_new(v, json_integer(k + 1000));
		json_array_append_new(v, json_string(big));
		docsession_leave(&s, v);
		intact &= strcmp(json_string_value(json_object_get(old, "k")),
		    "before") == 0 && json_integer_value(json_array_get(
		    json_object_get(old, "l"), 1)) == 2;
	}
	ok(intact, "scopes: values made before a scope outlive it");
	/* ASan keeps what is freed in quarantine, and the arena is off */
	ok(UPKIT_SANITIZED || max_rss() - before < 100 * 1024, "scopes: and "
	    "what a scope made goes with it");
	free(big);
	docsession_drop(old);
}

/*
 * test_tenants: tenants that tenant_text.c reads from their text and
 * those it leaves to the tree (escapes, long ids, large numbers, and
 * every fault) read alike; a tenant given up half way, after some of
 * its VMs were taken, leaves no id behind.
 */
static void
test_tenants(void)
{
#define SYS(t) "{\"system\": {\"host_capacity\": 8, \"resources\": [{\"id\": \"h1\", \"kind\": " \
	"\"host\", \"roles\": [\"compute\"], \"products\": {}}, {\"id\": " \
	"\"h2\", \"kind\": \"host\", \"roles\": [\"storage\"], \"products\": " \
	"{}}], \"tenants\": [" t "]}}"
#define VM(id, more) "{\"id\": \"" id "\", \"host\": \"h1\"" more "}"
#define T(id, vms) "{\"id\": \"" id "\", \"min\": 0, \"max\": 4, " \
	"\"vms\": [" vms "]}"
	static const struct { const char *doc, *diag; } cases[] = {
		{ SYS(T("t", VM("v1", ", \"group\": \"g\", \"role\": \"active\"")
		    "," VM("v2", ""))), NULL },
		{ SYS(T("t\\u0041", VM("v\\u0031", ""))), NULL },
		{ SYS(T("t", VM("v1", "")) "," T("u", VM("v2", "") ","
		    VM("v3", ", \"role\": \"standby\""))), NULL },
		{ SYS("{\"id\": \"t\", \"min\": 1234567890, \"max\": "
		    "2147483647, \"scaling_adjustment\": 2, \"cooldown\": 30}"),
		    NULL },
		{ SYS(T("t", "")), NULL },
		{ SYS(T("t", "\n\t " VM("v1", "") " ,\n { \"id\" :\"v2\" ,"
		    "\"host\":\"h1\"\r}\n")), NULL },
		{ SYS(T("t", VM("v1", "") ",{\"id\": \"v\\\"2\", \"host\": "
		    "\"h1\"}")), NULL },
		{ SYS(T("t", VM("vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
		    "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
		    "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
		    "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"
		    "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv",
		    ""))), NULL },
		{ SYS(T("t", VM("v1", "")) "," T("u", VM("v2", "") ","
		    VM("v1", ""))), "vms[1].id: duplicate VM id \"v1\"" },
		{ SYS(T("t", VM("v1", "") "," VM("v1", ""))),
		    "vms[1].id: duplicate VM id \"v1\"" },
		{ SYS(T("t", VM("v1", ", \"role\": \"leader\""))),
		    "vms[0].role: unknown value \"leader\"" },
		{ SYS(T("t", "{\"id\": \"v1\", \"host\": \"h2\"}")),
		    "vms[0].host: \"h2\" is not a compute host" },
		{ SYS(T("t", "{\"id\": \"v1\", \"host\": \"h3\"}")),
		    "vms[0].host: no resource has id \"h3\"" },
		{ SYS(T("t", VM("v1", ", \"flavor\": \"a\""))),
		    "vms[0].flavor: unknown field \"flavor\"" },
		{ SYS(T("t", VM("v1", ", \"zone\": \"az1\", \"status\": "
		    "\"SHUTOFF\""))), NULL },
		{ SYS(T("t", VM("v1", ", \"zone\": \"\""))),
		    "vms[0].zone: empty availability zone" },
		{ SYS(T("t", "\"v1\"")), "vms[0]: expected object" },
		{ SYS(T("t", VM("v1", ", \"group\": 7"))),
		    "vms[0].group: expected string" },
		{ SYS("{\"id\": \"t\", \"min\": 3, \"max\": 1}"),
		    "min 3 is greater than max 1" },
		{ SYS("{\"id\": \"t\", \"min\": 0, \"max\": 1, \"vms\": ["
		    VM("v1", "") "," VM("v2", "") "]}"), "more than its max 1" },
		{ SYS("{\"id\": \"t\", \"min\": -1, \"max\": 1}"),
		    "min: -1 is out of range" },
		{ SYS("{\"id\": \"t\", \"min\": 1.0, \"max\": 1}"),
		    "min: expected integer" },
		{ SYS("{\"id\": \"t\", \"min\": 0, \"max\": 1, "
		    "\"scaling_adjustment\": 0}"), "scaling_adjustment: 0 is out" },
		{ SYS("{\"id\": \"t\", \"max\": 1}"),
		    "missing required field \"min\"" },
		{ SYS("{\"id\": \"t\", \"min\": 0, \"max\": 1, \"vms\": null}"),
		    "vms: expected array" },
		{ SYS("{\"id\": \"t\", \"min\": 0, \"max\": 1, \"sla\": 1}"),
		    "sla: unknown field \"sla\"" },
		{ SYS(T("t", "") "," T("t", "")),
		    "tenants[1].id: duplicate tenant id \"t\"" },
	};
	char what[160];
	size_t i;
	int g, r;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		r = agree(cases[i].doc, strlen(cases[i].doc), &g);
		snprintf(what, sizeof what, "tenants: case %zu %s", i,
		    cases[i].diag ? cases[i].diag : "read alike");
		r = r && (cases[i].diag == NULL ? systems_read_last :
		    !systems_read_last && strstr(captured, cases[i].diag) !=
		    NULL);
		ok(r, what);
		if (!r)
			printf("#   got: %s", captured);
	}
#undef SYS
#undef VM
#undef T
}

/*
 * test_refused: documents refused part way through a resource or an
 * action, both ways: what was read so far is freed, and nothing of the
 * document with it (under ASan, a use after free shows).
 */
static void
test_refused(void)
{
	static const char *const docs[] = {
		"{\"system\": {\"resources\": [{\"id\": \"h1\", \"kind\": "
		"\"host\", \"products\": {\"esxi\": \"6.7\"}}, {\"id\": \"h1\", "
		"\"kind\": \"host\", \"products\": {\"esxi\": \"6.7\"}}]}}",
		"{\"system\": {\"resources\": [{\"id\": \"h1\", \"kind\": "
		"\"host\", \"products\": {\"esxi\": 6.7}}]}}",
		"{\"system\": {\"resources\": [{\"id\": \"h1\", \"kind\": "
		"\"host\", \"products\": {}}], \"tenants\": [{\"id\": \"t\", "
		"\"min\": 1, \"max\": 1, \"vms\": [{\"id\": \"v\", \"host\": "
		"\"h9\"}]}]}}",
		"{\"resource_graph\": {\"version\": 1, \"iteration\": 1, "
		"\"upgrade_units\": [{\"id\": \"u\", \"method\": \"rolling\"}], "
		"\"vertices\": [{\"id\": \"h1\", \"kind\": \"host\", "
		"\"modification_type\": \"upgrade\", \"activation_status\": "
		"\"active\", \"actions_to_execute\": [{\"upgrade_unit\": \"u\", "
		"\"actions\": [{\"id\": \"a\", \"undo_unit\": \"r\", \"op\": "
		"\"install\", \"argv\": [\"x\"], \"change\": 0}]}]}]}}",
	};
	static const char *const want[] = {
		".system.resources[1].id: duplicate resource id \"h1\"",
		".system.resources[0].products.esxi: expected a version string",
		".system.tenants[0].vms[0].host: no resource has id \"h9\"",
		".actions[0].change: ",
	};
	size_t i;
	int g;

	for (i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		ok(agree(docs[i], strlen(docs[i]), &g) && !g &&
		    strstr(captured, want[i]) != NULL, want[i]);
	}
}

/* test_jwalk_member: a member of an object's text, and none of any other. */
static void
test_jwalk_member(void)
{
	static const char obj[] = "{\"a\": 1, \"groups\": [2]}";
	static const char str[] = "\"groups\"";
	static const char arr[] = "[\"groups\", 3]";
	const char *v;
	size_t n;

	ok(jwalk_member(obj, strlen(obj), "groups", &v, &n) && n == 3 &&
	    strncmp(v, "[2]", 3) == 0, "jwalk_member: finds a member's text");
	ok(!jwalk_member(str, strlen(str), "groups", &v, &n) &&
	    !jwalk_member(arr, strlen(arr), "groups", &v, &n),
	    "jwalk_member: a string or an array has no member");
}

/*
 * test_shallow_canonical: the parts load_shallow keeps are in compact
 * form when the text they are part of is, so jwriter copies them as
 * they are; of other text they are written anew.
 */
static void
test_shallow_canonical(void)
{
	static const char text[] = "{\"id\":\"s1\",\"groups\":[{\"a\":[1]}]}";
	const char *p;
	json_t *v;
	const struct jtext *t;
	int canonical;

	for (canonical = 0; canonical <= 1; canonical++) {
		p = text;
		v = load_shallow(&p, text + strlen(text), canonical);
		t = jtext_find(json_object_get(v, "groups"));
		ok(t != NULL && t->stand_in && t->canonical == canonical &&
		    t->len == strlen("[{\"a\":[1]}]") && *p == '\0',
		    canonical ? "load_shallow: parts of compact text are "
		    "compact" : "load_shallow: parts of other text are "
		    "written anew");
		json_decref(v);
	}
}

int
main(void)
{
	size_t graphs = 0, bad = 0, sample_len = 0;
	char *sample = NULL;
	int fd = mkstemp(path);
	struct docsession session;

	if (fd < 0)
		return 1;
	close(fd);
	docsession_open(&session, DOCSESSION_ARENA);
	test_scopes();
	test_jwalk_member();
	test_shallow_canonical();
	test_refused();
	test_tenants();
	each_json("tests", &graphs, &bad, &sample, &sample_len);
	each_json("examples", &graphs, &bad, &sample, &sample_len);
	is_long((long)bad, 0, "repository: every system, resource graph, "
	    "control graph and schedule reads the same from its text");
	ok(graphs > 50, "repository: and there are many of them");
	ok(from_text > 50, "repository: read from their text");
	ok(systems > 100, "repository: and many systems");
	ok(cgraphs > 50, "repository: and many control graphs");
	ok(schedules > 50, "repository: and many schedules, walked alike");
	is_str(sample != NULL ? "found" : NULL, "found",
	    "repository: a graph to edit");
	if (sample != NULL)
		test_mutations(sample, sample_len);
	free(sample);
	docsession_close(&session);
	unlink(path);
	return done_testing();
}
