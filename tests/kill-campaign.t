#!/bin/sh
# kill-campaign.t: scripts/kill-campaign with one kill of each kind (the
# loop's pid, its process group, its watchdog) during a real
# ansible-playbook -c local run: no process of the killed run is left
# and the resumed iteration ends with the uninterrupted run's report.
# Commands run twice are shown, not asserted: a command that finished
# just before the kill, whose result had not reached Ansible's callback,
# runs again (docs/kill-campaign.md).  About a minute; plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only"
	exit 0
fi
for p in ansible-playbook jq python3 setsid; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done
plan 3
"$top/scripts/kill-campaign" -n 1 -w "$T/work" >"$T/table" 2>"$T/err" || true
for kind in pid group watchdog; do
	row=$(awk -v k="$kind" '$1 == k' "$T/table")
	set -- $row
	if [ $# -eq 6 ] && [ "$2" -eq 1 ] && [ "$4" -eq 0 ] && [ "$5" -eq 0 ]; then
		pass "kill of the $kind: nothing left, the resume ends as the uninterrupted run (ran twice: $3)"
	else
		fail "kill of the $kind: nothing left, the resume ends as the uninterrupted run ($row)"
		diag "$T/table" "$T/err"
	fi
done
