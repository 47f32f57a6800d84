#!/usr/bin/env python3
"""ha-controller.t: ha-apply --watch, its Lease and its metrics, and the
pod's HA state as a file, with the real kubectl against tests/ha-fake-api
(an API server in memory on 127.0.0.1 at a free port, stopped after
150 s at most) (issue 44).

  state-file  (finding 14) examples/kubernetes/ha-statefulset.yaml, read
              by kubectl, projects the HAState and peer labels into
              /etc/ha by a downwardAPI volume (not subPath); four pods
              made from its template, paired by ha-assign | ha-apply
              through kubectl, project "active"/"standby" and their
              partner's name, as the kubelet would write the files.
  watch       two controllers start at once on one namespace: one
              holds the Lease and makes every change, the other waits;
              an active made not Ready is failed over from the watch
              alone (--resync 600); the holder is killed (SIGKILL, no
              release): the other takes the Lease over only after the
              holder's last renewal plus leaseDurationSeconds, then fails
              the next active over; the changes of the two never
              interleave.  SIGTERM releases the Lease.
  metrics     the controller's file is the Prometheus text format 0.0.4
              (checked line by line against the format's grammar, no
              timestamps, as node_exporter's textfile collector wants):
              pairs by state, lease held, last error; an error message
              with quotes, a backslash and a newline is escaped and reads
              back whole.

Before issue 44 ha-apply had no --watch and no --metrics, and
examples/kubernetes/ had no manifest for the pods' state.
$HA_APPLY names another ha-apply to try.
"""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True    # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("UPKIT_BIN", os.path.join(TOP, "build", "bin"))
FAKE = os.path.join(TOP, "tests", "ha-fake-api")
APPLY = os.environ.get("HA_APPLY", os.path.join(TOP, "scripts", "ha-apply"))
EXAMPLE = os.path.join(TOP, "examples", "kubernetes", "ha-statefulset.yaml")
LEASE_SECONDS = 6
TAP = Tap()
ok = TAP.ok


def wait_for(cond, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.2)
    return cond()


class Api:
    """tests/ha-fake-api in dir, and kubeconfigs that reach it."""

    def __init__(self, folder):
        self.dir = folder
        self.proc = subprocess.Popen([FAKE, folder, "150"])
        port = os.path.join(folder, "port")
        if not wait_for(lambda: os.path.exists(port), 15):
            raise RuntimeError("ha-fake-api did not start")
        with open(port, encoding="utf-8") as f:
            self.port = int(f.read())

    def env(self, user, ns):
        """The environment of a kubectl acting as user in ns."""
        path = os.path.join(self.dir, "kubeconfig-%s-%s" % (user, ns))
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"apiVersion": "v1", "kind": "Config",
                       "clusters": [{"name": "fake", "cluster": {
                           "server": "http://127.0.0.1:%d" % self.port}}],
                       "users": [{"name": user, "user": {"as": user}}],
                       "contexts": [{"name": "fake", "context": {
                           "cluster": "fake", "user": user,
                           "namespace": ns}}],
                       "current-context": "fake"}, f)
        env = dict(os.environ, KUBECONFIG=path)
        env["PATH"] = BIN + os.pathsep + env["PATH"]
        return env

    def kubectl(self, ns, *args, stdin=None):
        return subprocess.run(["kubectl"] + list(args), input=stdin,
                              env=self.env("setup", ns), text=True,
                              capture_output=True, timeout=30, check=False)

    def log(self):
        with open(os.path.join(self.dir, "log"), encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def make_pods(api, ns, template, n):
    """n pods db-0... of a StatefulSet db from template, made Ready."""
    for i in range(n):
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": json.loads(json.dumps(template["metadata"])),
               "spec": template["spec"]}
        pod["metadata"].update(name="db-%d" % i, ownerReferences=[{
            "apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db",
            "uid": "sts-db", "controller": True}])
        pod["metadata"]["labels"]["apps.kubernetes.io/pod-index"] = str(i)
        api.kubectl(ns, "create", "-f", "-", stdin=json.dumps(pod))
        set_ready(api, ns, "db-%d" % i, True)
        time.sleep(1.05)    # creationTimestamp has seconds: ages differ


def set_ready(api, ns, pod, ready):
    patch = {"status": {"phase": "Running", "conditions": [
        {"type": "Ready", "status": "True" if ready else "False"}]}}
    return api.kubectl(ns, "patch", "pod", pod, "--subresource=status",
                       "--type=merge", "-p", json.dumps(patch))


