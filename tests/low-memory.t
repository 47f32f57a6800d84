#!/bin/sh
# low-memory.t: out of memory is status 71 with a message, never 65
# (bad data), in the parser as anywhere else (issue 38; load.c's
# parse_out_of_memory, yaml2json.c's YAML_MEMORY_ERROR, xalloc.h).
# Each tool runs its first successful data case under ulimit -v at
# several sizes: it must succeed, or exit 71 saying "out of memory".
# Below a few MiB the dynamic loader itself cannot map the C library
# and the shell says 127 before the tool runs: that is not the tool's,
# and is let through.  Plain build only (the sanitizers reserve far
# more address space than any of these limits).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (ASan needs terabytes of address space)"
	exit 0
fi
sizes="3000 4000 5000 6000 8000 12000 16000"
oom=0
for tool in $(tools); do
	case_dir=$(first_good_case "$tool")
	if [ -z "$case_dir" ]; then
		skip "$tool: no successful data case"
		continue
	fi
	bad=""
	for kb in $sizes; do
		set +e
		(cd "$case_dir" && {
			set --
			while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done
			input=/dev/null; [ -f stdin ] && input=stdin
			# shellcheck disable=SC3045 # dash and bash both have ulimit -v
			ulimit -v "$kb"
			exec "$UPKIT_BIN/$tool" "$@" <"$input"
		} <args) >/dev/null 2>"$T/err"
		st=$?
		set -e
		case $st in
		0) ;;
		71) if grep -q 'out of memory' "$T/err"; then oom=$((oom + 1))
		    else bad="$bad $kb:71-without-message"; fi ;;
		127) grep -q 'error while loading shared libraries' "$T/err" ||
		    bad="$bad $kb:127" ;;
		*) bad="$bad $kb:$st($(head -c 80 "$T/err" | tr '\n' ' '))" ;;
		esac
	done
	if [ -z "$bad" ]; then
		pass "$tool: under ulimit -v $sizes KiB, only 0 or 71 with a message"
	else
		fail "$tool: under ulimit -v, only 0 or 71 with a message:$bad"
	fi
done
if [ "$oom" -gt 0 ]; then
	pass "some tools ran out of memory ($oom runs), and said so with 71"
else
	fail "no tool ran out of memory: the sizes no longer reach it"
fi
done_testing
