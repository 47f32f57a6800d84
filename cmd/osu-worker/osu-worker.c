/*
 * osu-worker: seed 002's OS upgrade worker on NATS JetStream.  It
 * consumes the controller's commands from its durable consumer, runs
 * the operator's prepare, upgrade and reboot commands for its host,
 * replies under its host name as producer, and acks only afterwards;
 * it publishes the host's versions when they change.
 */
#include <argp.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"
#include "exitcodes.h"
#include "libnats/bus_argp.h"
#include "load.h"
#include "output.h"
#include "stage.h"
#include "stopsig.h"
#include "worker.h"

struct options {
	struct bus_options bus;	/* -s, and the document operand */
	const char *host;
	const char *boot_id_file;
	long ack_wait;		/* milliseconds */
	long watchdog;		/* milliseconds of silence; 0: none */
	int replay;
	int check;
};

static const char usage_doc[] =
    "Carry out the OS upgrade controller's commands on this host."
    "\vCONFIG names the commands to run and the state file.  "
    "Exit status: 0 stopped or rebooting, 64 usage, 65 invalid "
    "configuration or state, 66 cannot open, 69 server unavailable, "
    "71 out of memory, 74 I/O error, 75 deaf to held commands (-W): "
    "start it again.";

#define OPT_BOOT_ID_FILE 0x100
#define BOOT_ID_FILE "/proc/sys/kernel/random/boot_id"

static const struct argp_option option_list[] = {
	{ "boot-id-file", OPT_BOOT_ID_FILE, "FILE", 0, "Where to read the "
	  "host's boot ID, which tells whether it rebooted (default "
	  BOOT_ID_FILE ")", 0 },
	{ "host", 'H', "NAME", 0, "This host's name (default: the "
	  "configuration's host, else the system's host name)", 0 },
	{ "ack-wait", 'w', "MS", 0, "How long the server waits for an ack "
	  "before it delivers a command again, when it creates this "
	  "worker's consumer (default 30000)", 0 },
	{ "check", 'n', 0, 0, "Check the configuration and the state file, "
	  "print what the worker would use as JSON, and stop: no server", 0 },
	{ "replay", 'R', 0, 0, "Delete this worker's consumer first and "
	  "read the topic again from its start", 0 },
	{ "watchdog", 'W', "MS", 0, "After MS without a message, ask the "
	  "server whether it holds commands this worker never received, and "
	  "if so exit 75 (default 10000; 0: never); after a start that "
	  "found a command in the state file, the ack wait first", 0 },
	{ 0 }
};

static error_t
parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &o->bus;
		break;
	case 'H':
		o->host = arg;
		break;
	case OPT_BOOT_ID_FILE:
		o->boot_id_file = arg;
		break;
	case 'w':
		o->ack_wait = cli_long(state, "--ack-wait", arg, 1, 86400000);
		break;
	case 'R':
		o->replay = 1;
		break;
	case 'W':
		o->watchdog = cli_long(state, "--watchdog", arg, 0, 86400000);
		break;
	case 'n':
		o->check = 1;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * print_check: the consumer and subjects of host, whether its upgrade
 * may reboot it, its boot ID now (null when unreadable, said), and its
 * state, as JSON.
 */
static int
print_check(const struct worker *w)
{
	char tok[256], buf[320], *boot;
	json_t *o = json_object();
	int status;

	json_object_set_new(o, "host", json_string(w->cfg.host));
	bus_token(tok, sizeof tok, w->cfg.host);
	snprintf(buf, sizeof buf, "osu-worker-%s", tok);
	json_object_set_new(o, "consumer", json_string(buf));
	bus_subject_to(buf, sizeof buf, "control", BUS_CONTROLLER,
	    w->cfg.host);
	json_object_set_new(o, "commands-subject", json_string(buf));
	bus_subject(buf, sizeof buf, "control", w->cfg.host);
	json_object_set_new(o, "replies-subject", json_string(buf));
	bus_subject(buf, sizeof buf, "versions", w->cfg.host);
	json_object_set_new(o, "versions-subject", json_string(buf));
	json_object_set_new(o, "upgrade-reboots",
	    json_boolean(w->cfg.upgrade_reboots));
	boot = boot_id_read(w->boot_id_file);
	json_object_set_new(o, "boot-id", boot != NULL ? json_string(boot) :
	    json_null());
	free(boot);
	json_object_set_new(o, "state", wstate_json(&w->st));
	status = output_json(o, NULL);
	json_decref(o);
	return status;
}

