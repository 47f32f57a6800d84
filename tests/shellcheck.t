#!/bin/sh
# tests/shellcheck.t: every shell file in the tree passes shellcheck at every
# severity, so that quoting mistakes (the way input data could reach a
# shell) are caught before review.  The shell files are the tracked
# files whose first line is a sh, bash or dash shebang or a "shellcheck
# shell=" directive, the *.sh files (scripts, tests/*.t, tests/lib.sh,
# tests/run, .ci/run, the e2e cases and the stubs beside the data), and
# every data case's cmd, checked as sh since tests/cases.t runs it with
# sh -c.  A finding fails the file it is in; where a finding is the
# intent, the line says so in a disable directive with its reason.
# Scripts in other languages are left to their own tools.  It reads the
# files git tracks, not a build: plain build only.
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
if ! git ls-files >"$T/tracked" 2>/dev/null; then
	echo "1..0 # SKIP not a git checkout (the files to check are those git tracks)"
	exit 0
fi

# The two lists: the cases' cmd files, and the other shell files (by
# their first line; a tracked file deleted in the work tree is left out).
grep -E '^tests/[^/]+/[^/]+/cmd$' "$T/tracked" >"$T/cmd" || :
grep -vxF -f "$T/cmd" "$T/tracked" | while IFS= read -r f; do
	if [ -f "$f" ]; then printf '%s\0' "$f"; fi
done | xargs -0 awk 'FNR == 1 {
	if (FILENAME ~ /\.sh$/ || /^#!.*[\/ \t](ba|da)?sh([ \t].*)?$/ ||
	    /^# shellcheck shell=/)
		print FILENAME
	nextfile
    }' >"$T/shell"

# the lists hold what they must: a change to the classification that
# loses a kind of shell file fails here.
for f in tests/lib.sh tests/run tests/cases.t .ci/run scripts/upgrade-loop \
    scripts/evaluate tests/ansible-report/e2e-env.sh \
    tests/ansible-report/e2e-pipeline-two-iterations/e2e.sh \
    examples/fig1/stubs/stub; do
	grep -qxF "$f" "$T/shell" || echo "$f"
done >"$T/lost"
grep -qxF tests/upgrade-loop/resume-keeps-inputs-and-summary/cmd "$T/cmd" ||
    echo tests/upgrade-loop/resume-keeps-inputs-and-summary/cmd >>"$T/lost"
if [ ! -s "$T/lost" ] &&
    ! grep -qxE 'scripts/(gen-cloud|match-csp-gen)' "$T/shell"; then
	pass "$(wc -l <"$T/shell") shell files and $(wc -l <"$T/cmd") cases' cmd files to check"
else
	fail "the shell files to check: these are missing (or a Python script is listed)"
	diag "$T/lost"
fi

# One shellcheck per list, both at once; gcc format, a finding a line.
# -P SCRIPTDIR: a "source=" path is the tree's or the sourcing file's.
xargs shellcheck -S style -x -P SCRIPTDIR -f gcc <"$T/shell" \
    >"$T/shell.out" 2>"$T/shell.err" &
cmd_st=0
xargs shellcheck -S style -s sh -f gcc <"$T/cmd" >"$T/cmd.out" 2>"$T/cmd.err" ||
    cmd_st=$?
wait $! && shell_st=0 || shell_st=$?

# ran LIST STATUS: whether shellcheck ran over LIST (status 123 is
# xargs's for "a run found something").
ran() {
	if { [ "$2" -eq 0 ] || [ "$2" -eq 123 ]; } && [ ! -s "$T/$1.err" ]; then
		return 0
	fi
	fail "shellcheck ran over the $1 files (status $2)"
	diag "$T/$1.err"
	return 1
}

# verdicts LIST HOW: a test per file of LIST, with its findings.
verdicts() {
	awk -F: 'FILENAME == ARGV[1] { bad[$1] = 1; next }
	    { print (($0 in bad) ? "bad" : "ok"), $0 }' "$T/$1.out" "$T/$1" \
	    >"$T/$1.verdicts"
	while read -r verdict f; do
		if [ "$verdict" = ok ]; then
			pass "$f is shellcheck-clean$2"
		else
			fail "$f is shellcheck-clean$2"
			grep -F "$f:" "$T/$1.out" | sed 's/^/#   /' >&2
		fi
	done <"$T/$1.verdicts"
}

if ran shell "$shell_st"; then verdicts shell ""; fi
if ran cmd "$cmd_st"; then verdicts cmd " (as sh, as cases.t runs it)"; fi
done_testing
