#!/bin/sh
# ansible-fig1.t: the Fig. 1 example of seed 000 upgraded from the first
# iteration to done through the real ansible-playbook, "-c local",
# unattended (seed 000 III.B, Fig. 4: rg-build | cg-coarsen |
# batch-select | vm-migrate-plan | actuate-ansible, by
# scripts/upgrade-loop).
#
# Every command of the catalog (esxcli, cephadm, vtysh, ...) and the
# default migration command (openstack) is replaced by the stand-ins
# shipped with the example (examples/fig1/stubs, first on PATH), which
# record their argument vector and succeed.  The run must:
# end done with status 0; keep every invariant (scripts/upkit-check);
# run each command of every action that succeeded exactly once and
# nothing else; and derive, in each report, the same system as the
# simulator does in the same run without failures (ansible-report(1),
# the refreshed system); and no host may skip another's tasks, as each
# play's hosts include only their own (ansible-plan --tasks-dir).  The
# reports carry the wall clock's time: the example's request has no
# completion period, so it works on any day (issue 37).  While Ansible
# runs, actuate-ansible writes a line on stderr as each group ends, one
# for every group of every iteration, before the playbook ends; stdout
# stays the summary, which says what the reports say ran (issue 37).
# About 40 s; plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (the ansible-report cases run sanitized)"
	exit 0
fi
for p in ansible-playbook jq python3; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done
plan 11

fig1="$top/examples/fig1"
stubs="$fig1/stubs"
mkdir -p "$T/home" "$T/tmp"
# Every program the catalog names first in an argv, and openstack, has
# its stand-in.
missing=""
for c in $(sed -n 's/.*argv: \[\([^],]*\).*/\1/p' "$fig1/catalog.yaml" | sort -u) openstack; do
	grep -q upkit-stub "$stubs/$c" 2>/dev/null || missing="$missing $c"
done
if [ -z "$missing" ]; then
	pass "examples/fig1/stubs stands in for every program the catalog names"
else
	fail "examples/fig1/stubs stands in for every program the catalog names (missing:$missing)"
fi
# Ansible runs a stage's hosts in parallel (forks): with a folder as
# UPKIT_STUB_LOG, each call writes a file of its own.
export UPKIT_STUB_LOG="$T/ran.d" PATH="$T/watch:$stubs:$PATH"
export HOME="$T/home" ANSIBLE_LOCAL_TEMP="$T/tmp" ANSIBLE_REMOTE_TEMP="$T/tmp"
export ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_NOCOLOR=1
mkdir "$UPKIT_STUB_LOG" "$T/watch" "$T/seen.d"
# netplan runs in a host's upgrade stage, after its prerequisite stage
# ended: each call counts the group lines already on the loop's stderr.
cat >"$T/watch/netplan" <<EOF
#!/bin/sh
# upkit-stub: the shipped stand-in, after a count of the lines so far
grep -c 'groups)\$' "$T/loop.err" >"\$(mktemp "$T/seen.d/call.XXXXXX")"
exec "$stubs/netplan" "\$@"
EOF
chmod +x "$T/watch/netplan"

set -- -s "$fig1/system.yaml" -k "$fig1/catalog.yaml" -r "$fig1/request.yaml"
# The actuator is scripts/actuate-ansible, keeping each iteration's
# playbook and Ansible output in a folder of its own.
cat >"$T/actuator" <<EOF
#!/bin/sh
exec "$top/scripts/actuate-ansible" -c local \
    -d "\$(mktemp -d "$T/run.XXXXXX")"
EOF
chmod +x "$T/actuator"
status=0
"$top/scripts/upgrade-loop" -a "$T/actuator" -d "$T/ansible" "$@" \
    >"$T/loop.out" 2>"$T/loop.err" || status=$?
outcome=$(jq -r .outcome "$T/ansible/summary.json" 2>/dev/null || echo none)
if [ "$status" -eq 0 ] && [ "$outcome" = "done" ]; then
	pass "the loop ends done with status 0"
else
	fail "the loop ends done with status 0 (status $status, outcome $outcome)"
	diag "$T/loop.err"
fi

# A line per group of each iteration, "i<N> STAGE GROUP: done (K of M
# groups)", M the groups of that iteration's schedules, K up to M.
bad=""
for i in 1 2 3 4 5 6; do
	want=$(jq '[.schedule, .migrations.sub_iterations[]?.schedule
	    | .stages[].groups[]] | length' "$T/ansible/iter-$i/4-migrations.json")
	got=$(grep -c "^actuate-ansible: [0-9]*:[0-9][0-9]:[0-9][0-9] i${i}[. ].*: done ([0-9]* of $want groups)\$" "$T/loop.err" || true)
	grep -q "^actuate-ansible: .* i${i}[. ].*: done ($want of $want groups)\$" "$T/loop.err" || got="$got, not to $want"
	[ "$got" = "$want" ] || bad="$bad iteration $i: $got of $want;"
