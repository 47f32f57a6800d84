#!/bin/sh
# cases.t: run every test case kept as data under tests/<tool>/<case>/.
#
# A case folder holds:
#   args     the tool's arguments, one per line (no shell is involved); or
#   cmd      a shell command line, for pipelines (PATH has the tools)
#   stdin    optional: fed to standard input (otherwise /dev/null)
#   stdout   the exact expected standard output (absent: must be empty)
#   stderr   the exact expected standard error (absent: must be empty)
#   status   the expected exit status (absent: 0)
# The command runs inside the case folder, so file operands and the
# names in diagnostics are relative to it.  UPKIT_CASES=PATTERN runs only
# the cases whose "tool/case" name matches the shell pattern, and
# UPKIT_REGEN=1 rewrites the expected files of the cases it runs from
# what the tools do now (review the diff!):
#   UPKIT_REGEN=1 UPKIT_CASES='match-csp/*' prove tests/cases.t
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

run_case() {
	dir=$1 name=$2 tool=$3
	input=/dev/null
	[ -f "$dir/stdin" ] && input="$dir/stdin"
	set +e
	if [ -f "$dir/cmd" ]; then
		(cd "$dir" && sh -c "$(cat cmd)") <"$input" >"$T/out" 2>"$T/err"
	else
		# One argument per line, passed as "$@" without any splitting.
		(cd "$dir" && {
			set --
			while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done
			"$tool" "$@" <"$input"
		} <args) >"$T/out" 2>"$T/err"
	fi
	echo $? >"$T/status"
	set -e
	if [ "${UPKIT_REGEN:-}" = 1 ]; then
		regen "$dir"
	fi
	want_status=0
	[ -f "$dir/status" ] && want_status=$(cat "$dir/status")
	[ -f "$dir/stdout" ] && cp "$dir/stdout" "$T/want.out" || : >"$T/want.out"
	[ -f "$dir/stderr" ] && cp "$dir/stderr" "$T/want.err" || : >"$T/want.err"
	got=$(cat "$T/status")
	if [ "$got" = "$want_status" ] && cmp -s "$T/want.out" "$T/out" &&
	    cmp -s "$T/want.err" "$T/err"; then
		pass "$name"
		return
	fi
	fail "$name"
	[ "$got" = "$want_status" ] || echo "#   exit status $got, expected $want_status"
	diff -u "$T/want.out" "$T/out" | sed 's/^/#   /' | head -40 || true
	diff -u "$T/want.err" "$T/err" | sed 's/^/#   /' | head -20 || true
}

regen() {
	if [ -s "$T/out" ]; then cp "$T/out" "$1/stdout"; else rm -f "$1/stdout"; fi
	if [ -s "$T/err" ]; then cp "$T/err" "$1/stderr"; else rm -f "$1/stderr"; fi
	if [ "$(cat "$T/status")" != 0 ]; then cp "$T/status" "$1/status"; else rm -f "$1/status"; fi
}

for dir in "$top"/tests/*/*/; do
	dir=${dir%/}
	[ -f "$dir/args" ] || [ -f "$dir/cmd" ] || continue
	tool=$(basename "$(dirname "$dir")")
	name="$tool/$(basename "$dir")"
	# shellcheck disable=SC2254 # the pattern is meant to match
	case $name in ${UPKIT_CASES:-*}) ;; *) continue ;; esac
	run_case "$dir" "$name" "$tool"
done
done_testing
