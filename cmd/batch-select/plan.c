/*
 * plan.c: the runtime upgrade schedule of the final batch (seed 000
 * III.B and IV step 3): VM moves first, one VM per anti-affinity group
 * per stage; then each group's prerequisite actions (deactivation), the
 * switch of split-mode partitions upgraded earlier, the first execution
 * level's upgrade actions, and the wrap-up actions (activation) of the
 * groups that return to service.  Every action carries its undo.
 */
#include <stdlib.h>
#include <string.h>

#include "bs.h"
#include "exitcodes.h"
#include "docsession.h"
#include "jshare.h"
#include "jtext.h"
#include "jwriter.h"
#include "migrate.h"
#include "schedule.h"
#include "xalloc.h"

static const char *
vid(const struct bs *b, size_t v)
{
	return b->in.rg.v[v].id;
}

/* inventory_host: where the commands acting on vertex v run. */
static const char *
inventory_host(const struct bs *b, size_t v)
{
	const struct rg_vertex *x = &b->in.rg.v[v];
	const size_t *out;
	size_t n, i;
	int want_future = x->mod == MOD_ADD;

	if (x->kind != KIND_HYPERVISOR && x->kind != KIND_VIRTUAL_STORAGE)
		return x->id;
	out = digraph_out(&b->rgd, v, &n);
	for (i = 0; i < n; i++) {
		const struct rg_edge *e = &b->in.rg.e[out[i]];

		if (x->kind == KIND_HYPERVISOR && e->type == DEP_CONTAINED)
			return vid(b, e->sponsor);
		if (x->kind == KIND_VIRTUAL_STORAGE &&
		    e->type == DEP_AGGREGATION &&
		    (e->presence == PRES_BOTH ||
		    (e->presence == PRES_FUTURE) == want_future))
			return vid(b, e->sponsor);
	}
	return x->id;
}

/* products_before: what vertex v runs now (a new object). */
static json_t *
products_before(const struct bs *b, size_t v)
{
	return b->res_of[v] == NONE ? json_object() :
	    json_copy(b->in.sc.resources[b->res_of[v]].products);
}

/* products_after: what v runs once its first level is done. */
static json_t *
products_after(const struct bs *b, size_t v)
{
	const struct rg_vertex *x = &b->in.rg.v[v];
	json_t *p = products_before(b, v);
	const struct rg_level *l;
	size_t k;

	if (x->nlevels == 0)
		return p;
	l = &b->in.rg.levels[x->first_level];
	for (k = l->first; k < l->first + l->count; k++) {
		const struct rg_action *act = &b->in.rg.act[k];
		const char *op = act->op, *name = act->product;

		if (name == NULL)
			continue;
		if (strcmp(op, "install") == 0 || strcmp(op, "create") == 0) {
			if (act->version != NULL)
				json_object_set_new(p, name,
				    json_string(act->version));
		}
		else
			json_object_del(p, name);
	}
	return p;
}

static const struct cat_action_def *
product_action(const struct bs *b, const char *name, const json_t *version,
    enum cat_action what)
{
	const struct cat_product *p = catalog_find(&b->in.cat, name,
	    json_string_value(version));

	return p != NULL && p->actions[what].argv != NULL ?
	    &p->actions[what] : NULL;
}

int
held_out(const struct bs *b, size_t v)
{
	return b->res_of[v] != NONE &&
	    b->in.sc.resources[b->res_of[v]].disabled;
}

/* service_step: a deactivate or activate action of product name on v,
 * undone by the opposite one. */
