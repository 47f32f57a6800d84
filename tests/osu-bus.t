#!/bin/sh
# shellcheck disable=SC2016 # wait_for's conditions and subjects with $ are quoted on purpose
# osu-bus.t: what keeps osu-run(1) safe on a bus it shares (issue 44,
# finding 7), on a real nats-server -js at a free port of 127.0.0.1:
#
# 1. the stream is bounded by age and size, and its duplicates window
#    is its whole max age; the driver sets the limits it is given on a
#    stream that exists;
# 2. a second osu-run on the same site is refused (75) while the first
#    holds the site's lease, and names it; a driver killed by SIGKILL
#    leaves a lease that the next one on this host takes over at once;
# 3. a driver that dies after saving a step and before publishing it
#    (its server killed under it, then itself) publishes the step when
#    started again: the command runs, once;
# 4. a driver killed after publishing an upgrade publishes it again
#    when started again, and the server drops it as a duplicate: the
#    upgrade runs once.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/osu-lib.sh
. "$(dirname "$0")/osu-lib.sh"
trap 'bus_stop; tap_cleanup' EXIT
plan 9

# server NAME: a server at $url, its monitoring port $mport, the store
# in $T/NAME.js (kept when it is started again).
server() {
	[ -n "${port:-}" ] || port=$(free_port)
	[ -n "${mport:-}" ] || mport=$(free_port)
	url="nats://127.0.0.1:$port"
	nats "$1" -js -a 127.0.0.1 -p "$port" -m "$mport" -sd "$T/$1.js"
}
# stream FIELD: the os-upgrade stream's configuration FIELD.
stream() {
	jsz "$mport" | jq -r --arg f "$1" '.account_details[].stream_detail[] |
	    select(.name == "os-upgrade") | .config[$f]'
}
# driver NAME ARGS...: osu-run -1 ARGS in the background, its output in
# $T/NAME.out and .err, the pid of timeout(1) in $T/NAME.pid.
driver() {
	n=$1
	shift
	behind "$T/$n.pid" osu-run -1 -s "$url" "$@" >"$T/$n.out" 2>"$T/$n.err"
}
# worker HOST [UPGRADE-SECONDS]: osu-worker in the background.
worker() {
	worker_conf "$T" "$1" "${2:-}"
	behind "$T/$1.pid" osu-worker -s "$url" "$T/$1.yaml" 2>>"$T/$1.err"
}
# child NAME: the pid of the program timeout(1) runs for NAME.
child() { pgrep -P "$(cat "$T/$1.pid")"; }
upgrades() { grep -c "^$1 upgrade\$" "$T/log" || true; }
show() { diag "$T/log" "$T"/*.err; }

# 1. Limits.
server limits
osu_state "$T/idle.json" 1h h01
jq 'del(.os_upgrade.trigger)' "$T/idle.json" >"$T/idle2.json"
timeout 30 osu-run -1 -s "$url" --max-age 2h --max-bytes 1048576 \
    "$T/idle2.json" 2>"$T/limits.err" || true
if [ "$(stream max_age)" = 7200000000000 ] &&
    [ "$(stream max_bytes)" = 1048576 ] &&
    [ "$(stream duplicate_window)" = 7200000000000 ]; then
	pass "limits: the stream keeps 2 h and 1 MiB, and drops a re-published message for 2 h"
else
	fail "limits: the stream keeps 2 h and 1 MiB"; jsz "$mport" | diag; diag "$T/limits.err"
fi
timeout 30 osu-run -1 -s "$url" "$T/idle2.json" 2>>"$T/limits.err" || true
if [ "$(stream max_age)" = 604800000000000 ] &&
    [ "$(stream max_bytes)" = 1073741824 ]; then
	pass "limits: the driver sets its limits (the defaults, 7 d and 1 GiB) on the stream that exists"
else
	fail "limits: the driver sets its limits on the stream that exists"; diag "$T/limits.err"
fi

# 2. The lease.  The first driver waits for a worker that is not there.
osu_state "$T/lease.json" 60s h01
driver first "$T/lease.json"
wait_for '[ "$(jq -r .os_upgrade.status "$T/lease.json")" = running ]' 100 || true
set +e
timeout 30 osu-run -1 -s "$url" "$T/lease.json" 2>"$T/second.err"
st=$?
set -e
first=$(child first)
if [ "$st" = 75 ] && grep -q "lease os-upgrade of bucket os-upgrade-leases is held by pid $first on " "$T/second.err"; then
	pass "lease: a second osu-run on the site exits 75 and names the driver that holds it"
else
	fail "lease: a second osu-run on the site exits 75 (got $st)"; diag "$T/second.err" "$T/first.err"
fi
kill -9 "$first"
worker h01
set +e
timeout 40 osu-run -1 -s "$url" "$T/lease.json" 2>"$T/third.err"
st=$?
set -e
if [ "$st" = 0 ] && [ "$(result_of "$T/lease.json")" = completed ] &&
    grep -q "taken over from pid $first on .*, which is gone" "$T/third.err"; then
	pass "lease: after the holder is killed, the next driver takes the lease over and completes the run"
else
	fail "lease: after the holder is killed, the next driver takes it over (got $st)"; diag "$T/third.err"; show
fi
bus_stop

# 3. A crash between saving a step and publishing it.  The ctl wrapper
# saves the first step that sends an upgrade, then kills the server and,
# a second later, the driver (its parent), which cannot publish then.
port="" mport=""
: >"$T/log"
rm -f "$T"/h0*.state
server crash
cat >"$T/ctl-crash" <<SH
#!/bin/sh
osu-ctl "\$@" >"$T/ctl.out" || exit
cat "$T/ctl.out"
if [ ! -f "$T/crashed" ] && grep -q '"action":"upgrade"' "$T/ctl.out"; then
	touch "$T/crashed"
	kill -9 "\$(cat "$T/crash.srv")"
	(sleep 1; kill -9 "\$PPID") &
fi
SH
chmod +x "$T/ctl-crash"
osu_state "$T/crash.json" 40s h01 h02
worker h01; worker h02
set +e
timeout 60 osu-run -1 -C "$T/ctl-crash" -s "$url" "$T/crash.json" 2>"$T/crash-driver.err"
st=$?
set -e
if [ "$st" = 137 ] && [ "$(jq -c '.os_upgrade.commands' "$T/crash.json")" = '[{"action":"upgrade","host":"h01"}]' ] &&
    [ "$(upgrades h01)" = 0 ]; then
	pass "crash: the driver died with the upgrade of h01 saved and not published"
else
	fail "crash: the driver died with the upgrade saved and not published (got $st)"; diag "$T/crash-driver.err"; show
fi
server crash
for h in h01 h02; do
	if ! kill -0 "$(cat "$T/$h.pid")" 2>/dev/null; then
		behind "$T/$h.pid" osu-worker -s "$url" "$T/$h.yaml" 2>>"$T/$h.err"
	fi
done
set +e
timeout 60 osu-run -1 -s "$url" "$T/crash.json" 2>"$T/crash-again.err"
st=$?
set -e
if [ "$st" = 0 ] && [ "$(result_of "$T/crash.json")" = completed ]; then
	pass "crash: the driver started again publishes the saved step and the run completes"
else
	fail "crash: the driver started again completes the run (got $st, $(result_of "$T/crash.json"))"; diag "$T/crash-again.err"; show
fi
if [ "$(upgrades h01)" = 1 ] && [ "$(upgrades h02)" = 1 ]; then
	pass "crash: each host was upgraded once"
else
	fail "crash: each host was upgraded once"; show
fi
bus_stop

# 4. A crash after publishing: h01's upgrade takes 3 s; the driver is
# killed while it runs and started again at once.
port="" mport=""
: >"$T/log"
rm -f "$T"/h0*.state
server dup
worker h01 3; worker h02
osu_state "$T/dup.json" 40s h01 h02
driver dup "$T/dup.json"
wait_for '[ "$(upgrades h01)" = 1 ]' 300 || true
kill -9 "$(child dup)"
set +e
timeout 60 osu-run -1 -s "$url" "$T/dup.json" 2>"$T/dup-again.err"
st=$?
set -e
if [ "$st" = 0 ] && [ "$(result_of "$T/dup.json")" = completed ]; then
	pass "duplicate: the driver killed after publishing, started again, completes the run"
else
	fail "duplicate: the driver started again completes the run (got $st)"; diag "$T/dup-again.err" "$T/dup.err"; show
fi
if [ "$(upgrades h01)" = 1 ] && [ "$(upgrades h02)" = 1 ]; then
	pass "duplicate: the upgrade published again was dropped by the server: h01 upgraded once"
else
	fail "duplicate: h01 upgraded once (got $(upgrades h01))"; show
fi
