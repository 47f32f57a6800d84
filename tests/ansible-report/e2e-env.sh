# e2e-env.sh: what the end-to-end cases (e2e-*/e2e.sh) share: the real
# ansible-playbook must be there, a scratch folder $T removed at exit,
# and Ansible kept inside it (a writable home and temp folders), quiet.
if ! command -v ansible-playbook >/dev/null; then
	echo "ansible-playbook is missing: scripts/install-deps check installs ansible-core"
	exit 1
fi
top=$(cd ../../.. && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/upkit-e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME=$T/home ANSIBLE_LOCAL_TEMP=$T/tmp ANSIBLE_REMOTE_TEMP=$T/tmp
export ANSIBLE_PYTHON_INTERPRETER=auto_silent ANSIBLE_NOCOLOR=1
mkdir -p "$HOME" "$T/tmp"

# order DIR: the commands that ran, in the order they started.
order() {
	jq -r '[.plays[].tasks[] | select(any(.hosts[];
	    .action == "ansible.builtin.command" and .skipped != true))
	    | {s: .task.duration.start, n: .task.name}] | sort_by(.s) | .[].n' \
	    "$1/ansible.json"
}
