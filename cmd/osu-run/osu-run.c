/*
 * osu-run: drive seed 002's OS upgrade controller over NATS JetStream.
 * Each step runs osu-ctl(1) on the state file; the driver publishes
 * the step's commands as producer os-upgrade-controller, collects the
 * workers' replies until they stop coming or the step's wake-at comes,
 * acks them once the next step is saved, and steps again.
 */
#include <argp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "libnats/bus_argp.h"
#include "diag.h"
#include "exitcodes.h"
#include "output.h"
#include "stage.h"
#include "stopsig.h"
#include "run.h"
#include "timefmt.h"

struct options {
	struct bus_options bus;	/* -s, and the document operand */
	const char *ctl;
	int once, stats, dry;
	const char *now;	/* --dry-run's time, NULL: the clock */
};

static const char usage_doc[] =
    "Run the OS upgrade controller against a NATS JetStream server."
    "\vSTATE is a state document with an os_upgrade section; it is "
    "rewritten after every step.  Exit status: 0 done (with --once: the "
    "run completed or none was due), 1 the run failed or timed out, 64 "
    "usage, 65 invalid state, 66 cannot open, 69 server unavailable, "
    "71 out of memory, 74 I/O error, 75 another osu-run holds the "
    "site's lease (or this one lost it).";

