#!/bin/sh
# install.t: "make install" honours PREFIX and DESTDIR, installs every
# tool and every man page, and the installed tools run from there.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
stage="$T/stage"
if make -s -C "$top" install PREFIX=/opt/upkit DESTDIR="$stage" \
    SANITIZE="${UPKIT_SANITIZE:-}" >"$T/log" 2>&1; then
	pass "make install PREFIX=/opt/upkit DESTDIR=... succeeds"
else
	fail "make install"; diag "$T/log"
fi
for tool in $(tools); do
	bin="$stage/opt/upkit/bin/$tool"
	if [ -x "$bin" ] && "$bin" --version | grep -q "^$tool (upkit) "; then
		pass "$tool installed under DESTDIR/PREFIX/bin and runs"
	else
		fail "$tool installed under DESTDIR/PREFIX/bin and runs"
	fi
done
for page in "$top"/man/*.[15]; do
	name=$(basename "$page")
	sect=${name##*.}
	if cmp -s "$page" "$stage/opt/upkit/share/man/man$sect/$name"; then
		pass "$name installed in share/man/man$sect"
	else
		fail "$name installed in share/man/man$sect"
	fi
done
if [ -z "$(find "$stage" -path "$stage/opt" -prune -o -print | sed 1d)" ]; then
	pass "nothing is installed outside DESTDIR/PREFIX"
else
	fail "nothing is installed outside DESTDIR/PREFIX"
fi
done_testing
