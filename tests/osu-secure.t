#!/bin/sh
# shellcheck disable=SC2016 # wait_for's conditions and subjects with $ are quoted on purpose
# osu-secure.t: the bus secured as examples/os-upgrade/nats-server.conf
# has it (issue 44, finding 9), on a real nats-server at a free port of
# 127.0.0.1 run with that file (its port and paths replaced), with a CA
# and a server certificate the test makes with openssl:
#
# 1. osu-run and two workers, each with --tls-ca and its own
#    --user-file, complete a run: the permissions are enough;
# 2. a worker with a wrong password is refused (69, "Authorization
#    Violation"), and one that does not use TLS too;
# 3. a worker's user cannot publish a command, nor another host's
#    reply, nor read another host's commands or inbox: the server
#    denies it (tests/nats-probe speaks the protocol), while its own
#    reply subject is allowed;
# 4. osu-worker run as h02 with h01's credentials cannot read h02's
#    replies from the server (its inbox): it is denied and exits 69.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/osu-lib.sh
. "$(dirname "$0")/osu-lib.sh"
if ! command -v openssl >/dev/null 2>&1; then
	echo "1..0 # SKIP openssl is not installed"
	exit 0
fi
trap 'bus_stop; tap_cleanup' EXIT
plan 7

# The CA, and the server's certificate for 127.0.0.1, signed by it.
(
	cd "$T"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem \
	    -days 1 -subj "/CN=upkit test CA"
	openssl req -newkey rsa:2048 -nodes -keyout server-key.pem -out server.csr \
	    -subj "/CN=127.0.0.1"
	printf 'subjectAltName=IP:127.0.0.1\n' >ext
	openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem \
	    -CAcreateserial -out server-cert.pem -days 1 -extfile ext
) >"$T/openssl.log" 2>&1
port=$(free_port)
url="nats://127.0.0.1:$port"
sed -e "s|127.0.0.1:4222|127.0.0.1:$port|" -e "s|/var/lib/nats/jetstream|$T/js|" \
    -e "s|/etc/nats/|$T/|" "$top/examples/os-upgrade/nats-server.conf" >"$T/server.conf"
OSU_CTL_PASS=ctl-secret OSU_H01_PASS=h01-secret OSU_H02_PASS=h02-secret \
    nats server -c "$T/server.conf"
umask 077
echo "os-upgrade-controller:ctl-secret" >"$T/ctl.user"
echo "h01:h01-secret" >"$T/h01.user"
echo "h02:h02-secret" >"$T/h02.user"
echo "h01:not-the-secret" >"$T/bad.user"
umask 022
tls="--tls-ca $T/ca.pem"
upgrades() { grep -c "^$1 upgrade\$" "$T/log" || true; }

# 1. A run with TLS, passwords from files and the permissions.  The
# driver starts first: it alone may create the stream.
: >"$T/log"
osu_state "$T/state.json" 40s h01 h02
# shellcheck disable=SC2086 # $tls is two words
behind "$T/driver.pid" osu-run -1 -s "$url" $tls --user-file "$T/ctl.user" \
    "$T/state.json" 2>"$T/driver.err"
wait_for '[ "$(jq -r .os_upgrade.status "$T/state.json")" = running ]' 100 || true
for h in h01 h02; do
	worker_conf "$T" "$h"
	# shellcheck disable=SC2086
	behind "$T/$h.pid" osu-worker -s "$url" $tls --user-file "$T/$h.user" \
	    "$T/$h.yaml" 2>"$T/$h.err"
done
set +e
wait "$(cat "$T/driver.pid")"
st=$?
set -e
if [ "$st" = 0 ] && [ "$(result_of "$T/state.json")" = completed ] &&
    [ "$(upgrades h01)" = 1 ] && [ "$(upgrades h02)" = 1 ]; then
	pass "secure: a run over TLS, each program with its own user and permissions, completes"
