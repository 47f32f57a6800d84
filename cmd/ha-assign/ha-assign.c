/*
 * ha-assign: HA states for the pods of a stateful application on
 * Kubernetes, as a plan (seed 003, Vayghan et al., "A Kubernetes
 * controller for managing the availability of elastic microservice
 * based stateful applications", section 4 and Algorithm 1).
 *
 * The paper's State Controller reacts to events; ha-assign is the same
 * controller made level-triggered: it reads what `kubectl get pods -o
 * json` shows now and writes the label changes and Services that bring
 * the pods to pairs of one active and one standby.  Run again on the
 * result, it plans nothing.
 */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exitcodes.h"
#include "output.h"
#include "stage.h"
#include "timefmt.h"
#include "world.h"
#include "xalloc.h"

enum {
	OPT_STATE_LABEL = 1000, OPT_PEER_LABEL, OPT_ACTIVE, OPT_STANDBY,
	OPT_NODE_FAILURE, OPT_FENCE_AFTER
};

static const char usage_doc[] =
    "Plan the HA state labels and Services of a stateful application's "
    "pods.\v"
    "PODS is `kubectl get pods -o json` (a List or one Pod), - or absent "
    "for standard input.  The plan (ha-assign-plan(5)) goes to standard "
    "output; scripts/ha-apply carries it out.  Exit status: 0 success, "
    "64 usage, 65 invalid input, 66 cannot open, "
    "71 out of memory, 74 I/O error.";

static const struct argp_option option_list[] = {
	{ "services", 's', "FILE", 0, "`kubectl get services -o json`: "
	  "Services that exist (without it the plan applies every Service "
	  "and deletes only those of demoted actives)", 0 },
	{ "nodes", 'n', "FILE", 0, "`kubectl get nodes -o json`, for "
	  "--node-failure=fence-first", 0 },
	{ "statefulsets", 'S', "FILE", 0, "`kubectl get statefulsets -o "
	  "json`: a pod whose peer's ordinal is beyond the replicas stops "
	  "waiting for it", 0 },
	{ "selector", 'l', "KEY=VALUE[,...]", 0, "Only the pods with these "
	  "labels; the Services select them too", 0 },
	{ "app-service", 'a', "NAME", 0, "Also keep the application Service "
	  "NAME, selecting the active pods", 0 },
	{ "port", 'p', "PORT", 0, "The Services' port (default 80)", 0 },
	{ "state-label", OPT_STATE_LABEL, "KEY", 0, "The HA state label "
	  "(default HAState)", 1 },
	{ "peer-label", OPT_PEER_LABEL, "KEY", 0, "The peer label (default "
	  "peer)", 1 },
	{ "active-value", OPT_ACTIVE, "VALUE", 0, "The active state's value "
	  "(default active)", 1 },
	{ "standby-value", OPT_STANDBY, "VALUE", 0, "The standby state's "
	  "value (default standby)", 1 },
	{ "node-failure", OPT_NODE_FAILURE, "promote|fence-first", 0,
	  "Promote the standby as soon as the active is not Ready (default, "
	  "the paper's), or only once the active cannot be running", 2 },
	{ "now", 't', "TIME", 0, "The time of the snapshot (RFC 3339), "
	  "for fence-first", 2 },
	{ "fence-after", OPT_FENCE_AFTER, "SECONDS", 0, "How long a node must "
	  "have been NotReady before its pods count as fenced (default "
	  "300)", 2 },
	{ "drain", 'D', "NODE", 0, "Switch every active on NODE over to its "
	  "standby (repeatable)", 2 },
	/* -d: the spelling before 0.2 (HACKING.md, the letters) */
	{ 0, 'd', 0, OPTION_ALIAS, 0, 0 },
	{ 0 }
};

static void
parse_selector(struct argp_state *state, struct options *o, char *arg)
{
	char *save = arg, *item;

	while ((item = save) != NULL) {
		char *eq, *comma = strchr(item, ',');

		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		eq = strchr(item, '=');
		if (eq == NULL)
			argp_error(state, "--selector: '%s' is not KEY=VALUE",
			    item);
		*eq = '\0';
		if (!valid_label_key(item) || !valid_label_value(eq + 1))
			argp_error(state, "--selector: '%s=%s' is not a valid "
			    "label", item, eq + 1);
		o->selector.keys = xreallocarray(o->selector.keys,
		    o->selector.count + 1, sizeof *o->selector.keys);
		o->selector.values = xreallocarray(o->selector.values,
		    o->selector.count + 1, sizeof *o->selector.values);
		o->selector.keys[o->selector.count] = item;
		o->selector.values[o->selector.count++] = eq + 1;
	}
}