static json_t *
service_step(const struct bs *b, size_t v, const char *name,
    const json_t *version, enum cat_action what, const char *phase)
{
	static const char *const ph[] = { "{resource}" };
	const char *val[] = { vid(b, v) };
	enum cat_action back = what == CAT_ACTIVATE ? CAT_DEACTIVATE :
	    CAT_ACTIVATE;
	const struct cat_action_def *d = product_action(b, name, version, what);
	const struct cat_action_def *u = product_action(b, name, version, back);
	const char *host = inventory_host(b, v);
	char *id = sched_format("i%ld/%s:%s:%s@%s", b->in.rg.iteration,
	    cat_action_names[what], vid(b, v), name,
	    json_string_value(version));
	char *uid = sched_id_with(id, "~undo");
	char *manual = sched_format("bring %s %s service", vid(b, v),
	    back == CAT_ACTIVATE ? "back into" : "out of");
	json_t *a = sched_action(id, phase, cat_action_names[what], vid(b, v),
	    host, sched_argv(d->argv, ph, val, 1), NULL, d->duration);

	sched_add_undo(a, sched_step(uid, host, u ? sched_argv(u->argv, ph,
	    val, 1) : NULL, manual, u ? u->duration : 0));
	if (d->on_control)
		json_object_set_new(a, "run_on", json_string("control"));
	if (u != NULL && u->on_control)
		json_object_set_new(json_array_get(json_object_get(a, "undo"), 0),
		    "run_on", json_string("control"));
	free(id);
	free(uid);
	free(manual);
	return a;
}

/*
 * service_actions: the deactivate (or activate) actions of what v runs
 * before (or after) its upgrade, appended to list; with list NULL only
 * their time is counted.  Returns the seconds they take.
 */
static long
service_actions(const struct bs *b, size_t v, enum cat_action what,
    const char *phase, json_t *list)
{
	json_t *prods = what == CAT_ACTIVATE ? products_after(b, v) :
	    products_before(b, v), *ver;
	const struct cat_action_def *d;
	const char *name;
	long t = 0;

	if (what == CAT_ACTIVATE && held_out(b, v)) {
		json_decref(prods);
		return 0;
	}
	json_object_foreach(prods, name, ver) {
		if ((d = product_action(b, name, ver, what)) == NULL)
			continue;
		t += d->duration;
		if (list != NULL)
			json_array_append_new(list, service_step(b, v, name, ver,
			    what, phase));
	}
	json_decref(prods);
	return t;
}

long
group_step_time(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;
	long t = 0;

	for (m = 0; m < grp->nmembers; m++) {
		if (!grp->deactivated)
			t += service_actions(b, grp->members[m],
			    CAT_DEACTIVATE, NULL, NULL);
		if (b->in.rg.v[grp->members[m]].mod != MOD_REMOVE)
			t += service_actions(b, grp->members[m], CAT_ACTIVATE,
			    NULL, NULL);
	}
	return t;
}

/* arrives: every member of g that has actions is created by them: it
 * is in service once they ran, with no step of the operator. */
static int
arrives(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;
	int any = 0;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &b->in.rg.v[grp->members[m]];

		if (v->nlevels > 0 && v->mod != MOD_ADD)
			return 0;
		any |= v->nlevels > 0;
	}
	return any;
}

/* all_held_out: every member of g is kept out of service by its
 * operator. */
static int
all_held_out(const struct bs *b, size_t g)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	size_t m;

	for (m = 0; m < grp->nmembers; m++)
		if (!held_out(b, grp->members[m]))
			return 0;
	return 1;
}

/* manual_step: for a split-mode partition whose products have no
 * (de)activation command, the operator's step keeps one version
 * active; and a group left deactivated (an undone upgrade, say) is
 * brought back by the operator when no command can, unless its
 * resources are new, and come in service as they are created. */