else
	fail "secure: a run over TLS with users and permissions completes (got $st)"
	diag "$T/driver.err" "$T/h01.err" "$T/h02.err" "$T/log"; grep Violation "$T/server.log" | diag
fi

# 2. Refused connections.
worker_conf "$T" h09
set +e
# shellcheck disable=SC2086
timeout 30 osu-worker -s "$url" $tls --user-file "$T/bad.user" "$T/h01.yaml" 2>"$T/bad.err"
st=$?
set -e
if [ "$st" = 69 ] && grep -q "Authorization Violation" "$T/bad.err"; then
	pass "secure: a worker with a wrong password is refused (69, Authorization Violation)"
else
	fail "secure: a worker with a wrong password is refused (got $st)"; diag "$T/bad.err"
fi
set +e
timeout 30 osu-worker -s "$url" --user-file "$T/h01.user" "$T/h01.yaml" 2>"$T/plain.err"
st=$?
set -e
if [ "$st" = 69 ]; then
	pass "secure: a worker without TLS is refused (69)"
else
	fail "secure: a worker without TLS is refused (got $st)"; diag "$T/plain.err"
fi

# 3. What h01's user may publish and read, as the server answers it.
probe() { timeout 30 "$top/tests/nats-probe" "$port" "$T/ca.pem" "$T/h01.user" "$@"; }
if probe pub os-upgrade.control.h01 >"$T/probe.out" 2>&1 &&
    [ "$(cat "$T/probe.out")" = "os-upgrade.control.h01 ok" ]; then
	pass "secure: h01 may publish its own reply"
else
	fail "secure: h01 may publish its own reply"; diag "$T/probe.out"
fi
cat >"$T/want.pub" <<EOF
os-upgrade.control.os-upgrade-controller.h01 denied
os-upgrade.control.os-upgrade-controller.h02 denied
os-upgrade.control.h02 denied
\$JS.API.CONSUMER.CREATE.os-upgrade.spy.os-upgrade.control.os-upgrade-controller.h02 denied
\$JS.API.STREAM.DELETE.os-upgrade denied
EOF
probe pub os-upgrade.control.os-upgrade-controller.h01 \
    os-upgrade.control.os-upgrade-controller.h02 os-upgrade.control.h02 \
    '$JS.API.CONSUMER.CREATE.os-upgrade.spy.os-upgrade.control.os-upgrade-controller.h02' \
    '$JS.API.STREAM.DELETE.os-upgrade' >"$T/got.pub" 2>&1 || true
expect_same "$T/want.pub" "$T/got.pub" \
    "secure: the server denies h01 a command (to itself or h02), h02's reply, a consumer of h02's commands and the stream"
cat >"$T/want.sub" <<EOF
os-upgrade.control.os-upgrade-controller.h02 denied
_INBOX.h02.> denied
_INBOX.h01.> ok
EOF
probe sub os-upgrade.control.os-upgrade-controller.h02 '_INBOX.h02.>' '_INBOX.h01.>' \
    >"$T/got.sub" 2>&1 || true
expect_same "$T/want.sub" "$T/got.sub" \
    "secure: h01 may read its own inbox, and neither h02's commands nor h02's inbox"

# 4. osu-worker as h02 with h01's credentials.
sed 's/^host: h01/host: h02/' "$T/h01.yaml" >"$T/spy.yaml"
set +e
# shellcheck disable=SC2086
timeout 40 osu-worker -s "$url" $tls --user-file "$T/h01.user" "$T/spy.yaml" 2>"$T/spy.err"
st=$?
set -e
if [ "$st" = 69 ] && grep -q 'refused: Permissions Violation for Subscription to "_INBOX.h02.' "$T/spy.err"; then
	pass "secure: a worker with h01's credentials cannot read h02's commands (denied, 69)"
else
	fail "secure: a worker with h01's credentials cannot read h02's commands (got $st)"; diag "$T/spy.err"
fi
