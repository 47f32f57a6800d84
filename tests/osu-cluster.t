#!/bin/sh
# shellcheck disable=SC2016 # wait_for's conditions are quoted to be eval'd in it
# osu-cluster.t: seed 002's OS upgrade on a three-node JetStream
# cluster (issue 44): three real nats-server processes on 127.0.0.1 at
# free ports, routed to each other, and a stream of three replicas
# (osu-run --replicas 3).  While the hosts upgrade, one at a time and
# each for 2 s, the server that leads the stream is killed with
# SIGKILL.  The other two elect a new leader; the clients, which were
# given all three URLs, reconnect and retry.  The run completes, every
# host is prepared once and upgraded once: no command runs twice, none
# is lost.  Every process runs under timeout(1); the test stops them.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/osu-lib.sh
. "$(dirname "$0")/osu-lib.sh"
trap 'bus_stop; tap_cleanup' EXIT
plan 5

n1_port=$(free_port) n2_port=$(free_port) n3_port=$(free_port)
n1_mport=$(free_port) n2_mport=$(free_port) n3_mport=$(free_port)
n1_cport=$(free_port) n2_cport=$(free_port) n3_cport=$(free_port)
# mport NAME: the node's monitoring port.
mport() {
	case $1 in n1) echo "$n1_mport" ;; n2) echo "$n2_mport" ;; *) echo "$n3_mport" ;; esac
}
# node NAME PORT CPORT ROUTE-PORT ROUTE-PORT: the node's configuration,
# routed to the other two.
node() {
	cat >"$T/$1.conf" <<EOF
server_name: $1
listen: 127.0.0.1:$2
http: 127.0.0.1:$(mport "$1")
jetstream { store_dir: "$T/$1.js" }
cluster {
  name: osu
  listen: 127.0.0.1:$3
  routes: [nats-route://127.0.0.1:$4, nats-route://127.0.0.1:$5]
}
EOF
}
node n1 "$n1_port" "$n1_cport" "$n2_cport" "$n3_cport"
node n2 "$n2_port" "$n2_cport" "$n1_cport" "$n3_cport"
node n3 "$n3_port" "$n3_cport" "$n1_cport" "$n2_cport"
nats n1 -c "$T/n1.conf"
url="nats://127.0.0.1:$n1_port,nats://127.0.0.1:$n2_port,nats://127.0.0.1:$n3_port"

# meta_leader: the cluster's JetStream leader as n1 sees it ("" if none).
meta_leader() { jsz "$n1_mport" | jq -r '.meta_cluster.leader // ""'; }
# stream_leader MPORT: the os-upgrade stream's leader, asked of a node.
stream_leader() {
	jsz "$1" | jq -r '[.account_details[]?.stream_detail[]? |
	    select(.name == "os-upgrade") | .cluster.leader // ""][0] // ""'
}
# The driver starts when one server of three listens, before there is
# a quorum to elect a JetStream leader: until then the cluster answers
# no request (one API wait, 20 s), and just after it refuses a stream of
# three replicas while its peers report ("no suitable peers", 10005).
# The driver asks again until the stream is made.
upgrades() { grep -c "^$1 upgrade\$" "$T/log" || true; }
prepares() { grep -c "^$1 prepare\$" "$T/log" || true; }
: >"$T/log"
osu_state "$T/state.json" 90s h01 h02 h03
behind "$T/driver.pid" osu-run -1 -S -s "$url" --replicas 3 "$T/state.json" \
    >"$T/driver.out" 2>"$T/driver.err"
sleep 1
for n in n2 n3; do nats "$n" -c "$T/$n.conf"; done
wait_for '[ -n "$(meta_leader)" ]' 300 || true
wait_for '[ -n "$(stream_leader "$n1_mport")" ]' 600 || true
if [ -n "$(meta_leader)" ] && [ -n "$(stream_leader "$n1_mport")" ]; then
	pass "cluster: three nodes elected a JetStream leader ($(meta_leader)), and the driver started before it made the stream"
else
	fail "cluster: three nodes elected a JetStream leader, and the driver started before it made the stream (leader '$(meta_leader)')"
	diag "$T/driver.err" "$T/n1.log"
fi

# The workers start once the driver made the stream; what this test is
# about comes later, when the stream's leader dies.
for h in h01 h02 h03; do
	worker_conf "$T" "$h" 2
	behind "$T/$h.pid" osu-worker -s "$url" --replicas 3 "$T/$h.yaml" 2>"$T/$h.err"
done

# The stream's leader, known once every host is prepared, is killed as
# soon as the first upgrade has started.
wait_for '[ "$(grep -c prepare "$T/log")" = 3 ]' 300 || true
leader=$(stream_leader "$n1_mport")
replicas=$(jsz "$n1_mport" | jq -r '[.account_details[]?.stream_detail[]? |
    select(.name == "os-upgrade") | .config.num_replicas][0]')
wait_for '[ "$(upgrades h01)" = 1 ]' 300 || true
done_before=$(grep -c "upgrade" "$T/log" || true)
if [ -n "$leader" ] && [ "$replicas" = 3 ] && [ "$done_before" -lt 3 ]; then
	nats_kill "$leader"
	pass "cluster: the stream has three replicas; $leader leads it and is killed during the run, after $done_before upgrade(s) started"
else
	fail "cluster: the stream has three replicas and a leader (got '$leader', '$replicas')"
fi
set +e
wait "$(cat "$T/driver.pid")"
st=$?
set -e
survivor=n1
[ "$leader" != n1 ] || survivor=n2
smport=$(mport "$survivor")
wait_for '[ "$(stream_leader "$smport")" != "$leader" ]' 50 || true
after=$(stream_leader "$smport")
if [ "$st" = 0 ] && [ "$(result_of "$T/state.json")" = completed ]; then
	pass "cluster: the run completes after the leader died ($after leads the stream now)"
else
	fail "cluster: the run completes after the leader died (got $st, $(result_of "$T/state.json"))"
	diag "$T/driver.err" "$T"/h0*.err "$T/log"
fi
if [ -n "$after" ] && [ "$after" != "$leader" ]; then
	pass "cluster: another node leads the stream"
else
	fail "cluster: another node leads the stream (got '$after')"
fi
ok=1
for h in h01 h02 h03; do
	if [ "$(prepares "$h")" != 1 ] || [ "$(upgrades "$h")" != 1 ]; then ok=0; fi
done
if [ "$ok" = 1 ]; then
	pass "cluster: each host was prepared once and upgraded once"
else
	fail "cluster: each host was prepared once and upgraded once"; diag "$T/log"
fi
