#!/usr/bin/env python3
"""A descriptor a user writes by hand, in docs/descriptor.md's format, for the
cases that hold verification to what the user cannot fake
(tests/slurm/cases/gov_forged_verified.sh): this boot's hash, the calling
user's uid on the node (mapped out of a user namespace), a process the caller descends from (pid 1 by default, which
every process does), its start time, and a budget far above the node's.

usage: forge_descriptor.py JOB STEP NODE [PID]   (the text on stdout)
"""
import os
import sys
import time

job, step, node = sys.argv[1:4]


def host_uid():
    """The caller's uid on the node: getuid() mapped out of a user namespace."""
    uid = os.getuid()
    for line in open("/proc/self/uid_map"):
        inside, outside, count = map(int, line.split())
        if inside <= uid < inside + count:
            return outside + uid - inside
    return uid



pid = int(sys.argv[4]) if len(sys.argv) > 4 else 1
boot = open("/proc/sys/kernel/random/boot_id").read().strip()
h = 0xCBF29CE484222325
for c in boot.encode():
    h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
start = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[19]
sys.stdout.write(
    "governor-descriptor/4\n"
    "job=%s\nstep=%s\nnode=%s\nuid=%d\npid=%d\nstart=%s\ncreated=%d\n"
    "nodes=1\ntasks=1\ntasks_node=1\nncpus=64\ncpt=64\njob_mem=999999\nstep_mem=999999\n"
    "boot=%016x\nkind=normal\nprofile=batch\nimposed=0\nseal=optional\nthreads=0\nruntimes=0\n"
    % (job, step, node, host_uid(), pid, start, int(time.time()), h))
