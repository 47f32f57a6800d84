# shellcheck shell=bash
# e2e-env.sh: what the end-to-end cases (e2e-*/e2e.sh) share: the real
# ansible-playbook must be there, a scratch folder $T removed at exit,
# and Ansible kept inside it (a writable home and temp folders), quiet.
if ! command -v ansible-playbook >/dev/null; then
	echo "ansible-playbook is missing: scripts/install-deps check installs ansible-core"
	exit 1
fi
top=$(cd ../../.. && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/upkit-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME=$T/home ANSIBLE_LOCAL_TEMP=$T/tmp ANSIBLE_REMOTE_TEMP=$T/tmp
export ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_NOCOLOR=1
mkdir -p "$HOME" "$T/tmp"

# order DIR: the commands that ran, in the order they started.
order() {
	jq -r '[.plays[].tasks[] | select(any(.hosts[];
	    .action == "upkit_step" and .skipped != true and has("cmd")))
	    | {s: .task.duration.start, n: .task.name}] | sort_by(.s) | .[].n' \
	    "$1/ansible.json"
}

# three_hosts: the three-host cloud of e2e-pipeline-two-iterations in
# $cloud (every hypervisor runs alpha, t1-vm1 runs on node1), and the
# loop that upgrades it, with its state in $state.
three_hosts() {
	cloud=$T/cloud state=$T/loop
	mkdir -p "$cloud"
	(cd "$cloud" && touch hv1 hv2 hv3 && ln -s node1 t1-vm1)
}

# loop ARG...: the upgrade loop, failover reservations off (-f0) so that
# three hosts take two iterations, one group at a time (-j1) so that the
# order of the commands is always the same; the actuator keeps its
# files in $cloud.
loop() {
	"$top/scripts/upgrade-loop" -q -a ansible -d "$state" "$@" -B -f0 \
	    -B -j1 -M -f0 -s system.yaml -k catalog.yaml -r request.yaml \
	    -- -c local -d "$cloud"
}
