#!/usr/bin/env python3
"""A task of the step-report cases (tests/slurm/cases/gov_report*.sh).

usage: report_task.py BUSY_S HOLD_MIB [SLEEP_S]

Holds HOLD_MIB of written memory, burns BUSY_S of CPU time, sleeps SLEEP_S,
then prints one JSON line of what it measured of itself (its own rusage
and wall time, never the plugin's reading) and what it was told (the variables the plugin
set), for the case to hold the step's record to.
"""
import json
import os
import resource
import sys
import time

t0 = time.monotonic()
busy, hold = float(sys.argv[1]), int(sys.argv[2])
pause = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
data = b"\x01" * (hold << 20)  # written, so resident
start = time.process_time()
while time.process_time() - start < busy:
    pass
time.sleep(pause)
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({
    "job": os.environ.get("SLURM_JOB_ID"),
    "step": os.environ.get("SLURM_STEP_ID"),
    "node": os.environ.get("SLURMD_NODENAME"),
    "cpu_s": ru.ru_utime + ru.ru_stime,
    "wall_s": time.monotonic() - t0,
    "maxrss_bytes": ru.ru_maxrss * 1024,
    "threads": os.environ.get("GOVERNOR_THREADS"),
    "memory_share": os.environ.get("GOVERNOR_MEMORY_SHARE"),
}), flush=True)
