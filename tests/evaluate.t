#!/bin/sh
# evaluate.t: scripts/evaluate reproduces docs/evaluation.md.
#
# Seed 000 section V: each placement of examples/eval through the
# rolling baseline (batch sizes 1-4) and upkit's loop (F = 1 and
# F = 0).  Every table row it prints must be one docs/evaluation.md
# shows, and there must be twelve (six per placement).  About 20 s;
# plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only"
	exit 0
fi
plan 2
"$top/scripts/evaluate" >"$T/eval.md" 2>"$T/err" || true
grep '^| ' "$T/eval.md" | grep -v '^| Method\|^|---' >"$T/rows"
n=$(wc -l <"$T/rows")
if [ "$n" -eq 12 ] && grep -q '^| upkit (F = 1), [0-9]* iterations |' "$T/rows"; then
	pass "twelve rows, upkit's among them"
else
	fail "twelve rows, upkit's among them ($n)"
	diag "$T/eval.md" "$T/err"
fi
: >"$T/missing"
while IFS= read -r row; do
	grep -qF -- "$row" "$top/docs/evaluation.md" || echo "$row" >>"$T/missing"
done <"$T/rows"
if [ -s "$T/rows" ] && [ ! -s "$T/missing" ]; then
	pass "every row is the one docs/evaluation.md shows"
else
	fail "every row is the one docs/evaluation.md shows"
	diag "$T/missing"
fi
