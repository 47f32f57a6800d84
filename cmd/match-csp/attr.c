/*
 * attr.c: the attributes a requirement can name, under every spelling
 * seen in seed 004 and in Cloudiator's OCL, and their value for an offer.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"

enum attr_id {
	A_ID, A_PRICE, A_TYPE, A_CLOUD, A_CLOUD_TYPE,
	A_HW, A_HW_NAME, A_HW_PROVIDER, A_CORES, A_RAM, A_DISK,
	A_IMG, A_IMG_NAME, A_IMG_PROVIDER, A_FAMILY, A_VERSION, A_ARCH,
	A_LOC, A_LOC_NAME, A_LOC_PROVIDER, A_SCOPE, A_PARENT,
	A_COUNTRY, A_CITY, A_LAT, A_LON, A_COUNT
};

static const struct {
	const char *names;	/* spellings separated by '|', first canonical */
	enum ex_type type;
	int ci;
} attrs[A_COUNT] = {
	[A_ID] = { "id", T_STR, 0 },
	[A_PRICE] = { "price", T_NUM, 0 },
	[A_TYPE] = { "type|nodeType", T_STR, 1 },
	[A_CLOUD] = { "cloud|cloud.id", T_STR, 0 },
	[A_CLOUD_TYPE] = { "cloud.type|cloud.cloudType", T_STR, 1 },
	[A_HW] = { "hardware|hardware.id", T_STR, 0 },
	[A_HW_NAME] = { "hardware.name", T_STR, 0 },
	[A_HW_PROVIDER] = { "hardware.providerId", T_STR, 0 },
	[A_CORES] = { "hardware.cores|cores", T_NUM, 0 },
	[A_RAM] = { "hardware.ram|hardware.mbRam|ram|mbRam", T_NUM, 0 },
	[A_DISK] = { "hardware.disk|hardware.gbDisk|disk", T_NUM, 0 },
	[A_IMG] = { "image|image.id", T_STR, 0 },
	[A_IMG_NAME] = { "image.name", T_STR, 0 },
	[A_IMG_PROVIDER] = { "image.providerId", T_STR, 0 },
	[A_FAMILY] = { "image.operatingSystem.family|image.os.osFamily|"
	    "image.os.family|image.operatingSystem.operatingSystemFamily|"
	    "osFamily", T_STR, 1 },
	[A_VERSION] = { "image.operatingSystem.version|image.os.version|"
	    "image.os.osVersion|image.operatingSystem.operatingSystemVersion",
	    T_STR, 0 },
	[A_ARCH] = { "image.operatingSystem.architecture|"
	    "image.os.osArchitecture|image.os.architecture|"
	    "image.operatingSystem.operatingSystemArchitecture", T_STR, 1 },
	[A_LOC] = { "location|location.id", T_STR, 0 },
	[A_LOC_NAME] = { "location.name", T_STR, 0 },
	[A_LOC_PROVIDER] = { "location.providerId", T_STR, 0 },
	[A_SCOPE] = { "location.locationScope", T_STR, 1 },
	[A_PARENT] = { "location.parent|location.parent.id", T_STR, 0 },
	[A_COUNTRY] = { "location.geoLocation.country|location.country|"
	    "country", T_STR, 1 },
	[A_CITY] = { "location.geoLocation.city|location.city|city", T_STR,
	    0 },
	[A_LAT] = { "location.geoLocation.latitude|location.latitude",
	    T_NUM, 0 },
	[A_LON] = { "location.geoLocation.longitude|location.longitude",
	    T_NUM, 0 },
};

static const char *const enums[] = {
	"OSFamily", "OSArchitecture", "CloudType", "LocationScope", "NodeType",
	NULL
};

int
enum_known(const char *name)
{
	size_t i;

	for (i = 0; enums[i] != NULL; i++)
		if (strcmp(enums[i], name) == 0)
			return 1;
	return 0;
}

/* spelled: path is one of the '|'-separated names. */
static int
spelled(const char *names, const char *path)
{
	size_t n = strlen(path);
	const char *p;

	for (p = names; p != NULL; p = strchr(p, '|')) {
		if (*p == '|')
			p++;
		if (strncmp(p, path, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

int
attr_lookup(const char *path, enum ex_type *type, int *ci)
{
	int i;

	for (i = 0; i < A_COUNT; i++)
		if (spelled(attrs[i].names, path)) {
			*type = attrs[i].type;
			*ci = attrs[i].ci;
			return i;
		}
	return -1;
}

static struct val
str(const char *s, int attr)
{
	struct val v = { s ? V_STR : V_NONE, 0, s, attrs[attr].ci };

	return v;
}

static struct val
num(double x)
{
	struct val v = { V_NUM, x, NULL, 0 };

	return v;
}

static struct val
location_value(const struct mc_model *m, const struct mc_location *l,
    int attr)
{
	switch (attr) {
	case A_LOC: return str(l->id, attr);
	case A_LOC_NAME: return str(l->name, attr);
	case A_LOC_PROVIDER: return str(l->provider_id, attr);
	case A_SCOPE: return str(l->scope, attr);
	case A_PARENT: return str(l->parent == MC_NONE ? NULL :
	    m->locs[l->parent].id, attr);
	case A_COUNTRY: return str(l->country, attr);
	case A_CITY: return str(l->city, attr);
	case A_LAT: return l->has_geo ? num(l->latitude) : str(NULL, attr);
	default: return l->has_geo ? num(l->longitude) : str(NULL, attr);
	}
}

static struct val
thing_value(const struct mc_thing *h, const struct mc_thing *i, int attr)
{
	switch (attr) {
	case A_HW: return str(h->id, attr);
	case A_HW_NAME: return str(h->name, attr);
	case A_HW_PROVIDER: return str(h->provider_id, attr);
	case A_CORES: return num(h->cores);
	case A_RAM: return num(h->ram);
	case A_DISK: return num(h->disk);
	case A_IMG: return str(i->id, attr);
	case A_IMG_NAME: return str(i->name, attr);
	case A_IMG_PROVIDER: return str(i->provider_id, attr);
	case A_FAMILY: return str(i->family, attr);
	case A_VERSION: return str(i->version, attr);
	default: return str(i->arch, attr);
	}
}

enum owner
attr_owner(int attr)
{
	if (attr == A_TYPE)
		return OWN_NONE;
	if (attr < A_HW)
		return OWN_OFFER;	/* id, price, cloud: the offer's own */
	if (attr < A_IMG)
		return OWN_HW;
	return attr < A_LOC ? OWN_IMG : OWN_LOC;
}

struct val
attr_value(const struct mc_model *m, size_t offer, int attr)
{
	const struct mc_offer *o = &m->offers[offer];

	switch (attr) {
	case A_ID: return str(o->id, attr);
	case A_PRICE: return num(o->price);
	case A_TYPE: return str("IAAS", attr);
	case A_CLOUD: return str(m->clouds[o->cloud].id, attr);
	case A_CLOUD_TYPE: return str(m->clouds[o->cloud].type, attr);
	default:
		break;
	}
	if (attr >= A_LOC)
		return location_value(m, &m->locs[o->loc], attr);
	return thing_value(&m->hws[o->hw], &m->imgs[o->img], attr);
}
