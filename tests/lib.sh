# shellcheck shell=sh
# lib.sh: the prelude every shell test sources.
#
# Strict shell, C locale, the built tools first on PATH, a scratch
# directory ($T) removed when the test passes and kept (and named) when
# it fails, and TAP helpers so that prove(1) can run the file.
set -eu
export LC_ALL=C TZ=UTC
top=$(cd "$(dirname "$0")/.." && pwd)
: "${UPKIT_BIN:=$top/build/bin}"
export PATH="$UPKIT_BIN:$PATH"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
T=$(mktemp -d "${TMPDIR:-/tmp}/upkit-test.XXXXXX")
tap_n=0
tap_failed=0

tap_cleanup() {
	if [ "$tap_failed" -eq 0 ]; then
		rm -rf "$T"
	else
		echo "# scratch files kept in $T"
	fi
}
trap tap_cleanup EXIT

plan() { echo "1..$1"; }

# ok COND-STATUS DESCRIPTION: report the status of the last check.
pass() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
fail() {
	tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # skip $*"; }

# diag FILE...: show files as TAP comments, on stderr, so that prove
# shows them (and CI logs them) without -v.
diag() { sed 's/^/#   /' "$@" >&2 || true; }

# expect_same WANT GOT DESCRIPTION: compare two files, show a diff.
expect_same() {
	if cmp -s "$1" "$2"; then
		pass "$3"
	else
		fail "$3"
		diff -u "$1" "$2" | sed 's/^/#   /' || true
	fi
}

# first_good_case TOOL: a data case of TOOL that succeeds with output.
first_good_case() {
	for d in "$top/tests/$1"/*/; do
		d=${d%/}
		[ -f "$d/args" ] && [ -s "$d/stdout" ] && [ ! -f "$d/status" ] &&
		    { echo "$d"; return; }
	done
	return 0
}

# tools: every built tool, one per line.
tools() { ls "$UPKIT_BIN"; }

done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }
