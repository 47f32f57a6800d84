#!/bin/sh
# show-html.t: upkit-show --html draws a whole upgrade, and a real
# browser shows what it should (issue 37, finding 9).
#
# The Fig. 1 upgrade runs with a Ceph install failing at every attempt:
# on host7 through upkit-sim to its end (host7 fails for good after
# three attempts), and on host3 through the real ansible-playbook, "-c
# local" with the example's stand-ins and a cephadm that fails there,
# for the first iteration.  For each, upkit-show --html writes the page, the
# same bytes twice, with no script and nothing to fetch; Debian's
# chromium, headless, offline (in a network namespace of its own when
# it can have one) and bounded in time, then dumps the DOM it built,
# which must hold a lane per host of Fig. 1, the failure marks on
# the failing host's lane and no other, the marks of the attempts run again, a
# chart per tenant and a row per iteration; and renders the page to a
# PNG of the window's size in which the upgrades' blue and the
# failures' red are drawn.  A system whose host and tenant names hold
# <, &, quotes and "</svg>" gives the same elements, the names as text;
# a report broken in the third iteration gives 65 and no output.  It
# took 4 to 5 minutes on this 2-core machine at a load of 14 to 17,
# most of it Ansible's; plain build only.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
if [ -n "${UPKIT_SANITIZE:-}" ]; then
	echo "1..0 # SKIP plain build only (the upkit-show cases run sanitized)"
	exit 0
fi
for p in chromium ansible-playbook jq python3; do
	if ! command -v "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP $p is missing (scripts/install-deps check)"
		exit 0
	fi
done

fig1="$top/examples/fig1"
set -- -s "$fig1/system.yaml" -k "$fig1/catalog.yaml" -r "$fig1/request.yaml"

# browser ARGS... PAGE: headless chromium on PAGE, two minutes at most,
# without the network: in a namespace with none when unshare can make
# one, and never told to fetch anything.  As root (here, or in the
# namespace) it must run without its sandbox.
offline=""
if unshare -n true 2>/dev/null; then offline="unshare -n"
elif unshare -rn true 2>/dev/null; then offline="unshare -rn"; fi
nosandbox=""
if [ "$(id -u)" -eq 0 ] || [ "$offline" = "unshare -rn" ]; then
	nosandbox=--no-sandbox
fi
browser() {
	# shellcheck disable=SC2086 # $offline and $nosandbox split on purpose
	timeout 120 $offline chromium --headless $nosandbox --disable-gpu \
	    --user-data-dir="$T/chrome" --no-first-run \
	    --no-default-browser-check --disable-background-networking \
	    --disable-component-update --disable-sync --disable-extensions \
	    --hide-scrollbars "$@" 2>>"$T/chromium.err"
}

# lane NAME DOM: NAME's lane in a dumped DOM, a line a mark.
lane() {
	awk -v start="data-lane=\"$1\">" 'index($0, start) { on = 1 }
	    on { print } on && /<\/g>/ { exit }' "$2"
}

# timeline DOM: the timeline's lanes in a dumped DOM.
timeline() { sed -n '/<svg id="timeline"/,/<\/svg>/p' "$1"; }

# picture DIR NAME: $T/NAME.html from DIR, twice the same, self-contained.
picture() {
	if upkit-show --html "$1" >"$T/$2.html" 2>"$T/$2.err" &&
	    upkit-show --html "$1" | cmp -s - "$T/$2.html"; then
		pass "$2: upkit-show --html writes the page, the same bytes twice"
	else
		fail "$2: upkit-show --html writes the page, the same bytes twice"
		diag "$T/$2.err"
	fi
	if grep -Eiq '<script|<link|<img|<iframe|src=|href=|url\(|@import' \
	    "$T/$2.html" || [ "$(grep -o 'https\{0,1\}://[^"]*' "$T/$2.html" |
	    sort -u)" != "http://www.w3.org/2000/svg" ]; then
		fail "$2: the page has no script and nothing to fetch"
	else
		pass "$2: the page has no script and nothing to fetch"
	fi
	browser --dump-dom "file://$T/$2.html" >"$T/$2.dom"
}

