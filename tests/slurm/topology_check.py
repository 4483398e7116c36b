#!/usr/bin/env python3
"""Inside a task: governor's view of this task's topology against the
kernel's own sysfs (tests/lib/sysfs_topology.py).

usage: topology_check.py GOVERNOR
Prints one JSON object: this task's mask, what sysfs says it covers and what
the snapshot's .topology.task says, the same for the step's CPUs (the
cgroup's cpuset, sealed as .topology.step), the plans with --per-core and
--workers numa, the doctor's topology findings, and "diffs": every check that
disagreed (empty when all agree).  Exit status 0 either way; the case reads
"diffs".
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..", "lib")]
from sysfs_topology import Topology, fmt, parse  # noqa: E402


def tool(gov, *args):
    out = subprocess.run([gov, *args], capture_output=True, text=True)
    return json.loads(out.stdout) if out.stdout.strip() else None


def main():
    gov = sys.argv[1]
    topo = Topology("/")
    with open("/proc/self/status") as f:
        mask = next(parse(line.split(":", 1)[1]) for line in f
                    if line.startswith("Cpus_allowed_list:"))
    snap = tool(gov, "snapshot", "--json")
    t = snap["topology"]
    diffs = []

    def compare(what, want, got):
        for key, value in want.items():
            if got.get(key) != value:
                diffs.append(f"{what}.{key}: governor {got.get(key)} sysfs {value}")

    task = dict(t["task"])
    task["numa"] = [(e["os_index"], e["cpus"]) for e in task["numa"] or []]
    want_task = topo.covers(mask)
    compare("task", want_task, task)
    step_cpus = snap["cpu"]["cgroup"]["cpuset_list"]
    want_step = None
    if t["source"] == "descriptor" and step_cpus:
        want_step = topo.covers(parse(step_cpus))
        compare("step", {k: want_step[k] for k in ("pus", "cores", "numa_nodes")}, t["step"])
    # The plans stay within the capacity (a quota, or the task's share of
    # a step whose tasks share their CPUs): at most that many threads.
    cap = snap["cpu"]["effective"]["capacity_cores"] or want_task["pus"]
    per_core = tool(gov, "plan", "--json", "--per-core")
    threads = max(1, min(want_task["cores"], int(cap)))
    compare("plan --per-core", {"threads_per_worker": threads,
                                "idle_pus": want_task["pus"] - threads,
                                "cores": want_task["cores"]}, per_core)
    numa = tool(gov, "plan", "--json", "--workers", "numa")

    def worker_threads(pus):
        if cap >= want_task["pus"]:
            return pus
        return max(1, int(pus * cap / want_task["pus"]))

    compare("plan --workers numa", {
        "workers": want_task["numa_nodes"],
        "numa_workers": [{"os_index": n, "cpus": c, "threads": worker_threads(len(parse(c)))}
                         for n, c in want_task["numa"]],
    }, {"workers": numa["workers"],
        "numa_workers": [{k: w[k] for k in ("os_index", "cpus", "threads")}
                         for w in numa["numa_workers"]]})
    doctor = tool(gov, "doctor", "--json")
    print(json.dumps({
        "mask": fmt(mask), "sysfs": want_task, "task": task, "source": t["source"],
        "step_cpus": step_cpus, "step_sysfs": want_step, "step": t["step"],
        "per_core_threads": per_core["threads_per_worker"],
        "numa_workers": numa["numa_workers"],
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "findings": [f["id"] for f in doctor["findings"] if f["id"].startswith("topology.")],
        "diffs": diffs,
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