static void
manual_step(const struct bs *b, size_t g, enum cat_action what,
    const char *phase, json_t *list)
{
	const char *first = vid(b, b->in.cg.groups[g].members[0]);
	char *id, *uid, *text, *utext;
	json_t *a;

	if (json_array_size(list) > 0 ||
	    (what == CAT_ACTIVATE && all_held_out(b, g)) ||
	    (b->split_unit[b->in.cg.groups[g].members[0]] == NONE &&
	    !b->waiting[g] && !b->paired[g] &&
	    !(what == CAT_ACTIVATE && b->in.cg.groups[g].deactivated &&
	    !arrives(b, g))))
		return;
	id = sched_format("i%ld/%s:%s", b->in.rg.iteration,
	    cat_action_names[what], b->in.cg.groups[g].id);
	uid = sched_id_with(id, "~undo");
	text = sched_format("take %s %s service", b->in.cg.groups[g].id,
	    what == CAT_ACTIVATE ? "into" : "out of");
	utext = sched_format("take %s %s service", b->in.cg.groups[g].id,
	    what == CAT_ACTIVATE ? "out of" : "back into");
	a = sched_action(id, phase, cat_action_names[what], first, first, NULL,
	    text, 0);
	sched_add_undo(a, sched_step(uid, first, NULL, utext, 0));
	json_array_append_new(list, a);
	free(id);
	free(uid);
	free(text);
	free(utext);
}

/* has_service_action: a product v runs before (or after) its upgrade
 * has a deactivate (or activate) command. */
static int
has_service_action(const struct bs *b, size_t v, enum cat_action what)
{
	json_t *prods = what == CAT_ACTIVATE ? products_after(b, v) :
	    products_before(b, v), *ver;
	const char *name;
	int found = 0;

	json_object_foreach(prods, name, ver)
		found |= product_action(b, name, ver, what) != NULL;
	json_decref(prods);
	return found;
}

/*
 * member_steps: a member of g that ends the plan out of service (it
 * is, or the plan takes it out) and that no activation in list brings
 * back (the product it was deactivated by is gone: an undo removed it,
 * say) is taken back into service by the operator.  Only when list has
 * commands: an empty list gets manual_step()'s one step for the group.
 */
static void
member_steps(const struct bs *b, size_t g, const char *phase, json_t *list)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	const json_t *a;
	size_t m, i;
	char *id, *uid, *text, *utext;
	json_t *step;

	for (m = 0; json_array_size(list) > 0 && m < grp->nmembers; m++) {
		size_t v = grp->members[m];
		int covered = 0;

		if (b->in.rg.v[v].mod == MOD_REMOVE || held_out(b, v) ||
		    b->in.rg.v[v].mod == MOD_ADD || (!b->in.rg.v[v].deactivated &&
		    (grp->deactivated || !has_service_action(b, v, CAT_DEACTIVATE))))
			continue;
		json_array_foreach(list, i, a)
			covered |= strcmp(json_string_value(json_object_get(a,
			    "resource")), vid(b, v)) == 0;
		if (covered)
			continue;
		id = sched_format("i%ld/activate:%s", b->in.rg.iteration,
		    vid(b, v));
		uid = sched_id_with(id, "~undo");
		text = sched_format("take %s back into service", vid(b, v));
		utext = sched_format("take %s out of service", vid(b, v));
		step = sched_action(id, phase, "activate", vid(b, v),
		    inventory_host(b, v), NULL, text, 0);
		sched_add_undo(step, sched_step(uid, inventory_host(b, v), NULL,
		    utext, 0));
		json_array_append_new(list, step);
		free(id);
		free(uid);
		free(text);
		free(utext);
	}
}

/* group_service: g's (de)activations as a group of groups; returns
 * its actions (borrowed), or NULL when there are none. */
static json_t *
group_service(const struct bs *b, size_t g, enum cat_action what,
    const char *phase, json_t *groups)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	json_t *list = json_array(), *out = NULL;
	size_t m;

	for (m = 0; m < grp->nmembers; m++)
		if (what == CAT_DEACTIVATE ||
		    b->in.rg.v[grp->members[m]].mod != MOD_REMOVE)
			service_actions(b, grp->members[m], what, phase, list);
	if (what == CAT_ACTIVATE)
		member_steps(b, g, phase, list);
	manual_step(b, g, what, phase, list);
	if (json_array_size(list) > 0) {
		out = sched_group(groups, grp->id);
		json_array_extend(out, list);
	}
	json_decref(list);
	return out;
}

