#!/bin/sh
# kill-campaign.t: scripts/kill-campaign with one kill of each kind (the
# loop's pid, its process group, its watchdog), two trials at a time,
# during real ansible-playbook -c local runs of a two-host plan (the
# four-host request, examples/fig1/request-four-hosts.yaml, cut to the
# two hosts without VMs: six commands in three plays of two groups in
# parallel, to keep the test short): no command ran twice, no
# process of the killed run is left, and the resumed iteration ends
# with the uninterrupted run's report.  Before the hosts kept records
# of the steps that ended (ansible-plan(1), Steps run once), a command
# that finished just before the kill, its result not yet in the
# journal, ran again (docs/kill-campaign.md).  A few minutes; plain
# build only.
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
sed 's/targets: {ids: \[.*\]}/targets: {ids: [host14, host15]}/' \
    "$top/examples/fig1/request-four-hosts.yaml" >"$T/request.yaml"
"$top/scripts/kill-campaign" -n 1 -j 2 -r "$T/request.yaml" -w "$T/work" \
    >"$T/table" 2>"$T/err" || true
for kind in pid group watchdog; do
	row=$(awk -v k="$kind" '$1 == k' "$T/table")
	# kind trials missed twice left differs restarted
	# shellcheck disable=SC2086 # the row's words are the fields
	set -- $row
	if [ $# -eq 7 ] && [ "$2" -eq 1 ] && [ "$4" -eq 0 ] && [ "$5" -eq 0 ] &&
	    [ "$6" -eq 0 ]; then
		pass "kill of the $kind: nothing ran twice, nothing left, the resume ends as the uninterrupted run (missed: $3)"
	else
		fail "kill of the $kind: nothing ran twice, nothing left, the resume ends as the uninterrupted run ($row)"
		diag "$T/table" "$T/err"
	fi
done
