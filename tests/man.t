#!/bin/sh
# man.t: every man page renders whole under both formatters people read
# them with: mandoc, and groff, which Debian's man(1) runs (issue 37,
# finding 2).  For each man/*.1 and man/*.5:
#
#   - groff -mandoc -ww -z says nothing and exits 0: every warning is an
#     error, since a macro groff cannot set ("cannot chop empty macro")
#     can cut the page short, and a line it cannot set ("cannot adjust
#     line") shows a display broken;
#   - groff -mandoc -Tascii and mandoc -Tascii give as many lines, within
#     3 lines plus 1 % of mandoc's count: the two hyphenate differently
#     (groff breaks words at line ends, mandoc never does), which moves
#     a page by a few lines at most (6 of upkit-state(5)'s 1,172), while
#     a page cut short loses most of its lines.
#
# The check is first run on two pages broken on purpose, which it must
# refuse: one citing with an .Rs block inside a sentence (as upkit-
# state(5) did before babae07, which man(1) cut to 49 of 1,097 lines)
# and one whose example line leaves a word alone on a justified line.
# It reads the pages, not a build: plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (it reads the man pages)"
	exit 0
fi
for p in groff mandoc; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done

# man_problems PAGE: what is wrong with PAGE under groff, on stdout;
# nothing when it renders whole.
man_problems() {
	groff -mandoc -ww -z "$1" >"$T/warn" 2>&1 || echo "groff exits $?"
	sed 's/^/groff: /' "$T/warn"
	g=$(groff -mandoc -Tascii "$1" 2>/dev/null | wc -l)
	m=$(mandoc -Tascii "$1" 2>/dev/null | wc -l)
	d=$((g > m ? g - m : m - g))
	if [ "$d" -gt $((3 + m / 100)) ]; then
		echo "groff renders $g lines, mandoc $m"
	fi
}

# A page of 60 lines whose citation groff cannot set in a sentence.
{
	printf '.Dd November 28, 2026\n.Dt BROKEN 1\n.Os upkit\n'
	printf '.Sh NAME\n.Nm broken\n.Nd a page broken on purpose\n'
	printf '.Sh DESCRIPTION\nThe method of\n.Rs\n.%%A Mina Nabi\n'
	printf '.%%T An Approach for the Automation of IaaS Cloud Upgrade\n'
	printf '.Re\nis followed.\n'
	i=0
	while [ "$i" -lt 50 ]; do
		printf '.Pp\nParagraph %s.\n' "$i"
		i=$((i + 1))
	done
} >"$T/cut.1"
man_problems "$T/cut.1" >"$T/cut.out"
if grep -q 'cannot chop' "$T/cut.out" && grep -q 'groff renders' "$T/cut.out"; then
	pass "the check refuses a page groff cuts short ($(grep 'renders' "$T/cut.out"))"
else
	fail "the check refuses a page groff cuts short"
	diag "$T/cut.out"
fi

{
	printf '.Dd November 28, 2026\n.Dt BROKEN 1\n.Os upkit\n'
	printf '.Sh NAME\n.Nm broken\n.Nd a page broken on purpose\n'
	printf '.Sh EXAMPLES\nA hand-broken plan:\n.Dl scripts/upkit-check '
	printf 'tests/upkit-check/destination-out-of-service/plan.json\n'
} >"$T/adjust.1"
man_problems "$T/adjust.1" >"$T/adjust.out"
if grep -q 'cannot adjust' "$T/adjust.out"; then
	pass "the check refuses a page with a line groff cannot adjust"
else
	fail "the check refuses a page with a line groff cannot adjust"
	diag "$T/adjust.out"
fi

for page in "$top"/man/*.1 "$top"/man/*.5; do
	[ -f "$page" ] || continue
	man_problems "$page" >"$T/problems"
	if [ -s "$T/problems" ]; then
		fail "$(basename "$page") renders whole under groff and mandoc"
		diag "$T/problems"
	else
		pass "$(basename "$page") renders whole under groff and mandoc"
	fi
done
done_testing