/* upgrade_action: RG action k of vertex v as a schedule action. */
static json_t *
upgrade_action(const struct bs *b, size_t v, size_t k)
{
	const struct rg_action *act = &b->in.rg.act[k];
	const char *host = inventory_host(b, v);
	json_t *undo = rgraph_action_member(&b->in.rg, k, "undo"), *a;
	char *uid;

	a = sched_action(act->id, "upgrade", act->op, vid(b, v), host,
	    rgraph_action_member(&b->in.rg, k, "argv"), NULL, act->duration);
	json_object_set_new(a, "undo_unit", jshare(act->undo_unit));
	if (json_is_array(json_object_get(undo, "argv"))) {
		uid = sched_id_with(act->id, "~undo");
		sched_add_undo(a, sched_step(uid, host, json_copy(
		    json_object_get(undo, "argv")), NULL, act->undo_duration));
		free(uid);
	}
	json_decref(undo);
	return a;
}

/* retires: every member of grp that has actions leaves the system. */
static int
retires(const struct bs *b, const struct cg_group *grp)
{
	size_t m;

	for (m = 0; m < grp->nmembers; m++) {
		const struct rg_vertex *v = &b->in.rg.v[grp->members[m]];

		if (v->nlevels > 0 && v->mod != MOD_REMOVE)
			return 0;
	}
	return 1;
}

/*
 * group_upgrade: g's first-level actions; returns them, or NULL.  They
 * run in the order of the group's members, a host before what it
 * contains; a group that leaves the system goes the other way, its
 * hypervisor removed before its host.
 */
static json_t *
group_upgrade(const struct bs *b, size_t g, json_t *groups)
{
	const struct cg_group *grp = &b->in.cg.groups[g];
	int back = retires(b, grp);
	json_t *list = NULL;
	size_t i, m, k;

	for (i = 0; i < grp->nmembers; i++) {
		const struct rg_vertex *v;
		const struct rg_level *l;

		m = back ? grp->nmembers - 1 - i : i;
		v = &b->in.rg.v[grp->members[m]];
		if (v->nlevels == 0)
			continue;
		if (list == NULL)
			list = sched_group(groups, grp->id);
		l = &b->in.rg.levels[v->first_level];
		for (k = l->first; k < l->first + l->count; k++)
			json_array_append_new(list, upgrade_action(b,
			    grp->members[m], k));
	}
	return list;
}

/* hv_of: the hypervisor product compute host h runs. */
static struct hv_product
hv_of(const struct bs *b, size_t h)
{
	struct hv_product p = { NULL, NULL };

	cloud_hv_product(&b->cl, &b->in.cat, h, &p.name, &p.version);
	return p;
}

/*
 * place_moves: each move's id, hosts and stage: the stage after the
 * last one of its kind that moved a VM of its anti-affinity group.
 * The ids are kept in ids (the strings the moves point to).
 */
static void
place_moves(struct bs *b, struct placed_move *pm, json_t *ids)
{
	size_t *count[2], i;

	count[MOVE_CONSOLIDATE] = xcalloc(b->cl.ngroups, sizeof **count);
	count[MOVE_EVACUATE] = xcalloc(b->cl.ngroups, sizeof **count);
	for (i = 0; i < b->nmoves; i++) {
		const struct move *mv = &b->moves[i];
		struct placed_move *p = &pm[i];
		char *id;

		p->vm = b->in.sc.vms[mv->vm].id;
		p->from = cloud_host_id(&b->cl, mv->from);
		p->to = cloud_host_id(&b->cl, mv->to);
		p->kind = mv->kind;
		p->stage = count[mv->kind][b->cl.vm_group[mv->vm]]++;
		id = sched_format("i%ld/migrate:%s:%s:%s", b->in.rg.iteration,
		    p->vm, p->from, p->to);
		json_array_append_new(ids, json_string(id));
		free(id);
	}
	for (i = 0; i < b->nmoves; i++)
		pm[i].id = json_string_value(json_array_get(ids, i));
	free(count[MOVE_CONSOLIDATE]);
	free(count[MOVE_EVACUATE]);
}

/*
 * compact_text: v, all new (jw_fresh), as jwriter writes it compact,
 * held (jtext_store).
 */
