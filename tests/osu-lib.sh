# shellcheck shell=sh
# osu-lib.sh: what the OS upgrade tests over NATS share, sourced after
# lib.sh: a free port, one nats-server -js per scenario on 127.0.0.1
# with a scratch store (bounded by timeout(1)), the recorder the
# workers' commands run, and the run's result read from the state.

if ! command -v nats-server >/dev/null 2>&1 ||
    ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP nats-server or python3 is not installed (scripts/install-deps check)"
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
	i=0
	until grep -q "Server is ready" "$S/nats.log" 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -gt 100 ]; then echo "# nats-server did not start"; return 1; fi
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
