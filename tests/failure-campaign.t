#!/bin/sh
# failure-campaign.t: the quick subset of scripts/failure-campaign (seed
# 000 III.A, IV steps 3-4: the guarantee holds when actions fail): eight
# generated clouds of 10 to 150 hosts, one and two pods, with failure
# rates up to 0.3 and timelines, through the loop and the campaign's own
# checker.  Every run must end done or suspended with a reason, none by
# the iteration cap, and no invariant may be broken.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
export UPKIT_BIN
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # SKIP python3 is missing (scripts/install-deps check)"
	exit 0
fi
status=0
"$top/scripts/failure-campaign" --quick -j 2 -w "$T/campaign" -v >"$T/table" ||
    status=$?
if [ "$status" -eq 0 ]; then pass "campaign exits 0"; else
	fail "campaign exits 0 (status $status)"; diag "$T/table"; fi
if grep -q '^| runs | 8 |$' "$T/table"; then pass "8 runs"; else
	fail "8 runs"; diag "$T/table"; fi
if grep -q '^| violations: .* | [1-9]' "$T/table"; then
	fail "no invariant broken"; diag "$T/table"
else pass "no invariant broken"; fi
if grep -q '^| stopped by the iteration cap | 0 |$' "$T/table"; then
	pass "no run stopped by the cap"
else fail "no run stopped by the cap"; diag "$T/table"; fi
if grep -q 'no reason\|^| loop status' "$T/table"; then
	fail "every run done or suspended with a reason"; diag "$T/table"
else pass "every run done or suspended with a reason"; fi
done_testing
