/*
 * replay.c: what step 3 leaves behind.  vm-migrate-plan plans as if
 * the upgrade schedule of batch-select succeeds: its VM moves are made
 * in the model, the groups of its final batch count as upgraded (so
 * their hosts join the new partition), a new storage or controller
 * created there counts as complete, and a host is in service when the
 * schedule leaves it so.
 */
#include <string.h>

#include "schedule.h"
#include "sysconf.h"
#include "vmp.h"
#include "xalloc.h"

/*
 * service_change: note the compute hosts the upgrade schedule takes out
 * of service or brings back (its deactivate and activate actions).
 */
static void
service_change(struct vmp *p, const json_t *act, unsigned char *svc)
{
	const char *op = json_string_value(json_object_get(act, "op"));
	const char *host = json_string_value(json_object_get(act, "host"));
	long r;
	size_t h;

	if (op == NULL || host == NULL ||
	    (r = idmap_find(&p->in.sc.resource_ids, host)) < 0 ||
	    (h = p->cl.host_of[r]) == CLOUD_NONE)
		return;
	if (strcmp(op, "deactivate") == 0 && svc[h] == SVC_SAME)
		svc[h] = SVC_OUT;
	else if (strcmp(op, "activate") == 0)
		svc[h] = SVC_BACK;
}

/*
 * in_service_after: a host counts as in service after step 3 when it
 * is now and the schedule leaves it so, or when the schedule activates
 * it; the moves onto it require those actions (conditions.c).
 */
static void
in_service_after(struct vmp *p, const unsigned char *svc)
{
	size_t h;

	for (h = 0; h < p->cl.nhosts; h++)
		if (svc[h] == SVC_OUT)
			p->cl.usable[h] = 0;
		else if (svc[h] == SVC_BACK)
			p->cl.usable[h] = p->in.sc.resources[p->cl.res[h]].status ==
			    STATUS_ACTIVE;
}

static int
replay_move(const json_t *act, size_t stage, size_t group, void *ctx)
{
	struct vmp *p = ctx;
	const char *vm = json_string_value(json_object_get(act, "vm"));
	const char *to = json_string_value(json_object_get(act,
	    "destination"));
	long v, r;
	size_t h;

	(void)stage;
	(void)group;
	conditions_note(&p->cond, act);
	service_change(p, act, p->svc);
	if (vm == NULL || to == NULL)
		return 0;
	v = idmap_find(&p->in.sc.vm_ids, vm);
	r = idmap_find(&p->in.sc.resource_ids, to);
	if (v < 0 || r < 0 || (h = p->cl.host_of[r]) == CLOUD_NONE) {
		access_fail(p->a, "migration of \"%s\" to \"%s\": no such VM "
		    "or compute host in the system section (run batch-select again)",
		    vm, to);
		return -1;
	}
	if (p->cl.vm_host[v] != h)
		cloud_move(&p->cl, (size_t)v, h);
	return 0;
}

static int
mark_final(struct vmp *p)
{
	struct idmap ids;
	json_t *list, *e;
	size_t g, i;
	long x;
	int r = 0;

	idmap_init(&ids);
	for (g = 0; g < p->in.cg.ngroups; g++)
		idmap_add(&ids, p->in.cg.groups[g].id);
	access_enter_key(p->a, "batch");
	if (acc_get_array(p->a, p->batch, "final", ACC_REQUIRED, &list) < 0)
		r = -1;
	else
		json_array_foreach(list, i, e) {
			const char *id = json_string_value(json_object_get(e,
			    "group"));

			if (id == NULL || (x = idmap_find(&ids, id)) < 0) {
				access_enter_key(p->a, "final");
				access_enter_index(p->a, i);
				r = access_fail(p->a, "no group of the control "
				    "graph is the final batch's \"%s\" (run "
				    "batch-select again)", id ? id : "");
				break;
			}
			p->done[x] = 1;
		}
	access_leave(p->a);
	idmap_free(&ids);
	return r;
}

int
replay_step3(struct vmp *p, json_t *doc)
{
	json_t *sched = json_object_get(doc, "schedule");
	int r;

	p->done = xcalloc(p->in.cg.ngroups, 1);
	p->svc = xcalloc(p->cl.nhosts, 1);
	access_enter_key(p->a, "schedule");
	r = schedule_check_each(p->a, sched, replay_move, p);
	access_leave(p->a);
	if (r != 0 || mark_final(p) < 0)
		return -1;
	in_service_after(p, p->svc);
	cloud_partition(&p->cl, &p->in.rg, &p->in.cg, &p->in.cat, p->done);
	return 0;
}

/*
 * find_ready: VMs may move into a PPU's new partition once the new
 * storage or controller is complete (added before, or by this
 * iteration's batch), and into an incompatible hypervisor's new
 * partition once one host runs it (seed 000 IV step 4).
 */
void
find_ready(struct vmp *p)
{
	size_t c, h, g;

	p->ready = xcalloc(p->cl.ncauses + 1, 1);
	for (c = 0; c < p->cl.ncauses; c++) {
		const struct part_cause *pc = &p->cl.causes[c];

		if (pc->unit >= 0 && pc->new_vertex >= 0) {
			g = p->in.cg.group_of[pc->new_vertex];
			p->ready[c] = p->done[g] ||
			    (p->in.cg.groups[g].mod == MOD_NO_CHANGE &&
			    !p->in.cg.groups[g].deactivated);
			continue;
		}
		for (h = 0; h < p->cl.nhosts; h++)
			if (p->cl.part[h] == PART_NEW && p->cl.domain[h] == c &&
			    p->cl.usable[h])
				p->ready[c] = 1;
	}
}

long
vmp_cap(const struct vmp *p, size_t h)
{
	return p->o->new_capacity > 0 ? p->o->new_capacity : p->cl.cap[h];
}

int
vmp_movable(const struct vmp *p, size_t v)
{
	size_t h = p->cl.vm_host[v];

	return h != CLOUD_NONE && p->cl.part[h] == PART_OLD &&
	    p->ready[p->cl.domain[h]];
}
