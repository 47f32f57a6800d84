#!/bin/sh
# demo.t: scripts/demo (make demo) keeps what it made, the first plan
# and the loop's state directory, and ends with what to look at next:
# commands that run, with status 0, from the directory the demo was
# started in (issue 37, finding 7).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
for p in jq python3; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done
status=0
(cd "$T" && UPKIT_DEMO_DIR=demo "$top/scripts/demo" >"$T/out" 2>"$T/err") ||
    status=$?
if [ "$status" -eq 0 ] && [ "$(jq -r .outcome "$T/demo/state/summary.json")" = "done" ] &&
    [ -f "$T/demo/iteration-1.json" ] && [ -f "$T/demo/state/iter-2/4-migrations.json" ]; then
	pass "the demo ends done and keeps its plan and state directory"
else
	fail "the demo ends done and keeps its plan and state directory (status $status)"
	diag "$T/err"
fi
sed -n '/^== what to look at next/,$p' "$T/out" | sed -n 's/^  \(.*\)   # .*/\1/p' >"$T/next"
n=$(wc -l <"$T/next")
if [ "$n" -ge 5 ] && grep -q ' demo/state' "$T/next"; then
	pass "it ends with $n commands to look at next, paths relative to where it ran"
else
	fail "it ends with commands to look at next ($n)"
	diag "$T/out"
fi
while IFS= read -r cmd; do
	if (cd "$T" && MANPAGER=cat PAGER=cat sh -c "$cmd" >"$T/cmd.out" 2>&1 </dev/null); then
		pass "next: $cmd"
	else
		fail "next: $cmd"
		diag "$T/cmd.out"
	fi
done <"$T/next"
done_testing