def pod_labels(api, ns):
    p = api.kubectl(ns, "get", "pods", "-o", "json")
    if p.returncode != 0:
        return {}
    return {o["metadata"]["name"]: o["metadata"].get("labels") or {}
            for o in json.loads(p.stdout)["items"]}


def paired(api, ns, pairs):
    """Whether each (active, standby) pair is labelled as such."""
    now = pod_labels(api, ns)
    return all(now.get(a, {}).get("HAState") == "active" and
               now.get(s, {}).get("HAState") == "standby" and
               now.get(a, {}).get("peer") == s and
               now.get(s, {}).get("peer") == a for a, s in pairs)


# The kubelet's downward API for a label: metadata.labels['KEY'] is the
# label's value, or empty when the pod has no such label.
FIELD = re.compile(r"^metadata\.labels\['([^']+)'\]$")


def projected(volume, pod_labels_now):
    files = {}
    for item in volume["downwardAPI"]["items"]:
        m = FIELD.match(item["fieldRef"]["fieldPath"])
        files[item["path"]] = pod_labels_now.get(m.group(1), "") if m else None
    return files


def state_file(api):
    p = api.kubectl("default", "create", "--dry-run=client", "-o", "json",
                    "-f", EXAMPLE)
    if not ok(p.returncode == 0, "state-file: kubectl reads the example "
              "manifest", p.stderr):
        return
    sts = json.loads(p.stdout)
    tpl = sts["spec"]["template"]
    vols = [v for v in tpl["spec"].get("volumes", []) if "downwardAPI" in v]
    items = {i["path"]: i["fieldRef"]["fieldPath"]
             for v in vols for i in v["downwardAPI"]["items"]}
    ok(items == {"HAState": "metadata.labels['HAState']",
                 "peer": "metadata.labels['peer']"},
       "state-file: a downwardAPI volume projects the HAState and peer "
       "labels ha-assign writes", json.dumps(items))
    mounts = [m for c in tpl["spec"]["containers"]
              for m in c.get("volumeMounts", [])
              if vols and m["name"] == vols[0]["name"]]
    ok(len(mounts) == 1 and mounts[0]["mountPath"] == "/etc/ha" and
       "subPath" not in mounts[0], "state-file: mounted at /etc/ha as a "
       "directory (a subPath mount is never updated)", json.dumps(mounts))
    if not vols:
        return
    make_pods(api, "default", tpl, 4)
    env = api.env("setup", "default")
    pods = api.kubectl("default", "get", "pods", "-o", "json").stdout
    svc = os.path.join(api.dir, "services.json")
    with open(svc, "w", encoding="utf-8") as f:
        f.write(api.kubectl("default", "get", "services", "-o",
                            "json").stdout)
    plan = subprocess.run([os.path.join(BIN, "ha-assign"), "-l", "app=db",
                           "-s", svc], input=pods, text=True,
                          capture_output=True, check=False)
    done = subprocess.run([APPLY, "--kubectl", "kubectl"], input=plan.stdout,
                          env=env, text=True, capture_output=True,
                          timeout=120, check=False)
    ok(done.returncode == 0, "state-file: ha-assign | ha-apply pairs the "
       "pods through kubectl", plan.stderr + done.stderr)
    files = {name: projected(vols[0], labels)
             for name, labels in pod_labels(api, "default").items()}
    want = {"db-0": {"HAState": "active", "peer": "db-1"},
            "db-1": {"HAState": "standby", "peer": "db-0"},
            "db-2": {"HAState": "active", "peer": "db-3"},
            "db-3": {"HAState": "standby", "peer": "db-2"}}
    ok(files == want, "state-file: each pod's /etc/ha/HAState and "
       "/etc/ha/peer say its role and partner", json.dumps(files))
    page = open(os.path.join(TOP, "man", "ha-apply.1"),
                encoding="utf-8").read()
    ok("/etc/ha/HAState" in page and "downwardAPI" in page,
       "state-file: ha-apply(1) says what the application reads")


# The Prometheus text format 0.0.4, line by line.
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
SAMPLE = re.compile(r"^(%s)(\{(.*)\})? ([^ ]+)$" % NAME)
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"'
                   r'\s*(,|$)')
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")


