#!/bin/sh
# examples.t: every command in a man page's EXAMPLES section runs and
# prints what it printed when it was written.
#
# Each .Dl line under .Sh EXAMPLES is run from the top of the source
# tree with the built tools on PATH.  It must exit 0, unless the line
# before it is a roff comment
#   .\" status: N
# naming the status it documents.  Its standard output must then equal
# tests/examples/PAGE.N (the Nth example of PAGE), or, when the output
# holds what changes from run to run (a solver's timing), satisfy
#   .\" check: COMMAND
# a shell command that reads the output on its standard input and must
# exit 0.  UPKIT_REGEN=1 rewrites the expected files: read the diff
# before you commit it.  Docs cannot drift from behaviour.
#
# An example that drives the real ansible-playbook (actuate-ansible)
# runs on the plain build only: Ansible takes a minute with it, and the
# C code it runs, ansible-plan and ansible-report on the same plan, runs
# sanitized in tests/ansible-plan/fig1-first-plan and
# tests/ansible-report/fig1-first-plan-recorded.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

# unroff: the mdoc escapes used in commands back to plain text.
unroff() {
	sed -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\-/-/g' \
	    -e 's/\\&//g' -e 's/\\e/\\/g'
}

# examples PAGE: one line per example, "STATUS<tab>CHECK<tab>COMMAND".
examples() {
	awk '
	/^\.Sh / { in_ex = ($0 == ".Sh EXAMPLES"); next }
	in_ex && /^\.\\" status: [0-9]+$/ { want = $3; next }
	in_ex && /^\.\\" check: / { sub(/^\.\\" check: /, ""); check = $0; next }
	in_ex && /^\.Dl / {
		sub(/^\.Dl /, "")
		print (want == "" ? 0 : want) "\t" (check == "" ? "-" : check) "\t" $0
		want = ""; check = ""
	}' "$1"
}

# verdict PAGE N CHECK: whether $T/out is what example N of PAGE prints.
verdict() {
	expected="tests/examples/$(basename "$1").$2"
	if [ "$3" != "-" ]; then
		sh -c "$3" <"$T/out" >/dev/null 2>&1
		return
	fi
	if [ -n "${UPKIT_REGEN:-}" ]; then
		mkdir -p tests/examples
		cp "$T/out" "$expected"
	fi
	if [ ! -f "$expected" ]; then
		echo "no $expected (UPKIT_REGEN=1 writes it)" >"$T/err"
		return 1
	fi
	cmp -s "$expected" "$T/out" || { diff "$expected" "$T/out" | head -20 >"$T/err"; return 1; }
}

for page in man/*.1 man/*.5; do
	[ -f "$page" ] || continue
	examples "$page" >"$T/examples"
	n=0
	while IFS="$(printf '\t')" read -r want check line; do
		n=$((n + 1))
		cmd=$(printf '%s\n' "$line" | unroff)
		check=$(printf '%s\n' "$check" | unroff)
		case $cmd in
		*actuate-ansible*) if [ -n "${UPKIT_SANITIZE:-}" ]; then
			skip "$(basename "$page"): example $n drives the real ansible-playbook: plain build only"
			continue
		fi ;;
		esac
		set +e
		sh -c "$cmd" >"$T/out" 2>"$T/err" </dev/null
		st=$?
		set -e
		if [ "$st" != "$want" ]; then
			fail "$(basename "$page"): $cmd (status $st, expected $want)"
			diag "$T/err"
		elif verdict "$page" "$n" "$check"; then
			pass "$(basename "$page"): $cmd"
		else
			fail "$(basename "$page"): $cmd (not the expected output)"
			diag "$T/err"
		fi
	done <"$T/examples"
done
# An expected output no example prints any more is stale.
for f in tests/examples/*; do
	[ -f "$f" ] || continue
	page="man/${f##*/}"
	page="${page%.*}"
	n="${f##*.}"
	if [ ! -f "$page" ] || [ "$(examples "$page" | wc -l)" -lt "$n" ]; then
		fail "$f: no such example in $page"
	fi
done
done_testing
