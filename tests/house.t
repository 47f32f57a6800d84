#!/bin/sh
# house.t: the rules of the house that the compiler cannot check.
#  - File-scope mutable variables stay under 20 (qsort contexts aside):
#    each is state no type shows, which every function may touch
#    (tests/house/filescope.py lists them).
#  - A tool's main() is its tables and one call of stage_main(): no main
#    repeats the start-up or the teardown (HACKING.md, item 2).
#  - Only diag.c writes to stderr, and the loop has no JSON writer of its
#    own beside jwriter.
# It reads the sources, not a build: plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (it reads the sources)"
	exit 0
fi
cd "$top" || exit 1

python3 tests/house/filescope.py cmd/*/*.c common/*/*.c >"$T/vars"
n=$(wc -l <"$T/vars")
if [ "$n" -lt 20 ]; then
	pass "file-scope mutable variables: $n, under 20"
else
	fail "file-scope mutable variables: $n, under 20"
	diag "$T/vars"
fi

# The counter itself: it must see a mutable one, and not a const table.
cat >"$T/probe.c" <<'C'
static const char *const names[] = { "a", "b" };
static const char *mutable_name = "x";
static int counter, *where;
static const struct { int a; } table = { 1 };
static int
f(void)
{
	static int inside;
	return inside++;
}
C
python3 tests/house/filescope.py "$T/probe.c" | sed 's/.*: //' >"$T/found"
printf '%s\n' mutable_name counter where >"$T/want"
if cmp -s "$T/found" "$T/want"; then
	pass "the counter finds mutable_name, counter and where, nothing else"
else
	fail "the counter finds mutable_name, counter and where, nothing else"
	diag "$T/found"
fi

# Diagnostics only through diag.h, which escapes what comes from input.
if grep -n 'fprintf(stderr' cmd/*/*.c common/*/*.c | grep -v '^common/plumbing/diag\.c:' >"$T/hits"; then
	fail "stderr is written by diag.c alone"
	diag "$T/hits"
else
	pass "stderr is written by diag.c alone"
fi
# The loop writes its JSON through jwriter, not a writer of its own.
if grep -n 'json_dump' cmd/upgrade-loop/*.c >"$T/hits" ||
    ls cmd/upgrade-loop/jqdump.c >"$T/hits" 2>/dev/null; then
	fail "upgrade-loop writes JSON through jwriter alone"
	diag "$T/hits"
else
	pass "upgrade-loop writes JSON through jwriter alone"
fi

# The sequence stage_main runs, called by hand from a main file.
for tool in cmd/*/; do
	name=$(basename "$tool")
	main="$tool$name.c"
	case $name in
	upgrade-loop) continue ;;	# a daemon of its own: no document
	esac
	if grep -nE '\b(cli_init|argp_parse|output_close|docsession_open|answer_file_close)\(' \
	    "$main" >"$T/hits"; then
		fail "$name: main runs through stage_main"
		diag "$T/hits"
	else
		pass "$name: main runs through stage_main"
	fi
done
done_testing
