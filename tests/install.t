#!/bin/sh
# install.t: "make install" honours PREFIX and DESTDIR, installs every
# tool, every script the loop runs and every man page, and the installed
# tools run from there: the Fig. 1 upgrade runs to done with the
# installed upgrade-loop, every plan checked by the installed
# upkit-check, from a copy of the prefix moved elsewhere, with PATH
# holding only it and the system's folders, and no variable naming the
# source tree.  A loop whose upkit-check is missing stops with 69.
#
# Plain build only: it checks what make install puts where and that the
# installed copy finds its parts; the programs it runs from there are
# those the sanitized suite runs from build-san/ (the loop on Fig. 1 to
# done in upgrade-loop(1)'s example, the actuator in the ansible-report
# e2e cases).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (it checks the installed layout)"
	exit 0
fi
stage="$T/stage"
if make -s -C "$top" install PREFIX=/opt/upkit DESTDIR="$stage" \
    SANITIZE="${UPKIT_SANITIZE:-}" >"$T/log" 2>&1; then
	pass "make install PREFIX=/opt/upkit DESTDIR=... succeeds"
else
	fail "make install"; diag "$T/log"
fi
for tool in $(tools); do
	bin="$stage/opt/upkit/bin/$tool"
	if [ -x "$bin" ] && "$bin" --version | grep -q "^$tool (upkit) "; then
		pass "$tool installed under DESTDIR/PREFIX/bin and runs"
	else
		fail "$tool installed under DESTDIR/PREFIX/bin and runs"
	fi
done
prefix="$stage/opt/upkit"
for script in actuate-ansible advice-request refresh-openstack upkit-check; do
	if [ -x "$prefix/bin/$script" ] &&
	    "$prefix/bin/$script" --version 2>/dev/null | grep -q "^$script "; then
		pass "$script installed under DESTDIR/PREFIX/bin and runs"
	else
		fail "$script installed under DESTDIR/PREFIX/bin and runs"
	fi
done
if [ -f "$prefix/share/upkit/callback_plugins/upkit_json.py" ] &&
    [ -f "$prefix/share/upkit/callback_plugins/upkit_progress.py" ] &&
    [ -f "$prefix/share/upkit/library/upkit_step.py" ] &&
    [ -f "$prefix/share/upkit/action_plugins/upkit_step.py" ]; then
	pass "Ansible's callback plugins and the upkit_step module installed in share/upkit"
else
	fail "Ansible's callback plugins and the upkit_step module installed in share/upkit"
fi

# The installed tree, moved where no path leads back to the sources.
moved="$T/elsewhere/upkit"
mkdir -p "$T/elsewhere" "$T/work"
cp -R "$prefix" "$moved"
cp "$top/examples/fig1/system.yaml" "$top/examples/fig1/catalog.yaml" \
    "$top/examples/fig1/request.yaml" "$T/work/"
installed() {
	(cd "$T/work" && env -u UPKIT_BIN -u UPKIT_SCRIPTS \
	    PATH="$moved/bin:/usr/bin:/bin" "$@")
}
status=0
installed upgrade-loop -q -d state -s system.yaml -k catalog.yaml \
    -r request.yaml >"$T/loop.out" 2>"$T/loop.err" || status=$?
checks=0
for c in "$T/work/state"/iter-*/4-check.txt; do
	[ -f "$c" ] && checks=$((checks + 1))
done
if [ "$status" -eq 0 ] && [ "$(jq -r .outcome "$T/work/state/summary.json")" = "done" ] &&
    [ "$checks" -ge 6 ]; then
	pass "the installed loop runs Fig. 1 to done, checking its $checks plans"
else
	fail "the installed loop runs Fig. 1 to done (status $status, $checks checks)"
	diag "$T/loop.err"
fi
status=0
installed upkit-check -q state >"$T/check.out" 2>&1 || status=$?
if [ "$status" -eq 0 ]; then
	pass "the installed upkit-check re-checks the state directory"
