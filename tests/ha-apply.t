#!/usr/bin/env python3
"""ha-apply.t: scripts/ha-apply never leaves a pair without an active,
and one pair that fails does not stop the others (issue 44, finding 10).

Three pairs of a StatefulSet db, db-0/db-1, db-2/db-3, db-4/db-5, go
through ha-assign and then ha-apply, with tests/ha-kubectl-sim as
kubectl (offline; it has the real kubectl change the labels when there
is one).  Between plan and apply, or during it, pods change as the
kubelet's status updates change them, and each label is pinned to the
resourceVersion the plan read:

  moved    db-0 and db-2 fail over; db-1's and db-2's versions move after
           the plan: ha-apply reads them afresh and the run completes,
           each pair with its one active, and ha-assign then plans
           nothing.  The ha-apply before issue 44 stopped after the two
           demotions, leaving db-0/db-1 and db-2/db-3 without an active.
  churn    db-3's version moves before every command: pair db-2/db-3
           fails after --tries, is reported, and keeps db-2 active; the
           pair db-0/db-1 is done all the same; status 1.
  drain    --drain node-1 switches db-4 over to db-5, whose version moves
           before every command: db-4 was demoted first (both Ready),
           the promotion fails, and db-4 is given its role back.

$HA_APPLY names another ha-apply to try (the old one fails "moved").
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True    # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("UPKIT_BIN", os.path.join(TOP, "build", "bin"))
HA = os.path.join(BIN, "ha-assign")
SIM = os.path.join(TOP, "tests", "ha-kubectl-sim")
APPLY = os.environ.get("HA_APPLY", os.path.join(TOP, "scripts", "ha-apply"))
TAP = Tap()
ok = TAP.ok


def pod(i, node, ready, role, peer):
    name = "db-%d" % i
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": name, "namespace": "default",
        "creationTimestamp": "2026-11-25T10:00:%02dZ" % i,
        "resourceVersion": str(1000 + i),
        "labels": {"app": "db", "apps.kubernetes.io/pod-index": str(i),
                   "HAState": role, "peer": peer},
        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet",
                             "name": "db", "uid": "sts-uid",
                             "controller": True}]},
        "spec": {"nodeName": node},
        "status": {"phase": "Running", "conditions": [
            {"type": "Ready", "status": "True" if ready else "False"}]}}


def service(active):
    return {"apiVersion": "v1", "kind": "Service", "metadata": {
        "name": "replicate-" + active, "namespace": "default",
        "labels": {"app.kubernetes.io/managed-by": "ha-assign", "app": "db"},
        "annotations": {"upkit/active-pod": active}},
        "spec": {"selector": {"app": "db", "HAState": "standby",
                              "peer": active}, "ports": [{"port": 80}]}}


def setup():
    """db-0 and db-2 (node-2) not Ready; db-4 on node-1."""
    d = tempfile.mkdtemp(prefix="ha-apply-t.")
    pods = [pod(0, "node-2", False, "active", "db-1"),
            pod(1, "node-3", True, "standby", "db-0"),
            pod(2, "node-2", False, "active", "db-3"),
            pod(3, "node-3", True, "standby", "db-2"),
            pod(4, "node-1", True, "active", "db-5"),
            pod(5, "node-3", True, "standby", "db-4")]
    write(d, "pods.json", {"apiVersion": "v1", "kind": "List", "items": pods})
    write(d, "services.json", {"apiVersion": "v1", "kind": "List", "items":
                               [service("db-%d" % i) for i in (0, 2, 4)]})
    with open(os.path.join(d, "rv"), "w") as f:
        f.write("5000")
    return d


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        json.dump(doc, f)


def plan(d, args=()):
    p = subprocess.run([HA, "-c", "-l", "app=db", "-s", "services.json"] +
                       list(args) + ["pods.json"], cwd=d,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def bump(d, names):
    """The kubelet updated these pods' status after the plan read them."""
    with open(os.path.join(d, "pods.json")) as f:
        doc = json.load(f)
    for k, p in enumerate(doc["items"]):
        if p["metadata"]["name"] in names:
            p["metadata"]["resourceVersion"] = str(4000 + k)
    write(d, "pods.json", doc)