def parse_metrics(text):
    """{(name, ((label, value)...)): value}; raises ValueError on any line
    the format does not allow, or a sample with a timestamp."""
    if text and not text.endswith("\n"):
        raise ValueError("the last line does not end with a line feed")
    samples, typed, helped, done, current = {}, set(), set(), set(), None
    for line in text.splitlines():
        if line.startswith("#"):
            m = re.match(r"^# (HELP|TYPE) (%s) ?(.*)$" % NAME, line)
            if not m:
                continue
            seen = helped if m.group(1) == "HELP" else typed
            if m.group(2) in seen or m.group(2) in done:
                raise ValueError("%s of %s again or late: %s" % (
                    m.group(1), m.group(2), line))
            if m.group(1) == "TYPE" and m.group(3) not in TYPES:
                raise ValueError("unknown type: " + line)
            seen.add(m.group(2))
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError("not a sample (or it has a timestamp): " + line)
        name, body, value = m.group(1), m.group(3) or "", m.group(4)
        if current is not None and name != current:
            done.add(current)
        if name in done:
            raise ValueError("samples of %s not together" % name)
        current = name
        labels, pos = [], 0
        while pos < len(body):
            lm = LABEL.match(body, pos)
            if not lm:
                raise ValueError("bad labels: " + line)
            labels.append((lm.group(1), re.sub(
                r"\\(.)", lambda e: "\n" if e.group(1) == "n" else e.group(1),
                lm.group(2))))
            pos = lm.end()
        number = float(value)
        if math.isnan(number) and value != "NaN":
            raise ValueError("bad value: " + line)
        samples[(name, tuple(labels))] = number
    return samples


def read_metrics(path):
    try:
        with open(path, encoding="utf-8") as f:
            return parse_metrics(f.read())
    except (OSError, ValueError):
        return None


def mutations(api, callers):
    """The changes to pods and Services made by callers, in order."""
    return [e for e in api.log() if e["caller"] in callers and
            "/leases" not in e["path"] and e["code"] < 300]


def lease_writes(api, caller):
    return [e["time"] for e in api.log() if e["caller"] == caller and
            "/leases" in e["path"] and e["code"] < 300]


def start_controller(api, who, scratch):
    out = open(os.path.join(scratch, who + ".err"), "w", encoding="utf-8")
    return subprocess.Popen(
        [APPLY, "--watch", "--identity", who, "--lease-seconds",
         str(LEASE_SECONDS), "--resync", "600", "--metrics",
         os.path.join(scratch, who + ".prom"), "--", "-l", "app=db"],
        env=dict(api.env(who, "ha"), TMPDIR=scratch),   # killed: its
        stdout=subprocess.DEVNULL, stderr=out)          # files stay here


def watch(api, scratch):
    tpl = {"metadata": {"labels": {"app": "db"}},
           "spec": {"containers": [{"name": "db", "image": "x"}]}}
    make_pods(api, "ha", tpl, 4)
    ctl = {w: start_controller(api, w, scratch) for w in ("ctrl-a", "ctrl-b")}
    try:
        watch_steps(api, scratch, ctl)
    finally:
        for p in ctl.values():
            if p.poll() is None:
                p.kill()
            p.wait()


