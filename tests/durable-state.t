#!/bin/sh
# durable-state.t: every file upgrade-loop later trusts is written,
# fsynced, renamed into place, and its folder fsynced, in that order
# (issue 38; common/plumbing/durable.h), seen by strace(1) on one
# iteration of the Fig. 1 example with the simulator.  A name with .tmp
# in it is a temporary one (new_tmp) and is not checked.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if ! command -v strace >/dev/null 2>&1; then
	echo "1..0 # SKIP strace is missing"
	exit 0
fi
if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace cannot trace here (ptrace refused)"
	exit 0
fi
plan 3

fig1="$top/examples/fig1"
status=0
# LeakSanitizer cannot run under ptrace: leaks are checked by every
# other test of the sanitized build, not by this traced one.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -ff -qq -y -e trace=fsync,fdatasync,rename,renameat,renameat2 \
    -o "$T/trace" "$UPKIT_BIN/upgrade-loop" -q -n 1 -d "$T/s" \
    -s "$fig1/system.yaml" -k "$fig1/catalog.yaml" \
    -r "$fig1/request.yaml" >"$T/out" 2>"$T/err" || status=$?
if [ "$status" -eq 2 ]; then
	pass "one traced iteration stops at -n 1 (status 2)"
else
	fail "one traced iteration stops at -n 1 (status $status)"
	diag "$T/err"
fi

# order FILE: "renamed NAME" for each final name whose file was synced
# before its rename and whose folder was synced after it, before the
# process's next rename; "bad NAME: why" otherwise.
order() {
	awk '
	function base(p) { sub(/.*\//, "", p); return p }
	function dir(p) { sub(/\/[^\/]*$/, "", p); return p }
	function arg(s, k,    a) {
		# the k-th quoted path of a rename line
		n = split(s, a, "\"")
		return a[2 * k]
	}
	/^(fsync|fdatasync)\(/ && / = 0$/ {
		p = $0; sub(/^[a-z]*\([0-9]*</, "", p); sub(/>\).*/, "", p)
		synced[p] = 1
		if (pending != "" && p == want) {
			print "renamed " pending
			pending = ""
		}
		next
	}
	/^rename(at2?)?\(/ && / = 0$/ {
		from = arg($0, 1); to = arg($0, 2)
		if (pending != "")
			print "bad " pending ": its folder was not synced after the rename"
		pending = ""
		if (base(to) ~ /\.tmp/)
			next
		if (!(from in synced))
			print "bad " base(to) ": not synced before the rename"
		else {
			pending = base(to)
			want = dir(to)
		}
	}
	END { if (pending != "") print "bad " pending ": its folder was not synced after the rename" }
	' "$1"
}
for f in "$T"/trace.*; do
	order "$f"
done | sort >"$T/order"

set -- 1-rg.json 2-cg.json 3-batch.json 4-migrations.json 4-check.txt \
    5-report.started 5-report.json inputs summary.json summary.txt
missing=""
for name in "$@"; do
	grep -qx "renamed $name" "$T/order" || missing="$missing $name"
done
if [ -z "$missing" ]; then
	pass "each trusted file is synced, renamed, then its folder synced ($# names)"
else
	fail "each trusted file is synced, renamed, then its folder synced (not:$missing)"
	diag "$T/order"
fi
if ! grep -q '^bad ' "$T/order"; then
	pass "no file of the state directory is renamed into place unsynced"
else
	fail "no file of the state directory is renamed into place unsynced"
	grep '^bad ' "$T/order" | diag -
fi
