#!/bin/sh
# ansible-idioms.t: ansible-plan's playbook and inventory as an Ansible
# user drives them, with the real ansible-playbook, "-c local", every
# command replaced by the stand-ins of examples/fig1/stubs (issue 37,
# finding 8; ansible-plan(1), Tags and Steps run once).  The plan is the
# first iteration of examples/fig1/request-four-hosts.yaml: VMs moved
# off four hosts, which are then taken out of service, upgraded and
# brought back.
#   - the inventory groups its hosts by role and kind;
#   - --check says each command it would run and runs none;
#   - --skip-tags and --tags select phases, and a run again of the same
#     playbook (the same run id) runs only what had not run: the
#     commands that ended are reported from the hosts' records;
#   - plays and tasks are named for a person in Ansible's own output;
#   - --tags forget removes the run's records.
# About a minute (more on a loaded machine); plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only"
	exit 0
fi
for p in ansible-playbook ansible-inventory jq; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done
plan 8

fig1=$top/examples/fig1
mkdir -p "$T/home" "$T/tmp"
export HOME="$T/home" ANSIBLE_LOCAL_TEMP="$T/tmp" ANSIBLE_REMOTE_TEMP="$T/tmp"
export ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_NOCOLOR=1
export ANSIBLE_RETRY_FILES_ENABLED=0 PATH="$fig1/stubs:$PATH"
export ANSIBLE_LIBRARY="$top/cmd/ansible-plan/library"
export ANSIBLE_ACTION_PLUGINS="$top/cmd/ansible-plan/action_plugins"
case $(locale charmap 2>/dev/null) in
UTF-8) ;;
*) export LC_ALL=C.UTF-8 ;;
esac

"$top/scripts/upgrade-loop" -q -n 1 -d "$T/loop" -s "$fig1/system.yaml" \
    -k "$fig1/catalog.yaml" -r "$fig1/request-four-hosts.yaml" \
    >/dev/null 2>&1 || true
plan_json=$T/loop/iter-1/4-migrations.json
ansible-plan --run-id run1 "$plan_json" >"$T/playbook.yml"
ansible-plan --inventory "$plan_json" >"$T/inventory.yml"

# argvs WHAT: the plan's commands (argv joined by blanks, as the stubs
# log them), sorted; WHAT is a jq filter on the actions: "." for all.
argvs() {
	jq -r '[.schedule, .migrations.sub_iterations[]?.schedule]
	    | [.[].stages[].groups[].actions[]] | map(select('"$1"'))
	    | .[].argv | join(" ")' "$plan_json" | sort
}
# playbook NAME ARGS...: ansible-playbook with the stubs logging into
# $T/NAME.d, Ansible's output in $T/NAME.out; what the stubs ran, sorted,
# in $T/NAME.ran.
playbook() {
	name=$1
	shift
	mkdir -p "$T/$name.d"
	UPKIT_STUB_LOG="$T/$name.d" ansible-playbook -c local \
	    -i "$T/inventory.yml" "$@" "$T/playbook.yml" >"$T/$name.out" 2>&1 ||
	    true
	cat "$T/$name.d"/call.* 2>/dev/null | sort >"$T/$name.ran"
}

ansible-inventory -i "$T/inventory.yml" --graph >"$T/graph" 2>"$T/graph.err" || true
members() {
	awk -v g="@$1:" '$0 ~ /@/ { on = ($1 == "|--" g || $1 == g) ; next }
	    on { sub(/^[ |-]*/, ""); print }' "$T/graph" | sort | tr '\n' ' '
}
if [ "$(members compute)" = "host10 host11 host12 host13 host14 host15 host6 host7 host8 host9 " ] &&
    [ "$(members storage)" = "host1 host2 host3 host4 host5 host6 host7 host8 host9 " ] &&
    [ "$(members switch)" = "sw1 sw2 " ] && [ "$(members router)" = "r1 r2 " ] &&
    [ "$(members network)" = "r1 r2 sw1 sw2 " ]; then
	pass "the inventory groups the hosts by role and kind (compute, storage, network, switch, router)"
else
	fail "the inventory groups the hosts by role and kind"
	diag "$T/graph" "$T/graph.err"
fi

playbook check --check
argvs . | sed 's/^/would run: /' >"$T/want-check"
sed -n 's/^ *"msg": "\(would run: .*\)",*$/\1/p' "$T/check.out" |
    tr -d "'" | sort >"$T/got-check"
if [ -s "$T/want-check" ] && cmp -s "$T/want-check" "$T/got-check" &&
    [ ! -s "$T/check.ran" ]; then
	pass "--check shows each of the $(wc -l <"$T/want-check") commands it would run, and runs none"
else
	fail "--check shows each command it would run, and runs none"
	diff "$T/want-check" "$T/got-check" | head -10 | sed 's/^/#   /' >&2
	diag "$T/check.ran"
fi

# 1. Everything before the upgrade: VMs moved off, hosts out of service.
playbook before --skip-tags upgrade,activate
argvs '.op == "migrate" or .phase == "prerequisite"' >"$T/want-before"
expect_same "$T/want-before" "$T/before.ran" \
    "--skip-tags upgrade,activate runs the moves of VMs and the deactivations, nothing else"

# 2. The same playbook again, up to the upgrade: only the upgrade runs.
playbook upgrade --tags evacuate,prerequisite,upgrade
argvs '.phase == "upgrade"' >"$T/want-upgrade"
expect_same "$T/want-upgrade" "$T/upgrade.ran" \
    "--tags evacuate,prerequisite,upgrade then runs only the upgrade: what ended is reported from the records"

# 3. The whole playbook: only the return to service is left.
playbook all
argvs '.phase == "wrap-up"' >"$T/want-all"
expect_same "$T/want-all" "$T/all.ran" \
    "the whole playbook then runs only the activations"

sort "$T/before.ran" "$T/upgrade.ran" "$T/all.ran" >"$T/ran-once"
argvs . >"$T/want-once"
expect_same "$T/want-once" "$T/ran-once" \
    "over the three runs every command of the plan ran once"

if grep -q '^PLAY \[i1 prerequisite: take resources out of service\]' "$T/before.out" &&
    grep -q '^TASK \[deactivate esxi 6.7 on hv13 \[i1/deactivate:hv13:esxi@6.7\]\]' "$T/before.out" &&
    grep -q '^TASK \[install ip 6 on host13 \[' "$T/upgrade.out"; then
	pass "Ansible's output names each play by what it does and each task by its action"
else
	fail "Ansible's output names each play by what it does and each task by its action"
	grep '^PLAY\|^TASK' "$T/before.out" | head -8 | sed 's/^/#   /' >&2
fi

records=$HOME/.local/state/upkit/steps/run1
n=$(find "$records" -maxdepth 1 -type f -regextype posix-extended \
    -regex '.*/[0-9a-f]{64}' 2>/dev/null | wc -l)
playbook forget --tags forget
if [ "$n" -eq "$(wc -l <"$T/want-once")" ] && [ ! -e "$records" ] &&
    [ ! -s "$T/forget.ran" ]; then
	pass "the hosts kept a record of each of the $n steps, and --tags forget removes them"
else
	fail "the hosts kept a record of each step ($n), and --tags forget removes them"
	diag "$T/forget.out"
fi