static const char *
label_key(struct argp_state *state, const char *opt, const char *arg)
{
	if (!valid_label_key(arg))
		argp_error(state, "%s: '%s' is not a valid label key", opt, arg);
	return arg;
}

static const char *
label_value(struct argp_state *state, const char *opt, const char *arg)
{
	if (*arg == '\0' || !valid_label_value(arg))
		argp_error(state, "%s: '%s' is not a valid label value", opt,
		    arg);
	return arg;
}

static void
parse_node_failure(struct argp_state *state, struct options *o,
    const char *arg)
{
	if (strcmp(arg, "promote") == 0)
		o->node_failure = NF_PROMOTE;
	else if (strcmp(arg, "fence-first") == 0)
		o->node_failure = NF_FENCE_FIRST;
	else
		argp_error(state, "--node-failure: '%s' is neither promote nor "
		    "fence-first", arg);
}

static void
check_options(struct argp_state *state, const struct options *o)
{
	if (strcmp(o->active_value, o->standby_value) == 0)
		argp_error(state, "--active-value and --standby-value are both "
		    "'%s'", o->active_value);
	if (strcmp(o->state_key, o->peer_key) == 0)
		argp_error(state, "--state-label and --peer-label are both "
		    "'%s'", o->state_key);
	if (o->node_failure == NF_FENCE_FIRST && !o->has_now)
		argp_error(state, "--node-failure=fence-first needs -t NOW");
}

static error_t
parse_more(int key, char *arg, struct argp_state *state, struct options *o)
{
	switch (key) {
	case OPT_STATE_LABEL:
		o->state_key = label_key(state, "--state-label", arg);
		break;
	case OPT_PEER_LABEL:
		o->peer_key = label_key(state, "--peer-label", arg);
		break;
	case OPT_ACTIVE:
		o->active_value = label_value(state, "--active-value", arg);
		break;
	case OPT_STANDBY:
		o->standby_value = label_value(state, "--standby-value", arg);
		break;
	case OPT_NODE_FAILURE:
		parse_node_failure(state, o, arg);
		break;
	case OPT_FENCE_AFTER:
		o->fence_after = cli_long(state, "--fence-after", arg, 0,
		    100000000);
		break;
	case 't':
		if (time_parse(arg, &o->now) < 0)
			argp_error(state, "--now: '%s' is not an RFC 3339 time",
			    arg);
		o->has_now = 1;
		break;
	case ARGP_KEY_ARG:
		o->pods_file = cli_one_input(state, o->pods_file, arg);
		break;
	case ARGP_KEY_END:
		check_options(state, o);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->output;
		/* every argument could be a -D */
		o->drain = xcalloc((size_t)state->argc + 1, sizeof *o->drain);
		break;
	case 's':
		o->services_file = arg;
		break;
	case 'n':
		o->nodes_file = arg;
		break;
	case 'S':
		o->sts_file = arg;
		break;
	case 'l':
		parse_selector(state, o, arg);
		break;
	case 'a':
		if (!valid_service_name(arg))
			argp_error(state, "--app-service: '%s' is not a valid "
			    "Service name (DNS-1035, at most 63)", arg);
		o->app_service = arg;
		break;
	case 'p':
		o->port = cli_long(state, "--port", arg, 1, 65535);
		break;
	case 'D':
	case 'd':
		o->drain[o->ndrain++] = arg;
		break;
	default:
		return parse_more(key, arg, state, o);
	}
	return 0;
}

static int
read_inputs(struct world *w, const struct options *o)
{
	int status = read_pods(w, o->pods_file);

	if (status == EXIT_OK && o->services_file != NULL)
		status = read_services(w, o->services_file);
	if (status == EXIT_OK && o->nodes_file != NULL)
		status = read_nodes(w, o->nodes_file);
	if (status == EXIT_OK && o->sts_file != NULL)
		status = read_statefulsets(w, o->sts_file);
	return status;
}

static int
run(void *options, json_t *no_input)
{
	const struct options *o = options;
	struct world w;
	int status;

	(void)no_input;
	memset(&w, 0, sizeof w);
	w.opt = o;
	status = read_inputs(&w, o);
	if (status == EXIT_OK) {
		index_pods(&w);
		form_pairs(&w);
		assign_free(&w);
		want_services(&w);
		status = write_plan(&w);
	}
	world_free(&w);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &output_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "[PODS]",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { .state_key = "HAState", .peer_key = "peer",
	    .active_value = "active", .standby_value = "standby", .port = 80,
	    .fence_after = 300 };
	int status = stage_main(&stage, &o, NULL, argc, argv);

	free(o.drain);
	free(o.selector.keys);
	free(o.selector.values);
	return status;
}