def apply(d, text, churn=""):
    env = dict(os.environ, HA_SIM_DIR=d, HA_SIM_CHURN=churn,
               HA_SIM_REAL="1" if shutil.which("kubectl") else "0")
    p = subprocess.run([APPLY, "--kubectl", SIM], input=text, env=env,
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def roles(d):
    with open(os.path.join(d, "pods.json")) as f:
        return {p["metadata"]["name"]: (p["metadata"]["labels"].get("HAState"),
                                        p["metadata"]["labels"].get("peer"))
                for p in json.load(f)["items"]}


def without_active(r):
    """Pairs (pods whose peer labels name each other) with no active."""
    out = []
    for name, (state, peer) in sorted(r.items()):
        if peer in r and r[peer][1] == name and name < peer and \
                "active" not in (state, r[peer][0]):
            out.append("%s/%s" % (name, peer))
    return out


def log(d):
    with open(os.path.join(d, "log")) as f:
        return f.read()


def moved():
    d = setup()
    st, text, err = plan(d)
    ok(st == 0, "moved: ha-assign plans the failovers of db-0 and db-2", err)
    bump(d, ("db-1", "db-2"))
    st, err = apply(d, text)
    r = roles(d)
    ok(st == 0, "moved: ha-apply completes after fresh reads (status %d)" % st,
       err)
    ok(without_active(r) == [], "moved: no pair is left without an active",
       "%s\n%s" % (without_active(r), r))
    ok((r["db-1"][0], r["db-0"][0], r["db-3"][0], r["db-2"][0]) ==
       ("active", "standby", "active", "standby"),
       "moved: db-1 and db-3 took over, db-0 and db-2 are their standbys", r)
    ok("get -n default pod db-1 -o json" in log(d),
       "moved: db-1 was read afresh after its label conflicted", log(d))
    st, text, err = plan(d)
    ok(st == 0 and json.loads(text)["actions"] == [],
       "moved: ha-assign then plans nothing", text + err)
    return d


def churn():
    d = setup()
    st, text, err = plan(d)
    st, err = apply(d, text, churn="db-3")
    r = roles(d)
    ok(st == 1, "churn: status 1 when a pair still fails (status %d)" % st,
       err)
    ok("pair db-3/db-2" in err and "3 tries" in err,
       "churn: the failed pair and its tries are on stderr", err)
    ok(without_active(r) == [] and r["db-2"][0] == "active",
       "churn: db-2/db-3 keeps db-2 as its active", r)
    ok(r["db-1"][0] == "active" and r["db-0"][0] == "standby",
       "churn: the pair db-0/db-1 failed over all the same", r)
    return d


def drain():
    d = setup()
    st, text, err = plan(d, ("-D", "node-1"))
    ok(st == 0 and '"pod":"db-5"' in text,
       "drain: ha-assign plans db-4's switchover to db-5", text + err)
    st, err = apply(d, text, churn="db-5")
    r = roles(d)
    lines = log(d).splitlines()
    first = [k for k, x in enumerate(lines) if "pod/db-4" in x]
    ok(first and not any("pod/db-5" in x for x in lines[:first[0]]),
       "drain: db-4 is demoted before db-5 is promoted (both Ready)",
       "\n".join(lines))
    ok(st == 1 and "db-4 is active again" in err,
       "drain: the promotion fails and db-4 gets its role back", err)
    ok(r["db-4"] == ("active", "db-5") and r["db-5"][0] == "standby",
       "drain: db-4/db-5 ends with db-4 active", r)
    return d


def main():
    if not os.access(HA, os.X_OK):
        print("1..0 # SKIP ha-assign is not built")
        return 0
    dirs = [moved(), churn(), drain()]
    if not TAP.failed:
        for d in dirs:
            shutil.rmtree(d)
    else:
        print("# scratch files kept in " + " ".join(dirs))
    return TAP.done()


if __name__ == "__main__":
    sys.exit(main())
