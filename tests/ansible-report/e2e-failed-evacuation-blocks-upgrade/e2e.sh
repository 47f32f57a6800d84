#!/bin/bash
# e2e.sh: the safety conditions of the schedule kept by the real
# ansible-playbook, "-c local" (seed 000 III.A, IV step 3; upkit-state(5)
# "requires").  Iteration 1 upgrades hv2 and hv3, the hosts not in use;
# iteration 2 must move t1-vm1 off node1 before hv1 is upgraded, but the
# move fails (the migrate command is false), so the playbook skips
# node1's upgrade: hv1 keeps alpha, t1-vm1 keeps running on node1, and
# the report says the upgrade actions were blocked and why.  About 10 s.
set -eu
# shellcheck source=../e2e-env.sh
. ../e2e-env.sh
cloud=$T/cloud state=$T/loop
mkdir -p "$cloud"
(cd "$cloud" && touch hv1 hv2 hv3 && ln -s node1 t1-vm1)

status=0
"$top/scripts/upgrade-loop" -q -n 2 -a ansible -d "$state" -B -f0 -B -j1 \
    -M -f0 -s system.yaml -k catalog.yaml -r request.yaml \
    -- -c local -d "$cloud" || status=$?
echo "== loop -n 2: status $status"
echo "== iteration 2: what node1's upgrade required"
jq -c '.schedule.stages[] | select(.id == "upgrade") | .groups[] | {id, requires}' \
    "$state/iter-2/4-migrations.json"
echo "== iteration 2: commands that ran"
order "$cloud"
echo "== markers"
for m in hv1 hv2 hv3; do
	if [ -d "$cloud/$m" ]; then echo "$m: beta"; else echo "$m: alpha"; fi
done
echo "t1-vm1: on $(readlink "$cloud/t1-vm1")"
echo "== iteration 2: report"
jq -c '.report | {results, other_results, skipped}' "$state/iter-2/5-report.json"
