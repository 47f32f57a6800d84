#!/bin/sh
# shellcheck disable=SC2016 # check's conditions are quoted to be eval'd in check, later
# osu-worker.t: what osu-worker does when its host reboots, crashes or
# fails, over a real NATS JetStream server.
#
# Each scenario starts its own nats-server -js on 127.0.0.1 at a free
# port (tests/osu-lib.sh), workers h01 and h02 whose commands record
# what they were asked in $S/log, and osu-run -1 on a manual trigger.
# No worker is supervised: where a host reboots or crashes, the test
# starts its worker once more, as the host's boot would, and the run
# must complete with that single start.  The workers run with -w 3000
# -W 1000: the defaults' relation (a watchdog of a third of the ack
# wait), shortened.  Every process runs under timeout(1).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/osu-lib.sh
. "$(dirname "$0")/osu-lib.sh"

# stop_all: the workers (SIGTERM), the driver, then the server.
stop_all() {
	[ -n "$S" ] || return 0
	for f in "$S"/*.pid; do
		if [ -f "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
	done
	for f in "$S"/*.pid; do
		if [ -f "$f" ]; then wait "$(cat "$f")" 2>/dev/null || true; fi
	done
	rm -f "$S"/*.pid
	stop_server
}
trap 'stop_all; tap_cleanup' EXIT

# Commands as the host would see them, besides rec and newboot
# (tests/osu-lib.sh):
# selfboot LOG HOST ACTION BOOT-FILE: the same, and the shutdown stops
# the worker (SIGTERM) and the command with it;
{ cat "$T/newboot"; echo 'kill -TERM "$PPID"; exit 143'; } >"$T/selfboot"
# noisy LOG HOST ACTION: 1,000 bytes of progress, then an error with
# control characters on stderr, exit 3;
cat >"$T/noisy" <<'SH'
#!/bin/sh
echo "$2 $3" >>"$1"
python3 -c 'import sys; sys.stderr.write("x" * 1000 + "\nE: dpkg was interrupted\a\tagain\n")'
exit 3
SH
# killed LOG HOST ACTION: killed by SIGKILL;
cat >"$T/killed" <<'SH'
#!/bin/sh
echo "$2 $3" >>"$1"
kill -KILL $$
SH
# daemon LOG HOST ACTION: starts a daemon that keeps its stderr open for
# 30 s (its pid in LOG.daemon.pid), and exits 0.
cat >"$T/daemon" <<'SH'
#!/bin/sh
echo "$2 $3" >>"$1"
sleep 30 &
echo $! >"$1.daemon.pid"
SH
chmod +x "$T/selfboot" "$T/noisy" "$T/killed" "$T/daemon"

# cmd PROGRAM HOST ACTION [ARG...]: a command as a YAML flow array.
cmd() {
	p=$1 h=$2 a=$3
	shift 3
	printf '["%s", "%s", %s, %s' "$T/$p" "$S/log" "$h" "$a"
	for x in "$@"; do printf ', "%s"' "$x"; done
	printf ']'
}

# config HOST [PREPARE [UPGRADE [REBOOT [MORE]]]]: $S/HOST.yaml, the
# recorder where a command is empty; MORE, lines of YAML, go under
# commands.  The host's boot ID starts as boot-1.
config() {
	cat >"$S/$1.yaml" <<EOF
host: $1
state-file: $S/$1.state
commands:
  prepare: ${2:-$(cmd rec "$1" prepare)}
  upgrade: ${3:-$(cmd rec "$1" upgrade)}
  reboot: ${4:-$(cmd rec "$1" reboot)}
${5:-}
EOF
	echo boot-1 >"$S/$1.boot"
}

# worker HOST: one osu-worker process, not supervised, reading its boot
# ID from $S/HOST.boot; its pid (of timeout(1)) in $S/HOST.pid.
worker() {
	echo start >>"$S/$1.starts"
	timeout 60 osu-worker -s "$url" -w 3000 -W 1000 \
	    --boot-id-file "$S/$1.boot" "$S/$1.yaml" 2>>"$S/$1.err" &
	echo $! >"$S/$1.pid"
}

# worker_exited HOST: wait until HOST's worker exits by itself.
worker_exited() { wait "$(cat "$S/$1.pid")" || true; }

# run_behind: osu-run -1 on two hosts, triggered, in the background.
run_behind() {
	cat >"$S/state.json" <<EOF
{"format": "upkit-state", "version": 1, "os_upgrade": {"version": 1,
 "config": {"worker-applications": [{"name": "osu"}]},
 "scheduled-workers": [{"host": "h01", "application": "osu"},
  {"host": "h02", "application": "osu"}],
 "trigger": {"timeout": "20s"}}}
EOF
	timeout 40 osu-run -1 -s "$url" "$S/state.json" >"$S/run.out" 2>"$S/run.err" &
	run_pid=$!
}

# run_ended: wait for osu-run, its status in $st.
run_ended() {
	set +e
	wait "$run_pid"
	# shellcheck disable=SC2034 # st is read by the eval in check
	st=$?
	set -e
}

# run_restarting [CRASH]: workers h01 and h02 and the run; h02's worker
# exits once (after a reboot, or killed by SIGKILL mid-upgrade with
# CRASH) and is started once more, as the host's boot would.
run_restarting() {
	worker h01; worker h02
	run_behind
	if [ -n "${1:-}" ]; then
		wait_log "h02 upgrade" 400
		kill -9 "$(pgrep -P "$(cat "$S/h02.pid")")"
	fi
	worker_exited h02
	worker h02
	run_ended
}

# self_reboot_config CHECK-STATUS: h02's upgrade reboots the host, and
# upgrade-check exits CHECK-STATUS.
self_reboot_config() {
	config h01
	config h02 "" "$(cmd selfboot h02 upgrade "$S/h02.boot")" "" \
	    "  upgrade-check: $(cmd rec h02 check "$1")
upgrade-reboots: true"
}

check() {
	if eval "$1"; then pass "$2"; else fail "$2"; diag "$S/log" "$S/run.err" "$S"/*.err; jq -c '.os_upgrade."last-upgrade-info"' "$S/state.json" | diag; fi
}
no_watchdog() { ! grep -q "never received" "$S/$1.err"; }

# 1. A reboot under the defaults' watchdog: h02 asks for one, its
# reboot command reboots the host, the worker exits and is started once
# more.  The server still holds the reboot message, delivered to the
# worker that went down, for the ack wait: the new worker waits for it
# (its watchdog counts only after the ack wait), checks that the boot
# ID changed, and answers done.
start_server reboot
config h01
config h02 "" "$(cmd rec h02 upgrade 10)" "$(cmd newboot h02 reboot "$S/h02.boot")"
run_restarting
check '[ "$st" = 0 ] && [ "$(result)" = completed ] &&
    [ "$(hosts)" = "[\"upgraded\",\"upgraded\"]" ] && [ "$(count "h02 reboot")" = 1 ]' \
    "reboot: the run completes, h02 rebooted once"
check '[ "$(wc -l <"$S/h02.starts")" = 2 ] && no_watchdog h02' \
    "reboot: h02's worker, started once after the reboot, waited for the held reboot message"
stop_all

# 2. A reboot command that did nothing: the boot ID is the same when
# the worker comes back, and the reboot is answered failed.
start_server noreboot
config h01
config h02 "" "$(cmd rec h02 upgrade 10)"
run_restarting
check '[ "$st" = 1 ] && [ "$(result)" = failed ] && [ "$(info failed-host)" = h02 ] &&
    [ "$(info error)" = "reboot command did not reboot the host: its boot ID is still boot-1" ]' \
    "reboot that did nothing: the run fails, saying the boot ID did not change"
stop_all

# 3. A crash mid-upgrade (kill -9), the worker started once more: the
# upgrade message, held for the ack wait, comes back to it and is
# answered as interrupted, not run again.
start_server crash
config h01
config h02 "" "$(cmd rec h02 upgrade 0 3)"
run_restarting crash
check '[ "$st" = 1 ] && [ "$(result)" = failed ] && [ "$(count "h02 upgrade")" = 1 ] &&
    info error | grep -q "^upgrade interrupted (the worker stopped while it ran); not run again$"' \
    "crash: the upgrade is answered interrupted, and ran once"
check '[ "$(wc -l <"$S/h02.starts")" = 2 ] && no_watchdog h02' \
    "crash: h02's worker, started once after the crash, waited for the held upgrade message"
stop_all

# 4. An upgrade that reboots the host itself (upgrade-reboots): the
# shutdown stops the worker while the upgrade runs; started again with
# a new boot ID, it runs upgrade-check and answers done.
start_server self-reboot
self_reboot_config 0
run_restarting
check '[ "$st" = 0 ] && [ "$(result)" = completed ] &&
    [ "$(hosts)" = "[\"upgraded\",\"upgraded\"]" ]' \
    "upgrade that reboots: the run completes"
check '[ "$(count "h02 upgrade")" = 1 ] && [ "$(count "h02 check")" = 1 ] &&
    [ "$(count "h02 reboot")" = 0 ] && [ "$(wc -l <"$S/h02.starts")" = 2 ]' \
    "upgrade that reboots: one upgrade, one check, no reboot command, one start more"
stop_all

# 5. The same with a check that fails: the upgrade is answered failed,
# with the check's status.
start_server self-reboot-check
self_reboot_config 4
run_restarting
check '[ "$st" = 1 ] && [ "$(info failed-host)" = h02 ] &&
    [ "$(info error)" = "upgrade-check command failed with exit status 4, with nothing on stderr" ]' \
    "upgrade that reboots, check failing: the run fails with the check's status"
stop_all

# 6. A failed command's error: its exit status and the end of its
# stderr, its last 400 bytes (368 x and the 32 bytes after them),
# control characters escaped.
start_server errors
config h01
config h02 "" "$(cmd noisy h02 upgrade)"
worker h01; worker h02
run_behind
run_ended
check '[ "$st" = 1 ] && [ "$(info failed-host)" = h02 ] &&
    info error | grep -q "^upgrade command failed with exit status 3; its stderr ends: \.\.\.x*\\\\nE: dpkg was interrupted\\\\x07\\\\tagain$" &&
    [ "$(info error | grep -o "\.\.\.x*" | tr -d . | tr -d "\n" | wc -c)" = 368 ]' \
    "command error: exit status 3 and the last 400 bytes of stderr, escaped"
stop_all

# 7. A command killed by a signal says which.
start_server signal
config h01 "$(cmd killed h01 prepare)"
config h02
worker h01; worker h02
run_behind
run_ended
check '[ "$st" = 1 ] && [ "$(info failed-host)" = h01 ] &&
    [ "$(info error)" = "prepare command was killed by signal 9 (Killed), with nothing on stderr" ]' \
    "command killed: the error names the signal"
stop_all

# 8. A command that leaves a daemon holding its stderr open: the worker
# answers when the command exits, not when the daemon does.
start_server leaves-a-daemon
config h01 "$(cmd daemon h01 prepare)"
config h02
t0=$(date +%s)
worker h01; worker h02
run_behind
run_ended
check '[ "$st" = 0 ] && [ "$(result)" = completed ] && [ $(($(date +%s) - t0)) -lt 15 ]' \
    "daemon left by a command: the run completes in $(($(date +%s) - t0)) s, not after it"
kill "$(cat "$S/log.daemon.pid")" 2>/dev/null || true
stop_all
done_testing
