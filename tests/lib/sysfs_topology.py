"""What a CPU mask covers, as the kernel's own sysfs files say: the oracle
the topology tests hold governor's snapshot to, on a machine tree
(tests/tool/tree_tasks.py) and inside a real task (tests/slurm/topology_check.py).
"""
import os


def parse(text):
    """A Linux CPU list ("0-3,8") as a set."""
    cpus = set()
    for part in text.strip("\0\n ").split(","):
        if part:
            a, _, b = part.partition("-")
            cpus.update(range(int(a), int(b or a) + 1))
    return cpus


def fmt(cpus):
    """A set as a canonical Linux CPU list."""
    out, run = [], []
    for c in sorted(cpus) + [None]:
        if run and c == run[-1] + 1:
            run.append(c)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [c]
    return ",".join(out)


def read(root, path):
    try:
        with open(os.path.join(root, path)) as f:
            return f.read()
    except OSError:
        return None


class Topology:
    """The online CPUs, the threads of each CPU's core and the CPUs of each
    NUMA node, from ROOT/sys."""

    def __init__(self, root="/"):
        self.root = root
        self.online = parse(read(root, "sys/devices/system/cpu/online") or "")
        self.siblings = {c: self._siblings(c) & self.online for c in self.online}
        self.nodes = {}
        node_dir = os.path.join(root, "sys/devices/system/node")
        for d in sorted(os.listdir(node_dir)) if os.path.isdir(node_dir) else []:
            if d.startswith("node") and d[4:].isdigit():
                cpus = parse(read(root, f"sys/devices/system/node/{d}/cpulist") or "")
                if cpus & self.online:
                    self.nodes[int(d[4:])] = cpus & self.online

    def _siblings(self, cpu):
        for name in ("core_cpus_list", "thread_siblings_list"):
            text = read(self.root, f"sys/devices/system/cpu/cpu{cpu}/topology/{name}")
            if text is not None:
                return frozenset(parse(text))
        return frozenset([cpu])

    def covers(self, mask):
        """What mask covers, in the snapshot's terms (.topology.task)."""
        cores = {self.siblings[c] for c in mask}
        touched = sorted(n for n, c in self.nodes.items() if c & mask)
        return {
            "pus": len(mask), "cores": len(cores),
            "whole_cores": sum(1 for k in cores if k <= mask),
            "numa_nodes": len(touched),
            "numa": [(n, fmt(self.nodes[n] & mask)) for n in touched],
        }