static const char *
compact_text(const json_t *v, size_t *len)
{
	static struct jwriter w;
	char *buf = NULL;
	const char *text;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		diag_fatal(EXIT_OSERR, "out of memory");
	jw_init(&w, fp, 1);
	jw_fresh(&w);
	jw_value(&w, v);
	if (jw_finish(&w) < 0 || fclose(fp) != 0)
		diag_fatal(EXIT_OSERR, "out of memory");
	*len = size - 1;	/* not the newline */
	text = jtext_store(buf, *len);
	free(buf);
	return text;
}

/*
 * move_group: move i's group, which needs the earlier moves it relies
 * on, appended to groups as its text.  At 100,000 hosts the moves'
 * groups are most of the schedule and would cost a gigabyte as values;
 * each is built in a document session scope, written, and let go of.
 */
static void
move_group(struct bs *b, json_t *groups, const struct migration *m,
    const struct placed_move *pm, const struct move_index *x, size_t i)
{
	struct docsession_scope scope;
	const char *text;
	json_t *one, *stand_in;
	size_t len;

	docsession_enter(&scope);
	one = json_array();
	json_array_append_new(sched_group(one, m->vm),
	    migration_action(&b->in.cat, m));
	require_moves(one, b, pm, x, i);
	text = compact_text(json_array_get(one, 0), &len);
	docsession_leave(&scope, one);
	stand_in = json_object();
	jtext_keep_deep(stand_in, text, len);
	json_array_append_new(groups, stand_in);
}

/* move_stages: the moves of one kind, in their stages. */
static void
move_stages(struct bs *b, json_t *sched, enum move_kind kind,
    const struct placed_move *pm, const struct move_index *x)
{
	const char *name = kind == MOVE_CONSOLIDATE ? "consolidate" : "evacuate";
	const char *phase = kind == MOVE_CONSOLIDATE ? "migration" :
	    "prerequisite";
	json_t *stages = json_array();
	size_t i;

	for (i = 0; i < b->nmoves; i++) {
		const struct move *mv = &b->moves[i];
		struct migration m;

		if (mv->kind != kind)
			continue;
		while (json_array_size(stages) <= pm[i].stage) {
			char *sid = sched_format("%s-%zu", name,
			    json_array_size(stages) + 1);

			json_array_append(stages, sched_stage(sched, sid, phase));
			free(sid);
		}
		m.vm = pm[i].vm;
		m.source = pm[i].from;
		m.destination = pm[i].to;
		m.source_name = cloud_service_host(&b->cl, mv->from);
		m.destination_name = cloud_service_host(&b->cl, mv->to);
		m.from = hv_of(b, mv->from);
		m.to = hv_of(b, mv->to);
		m.phase = phase;
		m.replaceable = 0;
		m.id = pm[i].id;
		move_group(b, json_array_get(stages, pm[i].stage), &m, pm, x, i);
	}
	json_decref(stages);
}

/* gate: the group just added to groups (its actions list, or NULL when
 * none was) needs what need holds, and the next ones need it too. */
static void
gate(json_t *groups, const json_t *list, json_t *need)
{
	if (list == NULL)
		return;
	sched_require_all(groups, need);
	add_action_ids(need, list);
}

/*
 * evacuated: the moves off the compute hosts that the final batch's
 * i-th group takes out of service (its own, and those whose only
 * switch, storage or controller it is), which all its steps need.
 */
static json_t *
evacuated(const struct bs *b, size_t i, const struct placed_move *pm,
    const struct move_index *x)
{
	const json_t *hosts = json_object_get(json_array_get(b->final, i),
	    "compute_hosts"), *h;
	json_t *need = json_array();
	size_t k;

	json_array_foreach(hosts, k, h)
		add_moves_out(need, b, pm, x, json_string_value(h));
	return need;
}

/* group_steps: g's deactivation, upgrade and activation, each gated on
 * what came before.  The deactivation of a partition that a waiting
 * one replaces goes to the switch stage, where swap() completes it. */
