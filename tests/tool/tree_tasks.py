#!/usr/bin/env python3
"""The task part of governor's topology on one machine tree, against the
tree's own sysfs: for masks taken from its NUMA nodes' cpulists, what the
mask covers (PUs, cores, whole cores, NUMA nodes, each node's CPUs) as the
kernel's files say, then as `governor snapshot --sysroot TREE` says.

usage: tree_tasks.py GOVERNOR TREE   (TREE writable: proc/self/status is
written into it).  Prints one line per failed check and exits 1 if any;
exits 0 otherwise; a note says which checks a tree's own lists cannot
decide.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from sysfs_topology import Topology, fmt  # noqa: E402


def snapshot(gov, tree):
    env = {k: v for k, v in os.environ.items() if k != "HWLOC_FSROOT"}
    out = subprocess.run([gov, "snapshot", "--json", "--sysroot", tree], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    gov, tree = sys.argv[1], sys.argv[2]
    topo = Topology(tree)
    nodes, sib = topo.nodes, topo.siblings
    if not nodes:
        return 0
    first, last = min(nodes), max(nodes)
    one_thread = {min(sib[c] & nodes[first]) for c in nodes[first]}
    cases = [("node %d" % first, nodes[first]), ("one thread per core", one_thread)]
    if last != first:
        cases.append(("nodes %d and %d" % (first, last), nodes[first] | nodes[last]))
    # Where hwloc departs from the kernel's lists on purpose, those lists are
    # no oracle: AMD's compute units (the kernel calls a unit's two cores
    # siblings; hwloc counts two cores), and NUMA nodes that overlap (hwloc
    # merges them).
    skip = set()
    if len(set(sib.values())) != snapshot(gov, tree)["cpu"]["host"]["physical"]:
        skip |= {"cores", "whole_cores"}
        print("  note: hwloc counts cores other than the kernel's sibling lists")
    if sum(len(c) for c in nodes.values()) != len(set().union(*nodes.values())):
        skip |= {"numa_nodes", "numa"}
        print("  note: the tree's NUMA nodes overlap")
    failed = 0
    status = os.path.join(tree, "proc/self/status")
    os.makedirs(os.path.dirname(status), exist_ok=True)
    for name, mask in cases:
        with open(status, "w") as f:
            f.write(f"Name:\ttask\nCpus_allowed_list:\t{fmt(mask)}\n")
        task = snapshot(gov, tree)["topology"]["task"]
        want = topo.covers(mask)
        got = {k: task[k] for k in ("pus", "cores", "whole_cores", "numa_nodes")}
        got["numa"] = [(e["os_index"], e["cpus"]) for e in task["numa"] or []]
        for key, value in want.items():
            if key not in skip and got[key] != value:
                print(f"  {name}: task.{key} ours={got[key]} sysfs={value}")
                failed = 1
    os.unlink(status)
    return failed


if __name__ == "__main__":
    sys.exit(main())
