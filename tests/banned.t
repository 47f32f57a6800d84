#!/bin/sh
# banned.t: library calls upkit does not use.  Each has a bounded or
# checked replacement (snprintf, strtol, xstrdup, explicit loops), and
# nothing reaches a shell: system() and popen() are banned outright.
# It reads the sources, not a build: plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (it reads the sources)"
	exit 0
fi
cd "$top" || exit 1
for f in strcpy strcat strncpy sprintf vsprintf gets strtok atoi atol \
    system popen; do
	if grep -nE "(^|[^_a-zA-Z0-9.>])${f}[[:space:]]*\(" cmd/*/*.c common/*/*.c \
	    >"$T/hits" 2>/dev/null; then
		fail "no call to $f()"
		diag "$T/hits"
	else
		pass "no call to $f()"
	fi
done
done_testing