static void
group_steps(struct bs *b, size_t g, json_t *stage[4], json_t *need)
{
	json_t *pre = NULL, *at = stage[b->paired[g] ? 1 : 0];

	if (!b->in.cg.groups[g].deactivated) {
		pre = group_service(b, g, CAT_DEACTIVATE, "prerequisite", at);
		gate(at, pre, need);
	}
	gate(stage[2], group_upgrade(b, g, stage[2]), need);
	if (split_partner(b, g) == NONE)
		gate(stage[3], group_service(b, g, CAT_ACTIVATE, "wrap-up",
		    stage[3]), need);
}

/* take_group: remove the group of groups named id and return it, or
 * NULL. */
static json_t *
take_group(json_t *groups, const char *id)
{
	json_t *grp;
	size_t k;

	json_array_foreach(groups, k, grp)
		if (strcmp(json_string_value(json_object_get(grp, "id")),
		    id) == 0) {
			json_incref(grp);
			json_array_remove(groups, k);
			return grp;
		}
	return NULL;
}

/*
 * swap: split mode's switch as one group: the last partition's
 * deactivation, then the activation of waiting group w.  The group runs
 * in order and is undone as a whole, so if w fails to come back the
 * last partition returns to service (III.A: one version active, and
 * never none); the last partition's upgrade requires its deactivation,
 * and so waits for a switch that held.
 */
static void
swap(struct bs *b, size_t w, json_t *switch_stage, json_t *need)
{
	size_t p = split_partner(b, w);
	json_t *grp = p == NONE ? NULL : take_group(switch_stage,
	    b->in.cg.groups[p].id), *list, *acts;

	if (grp == NULL) {
		gate(switch_stage, group_service(b, w, CAT_ACTIVATE,
		    "wrap-up", switch_stage), need);
		return;
	}
	json_array_append_new(switch_stage, grp);
	json_object_set_new(grp, "id", json_string(b->in.cg.groups[w].id));
	list = json_array();
	acts = group_service(b, w, CAT_ACTIVATE, "wrap-up", list);
	if (acts != NULL)
		json_array_extend(json_object_get(grp, "actions"), acts);
	json_decref(list);
	sched_require_all(switch_stage, need);
}

/*
 * final_groups: every group of the final batch; the partitions waiting
 * to be switched in last, each swapped with the partition it replaces.
 */
static void
final_groups(struct bs *b, json_t *stage[4], const struct placed_move *pm,
    const struct move_index *x)
{
	json_t *need;
	size_t i, g;

	for (i = 0; i < b->nfinal; i++) {
		g = b->final_g[i];
		need = evacuated(b, i, pm, x);
		if (!b->waiting[g])
			group_steps(b, g, stage, need);
		json_decref(need);
	}
	for (i = 0; i < b->nfinal; i++) {
		g = b->final_g[i];
		if (!b->waiting[g])
			continue;
		need = evacuated(b, i, pm, x);
		swap(b, g, stage[1], need);
		json_decref(need);
	}
}

json_t *
build_schedule(struct bs *b)
{
	char *id = sched_format("i%ld", b->in.rg.iteration);
	json_t *sched = sched_new(id), *stage[4], *ids = json_array();
	struct placed_move *pm = xcalloc(b->nmoves, sizeof *pm);
	struct move_index x;

	free(id);
	place_moves(b, pm, ids);
	move_index_build(&x, b);
	move_stages(b, sched, MOVE_CONSOLIDATE, pm, &x);
	move_stages(b, sched, MOVE_EVACUATE, pm, &x);
	stage[0] = sched_stage(sched, "prerequisite", "prerequisite");
	stage[1] = sched_stage(sched, "switch", "wrap-up");
	stage[2] = sched_stage(sched, "upgrade", "upgrade");
	stage[3] = sched_stage(sched, "wrap-up", "wrap-up");
	final_groups(b, stage, pm, &x);
	sched_expand_hosts(sched, &b->in.sc);
	sched_finish(sched, b->o->parallel);
	move_index_free(&x);
	free(pm);
	json_decref(ids);
	return sched;
}