done
if [ -z "$bad" ]; then
	pass "actuate-ansible says as each group of each iteration ends that it is done"
else
	fail "actuate-ansible says as each group of each iteration ends that it is done ($bad)"
	grep -v '^actuate-ansible: .*groups)$' "$T/loop.err" | head -5 | sed 's/^/#   /' >&2
fi
seen=$(cat "$T"/seen.d/call.* | sort -n | tail -1)
if [ "${seen:-0}" -gt 0 ]; then
	pass "the lines come while Ansible runs ($seen on stderr before its last netplan)"
else
	fail "the lines come while Ansible runs (none before a netplan ran)"
fi
if [ "$(grep -c . "$T/loop.out")" -eq 3 ] &&
    grep -q '^ansible reports of 6 iteration(s), the last at .*: actions [0-9]* succeeded, 0 failed; 9 VM(s) moved$' "$T/loop.out"; then
	pass "stdout is the summary, of what Ansible's reports say ran"
else
	fail "stdout is the summary, of what Ansible's reports say ran"
	sed 's/^/#   /' "$T/loop.out" >&2
fi

n=$(find "$T/ansible" -maxdepth 1 -name 'iter-*' | wc -l)
# The last iteration's rg-build finds nothing left to do.
if [ "$n" -eq 7 ] && [ ! -f "$T/ansible/iter-7/5-report.json" ]; then
	pass "six iterations ran, as with the simulator"
else
	fail "six iterations ran, as with the simulator ($n folders)"
fi

if "$top/scripts/upkit-check" "$T/ansible" >"$T/check.out" 2>&1; then
	pass "upkit-check finds every invariant kept"
else
	fail "upkit-check finds every invariant kept"
	diag "$T/check.out"
fi

# ran: each argv of every action (and undo step) that succeeded, as the
# stubs print it; no stub may have run anything else, nor twice.
for r in "$T"/ansible/iter-*/5-report.json; do
	jq -r '.report as $r | ($r.results + $r.other_results) as $res
	    | [.schedule, .migrations.sub_iterations[]?.schedule]
	    | .. | objects | select(has("argv") and has("id"))
	    | select($res[.id] == "succeeded") | .argv | join(" ")' "$r"
done | sort >"$T/want-ran.txt"
cat "$UPKIT_STUB_LOG"/call.* | sort >"$T/got-ran.txt"
if [ -s "$T/want-ran.txt" ] && cmp -s "$T/want-ran.txt" "$T/got-ran.txt"; then
	pass "every command of a succeeded action ran once, and nothing else ($(wc -l <"$T/got-ran.txt") commands)"
else
	fail "every command of a succeeded action ran once, and nothing else"
	diff "$T/want-ran.txt" "$T/got-ran.txt" | head -20 | sed 's/^/#   /' >&2
fi

# Each play's hosts include only their own groups' tasks: no host ever
# skips a task of another's (before, every host of a stage skipped
# every other group's block).
skipped=$(cat "$T"/run.*/ansible.json | jq -s '[.[].plays[].tasks[].hosts[]
    | select(.skipped == true)] | length')
runs=$(find "$T" -maxdepth 1 -name 'run.*' | wc -l)
if [ "$runs" -eq 6 ] && [ "$skipped" -eq 0 ]; then
	pass "no host skipped another's tasks in $runs Ansible runs"
else
	fail "no host skipped another's tasks ($skipped skipped in $runs runs)"
fi

if grep -q '^openstack server migrate' "$T/got-ran.txt" &&
    grep -q '^vtysh .*bgp graceful-shutdown' "$T/got-ran.txt" &&
    grep -q '^config bgp shutdown all' "$T/got-ran.txt"; then
	pass "VMs, routers and switches were acted on by their own commands"
else
	fail "VMs, routers and switches were acted on by their own commands"
fi

"$top/scripts/upgrade-loop" -q -d "$T/sim" "$@" >/dev/null 2>&1 || true
same=0
for i in 1 2 3 4 5 6; do
	jq -S .report.system "$T/ansible/iter-$i/5-report.json" >"$T/a.json" 2>/dev/null
	jq -S .report.system "$T/sim/iter-$i/5-report.json" >"$T/s.json" 2>/dev/null
	if [ -s "$T/a.json" ] && cmp -s "$T/a.json" "$T/s.json"; then
		same=$((same + 1))
	else
		diff "$T/s.json" "$T/a.json" | head -10 | sed "s/^/#   iteration $i: /"
	fi
done
if [ "$same" -eq 6 ]; then
	pass "each report's derived system equals the simulator's"
else
	fail "each report's derived system equals the simulator's ($same of 6)"
fi
