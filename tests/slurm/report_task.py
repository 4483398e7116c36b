#!/usr/bin/env python3
"""A task of the step-report cases (tests/slurm/cases/gov_report*.sh).

usage: report_task.py BUSY_S HOLD_MIB [SLEEP_S [FILE_MIB DIR]]

Holds HOLD_MIB of written memory, burns BUSY_S of CPU time, sleeps SLEEP_S,
writes a file of FILE_MIB in DIR (on a disk: its pages are the step's page
cache, synced as they go so that they are clean and reclaimable) and reads
it back, leaving it for the case to remove (deleting it would free its
cache before the step's end), then prints one JSON line of what it measured of itself (its own rusage
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
if len(sys.argv) > 5:
    chunk = b"\x02" * (1 << 20)
    path = os.path.join(sys.argv[5], "file.%s.%s" % (os.environ.get("SLURM_JOB_ID"), os.getpid()))
    with open(path, "wb") as f:
        for i in range(int(sys.argv[4])):
            f.write(chunk)
            if i % 16 == 15:
                f.flush()
                os.fsync(f.fileno())
        f.flush()
        os.fsync(f.fileno())
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({
    "job": os.environ.get("SLURM_JOB_ID"),
    "step": os.environ.get("SLURM_STEP_ID"),
    "node": os.environ.get("SLURMD_NODENAME"),
    # slurmstepd's, from the job's credential (Slurm 24.11 on).
    "job_start": os.environ.get("SLURM_JOB_START_TIME"),
    "job_end": os.environ.get("SLURM_JOB_END_TIME"),
    "cpu_s": ru.ru_utime + ru.ru_stime,
    "wall_s": time.monotonic() - t0,
    "maxrss_bytes": ru.ru_maxrss * 1024,
    "threads": os.environ.get("GOVERNOR_THREADS"),
    "memory_share": os.environ.get("GOVERNOR_MEMORY_SHARE"),
}), flush=True)
