#!/bin/sh
# tools.t: promises every upkit tool keeps, checked for each binary:
# a man page that lints clean and has the sections operators look for
# (DIAGNOSTICS too, and ENVIRONMENT with the input-size limit for every
# tool that reads documents),
# --help and --version on stdout with status 0, unknown options exit 64
# with nothing on stdout, and a full disk on stdout is an error (74),
# after --help and --version too.  Every option letter follows the
# table of HACKING.md ("The letters"), and every script in scripts/
# answers --help on stdout with status 0 (issue 37).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
version=$(cat "$top/VERSION")

check_man() {
	page="$top/man/$1.1"
	if [ ! -f "$page" ]; then
		fail "$1: man/$1.1 exists"
		return
	fi
	mandoc -Tlint -W warning "$page" >"$T/lint" 2>&1 || true
	if [ -s "$T/lint" ]; then fail "$1: man page lints clean"; diag "$T/lint"
	else pass "$1: man page lints clean"; fi
	missing=""
	for s in NAME SYNOPSIS DESCRIPTION "EXIT STATUS" EXAMPLES DIAGNOSTICS \
	    "SEE ALSO"; do
		grep -q "^\.Sh $s\$" "$page" || missing="$missing $s"
	done
	if [ -z "$missing" ]; then pass "$1: man page has the usual sections"
	else fail "$1: man page lacks:$missing"; fi
	# A tool that reads documents says how large one may be.
	if grep -q load_document "$top/cmd/$1"/*.c; then
		if sed -n '/^\.Sh ENVIRONMENT$/,/^\.Sh /p' "$page" |
		    grep -q 'UPKIT_MAX_INPUT'; then
			pass "$1: man page documents the input-size limit"
		else
			fail "$1: man page documents the input-size limit (ENVIRONMENT, UPKIT_MAX_INPUT)"
		fi
	fi
}

check_options() {
	if "$1" --help >"$T/out" 2>"$T/err" && grep -q "^Usage: $1" "$T/out" &&
	    [ ! -s "$T/err" ]; then pass "$1 --help: usage on stdout, exit 0"
	else fail "$1 --help: usage on stdout, exit 0"; fi

	if "$1" --version >"$T/out" 2>&1 &&
	    [ "$(cat "$T/out")" = "$1 (upkit) $version" ]; then
		pass "$1 --version says '$1 (upkit) $version'"
	else fail "$1 --version"; diag "$T/out"; fi

	set +e; "$1" --no-such-option </dev/null >"$T/out" 2>"$T/err"; st=$?; set -e
	if [ "$st" = 64 ] && [ ! -s "$T/out" ] && grep -q "no-such-option" "$T/err"
	then pass "$1: unknown option exits 64, names it, prints nothing"
	else fail "$1: unknown option (status $st)"; diag "$T/err"; fi
}

check_full_disk() {
	tool=$1
	# every output, --help and --version included (issue 11)
	for opt in --help --version; do
		set +e; "$tool" $opt >/dev/full 2>"$T/err"; st=$?; set -e
		if [ "$st" = 74 ] && grep -q "write error" "$T/err"; then
			pass "$1 $opt > /dev/full fails with status 74"
		else fail "$1 $opt > /dev/full (status $st)"; diag "$T/err"; fi
	done
	case_dir=$(first_good_case "$tool")
	if [ -z "$case_dir" ] || [ ! -w /dev/full ]; then
		skip "$1: no successful data case to write to /dev/full"
		return
	fi
	set +e
	(cd "$case_dir" && {
		set --
		while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done
		input=/dev/null; [ -f stdin ] && input=stdin
		"$tool" "$@" <"$input"
	} <args) >/dev/full 2>"$T/err"
	st=$?
	set -e
	if [ "$st" = 74 ] && grep -q "write error" "$T/err"; then
		pass "$1 > /dev/full fails with status 74"
	else fail "$1 > /dev/full (status $st)"; diag "$T/err"; fi
}

# check_bad_input TOOL: each file of tests/bad-input/ gives status 65, one
# line on stderr naming the file, nothing on stdout.
check_bad_input() {
	# A tool that reads no input document of its own says why, and
	# where its handling of bad input is checked instead.
	if [ -f "$top/tests/$tool/bad-input-skip" ]; then
		skip "$tool: $(cat "$top/tests/$tool/bad-input-skip")"
		return
	fi
	for bad in "$top"/tests/bad-input/*.json "$top"/tests/bad-input/*.yaml; do
		name=$(basename "$bad")
		set --
		if [ -f "$top/tests/$tool/bad-input-args" ]; then
			while IFS= read -r a || [ -n "$a" ]; do
				[ "$a" = BAD ] && a=$bad
				set -- "$@" "$a"
			done <"$top/tests/$tool/bad-input-args"
		else
			set -- "$bad"
		fi
		set +e; "$tool" "$@" </dev/null >"$T/out" 2>"$T/err"; st=$?; set -e
		if [ "$st" = 65 ] && [ ! -s "$T/out" ] &&
		    [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "$name" "$T/err"; then
			pass "$tool rejects $name: status 65, one located line"
		else
			fail "$tool rejects $name (status $st)"; diag "$T/err"
		fi
	done
}

# check_statuses TOOL: the statuses its --help lists are those its man
# page's EXIT STATUS lists, value by value, and both list 64, 71 (out
# of memory, which every tool can hit) and 74.
check_statuses() {
	"$1" --help | tr '\n' ' ' | sed -n 's/.*Exit status:\(.*\)/\1/p' |
	    grep -oE '(^|[ (,])[0-9]{1,3} ' | tr -dc '0-9\n ' | tr ' ' '\n' |
	    grep . | sort -n | tr '\n' ' ' >"$T/help-st"
	sed -n '/^\.Sh EXIT STATUS$/,/^\.Sh /p' "$top/man/$1.1" |
	    grep -oE '^\.It (Sy |Cm |Li )?[0-9]+' | grep -oE '[0-9]+$' |
	    sort -n | tr '\n' ' ' >"$T/man-st"
	if cmp -s "$T/help-st" "$T/man-st" &&
	    grep -q ' 64 .*71 .*74 ' "$T/man-st"; then
		pass "$1: --help and EXIT STATUS list the same statuses ($(cat "$T/man-st"))"
	else
		fail "$1: --help lists $(cat "$T/help-st")but EXIT STATUS $(cat "$T/man-st")(64, 71, 74 in both)"
	fi
}

# letters: HACKING.md's table as "LETTER LONG" lines (the meanings) and
# "TOOL LETTER LONG" lines (those kept from before).
sed -n '/^## The letters/,/^## /p' "$top/HACKING.md" |
    grep '^| `-' >"$T/table"
while IFS='|' read -r _ letter longs _; do
	l=$(printf '%s' "$letter" | tr -d ' `')
	for long in $(printf '%s' "$longs" | tr -d '`,'); do
		echo "$l $long"
	done
done <"$T/table" >"$T/meanings"
# shellcheck disable=SC2016 # the backquotes are the table's, literal
grep -oE '`[a-z-]+ -. --[a-z-]+`' "$T/table" | tr -d '`' >"$T/kept"

# check_letters TOOL: each "-X, --long" of its --help is a meaning of the
# table, a meaning kept for TOOL, or a letter and a long option the table
# does not name.
check_letters() {
	"$1" --help | grep -E '^ +-[^-], ' | sed 's/=.*//; s/ [A-Z.]*$//' |
	    while read -r line; do
		long=$(printf '%s\n' "$line" | grep -oE -- '--[a-z-]+' | head -n 1)
		for l in $(printf '%s\n' "$line" | grep -oE -- '(^| )-[^-],' | tr -d ' ,'); do
			echo "$l $long"
		done
	done >"$T/pairs"
	bad=""
	while read -r l long; do
		grep -qxF -- "$l $long" "$T/meanings" && continue
		grep -qxF -- "$1 $l $long" "$T/kept" && continue
		if grep -q -- "^$l " "$T/meanings" || grep -q -- " $long\$" "$T/meanings"; then
			bad="$bad $l=$long"
		fi
	done <"$T/pairs"
	if [ -z "$bad" ]; then pass "$1: its letters follow HACKING.md's table"
	else fail "$1: letters against HACKING.md's table:$bad"; fi
}

for script in "$top"/scripts/*; do
	name=$(basename "$script")
	set +e; "$script" --help </dev/null >"$T/out" 2>"$T/err"; st=$?; set -e
	if [ "$st" = 0 ] && [ -s "$T/out" ] && [ ! -s "$T/err" ]; then
		pass "scripts/$name --help: usage on stdout, exit 0"
	else
		fail "scripts/$name --help (status $st)"; diag "$T/err"
	fi
done

for tool in $(tools); do
	check_letters "$tool"
	check_bad_input "$tool"
	check_man "$tool"
	check_statuses "$tool"
	check_options "$tool"
	check_full_disk "$tool"
done
for page in "$top"/man/*.5; do
	[ -f "$page" ] || continue
	mandoc -Tlint -W warning "$page" >"$T/lint" 2>&1 || true
	if [ -s "$T/lint" ]; then fail "$(basename "$page") lints clean"; diag "$T/lint"
	else pass "$(basename "$page") lints clean"; fi
done
done_testing
