#!/bin/bash
# e2e.sh: issue 16, a host added to a running upgrade as temporary and
# given back, with the real ansible-playbook, "-c local" (seed 000 II.D,
# III).  After iteration 1 (hv2 and hv3 to beta), add.json brings node4
# with gamma and its hypervisor hv4 at the target, beta, with a release
# action.  The inventory has node4 before its first action runs on it;
# ansible-report enters node4 and hv4 into the system as the request
# lists them.  Once the hypervisors are done, rg-build gives node4 back
# on its own: hv4 removed (rmdir), then gamma (rm), then the release
# action (a link node4 -> given-back), and both leave the system.
set -eu
# shellcheck source=../e2e-env.sh
. ../e2e-env.sh
three_hosts

markers() {
	for m in hv1 hv2 hv3 hv4 node4; do
		if [ -L "$cloud/$m" ]; then echo "$m: -> $(readlink "$cloud/$m")"
		elif [ -d "$cloud/$m" ]; then echo "$m: beta"
		elif [ -f "$cloud/$m" ]; then echo "$m: a file"
		else echo "$m: none"; fi
	done
	echo "t1-vm1: on $(readlink "$cloud/t1-vm1")"
}

status=0
loop -n 1 || status=$?
echo "== loop -n 1: status $status"
markers
status=0
loop -A add.json >/dev/null || status=$?
echo "== loop -A add.json: status $status"
markers
n=$(set -- "$state"/iter-*; echo "$#")
echo "== iterations: $n"
for i in $(seq 2 "$n"); do
	jq -r --arg i "$i" '"iteration \($i): " + ([.resource_graph.vertices[]
	    | select(.actions_to_execute != null and (.actions_to_execute | length) > 0)
	    | "\(.id) \(.modification_type) [\([.actions_to_execute[0].actions[] | .op] | join(" "))]"] | join(", "))' \
	    "$state/iter-$i/1-rg.json"
done
echo "== iteration 3's commands in the order they ran"
order "$cloud"
echo "== iteration 2's inventory, from a system without node4: $(ansible-plan -i "$state/iter-2/4-migrations.json" | grep -c '"node4"') lines name node4 (all, compute)"
echo "== system after iteration 2: $(jq -c '[.report.system.resources[] | select(.id == "node4" or .id == "hv4")], [.report.system.dependencies[] | select(.dependent == "hv4")]' "$state/iter-2/5-report.json")"
echo "== system at the end: $(jq -c '[.system.resources[].id]' "$state/iter-$n/1-rg.json")"
jq -c '{outcome, temporary: (.temporary | {hosts, released, host_hours: (.host_hours | type), each: [.each[] | {id, released}]})}' "$state/summary.json"