# fig1_lanes NAME N: the DOM of NAME has one lane per host of Fig. 1, N
# in all with the switches, routers and storage (the VSAN, and Ceph once
# the second iteration made it).
fig1_lanes() {
	missing=""
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		[ "$(grep -c "data-lane=\"host$i\">" "$T/$1.dom")" -eq 1 ] ||
		    missing="$missing host$i"
	done
	n=$(grep -c '<g class="lane' "$T/$1.dom" || true)
	if [ -z "$missing" ] && [ "$n" -eq "$2" ]; then
		pass "$1: the browser shows a lane per host of Fig. 1 ($n lanes)"
	else
		fail "$1: the browser shows a lane per host of Fig. 1 ($n lanes, missing:$missing)"
		head -c 2000 "$T/$1.dom" | diag -
		grep -v dbus "$T/chromium.err" | tail -20 | diag -
	fi
}

# failed_only_on NAME HOST N: N failure marks, each with its cross, on
# HOST's lane, and none on another.
failed_only_on() {
	on=$(lane "$2" "$T/$1.dom" | grep -o 'class="mark upgrade failed' | wc -l)
	x=$(lane "$2" "$T/$1.dom" | grep -o '<path class="x"' | wc -l)
	all=$(timeline "$T/$1.dom" | grep -o 'class="mark [a-z-]* failed' | wc -l)
	others=$((all - on))
	if [ "$on" -eq "$3" ] && [ "$x" -eq "$3" ] && [ "$others" -eq 0 ]; then
		pass "$1: $2's lane has its $3 failure marks, no other lane has one"
	else
		fail "$1: $2's lane has its $3 failure marks ($on, $x crosses, $others elsewhere)"
	fi
}

# 1. Through the simulator, to the end.
"$top/scripts/upgrade-loop" -q -d "$T/sim" "$@" -- \
    -f r1/storage-to-ceph.3:host7:1 >/dev/null 2>"$T/sim.err" || true
if [ "$(jq -r .outcome "$T/sim/summary.json")" = finished-with-failures ]; then
	pass "sim: the loop ends, host7 failed"
else
	fail "sim: the loop ends, host7 failed"
	diag "$T/sim.err"
fi
picture "$T/sim" sim
fig1_lanes sim 21
failed_only_on sim host7 3
if [ "$(grep -o 'class="lane failed"' "$T/sim.dom" | wc -l)" -eq 1 ] &&
    lane host7 "$T/sim.dom" | grep -q 'class="lane failed".*failed</text>' &&
    lane host7 "$T/sim.dom" | grep -q 'class="mark upgrade failed retry" data-iteration="5" data-attempt="3"' &&
    lane host7 "$T/sim.dom" | grep -q '<circle class="retry"'; then
	pass "sim: host7 alone is marked failed, its third attempt in iteration 5 as run again"
else
	fail "sim: host7 alone is marked failed, its third attempt in iteration 5 as run again"
	lane host7 "$T/sim.dom" | head -c 3000 | diag -
