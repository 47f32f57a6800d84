# shellcheck shell=sh
# osu-lib.sh: what the OS upgrade tests over NATS share, sourced after
# lib.sh: a free port, one nats-server -js per scenario on 127.0.0.1
# with a scratch store (bounded by timeout(1)), the recorder the
# workers' commands run, and the run's result read from the state; and
# for the tests of the bus itself (clusters, TLS), servers and clients
# under timeout(1) that bus_stop, called by the test's EXIT trap, stops.

if ! command -v nats-server >/dev/null 2>&1 ||
    ! command -v python3 >/dev/null 2>&1 || ! command -v jq >/dev/null 2>&1 ||
    ! command -v curl >/dev/null 2>&1; then
	echo "1..0 # SKIP nats-server, python3, jq or curl is not installed (scripts/install-deps check)"
	exit 0
fi

S=""
srv_pid=""

# The recorder: rec LOG HOST ACTION [STATUS [SECONDS]].
cat >"$T/rec" <<'SH'
#!/bin/sh
echo "$2 $3" >>"$1"
if [ -n "${5:-}" ]; then sleep "$5"; fi
exit "${4:-0}"
SH
# A reboot: newboot LOG HOST ACTION BOOT-FILE records, then draws the
# host a new boot ID (osu-worker --boot-id-file BOOT-FILE) and leaves
# the worker running, as a reboot command that returns before the
# host goes down does.
cat >"$T/newboot" <<'SH'
#!/bin/sh
echo "$2 $3" >>"$1"
python3 -c 'import uuid; print(uuid.uuid4())' >"$4.new" && mv "$4.new" "$4"
SH
chmod +x "$T/rec" "$T/newboot"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_server NAME: a fresh scenario directory $S and a server at $url
# (its monitoring port $mport).
start_server() {
	S="$T/$1"
	mkdir -p "$S"
	: >"$S/log"
	port=$(free_port)
	mport=$(free_port)
	# shellcheck disable=SC2034 # the tests that source this read url
	url="nats://127.0.0.1:$port"
	timeout 90 nats-server -js -a 127.0.0.1 -p "$port" -m "$mport" \
	    -sd "$S/js" -l "$S/nats.log" &
	srv_pid=$!
	server_ready "$S/nats.log" 100 nats-server
}

# server_ready LOG TRIES NAME: until nats-server's LOG says it is ready,
# 0.05 s a try; 1, said, when it never does.
server_ready() {
	i=0
	until grep -q "Server is ready" "$1" 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt "$2" ]; then echo "# $3 did not start"; return 1; fi
		sleep 0.05
	done
}

# stop_server: the scenario's server, if it runs.
stop_server() {
	if [ -n "$srv_pid" ]; then
		kill "$srv_pid" 2>/dev/null || true
		wait "$srv_pid" 2>/dev/null || true
	fi
	srv_pid=""
}

# wait_log LINE TRIES: until the recorders logged LINE, 0.05 s a try.
wait_log() {
	i=0
	until grep -q "$1" "$S/log" || [ "$i" -gt "$2" ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

result() { jq -r '.os_upgrade."last-upgrade-info".result' "$S/state.json"; }
info() { jq -r ".os_upgrade.\"last-upgrade-info\".\"$1\"" "$S/state.json"; }
hosts() { jq -c '[.os_upgrade."last-upgrade-info".hosts[].status]' "$S/state.json"; }
count() { grep -c "^$1\$" "$S/log" || true; }

# bus_stop: the processes started, the last first, so that the clients
# stop before their servers and do not wait for them to come back.  The
# loop runs in this shell, not in a pipeline's subshell: only this
# shell can wait for its children, and a server still writing its
# store when the scratch directory is removed fails the test.
: >"$T/bus.pids"
bus_stop() {
	# shellcheck disable=SC2013 # one pid per line: words are lines
	for p in $(sed -n '1!G; h; $p' "$T/bus.pids"); do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	: >"$T/bus.pids"
}

# behind PIDFILE COMMAND...: COMMAND in the background, under a 120 s
# timeout, its pid in PIDFILE and stopped at the end.
behind() {
	pf=$1
	shift
	timeout 120 "$@" &
	echo $! >"$pf"
	echo $! >>"$T/bus.pids"
}

# nats NAME ARGS...: nats-server with ARGS, logging to $T/NAME.log
# (anew), the server's own pid in $T/NAME.srv, ready when it returns
# (or 1 after 10 s).
nats() {
	n=$1
	shift
	rm -f "$T/$n.log"
	behind "$T/$n.pid" nats-server "$@" -l "$T/$n.log"
	server_ready "$T/$n.log" 200 "nats-server $n" || return 1
	pgrep -P "$(cat "$T/$n.pid")" >"$T/$n.srv"
}

# nats_kill NAME: nats-server NAME killed with SIGKILL, and gone.
nats_kill() {
	kill -9 "$(cat "$T/$1.srv")" 2>/dev/null || true
	wait "$(cat "$T/$1.pid")" 2>/dev/null || true
}

# worker_conf DIR HOST [UPGRADE-SECONDS]: the worker's configuration,
# its commands recorded in DIR/log.
worker_conf() {
	cat >"$1/$2.yaml" <<EOF
host: $2
state-file: $1/$2.state
commands:
  prepare: ["$T/rec", "$1/log", $2, prepare]
  upgrade: ["$T/rec", "$1/log", $2, upgrade, "0", "${3:-}"]
  reboot: ["$T/rec", "$1/log", $2, reboot]
EOF
}

# osu_state FILE TIMEOUT HOST...: a state document, its run triggered.
osu_state() {
	f=$1
	t=$2
	shift 2
	hosts=""
	for h in "$@"; do hosts="$hosts{\"host\": \"$h\", \"application\": \"osu\"},"; done
	cat >"$f" <<EOF
{"format": "upkit-state", "version": 1, "os_upgrade": {"version": 1,
 "config": {"worker-applications": [{"name": "osu"}]},
 "scheduled-workers": [${hosts%,}], "trigger": {"timeout": "$t"}}}
EOF
}

# wait_for COMMAND TRIES: until COMMAND succeeds, 0.1 s a try; 1 if not.
wait_for() {
	i=0
	until eval "$1"; do
		i=$((i + 1))
		if [ "$i" -gt "$2" ]; then return 1; fi
		sleep 0.1
	done
}

# jsz MPORT: the server's JetStream streams, with their configuration
# and cluster, as JSON (from its monitoring port).
jsz() {
	curl -sf --max-time 5 "http://127.0.0.1:$1/jsz?accounts=true&streams=true&config=true"
}

result_of() { jq -r '.os_upgrade."last-upgrade-info".result' "$1"; }
