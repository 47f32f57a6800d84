#!/bin/bash
# e2e.sh: two upgrade iterations run by the real ansible-playbook, "-c
# local" (seed 000 III.A "Handling of upgrade failures", III.B Fig. 3/4,
# IV steps 1 and 3).  hv1's upgrade to omega fails on purpose; hv2 and
# the two hypervisors with hostile names go to beta.  Prints what the
# expected stdout holds: the execution order, how each group ended as
# actuate-ansible said while Ansible ran, the markers the commands left,
# the report, and what the next rg-build makes of it.
set -eu
# shellcheck source=../e2e-env.sh
. ../e2e-env.sh
ex=$top/examples/ansible
mkdir -p "$T/run1" "$T/run2"
hostile1='h1; rm -rf /' hostile2="{{ lookup('pipe','touch pwned') }}"

# markers DIR NAME...: each marker (alpha: a file, beta: a folder).
markers() {
	d=$1
	shift
	for m in "$@"; do
		if [ -d "$d/$m" ]; then echo "$m: folder"
		elif [ -f "$d/$m" ]; then echo "$m: file"
		else echo "$m: none"; fi
	done
	if [ -e "$d/pwned" ] || [ -e pwned ] || [ -e "$T/pwned" ]; then
		echo "pwned: the Jinja in a name ran"
	fi
}

# iterate N NAME...: schedule, run and report iteration N, show the
# markers of NAME..., then take the report in with rg-build.
iterate() {
	jq -f schedule.jq "$T/doc$1.json" >"$T/plan$1.json"
	"$top/scripts/actuate-ansible" -c local -d "$T/run$1" \
	    <"$T/plan$1.json" >"$T/report$1.json" 2>"$T/err$1" ||
	    { cat "$T/err$1"; exit 1; }
	echo "== iteration $1: commands in the order they ran"
	order "$T/run$1"
	echo "== iteration $1: groups as they ended (actuate-ansible's lines, by name)"
	sed -n 's/^actuate-ansible: [0-9]*:[0-9][0-9]:[0-9][0-9] \(.*\) ([0-9]* of \([0-9]*\) groups)$/\1 (of \2)/p' \
	    "$T/err$1" | sort
	echo "== iteration $1: markers"
	markers "$T/run$1" "${@:2}"
	echo "== iteration $1: report"
	jq -c '.report | del(.time)' "$T/report$1.json"
	rg-build "$T/report$1.json" >"$T/doc$(($1 + 1)).json"
	echo "== iteration $(($1 + 1)): rg-build"
	jq -c '.resource_graph.vertices[] | select(.id == "hv1")
	    | {id, failed_attempts, is_isolated}' "$T/doc$(($1 + 1)).json"
	jq -c '.requests.requests[0].change_sets[] | {id, status}' \
	    "$T/doc$(($1 + 1)).json"
}

rg-build -s "$ex/system.yaml" -k "$ex/catalog.yaml" -r "$ex/request.yaml" \
    >"$T/doc1.json"
# Every hypervisor runs alpha: a file, or a folder for the name that
# ends in "/".
(cd "$T/run1" && touch hv1 hv2 "$hostile2" && mkdir "$hostile1")
iterate 1 hv1 hv2 "$hostile1" "$hostile2"
touch "$T/run2/hv1"
iterate 2 hv1
