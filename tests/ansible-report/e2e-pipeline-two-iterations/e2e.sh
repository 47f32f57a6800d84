#!/bin/bash
# e2e.sh: the whole pipeline, rg-build | cg-coarsen | batch-select |
# vm-migrate-plan | actuate-ansible, run by scripts/upgrade-loop with
# the real ansible-playbook, "-c local" (seed 000 III.B Fig. 4, IV steps
# 1 to 3).  Iteration 1 upgrades the hosts not in use, hv2 and hv3;
# iteration 2 evacuates t1-vm1 to node2, which is back in service, and
# upgrades hv1; the third rg-build finds the upgrade done.  The loop
# stops after iteration 1 (-n 1) and is resumed, so each iteration's
# Ansible run and markers can be seen.  About 10 s.
set -eu
# shellcheck source=../e2e-env.sh
. ../e2e-env.sh
three_hosts

# markers: each hypervisor's product, and where t1-vm1 runs.
markers() {
	for m in hv1 hv2 hv3; do
		if [ -d "$cloud/$m" ]; then echo "$m: beta"
		elif [ -f "$cloud/$m" ]; then echo "$m: alpha"
		else echo "$m: none"; fi
	done
	echo "t1-vm1: on $(readlink "$cloud/t1-vm1")"
}

# ran N: iteration N's commands in the order they ran, the markers and
# its report.
ran() {
	echo "== iteration $1: commands in the order they ran"
	order "$cloud"
	echo "== iteration $1: markers"
	markers
	echo "== iteration $1: report"
	jq -c '.report | del(.time)' "$state/iter-$1/5-report.json"
}

# planned N: what rg-build made of the report of iteration N - 1.
planned() {
	echo "== iteration $1: rg-build"
	jq -c '{iteration: .resource_graph.iteration,
	    to_do: [.resource_graph.vertices[]
	    | select((.actions_to_execute // []) | length > 0) | .id],
	    sets: [.requests.requests[].change_sets[] | {id, status}]}' \
	    "$state/iter-$1/1-rg.json"
}

status=0
loop -n 1 || status=$?
echo "== loop -n 1: status $status"
ran 1
status=0
loop || status=$?
echo "== loop resumed: status $status"
ran 2
planned 2
planned 3
# the last report's time is the wall clock's
jq '.reports.last_time |= type' "$state/summary.json"
