#!/usr/bin/env python3
"""ha-assign.t: the plan reaches a fixed point in one step (seed 003,
section 4: the controller brings every pod to its HA state; issue 13).

Generated snapshots of pods and Services (a StatefulSet or Deployment,
random readiness, deletions, node failures, stale or contradictory
labels, stray Services, split brains) go through ha-assign; the plan is
applied; ha-assign then runs again on the result and must plan nothing,
and every pair it reports must be one active and one standby whose
labels name each other.

The first snapshots are applied by scripts/ha-apply through
tests/ha-kubectl-sim, which has the real kubectl change the labels
(`kubectl label --local`) and build the Services (`kubectl create
service clusterip --dry-run=client`), offline, and checks that its
emulation agrees; the rest use that emulation in-process, so that
hundreds of snapshots fit in a few seconds.  Every tenth snapshot is planned
twice, and the two plans must be the same bytes (determinism).
"""
import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("UPKIT_BIN", os.path.join(TOP, "build", "bin"))
HA = os.path.join(BIN, "ha-assign")
SIM = os.path.join(TOP, "tests", "ha-kubectl-sim")
APPLY = os.path.join(TOP, "scripts", "ha-apply")
REAL_SNAPSHOTS = int(os.environ.get("HA_REAL_SNAPSHOTS", "2"))
# Sanitized binaries are several times slower: fewer snapshots there.
SNAPSHOTS = int(os.environ.get("HA_SNAPSHOTS",
                               "60" if os.environ.get("UPKIT_SANITIZE") else "200"))
sim = importlib.machinery.SourceFileLoader("sim", SIM).load_module()
n_test = 0
failed = 0


def ok(cond, msg, detail=None):
    global n_test, failed
    n_test += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n_test, msg))
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:40]:
            print("#   " + line)
    return cond


def time(s):
    return "2026-11-25T10:%02d:%02dZ" % (s // 60, s % 60)


def gen_pod(rng, name, t, sts, idx, names, nodes):
    labels = {"app": "db"}
    if idx is not None:
        labels["apps.kubernetes.io/pod-index"] = str(idx)
    r = rng.random()
    if r < 0.4:
        labels["HAState"] = rng.choice(["active", "standby"])
    elif r < 0.45:
        labels["HAState"] = "weird"
    if rng.random() < 0.5:
        labels["peer"] = rng.choice(names + ["gone-0", "db-9"])
    meta = {"name": name, "namespace": "default", "labels": labels,
            "resourceVersion": str(rng.randint(100, 999)),
            "creationTimestamp": time(t)}
    if sts:
        meta["ownerReferences"] = [{"kind": "StatefulSet", "name": "db",
                                    "apiVersion": "apps/v1", "uid": "u"}]
    if rng.random() < 0.08:
        meta["deletionTimestamp"] = time(900)
    status = {"phase": "Failed" if rng.random() < 0.05 else "Running",
              "conditions": [{"type": "Ready", "status":
                              "True" if rng.random() < 0.75 else "False"}]}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta,
            "spec": {"nodeName": rng.choice(nodes)}, "status": status}


def pair_up(rng, pods):
    """Half the time, start from a consistent assignment, then break it."""
    live = [p for p in pods]
    rng.shuffle(live)
    for a, b in zip(live[0::2], live[1::2]):
        la, lb = a["metadata"]["labels"], b["metadata"]["labels"]
        la.update({"HAState": "active", "peer": b["metadata"]["name"]})
        lb.update({"HAState": "standby", "peer": a["metadata"]["name"]})
        if rng.random() < 0.15:
            lb["HAState"] = "active"


def gen_services(rng, pods):
    items = []
    names = [p["metadata"]["name"] for p in pods] + ["gone-0", "db-8"]
    for n in rng.sample(names, rng.randint(0, len(names))):
        sel = {"app": "db", "HAState": "standby",
               "peer": n if rng.random() < 0.8 else "db-0"}
        items.append({"apiVersion": "v1", "kind": "Service", "metadata": {
            "name": "replicate-" + n, "namespace": "default",
            "labels": {"app.kubernetes.io/managed-by": "ha-assign",
                       "app": "db"},
            "annotations": {"upkit/active-pod": n}},
            "spec": {"selector": sel, "ports": [{"port": 80}]}})
    return items


