#!/usr/bin/env python3
"""Inside a task of a step over two real machines (tests/guest/pair.sh):
what governor says of this task beside what the task reads of its own node.

usage: task_facts.py GOVERNOR
Prints one JSON object: the node's name and boot id, the descriptor's
status, the snapshot's memory, GPU and topology figures and the task's own
readings of the same facts (MemTotal, /dev/nvidiaN, the topology held to
sysfs by topology_check.py beside this file), and "diffs": every figure
where the two disagree.  Exit status 0 either way; the case reads it.
"""
import glob
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def run_json(*argv):
    out = subprocess.run(argv, capture_output=True, text=True)
    return json.loads(out.stdout) if out.stdout.strip() else None


def main():
    gov = sys.argv[1]
    with open("/proc/sys/kernel/random/boot_id") as f:
        boot_id = f.read().strip()
    with open("/proc/meminfo") as f:
        mem_total = next(int(line.split()[1]) * 1024 for line in f
                         if line.startswith("MemTotal:"))
    nvidia = len(glob.glob("/dev/nvidia[0-9]*"))
    verify = run_json(gov, "verify", "--json")
    snap = run_json(gov, "snapshot", "--json")
    topo = run_json(sys.executable, os.path.join(here, "topology_check.py"), gov)
    diffs = list(topo["diffs"])
    if snap["memory"]["host"]["total_bytes"] != mem_total:
        diffs.append(f"memory.host.total_bytes: governor {snap['memory']['host']['total_bytes']}"
                     f" task {mem_total}")
    if snap["accelerators"]["nvidia"]["device_nodes"] != nvidia:
        diffs.append(f"accelerators.nvidia.device_nodes: governor "
                     f"{snap['accelerators']['nvidia']['device_nodes']} task {nvidia}")
    print(json.dumps({
        "node": os.environ.get("SLURMD_NODENAME"),
        "rank": int(os.environ.get("SLURM_PROCID", "-1")),
        "boot_id": boot_id,
        "verify": verify["status"],
        "reason_code": verify["reason_code"],
        "mem_total": mem_total,
        "memory_scheduler": snap["memory"]["scheduler"]["limit_bytes"],
        "cpus": snap["cpu"]["scheduler"]["cpus"],
        "tasks_on_node": snap["scheduler"]["tasks_on_node"],
        "nvidia_nodes": nvidia,
        "nvidia_usable": snap["accelerators"]["nvidia"]["device_nodes_usable"],
        "gpus_on_node": snap["scheduler"]["gpus_on_node"],
        "gpus_verified": snap["scheduler"]["gpus_verified"],
        "host_packages": snap["cpu"]["host"]["packages"],
        "host_numa": snap["cpu"]["host"]["numa_nodes"],
        "host_logical": snap["cpu"]["host"]["logical"],
        "topology": {"source": topo["source"], "task": topo["task"], "step": topo["step"]},
        "diffs": diffs,
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
