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
# The cases run UPKIT_JOBS at a time (default 2, one per core), each
# job in a scratch folder of its own; the results are reported in the
# order of the cases, so the output is the same whatever the timing.
# UPKIT_SHARD=K/N runs only every Nth of those cases from the Kth, so
# that N runs of this file, in parallel (make check: tests/run), run
# each case once:
#   UPKIT_SHARD=2/6 UPKIT_JOBS=1 prove tests/cases.t
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# same FILE GOT: whether GOT holds what the case's FILE says (no FILE:
# nothing).  want FILE: FILE, or /dev/null when the case has none.
same() { if [ -f "$1" ]; then cmp -s "$1" "$2"; else [ ! -s "$2" ]; fi; }
want() { if [ -f "$1" ]; then echo "$1"; else echo /dev/null; fi; }

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
	got=$?
	set -e
	if [ "${UPKIT_REGEN:-}" = 1 ]; then
		regen "$dir" "$got"
	fi
	want_status=0
	if [ -f "$dir/status" ]; then read -r want_status <"$dir/status" || :; fi
	if [ "$got" = "$want_status" ] && same "$dir/stdout" "$T/out" &&
	    same "$dir/stderr" "$T/err"; then
		echo "ok $name"
		return
	fi
	echo "not ok $name"
	[ "$got" = "$want_status" ] || echo "#   exit status $got, expected $want_status"
	diff -u "$(want "$dir/stdout")" "$T/out" | sed 's/^/#   /' | head -40 || true
	diff -u "$(want "$dir/stderr")" "$T/err" | sed 's/^/#   /' | head -20 || true
}

# regen DIR STATUS: the case's expected files from what it did now.
regen() {
	if [ -s "$T/out" ]; then cp "$T/out" "$1/stdout"; else rm -f "$1/stdout"; fi
	if [ -s "$T/err" ]; then cp "$T/err" "$1/stderr"; else rm -f "$1/stderr"; fi
	if [ "$2" != 0 ]; then echo "$2" >"$1/status"; else rm -f "$1/status"; fi
}

# The cases to run, one folder a line: those UPKIT_CASES matches, then
# those of the shard.
shard=${UPKIT_SHARD:-1/1}
shard_k=${shard%/*} shard_n=${shard#*/}
case $shard in
*[!0-9/]* | */*/* | 0* | */0*) shard_n=0 ;;
[0-9]*/[0-9]*) ;;
*) shard_n=0 ;;
esac
if [ "$shard_n" -eq 0 ] || [ "$shard_k" -gt "$shard_n" ]; then
	echo "cases.t: UPKIT_SHARD: '$shard' is not K/N, with 1 <= K <= N" >&2
	exit 1
fi
m=0
for dir in "$top"/tests/*/*/; do
	dir=${dir%/}
	[ -f "$dir/args" ] || [ -f "$dir/cmd" ] || continue
	name=${dir%/*}
	name=${name##*/}/${dir##*/}
	# shellcheck disable=SC2254 # the pattern is meant to match
	case $name in ${UPKIT_CASES:-*}) ;; *) continue ;; esac
	m=$((m + 1))
	[ $(((m - 1) % shard_n + 1)) -eq "$shard_k" ] || continue
	echo "$dir"
done >"$T/cases"

# run_job K N: every Nth case from the Kth, each verdict in $T/verdict.I.
run_job() {
	k=$1 n=$2 i=0
	T="$T/job$k"
	mkdir -p "$T"
	while IFS= read -r dir; do
		i=$((i + 1))
		[ $(((i - 1) % n)) -eq "$k" ] || continue
		tool=${dir%/*}
		tool=${tool##*/}
		run_case "$dir" "$tool/${dir##*/}" "$tool" >"${T%/job*}/verdict.$i"
	done <"${T%/job*}/cases"
}

jobs=${UPKIT_JOBS:-2}
k=0
while [ "$k" -lt "$jobs" ]; do
	run_job "$k" "$jobs" &
	k=$((k + 1))
done
wait

i=0
while IFS= read -r dir; do
	i=$((i + 1))
	IFS= read -r verdict <"$T/verdict.$i"
	case $verdict in
	"ok "*) pass "${verdict#ok }" ;;
	*) fail "${verdict#not ok }"; sed 1d "$T/verdict.$i" >&2 ;;
	esac
done <"$T/cases"
done_testing
