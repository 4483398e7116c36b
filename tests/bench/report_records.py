#!/usr/bin/env python3
"""N step records at a cluster's scale, for tests/bench/report_scale.sh:
the records of a real 26.05 run (tests/fixtures/report/jobs.jsonl) repeated
with new job ids, a job's steps on 1 to 3 of 1,000 nodes, 200 users, starts
spread over a week.  The figures stay the real records' own.

usage: report_records.py FIXTURE N > FILE
"""
import json
import random
import sys

fixture, n = sys.argv[1], int(sys.argv[2])
templates = [json.loads(l) for l in open(fixture) if l.strip()]
rng = random.Random(49)  # the same file every run
t0 = 1796000000
out = sys.stdout
written, job = 0, 100000
while written < n:
    job += 1
    uid = 2000 + rng.randrange(200)
    start = t0 + rng.randrange(7 * 86400)
    nodes = ["n%04d" % i for i in rng.sample(range(1000), rng.choice((1, 1, 2, 3)))]
    steps = rng.choice(((0,), (0, 1), ("batch", 0, 1)))
    for k, step in enumerate(steps):
        for node in nodes:
            if written == n:
                break
            r = dict(templates[(job + k) % len(templates)])
            r.update(job=job, uid=uid, node=node, step=str(step), start=start + k)
            if r.get("job_end") is not None:
                r["job_end"] = start + r["time_limit_s"]
            out.write(json.dumps(r, separators=(",", ":")) + "\n")
            written += 1
