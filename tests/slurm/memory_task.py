#!/usr/bin/env python3
"""A task of the memory_shapes case: what the snapshot, the doctor and the
runtimes' variables say of this task's memory, beside what the kernel holds
it to, read here on its own: the smallest finite hard limit (v1
memory.limit_in_bytes, v2 memory.max) over the task's memory cgroup and
its ancestors up to the hierarchy's root, and the CPUs of its affinity.

usage: memory_task.py GOVERNOR
Prints one JSON line.
"""
import json
import os
import subprocess
import sys

gov = sys.argv[1]


def cgroup_dirs():
    """The task's memory cgroup directory and the hierarchy's mount point."""
    rel = None
    for line in open("/proc/self/cgroup"):
        hid, ctrls, path = line.rstrip("\n").split(":", 2)
        if "memory" in ctrls.split(",") or (hid == "0" and rel is None):
            rel, v2 = path, hid == "0"
            if not v2:
                break
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        dash = f.index("-")
        fstype, opts = f[dash + 1], f[dash + 3]
        if (v2 and fstype == "cgroup2") or (not v2 and fstype == "cgroup" and "memory" in opts.split(",")):
            return f[4], rel, v2
    sys.exit("memory_task.py: no memory cgroup hierarchy mounted")


def kernel_limit():
    mnt, rel, v2 = cgroup_dirs()
    name = "memory.max" if v2 else "memory.limit_in_bytes"
    best = None
    d = rel
    while True:
        try:
            text = open(os.path.join(mnt + d, name)).read().strip()
        except OSError:
            text = "max"
        # v1 writes an unlimited level as a page-rounded huge number.
        if text != "max" and int(text) < 1 << 60:
            best = int(text) if best is None else min(best, int(text))
        if d in ("/", ""):
            return best
        d = os.path.dirname(d)


snap = json.loads(subprocess.run([gov, "snapshot", "--json"], capture_output=True, text=True,
                                 check=True).stdout)
doc = subprocess.run([gov, "doctor", "--json"], capture_output=True, text=True)
findings = json.loads(doc.stdout)["findings"]
print(json.dumps({
    "rank": os.environ.get("SLURM_PROCID"),
    "step": os.environ.get("SLURM_STEP_ID"),
    "cpus": len(os.sched_getaffinity(0)),
    "kernel_limit": kernel_limit(),
    "source": snap["scheduler"]["source"],
    "tasks_on_node": snap["scheduler"]["tasks_on_node"],
    "limit": snap["memory"]["scheduler"]["limit_bytes"],
    "per_task": snap["memory"]["scheduler"]["per_task_bytes"],
    "enforcement": snap["enforcement"]["memory"],
    "doctor_exit": doc.returncode,
    "doctor_memory": sorted(f["id"] for f in findings if f["resource"] == "memory"),
    "share": os.environ.get("GOVERNOR_MEMORY_SHARE"),
}, sort_keys=True))