def gen(rng):
    sts = rng.random() < 0.7
    n = rng.choice([0, 1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 9])
    if sts:
        names = ["db-%d" % i for i in range(n)]
    else:
        names = ["web-%s" % "".join(rng.choice("abcdefgh") for _ in range(5))
                 for _ in range(n)]
    nodes = ["node-1", "node-2", "node-3"]
    pods = [gen_pod(rng, nm, rng.randint(0, 3) if not sts else i * 5,
                    sts, i if sts and rng.random() < 0.8 else None,
                    names, nodes) for i, nm in enumerate(names)]
    if rng.random() < 0.5:
        pair_up(rng, pods)
    args = ["-l", "app=db", "-a", "db"]
    extra = {}
    if rng.random() < 0.3:
        args += ["--drain", rng.choice(nodes)]
    if rng.random() < 0.3:
        extra["nodes.json"] = {"kind": "List", "items": [
            {"kind": "Node", "metadata": {"name": nd}, "status": {"conditions": [
                {"type": "Ready", "status": rng.choice(["True", "Unknown"]),
                 "lastTransitionTime": time(rng.randint(0, 600))}]}}
            for nd in nodes[:rng.randint(1, 3)]]}
        args += ["--node-failure=fence-first", "-t", time(420),
                 "-n", "nodes.json"]
    if sts and rng.random() < 0.4:
        extra["statefulsets.json"] = {"kind": "List", "items": [
            {"kind": "StatefulSet", "metadata": {"name": "db"},
             "spec": {"replicas": rng.randint(0, 10)}}]}
        args += ["-S", "statefulsets.json"]
    return ({"kind": "List", "apiVersion": "v1", "items": pods},
            {"kind": "List", "apiVersion": "v1",
             "items": gen_services(rng, pods)}, extra, args)


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        json.dump(doc, f)


def run_ha(d, args):
    p = subprocess.run([HA, "-c"] + args + ["-s", "services.json",
                                            "pods.json"],
                       cwd=d, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def emulate(d, plan):
    state = {}
    for k in ("pods", "services"):
        with open(os.path.join(d, k + ".json")) as f:
            state[k] = json.load(f)
    rv = 7000
    for a in plan["actions"]:
        if a["action"] == "label":
            i = sim.find(state["pods"]["items"], a["pod"])
            pod = state["pods"]["items"][i]
            assert pod["metadata"]["resourceVersion"] == a["resourceVersion"]
            args = [k + "-" if v is None else k + "=" + v
                    for k, v in a["labels"].items()]
            sim.emulate_label(pod, args)
            rv += 1
            pod["metadata"]["resourceVersion"] = str(rv)
        elif a["action"] == "apply-service":
            items = state["services"]["items"]
            i = sim.find(items, a["service"])
            svc = sim.emulate_service(a["manifest"])
            if i < 0:
                items.append(svc)
            else:
                items[i] = svc
        else:
            items = state["services"]["items"]
            i = sim.find(items, a["service"])
            if i >= 0:
                del items[i]
    for k in ("pods", "services"):
        write(d, k + ".json", state[k])


def apply_real(d, plan_text):
    with open(os.path.join(d, "rv"), "w") as f:
        f.write("7000")
    env = dict(os.environ, HA_SIM_DIR=d, HA_SIM_REAL="1")
    p = subprocess.run([APPLY, "--kubectl", SIM], input=plan_text, env=env,
                       capture_output=True, text=True)
    return p.returncode == 0, p.stderr


def pairs_consistent(d, plan):
    with open(os.path.join(d, "pods.json")) as f:
        pods = {p["metadata"]["name"]: p["metadata"].get("labels", {})
                for p in json.load(f)["items"]}
    for pr in plan["pairs"]:
        if "active" not in pr:
            continue
        a, s = pods[pr["active"]], pods[pr["standby"]]
        if (a.get("HAState"), s.get("HAState")) != ("active", "standby") or \
                a.get("peer") != pr["standby"] or s.get("peer") != pr["active"]:
            return False
    return True


def one(rng, k, real):
    d = tempfile.mkdtemp(prefix="ha-assign-t.")
    pods, svcs, extra, args = gen(rng)
    write(d, "pods.json", pods)
    write(d, "services.json", svcs)
    for name, doc in extra.items():
        write(d, name, doc)
    st, out, err = run_ha(d, args)
    if not ok(st == 0, "snapshot %d: ha-assign plans (%s)" % (k, " ".join(args)),
              err):
        return
    same = True
    if k % 10 == 0:
        same = run_ha(d, args)[1] == out
    plan = json.loads(out)
    if real:
        done, err = apply_real(d, out)
        if not ok(done, "snapshot %d: ha-apply with kubectl" % k, err):
            return
    else:
        emulate(d, plan)
    st, out, err = run_ha(d, args)
    after = json.loads(out) if st == 0 else {"actions": ["failed: " + err]}
    good = same and after["actions"] == [] and pairs_consistent(d, after)
    if real or not good:
        ok(good, "snapshot %d: fixed point in one step%s" %
           (k, " (%d actions through ha-apply and kubectl)" %
            len(plan["actions"]) if real else ""),
           "same output twice: %s\nfirst plan: %s\nsecond plan: %s\nin %s" %
           (same, json.dumps(plan["actions"]), json.dumps(after["actions"]), d))
    if good:
        shutil.rmtree(d)
    return good


def main():
    if not os.access(HA, os.X_OK):
        print("1..0 # SKIP ha-assign is not built")
        return 0
    rng = random.Random(13)
    if shutil.which("kubectl") is None:
        ok(True, "# SKIP kubectl is not installed (scripts/install-deps check)")
    else:
        for k in range(REAL_SNAPSHOTS):
            one(rng, k, True)
    good = sum(1 for k in range(REAL_SNAPSHOTS, REAL_SNAPSHOTS + SNAPSHOTS)
               if one(rng, k, False))
    ok(good == SNAPSHOTS, "%d of %d emulated snapshots reach the fixed point "
       "in one step" % (good, SNAPSHOTS))
    print("1..%d" % n_test)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