fi
tenants=$(grep -o '<figure class="tenant" data-tenant="t[1-4]">' "$T/sim.dom" | wc -l)
rows=$(grep -o '<tr id="iteration-[1-8]" class="ran">' "$T/sim.dom" | wc -l)
if [ "$tenants" -eq 4 ] && [ "$rows" -eq 8 ] &&
    [ "$(grep -o '<rect class="out' "$T/sim.dom" | wc -l)" -ge 8 ] &&
    grep -q '<tr id="iteration-3".*1 failed, 1 undone' "$T/sim.dom"; then
	pass "sim: a chart of VMs out per tenant, a row per iteration with its failures"
else
	fail "sim: a chart per tenant ($tenants), a row per iteration ($rows)"
fi

# The PNG: the window's size, the upgrades drawn in blue, failures in red.
browser --window-size=1280,720 --screenshot="$T/sim.png" \
    "file://$T/sim.html" >/dev/null
# shellcheck disable=SC2046 # the four numbers, one argument each
set -- $(python3 "$top/tests/show-html/png-colors" "$T/sim.png" '#3a72c4' \
    '#d23b32' 2>&1 || echo failed)
if [ "${1:-}" = 1280 ] && [ "${2:-}" = 720 ] && [ "${3:-0}" -ge 5000 ] &&
    [ "${4:-0}" -ge 40 ]; then
	pass "sim: chromium renders a 1280x720 PNG with $3 blue and $4 red pixels"
else
	fail "sim: chromium renders the page to a PNG ($*)"
	grep -v dbus "$T/chromium.err" | tail -20 | diag -
fi

# 2. Names that mean something to HTML stay text.
sed -e "s/\bhost14\b/'<h14 \& \"x''>'/g" -e 's/\bt4\b/t4<\/svg>/g' \
    "$fig1/system.yaml" >"$T/odd-system.yaml"
"$top/scripts/upgrade-loop" -q -d "$T/odd" -s "$T/odd-system.yaml" \
    -k "$fig1/catalog.yaml" -r "$fig1/request.yaml" >/dev/null 2>&1 || true
picture "$T/odd" odd
if ! grep -q '<h14\|t4</svg>' "$T/odd.html" &&
    [ "$(grep -o '<svg' "$T/odd.dom" | wc -l)" -eq 7 ] &&
    [ "$(grep -o '<figure' "$T/odd.dom" | wc -l)" -eq 4 ] &&
    grep -qF '<text class="name" x="164.0" y="259" text-anchor="end">&lt;h14 &amp; "x'"'"'&gt;</text>' "$T/odd.dom" &&
    grep -qF '<b>t4&lt;/svg&gt;</b>' "$T/odd.dom"; then
	pass "odd: a host named <h14 & \"x'> and a tenant t4</svg> stay text, nothing added"
else
	fail "odd: names with <, &, quotes and </svg> stay text"
	grep -o '.\{80\}h14.\{80\}' "$T/odd.dom" | head -3 | diag -
fi

# 3. Through Ansible, the first iteration; cephadm fails on host3.
mkdir -p "$T/home" "$T/tmp" "$T/ran.d" "$T/failing"
cat >"$T/failing/cephadm" <<'EOF'
#!/bin/sh
# upkit-stub: a stand-in for cephadm that fails to add host3.
[ "$1 $2" = "add-host host3" ] && exit 1
exit 0
EOF
chmod +x "$T/failing/cephadm"
cat >"$T/actuator" <<EOF
#!/bin/sh
exec "$top/scripts/actuate-ansible" -c local
EOF
chmod +x "$T/actuator"
(
	export UPKIT_STUB_LOG="$T/ran.d" HOME="$T/home" ANSIBLE_LOCAL_TEMP="$T/tmp" \
	    ANSIBLE_REMOTE_TEMP="$T/tmp" ANSIBLE_PYTHON_INTERPRETER=auto_silent \
	    ANSIBLE_NOCOLOR=1 PATH="$T/failing:$fig1/stubs:$PATH"
	timeout 600 "$top/scripts/upgrade-loop" -q -n 1 -a "$T/actuator" \
	    -d "$T/ansible" -s "$fig1/system.yaml" -k "$fig1/catalog.yaml" \
	    -r "$fig1/request.yaml" >/dev/null 2>"$T/ansible.err"
) || true
if jq -e '.report.actuator == "ansible" and .report.results["r1/storage-to-ceph.3:host3:1"] == "failed"' \
    "$T/ansible/iter-1/5-report.json" >/dev/null 2>&1; then
	pass "ansible: the first iteration ran, host3's Ceph install failed"
else
	fail "ansible: the first iteration ran, host3's Ceph install failed"
	diag "$T/ansible.err"
fi
picture "$T/ansible" ansible
fig1_lanes ansible 20
failed_only_on ansible host3 1
if grep -q 'Times are estimates' "$T/ansible.dom" &&
    grep -q '<tr id="iteration-1" class="ran">.*1 failed, 1 undone' "$T/ansible.dom"; then
	pass "ansible: the times are said to be estimates, the iteration's row has its failure"
else
	fail "ansible: the times are said to be estimates, the iteration's row has its failure"
fi

# 4. Bad input: a status, a message, and nothing on standard output.
cp -r "$T/sim" "$T/broken"
echo '{"format": "upkit-state"' >"$T/broken/iter-3/5-report.json"
st=0
upkit-show --html "$T/broken" >"$T/broken.out" 2>"$T/broken.err" || st=$?
if [ "$st" -eq 65 ] && [ ! -s "$T/broken.out" ] &&
    grep -q 'iter-3/5-report.json:' "$T/broken.err"; then
	pass "a report broken in iteration 3: 65, said where, nothing written"
else
	fail "a report broken in iteration 3 (status $st)"
	diag "$T/broken.err"
fi
done_testing