else
	fail "the installed upkit-check re-checks the state directory ($status)"
	diag "$T/check.out"
fi
# (the binaries' debugging information names their sources: -g)
if grep -rlI -- "$top" "$moved" >"$T/refs"; then
	fail "no installed file names the source tree"
	diag "$T/refs"
else
	pass "no installed file names the source tree"
fi

# The installed Ansible actuator finds its tools and callback plugin: the
# loop's last plan (one action; any plan shows it, and the first one
# takes Ansible a minute) through the real ansible-playbook, -c local,
# with every command the catalog names replaced by a stub that succeeds.
i=1
while [ -f "$T/work/state/iter-$((i + 1))/4-migrations.json" ]; do i=$((i + 1)); done
if command -v ansible-playbook >/dev/null 2>&1; then
	mkdir -p "$T/stubs" "$T/home"
	for c in $(sed -n 's/.*argv: \[\([^],]*\).*/\1/p' "$T/work/catalog.yaml" | sort -u) openstack; do
		printf '#!/bin/sh\nexit 0\n' >"$T/stubs/$c"
		chmod +x "$T/stubs/$c"
	done
	status=0
	(cd "$T/work" && env -u UPKIT_BIN HOME="$T/home" ANSIBLE_LOCAL_TEMP="$T/home" \
	    ANSIBLE_REMOTE_TEMP="$T/home" ANSIBLE_PYTHON_INTERPRETER=auto_silent \
	    PATH="$T/stubs:$moved/bin:/usr/bin:/bin" actuate-ansible -c local \
	    -t 2026-11-21T09:00:00Z <"state/iter-$i/4-migrations.json" \
	    >"$T/ansible.out" 2>"$T/ansible.err") || status=$?
	if [ "$status" -eq 0 ] &&
	    [ "$(jq -r '[.report.results[]] | unique | join(",")' "$T/ansible.out")" = succeeded ] &&
	    grep -q '^actuate-ansible: [0-9:]* [^ ]* [^ ]* [^:]*: done (\([0-9]*\) of \1 groups)$' "$T/ansible.err"; then
		pass "the installed actuate-ansible runs a plan (iteration $i's) to its report, a line as each group ends"
	else
		fail "the installed actuate-ansible runs a plan (iteration $i's) to its report (status $status)"
		diag "$T/ansible.err"
	fi
else
	skip "ansible-playbook is missing"
fi

rm "$moved/bin/upkit-check"
status=0
installed upgrade-loop -q -d state2 -s system.yaml -k catalog.yaml \
    -r request.yaml >"$T/missing.out" 2>"$T/missing.err" || status=$?
if [ "$status" -eq 69 ] && grep -q "upkit-check: .*not an executable" "$T/missing.err" &&
    [ ! -e "$T/work/state2" ]; then
	pass "a loop without its upkit-check stops with 69 before it starts"
else
	fail "a loop without its upkit-check stops with 69 (status $status)"
	diag "$T/missing.err"
fi
status=0
installed upgrade-loop -q -C -n 1 -d state3 -s system.yaml -k catalog.yaml \
    -r request.yaml >/dev/null 2>&1 || status=$?
if [ "$status" -eq 2 ]; then
	pass "with -C, the loop runs without upkit-check"
else
	fail "with -C, the loop runs without upkit-check (status $status)"
fi

for page in "$top"/man/*.[15]; do
	name=$(basename "$page")
	sect=${name##*.}
	if cmp -s "$page" "$stage/opt/upkit/share/man/man$sect/$name"; then
		pass "$name installed in share/man/man$sect"
	else
		fail "$name installed in share/man/man$sect"
	fi
done
if [ -z "$(find "$stage" -path "$stage/opt" -prune -o -print | sed 1d)" ]; then
	pass "nothing is installed outside DESTDIR/PREFIX"
else
	fail "nothing is installed outside DESTDIR/PREFIX"
fi
done_testing
