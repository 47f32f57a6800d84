#!/bin/sh
# examples.t: every command in a man page's EXAMPLES section runs.
#
# Each .Dl line under .Sh EXAMPLES is run from the top of the source
# tree with the built tools on PATH.  It must exit 0 and write to
# standard output, unless the line just before it is a roff comment
#   .\" status: N
# naming the status it documents.  Docs cannot drift from behaviour.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

# unroff: the mdoc escapes used in commands back to plain text.
unroff() {
	sed -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\-/-/g' \
	    -e 's/\\&//g' -e 's/\\e/\\/g'
}

for page in man/*.1 man/*.5; do
	[ -f "$page" ] || continue
	awk '
	/^\.Sh / { in_ex = ($0 == ".Sh EXAMPLES") ; next }
	in_ex && /^\.\\" status: [0-9]+$/ { want = $3; next }
	in_ex && /^\.Dl / { sub(/^\.Dl /, ""); print (want == "" ? 0 : want) "\t" $0; want = "" }
	' "$page" >"$T/examples"
	while IFS="$(printf '\t')" read -r want line; do
		cmd=$(printf '%s\n' "$line" | unroff)
		set +e
		sh -c "$cmd" >"$T/out" 2>"$T/err" </dev/null
		st=$?
		set -e
		if [ "$st" = "$want" ] && { [ "$want" != 0 ] || [ -s "$T/out" ]; }; then
			pass "$(basename "$page"): $cmd"
		else
			fail "$(basename "$page"): $cmd (status $st, expected $want)"
			diag "$T/err"
		fi
	done <"$T/examples"
done
done_testing