static const struct argp_option option_list[] = {
	{ "ctl", 'C', "PROGRAM", 0, "The controller step (default osu-ctl, "
	  "found on PATH)", 0 },
	{ "once", '1', 0, 0, "Stop when no run is active after a step: "
	  "when the run ended, or when none was due", 0 },
	{ "dry-run", 'n', 0, 0, "Print the commands the next step would "
	  "publish, as a JSON array, and stop: no server, STATE untouched",
	  0 },
	{ "now", 't', "TIME", 0, "With --dry-run: step at TIME instead of "
	  "now", 0 },
	{ "stats", 'S', 0, 0, "At the end, print the number of steps, "
	  "osu-ctl's time per step and the messages on standard output", 0 },
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
	case 'C':
		o->ctl = arg;
		break;
	case '1':
		o->once = 1;
		break;
	case 'S':
		o->stats = 1;
		break;
	case 'n':
		o->dry = 1;
		break;
	case 't':
		o->now = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * send: command cmd (text) to host, with the ID "START/ACTION/HOST":
 * a run sends each host one command of each kind, so the ID names it
 * and a re-publish of it (after a restart) is dropped by the stream.
 */
static int
send(struct driver *d, const char *text, const char *start,
    const char *action, const char *host, uint64_t *seq)
{
	char id[800];
	struct bus_out m = { "control", BUS_CONTROLLER, host, id, text,
		strlen(text) };

	if (start == NULL)
		m.id = NULL;
	else
		snprintf(id, sizeof id, "%s/%s/%s", start, action, host);
	/* A thousand prepares on a busy server take longer than a lease. */
	if (bus_lease_renew(d->lease) < 0) {
		d->lease_lost = 1;
		return -1;
	}
	if (bus_publish_to(d->bus, &m, seq) < 0)
		return -1;
	d->published++;
	return 0;
}

/*
 * publish: the commands of section sec, each to its host, a prepare
 * to every host it names; the step's first prepare raises the floor
 * (one published again keeps its first sequence, below the floor).
 */
static int
publish(struct driver *d, const json_t *sec)
{
	const char *start = json_string_value(json_object_get(json_object_get(
	    sec, "run"), "start-time"));
	const char *action, *host;
	json_t *cmd, *h;
	uint64_t seq, first = 0;
	size_t i, j;
	char *text;
	int r = 0;

	json_array_foreach(json_object_get(sec, "commands"), i, cmd) {
		text = json_dumps(cmd, JSON_PRESERVE_ORDER | JSON_COMPACT);
		action = json_string_value(json_object_get(cmd, "action"));
		if (action != NULL && strcmp(action, "prepare") == 0)
			json_array_foreach(json_object_get(cmd, "hosts"), j, h) {
				if (r == 0 && json_is_string(h))
					r = send(d, text, start, action,
					    json_string_value(h), &seq);
				if (r == 0 && first == 0)
					first = seq;
			}
		else if (action != NULL && (host = json_string_value(
		    json_object_get(cmd, "host"))) != NULL)
			r = send(d, text, start, action, host, &seq);
		free(text);
		if (r < 0)
			return -1;
	}
	if (first > d->floor)
		d->floor = first;
	return 0;
}

/*
 * resume: the commands of the state as it is, published again: the
 * driver may have stopped after saving a step and before publishing
 * it.  Those it did publish are dropped by the stream as duplicates.
 */
static int
resume(struct driver *d)
{
	json_t *doc = json_load_file(d->state_file, 0, NULL);
	int r = publish(d, json_object_get(doc, "os_upgrade"));

	json_decref(doc);
	return r;
}

/* deadline: the section's wake-at, or an hour from now. */
static int64_t
deadline(const json_t *sec, int64_t now)
{
	const char *s = json_string_value(json_object_get(sec, "wake-at"));
	int64_t t;

	return s != NULL && time_parse(s, &t) == 0 ? t : now + 3600;
}

/* outcome: 1 when the run that just ended did not complete. */
static int
outcome(const json_t *sec)
{
	const char *r = json_string_value(json_object_get(json_object_get(sec,
	    "last-upgrade-info"), "result"));

	return r != NULL && strcmp(r, "completed") != 0;
}

static int
loop(struct driver *d, int once)
{
	json_t *doc, *sec;
	int64_t now;
	int status = -1, was_running = 0;

	while (status < 0 && !stop_requested) {
		now = (int64_t)time(NULL);
		if ((doc = ctl_step(d, now)) == NULL)
			return EXIT_DATAERR;
		if (bus_lease_renew(d->lease) < 0)
			status = EXIT_TEMPFAIL;
		if (d->have_last && bus_ack(&d->last) < 0)
			status = EXIT_UNAVAILABLE;
		d->have_last = 0;
		sec = json_object_get(doc, "os_upgrade");
		if (status < 0 && publish(d, sec) < 0)
			status = d->lease_lost ? EXIT_TEMPFAIL :
			    EXIT_UNAVAILABLE;
		if (strcmp(json_string_value(json_object_get(sec, "status")),
		    "running") == 0)
			was_running = 1;
		else if (once && status < 0)
			status = was_running && outcome(sec) ? 1 : EXIT_OK;
		if (status < 0 &&
		    collect(d, deadline(sec, now), &stop_requested) < 0)
			status = d->lease_lost ? EXIT_TEMPFAIL :
			    EXIT_UNAVAILABLE;
		json_decref(doc);
	}
	return status < 0 ? EXIT_OK : status;
}

/* start_floor: a run in progress took replies up to its last-seq. */
static uint64_t
start_floor(const char *file)
{
	json_t *doc = json_load_file(file, 0, NULL);
	json_int_t seq = json_integer_value(json_object_get(json_object_get(
	    json_object_get(doc, "os_upgrade"), "run"), "last-seq"));

	json_decref(doc);
	return seq > 0 ? (uint64_t)seq : 0;
}

/* dry_run: the commands of the next step, on standard output. */
static int
dry_run(struct driver *d, const char *when)
{
	int64_t now = (int64_t)time(NULL);
	json_t *doc;
	int status;

	if (when != NULL && time_parse(when, &now) < 0)
		diag_fatal(EXIT_USAGE, "-t: '%s' is not a time such as "
		    "2023-03-17T01:00:00Z", when);
	if ((doc = ctl_dry(d, now)) == NULL)
		return EXIT_DATAERR;
	status = output_json(json_object_get(json_object_get(doc,
	    "os_upgrade"), "commands"), NULL);
	json_decref(doc);
	return status;
}

static void
print_stats(const struct driver *d)
{
	printf("steps %ld\nctl-seconds-per-step %.6f\npublished %ld\n"
	    "received %ld\n", d->steps, d->steps ? d->step_seconds /
	    (double)d->steps : 0.0, d->published, d->received);
}

/*
 * connect: the bus, the site's lease (EXIT_TEMPFAIL while another
 * driver holds it) and the controller's consumer.
 */
static int
connect(struct driver *d, const struct bus_conf *conf)
{
	struct bus_conf owner = *conf;
	int held = 0;

	owner.owner = 1;
	d->conf = owner;
	if ((d->bus = bus_open(&d->conf, BUS_CONTROLLER)) == NULL)
		return EXIT_UNAVAILABLE;
	if ((d->lease = bus_lease_take(d->bus, BUS_STREAM, LEASE_TTL,
	    &held)) == NULL)
		return held ? EXIT_TEMPFAIL : EXIT_UNAVAILABLE;
	if ((d->sub = bus_consume(d->bus, BUS_CONTROLLER,
	    BUS_STREAM ".control.>", 30000, 0)) == NULL)
		return EXIT_UNAVAILABLE;
	/* A thousand replies to a prepare: a step takes all that came. */
	bus_sub_batch(d->sub, 256);
	return EXIT_OK;
}

/* drive: the run of the state file, on the bus or (-n) dry. */
static int
drive(void *options, json_t *no_input)
{
	const struct options *o = options;
	struct driver d;
	int status = EXIT_UNAVAILABLE;

	(void)no_input;
	memset(&d, 0, sizeof d);
	d.state_file = o->bus.file;
	d.ctl = o->ctl;
	d.replies = json_array();
	d.floor = start_floor(o->bus.file);
	if (o->dry) {
		status = dry_run(&d, o->now);
		json_decref(d.replies);
		return status;
	}
	stop_on_signals();
	status = ctl_check(&d, (int64_t)time(NULL));
	if (status != 0) {
		json_decref(d.replies);
		return status < 0 ? EXIT_UNAVAILABLE : status;
	}
	status = connect(&d, &o->bus.conf);
	if (status == EXIT_OK && resume(&d) < 0)
		status = d.lease_lost ? EXIT_TEMPFAIL : EXIT_UNAVAILABLE;
	else if (status == EXIT_OK)
		status = loop(&d, o->once);
	if (status != EXIT_TEMPFAIL && o->stats)
		print_stats(&d);
	if (d.have_last)
		bus_drop(&d.last);
	bus_sub_free(d.sub);
	bus_lease_free(d.lease);
	bus_close(d.bus);
	json_decref(d.replies);
	return status;
}

int
main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &bus_argp, 0, 0, 0 }, { 0 }
	};
	static const struct argp argp = { option_list, parse_opt, "STATE",
		usage_doc, children, 0, 0 };
	static const struct stage stage = { &argp, STAGE_TOOL, drive };
	struct options o = { .bus.operand = "STATE", .ctl = "osu-ctl" };

	return stage_main(&stage, &o, NULL, argc, argv);
}
