/*
 * upkit-import: the system section of an upkit state document from the
 * OpenStack client's JSON output (hypervisors, servers, server groups)
 * and a short site file for what OpenStack does not hold (storage,
 * network, SLAs, VM slots per host).  Warns about what it assumed;
 * refuses, with the place, input that contradicts itself.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "import.h"
#include "load.h"
#include "output.h"
#include "stage.h"
#include "sysconf.h"
#include "xalloc.h"

static const char usage_doc[] =
    "Build the system section from OpenStack client output and a site "
    "file.\vSITE is the site file (YAML or JSON).  Every OpenStack file "
    "is the output of the client with -f json.  Exit status: 0 written, "
    "64 usage, 65 invalid or self-contradicting input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "hypervisors", 'H', "FILE", 0, "openstack hypervisor list --long "
	  "-f json (required)", 0 },
	{ "servers", 'S', "FILE", 0, "openstack server list --long "
	  "--all-projects -c ID -c Name -c Status -c Host -c 'Project ID' "
	  "-f json (required)", 0 },
	/* -V: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'V', 0, OPTION_ALIAS, 0, 0 },
	{ "server-groups", 'G', "FILE", 0, "openstack server group list "
	  "--long --all-projects -f json (repeatable)", 0 },
	{ "server-group", 'g', "FILE", 0, "openstack server group show -f "
	  "json, for max_server_per_host (repeatable)", 0 },
	{ "aggregates", 'A', "FILE", 0, "openstack aggregate list --long -f "
	  "json, or aggregate show -f json (repeatable)", 0 },
	{ "services", 'N', "FILE", 0, "openstack compute service list "
	  "--long -f json (disabled, forced down, zone, service host)", 0 },
	{ "zones", 'Z', "FILE", 0, "openstack availability zone list --long "
	  "--compute -f json (repeatable)", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct import *im = state->input;
	struct import_files *f = &im->files;
	size_t n = (size_t)state->argc;	/* each could be repeated */

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &f->output;
		f->shows = xcalloc(n, sizeof *f->shows);
		f->groups = xcalloc(n, sizeof *f->groups);
		f->aggregates = xcalloc(n, sizeof *f->aggregates);
		f->zones = xcalloc(n, sizeof *f->zones);
		f->services = xcalloc(n, sizeof *f->services);
		break;
	case 'H':
		f->hypervisors = arg;
		break;
	case 'S':
	case 'V':
		f->servers = arg;
		break;
	case 'G':
		f->groups[f->ngroups++] = arg;
		break;
	case 'g':
		f->shows[f->nshows++] = arg;
		break;
	case 'A':
		f->aggregates[f->naggregates++] = arg;
		break;
	case 'Z':
		f->zones[f->nzones++] = arg;
		break;
	case 'N':
		f->services[f->nservices++] = arg;
		break;
	case ARGP_KEY_ARG:
		if (f->site != NULL)
			argp_error(state, "one site file only");
		f->site = arg;
		break;
	case ARGP_KEY_END:
		if (f->site == NULL || f->hypervisors == NULL ||
		    f->servers == NULL)
			argp_error(state, "need -H, -S and a site file");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

typedef int (*reader)(struct import *, struct access *, const json_t *);

/* read_file: load file and hand it to fn; an exit status. */
static int
read_file(struct import *im, const char *file, reader fn)
{
	struct access a;
	json_t *doc;
	int status;

	if (file == NULL)
		return EXIT_OK;
	if ((status = load_document(file, &doc)) != EXIT_OK)
		return status;
	access_init(&a, load_name(file));
	if (fn(im, &a, doc) < 0)
		status = EXIT_DATAERR;
	access_free(&a);
	json_decref(doc);
	return status;
}

static int
read_inputs(struct import *im)
{
	const struct import_files *f = &im->files;
	int status = read_file(im, f->hypervisors, read_hypervisors);
	size_t i;

	for (i = 0; status == EXIT_OK && i < f->nservices; i++)
		status = read_file(im, f->services[i], read_services);
	for (i = 0; status == EXIT_OK && i < f->ngroups; i++)
		status = read_file(im, f->groups[i], read_group_list);
	for (i = 0; status == EXIT_OK && i < f->nshows; i++)
		status = read_file(im, f->shows[i], read_group_show);
	for (i = 0; status == EXIT_OK && i < f->naggregates; i++)
		status = read_file(im, f->aggregates[i], read_aggregates);
	for (i = 0; status == EXIT_OK && i < f->nzones; i++)
		status = read_file(im, f->zones[i], read_zones);
	if (status == EXIT_OK)
		status = read_file(im, f->servers, read_servers);
	if (status == EXIT_OK && members_are_servers(im) < 0)
		status = EXIT_DATAERR;
	return status;
}

/* self_check: what is written must be a system every tool reads. */
static int
self_check(const json_t *system)
{
	struct access a;
	struct sysconf sc;
	int r;

	access_init(&a, "(the imported system)");
	r = sysconf_load(&a, system, &sc);
	sysconf_free(&sc);
	access_free(&a);
	return r;
}

static int
import(struct import *im)
{
	struct access a;
	json_t *system = NULL;
	int status = read_inputs(im);

	if (status != EXIT_OK)
		return status;
	if ((status = load_document(im->files.site, &im->site)) != EXIT_OK)
		return status;
	access_init(&a, load_name(im->files.site));
	if (check_site(im, &a) < 0 || build_system(im, &a, &system) < 0 ||
	    self_check(system) < 0)
		status = EXIT_DATAERR;
	else
		status = output_json(system, &im->files.output);
	json_decref(system);
	access_free(&a);
	return status;
}

/* run_import: the site the files describe, as a system section. */
static int
run_import(void *options, json_t *no_input)
{
	struct import *im = options;
	json_t **maps[] = { &im->hosts, &im->names, &im->groups,
		&im->member_of, &im->vms, &im->sets, &im->set_members };
	size_t i, n = sizeof maps / sizeof *maps;
	int status;

	(void)no_input;
	im->files.site = load_name(im->files.site);
	for (i = 0; i < n; i++)
		*maps[i] = json_object();
	im->warnings = json_array();
	status = import(im);
	import_warn_summary(im);
	for (i = 0; i < n; i++)
		json_decref(*maps[i]);
	json_decref(im->warnings);
	json_decref(im->site);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "SITE",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run_import };
	struct import im = { 0 };
	int status = stage_main(&stage, &im, NULL, argc, argv);

	free(im.files.services);
	free(im.files.shows);
	free(im.files.groups);
	free(im.files.aggregates);
	free(im.files.zones);
	return status;
}
