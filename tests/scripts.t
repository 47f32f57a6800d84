#!/bin/sh
# scripts.t: every shell script the project ships passes shellcheck at
# warning level, so that quoting mistakes (the way input data could
# reach a shell) are caught before review.  Scripts in other languages
# are left to their own tools.  It reads the scripts, not a build:
# plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (it reads the scripts)"
	exit 0
fi
cd "$top" || exit 1
if ! command -v shellcheck >/dev/null 2>&1; then
	echo "1..0 # SKIP shellcheck is not installed (scripts/install-deps check)"
	exit 0
fi
for f in scripts/* tests/*.t tests/lib.sh tests/run; do
	head -n 1 "$f" | grep -Eq '^#!.*(/| )(ba|da|)sh$|^# shellcheck shell=' ||
	    continue
	if shellcheck -S warning -x "$f" >"$T/out" 2>&1; then
		pass "$f is shellcheck-clean"
	else
		fail "$f is shellcheck-clean"
		diag "$T/out"
	fi
done
done_testing