def watch_steps(api, scratch, ctl):
    pairs = [("db-0", "db-1"), ("db-2", "db-3")]
    ok(wait_for(lambda: paired(api, "ha", pairs), 40), "watch: the pods "
       "are paired", json.dumps(pod_labels(api, "ha")))
    lease = json.loads(api.kubectl("ha", "get", "lease", "ha-apply", "-o",
                                   "json").stdout or "{}")
    holder = lease.get("spec", {}).get("holderIdentity")
    other = "ctrl-b" if holder == "ctrl-a" else "ctrl-a"
    made = mutations(api, ctl)
    if not ok(holder in ctl and made and all(e["caller"] == holder
                                              for e in made),
              "watch: one controller (the Lease's holder) made every "
              "change", json.dumps(made)):
        return
    errpath = os.path.join(scratch, other + ".err")
    ok(wait_for(lambda: "held by %s: waiting" % holder in open(
        errpath, encoding="utf-8").read(), 10), "watch: the other waits",
       open(errpath, encoding="utf-8").read())

    set_ready(api, "ha", "db-0", False)
    ok(wait_for(lambda: paired(api, "ha", [("db-1", "db-0")]), 20),
       "watch: db-0 not Ready: db-1 takes over, from the watch alone",
       json.dumps(pod_labels(api, "ha")))

    ctl[holder].send_signal(signal.SIGKILL)
    ctl[holder].wait()
    killed = time.time()
    set_ready(api, "ha", "db-2", False)
    ok(wait_for(lambda: paired(api, "ha", [("db-3", "db-2")]), 40),
       "watch: the holder killed, db-2 not Ready: db-3 takes over",
       json.dumps(pod_labels(api, "ha")))
    last_renewal = max(lease_writes(api, holder))
    taken = [t for t in lease_writes(api, other) if t > killed]
    made = mutations(api, ctl)
    firsts = [e["time"] for e in made if e["caller"] == other]
    ok(taken and taken[0] >= last_renewal + LEASE_SECONDS and firsts and
       firsts[0] >= taken[0], "watch: the other took the Lease over %.1f s "
       "after the holder's last renewal (leaseDurationSeconds %d), then "
       "acted" % ((taken or [0])[0] - last_renewal, LEASE_SECONDS),
       json.dumps([last_renewal, taken[:1], firsts[:1]]))
    callers = [e["caller"] for e in made]
    switches = sum(1 for a, b in zip(callers, callers[1:]) if a != b)
    ok(callers[0] == holder and switches == 1, "watch: the two never "
       "acted at once (the changes' authors switch once)", json.dumps(made))
    lease = json.loads(api.kubectl("ha", "get", "lease", "ha-apply", "-o",
                                   "json").stdout or "{}")
    ok(lease.get("spec", {}).get("holderIdentity") == other and
       lease["spec"].get("leaseTransitions", 0) >= 1,
       "watch: the Lease names the new holder", json.dumps(lease))
    stale = dict(lease, metadata=dict(lease.get("metadata", {}),
                                      resourceVersion="1"))
    p = api.kubectl("ha", "replace", "-f", "-", stdin=json.dumps(stale))
    ok(p.returncode != 0 and "Conflict" in p.stderr, "watch: a Lease "
       "written at a stale resourceVersion is refused (409)", p.stderr)

    prom = os.path.join(scratch, other + ".prom")
    want = {("ha_apply_pairs", (("state", "unprotected"),)): 2.0,
            ("ha_apply_pairs", (("state", "protected"),)): 0.0,
            ("ha_apply_lease_held", ()): 1.0,
            ("ha_apply_last_error", (("message", ""),)): 0.0}
    ok(wait_for(lambda: all((read_metrics(prom) or {}).get(k) == v
                            for k, v in want.items()), 10),
       "metrics: the controller's file is format 0.0.4: two pairs "
       "unprotected, the Lease held, no error", open(prom).read()
       if os.path.exists(prom) else "no file")

    ctl[other].send_signal(signal.SIGTERM)
    try:
        status = ctl[other].wait(timeout=20)
    except subprocess.TimeoutExpired:
        status = None
    lease = json.loads(api.kubectl("ha", "get", "lease", "ha-apply", "-o",
                                   "json").stdout or "{}")
    ok(status == 0 and lease.get("spec", {}).get("holderIdentity") == "",
       "watch: SIGTERM releases the Lease and exits 0",
       "status %s, %s" % (status, json.dumps(lease)))


def metrics_escape(scratch):
    prom = os.path.join(scratch, "plan.prom")
    bad = '{"format": "ha-assign-plan", "version": 1, "namespace": "a\\\\b"}'
    p = subprocess.run([APPLY, "--metrics", prom], input=bad, text=True,
                       capture_output=True, check=False)
    got = read_metrics(prom) or {}
    msgs = [dict(k[1]).get("message") for k, v in got.items()
            if k[0] == "ha_apply_last_error" and v == 1.0]
    ok(p.returncode == 65 and msgs and '"' in msgs[0] and
       "\\" in msgs[0] and msgs[0] in p.stderr, "metrics: an invalid plan's error, quotes and "
       "backslash included, reads back whole from the file",
       p.stderr + json.dumps(msgs))
    empty = json.dumps({"format": "ha-assign-plan", "version": 1,
                        "actions": [], "pairs": [], "problems": []})
    p = subprocess.run([APPLY, "--metrics", os.path.join(scratch, "no", "x")],
                       input=empty, text=True, capture_output=True,
                       check=False)
    ok(p.returncode == 73 and "no/x" in p.stderr and not os.path.exists(
        os.path.join(scratch, "no")), "metrics: a file that cannot be "
       "written is named on stderr, status 73", p.stderr)


def main():
    if shutil.which("kubectl") is None:
        print("1..0 # SKIP kubectl is not installed (scripts/install-deps "
              "check)")
        return 0
    scratch = tempfile.mkdtemp(prefix="ha-controller-t.")
    api = Api(scratch)
    try:
        state_file(api)
        watch(api, scratch)
        metrics_escape(scratch)
    finally:
        api.stop()
    if TAP.failed:
        print("# scratch files kept in " + scratch)
    else:
        shutil.rmtree(scratch)
    return TAP.done()


if __name__ == "__main__":
    sys.exit(main())