#define FETCH_MS 500

/*
 * silent: after o->watchdog ms without a message, whether the server
 * holds commands for this worker that it never received; asked twice,
 * a fetch apart, so that a command in flight is not taken for one.
 */
static int
silent(struct worker *w, const struct options *o, const char *name,
    long *idle_ms, long *held)
{
	long n;

	if (o->watchdog == 0 || (*idle_ms += FETCH_MS) < o->watchdog)
		return 0;
	n = bus_undelivered(w->bus, name);
	if (n <= 0 || *held <= 0) {
		*held = n;
		return 0;
	}
	diag_warn(NULL, NULL, "%s: the server holds %ld command%s for this worker that "
	    "it never received in %ld ms: exiting (75) to be started again",
	    w->cfg.host, n, n == 1 ? "" : "s", *idle_ms);
	return 1;
}

/*
 * watchdog_start: the idle time the watchdog starts counting from.  A
 * worker that finds a command in its state file may have left it
 * delivered and unacked when it stopped (a reboot, a crash): the
 * server holds it for the ack wait before it delivers it again, so
 * the watchdog waits the ack wait more before it counts that command
 * as one this worker never received.
 */
static long
watchdog_start(const struct worker *w, const struct options *o)
{
	return w->st.seq > 0 ? -o->ack_wait : 0;
}

/*
 * serve: consume and handle commands until a signal or a reboot, or
 * until the watchdog finds the worker deaf: then it exits 75 for its
 * service manager to start it again.  A new connection and subscription
 * in the same process did not recover from that state (five in a row
 * under load), while a new process received the command at once.
 */
static int
serve(struct worker *w, const struct options *o)
{
	char name[320], filter[300];
	struct bus_sub *sub;
	struct bus_msg m;
	long idle_ms = watchdog_start(w, o), held = 0;
	int r = 0;

	bus_token(filter, sizeof filter, w->cfg.host);
	snprintf(name, sizeof name, "osu-worker-%s", filter);
	bus_subject_to(filter, sizeof filter, "control", BUS_CONTROLLER,
	    w->cfg.host);
	if ((sub = bus_consume(w->bus, name, filter, o->ack_wait,
	    o->replay)) == NULL)
		return EXIT_UNAVAILABLE;
	publish_versions(w);
	while (!stop_requested && !w->stop && r >= 0) {
		if ((r = bus_fetch(sub, FETCH_MS, &m)) == 1) {
			handle(w, &m);
			idle_ms = held = 0;
		} else if (r == 0 && silent(w, o, name, &idle_ms, &held)) {
			bus_sub_free(sub);
			return EXIT_TEMPFAIL;
		}
	}
	bus_sub_free(sub);
	return r < 0 ? EXIT_UNAVAILABLE : EXIT_OK;
}

/* run: the worker CONFIG describes, until it stops. */
static int
run(void *options, json_t *no_input)
{
	static char hostname[256];
	const struct options *o = options;
	struct worker w = { { 0 }, { 0 }, NULL, o->boot_id_file, 0 };
	json_t *doc = NULL;
	int status;

	(void)no_input;
	if ((status = load_document(o->bus.file, &doc)) != EXIT_OK)
		return status;
	status = EXIT_DATAERR;
	if (config_load(load_name(o->bus.file), doc, &w.cfg) < 0)
		goto out;
	if (o->host != NULL)
		w.cfg.host = o->host;
	if (w.cfg.host == NULL) {
		if (gethostname(hostname, sizeof hostname - 1) != 0)
			diag_fatal(EXIT_OSERR, "cannot tell the host name");
		w.cfg.host = hostname;
	}
	if (wstate_load(w.cfg.state_file, &w.st) < 0)
		goto out;
	if (o->check) {
		status = print_check(&w);
		goto out;
	}
	stop_on_signals();
	status = EXIT_UNAVAILABLE;
	if ((w.bus = bus_open(&o->bus.conf, w.cfg.host)) != NULL)
		status = serve(&w, o);
	bus_close(w.bus);
out:
	wstate_free(&w.st);
	config_free(&w.cfg);
	json_decref(doc);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &bus_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "CONFIG",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, run };
	struct options o = { .bus.operand = "CONFIG", .ack_wait = 30000,
		.watchdog = 10000, .boot_id_file = BOOT_ID_FILE };

	return stage_main(&stage, &o, NULL, argc, argv);
}
