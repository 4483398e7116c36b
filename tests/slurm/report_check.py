#!/usr/bin/env python3
"""Hold a step's records (`governor report --json --job J` on stdin) to what
its tasks measured of themselves (report_task.py's lines in TASKS), and
each record's findings to the rules applied to the record's own figures.

usage: report_check.py TASKS STEP [--nodes N] [--min-s S] [--finding NAME]...
                       [--no-finding NAME]... [--oom] [--told]

Per node: one record; its tasks count the task lines from that node; its
CPU time is at least the tasks' own CPU time and at most that plus 0.5 s a
task and a tenth (the interpreter's start and end, bash: more under
emulation, whose guest charges a stalled vCPU to the task it ran); it
lasted at least as long as its longest task; its memory peak is at least
the largest task's resident peak less 16 MiB (the task's shared libraries
may be charged to another cgroup) and at most the tasks' peaks summed plus
96 MiB and the page cache the step held at its end; its working set is
the peak less that cache, its memory efficiency the working set over the
budget.  Its findings are exactly those that the rules of
docs/admin-guide.md ("Findings") give for its figures, with report_min_s
S (default 1, as report_lib.sh sets it): how busy a step looks depends on
how loaded the machine is, so the case asks for a finding by name
(--finding, --no-finding) only where the figures leave no doubt, and the
rules' thresholds are tested on fixed records (tests/unit/core/report/test_step_report.c).
The total adds the nodes up.  Prints one line per node and exits 1 with the
reason at the first figure that does not hold.
"""
import argparse
import json
import sys

MIB = 1 << 20
ap = argparse.ArgumentParser()
ap.add_argument("tasks")
ap.add_argument("step")
ap.add_argument("--nodes", type=int, default=1)
ap.add_argument("--min-s", type=float, default=1.0, help="the plugin's report_min_s")
ap.add_argument("--finding", action="append", default=[])
ap.add_argument("--no-finding", action="append", default=[])
ap.add_argument("--oom", action="store_true", help="a task was OOM-killed: no task line from it")
ap.add_argument("--told", action="store_true", help="the tasks were told threads and memory")
a = ap.parse_args()


def fail(msg):
    print("report_check: " + msg, file=sys.stderr)
    sys.exit(1)


# The rules of docs/admin-guide.md, "Findings".  A figure within the
# record's rounding of a threshold (seconds to the millisecond, ratios to
# four places) could go either way: such a finding is not held.
NEAR_LIMIT, UNDERUSED, HELD_BACK = 0.90, 0.25, 0.10


def judged(rec, min_s):
    """{finding: True/False/None (too close to call)} from the figures."""
    used, budget, elapsed = rec["used"], rec["budget"], rec["elapsed_s"]

    def at_least(value, threshold, rounding):
        if value is None or threshold is None:
            return False
        if abs(value - threshold) <= rounding:
            return None
        return value >= threshold

    out = {"oom_killed": used["oom_kills"] not in (None, 0)}
    mem = budget["memory_bytes"]
    # The kernel's limit at the end below the sealed memory (26.05 lowers it).
    limit = used.get("memory_limit_bytes")
    out["memory_lowered"] = limit is not None and mem is not None and limit < mem
    # Near the limit on the working set (the peak less the page cache held
    # at the end) where the record has it, else on the peak.
    wset = used.get("memory_working_set_bytes")
    near = wset if wset is not None else used["memory_peak_bytes"]
    out["memory_near_limit"] = at_least(near, NEAR_LIMIT * mem if mem else None, 1)
    # A step that lasted to the job's end (start is whole seconds: a
    # second of slack); a batch or interactive step, which lasts as long as
    # its job, under a quarter of the job's time limit.
    end, time_limit = rec.get("job_end"), rec.get("time_limit_s")
    out["timeout"] = False if end is None else at_least(rec["start"] + elapsed + 1, end, 0.0005)
    if time_limit is None or rec["step"] not in ("batch", "interactive") or out["timeout"]:
        out["time_overrequested"] = False
    elif out["timeout"] is None:
        out["time_overrequested"] = None
    else:
        v = at_least(elapsed, UNDERUSED * time_limit, 0.0005)
        out["time_overrequested"] = None if v is None else not v
    long_enough = at_least(elapsed, min_s, 0.0005)
    rates = {
        "cpu_underused": (lambda: None if used["cpu_efficiency"] is None else
                          (lambda v: v if v is None else not v)(at_least(used["cpu_efficiency"], UNDERUSED, 0.0001))),
        "throttled": lambda: at_least(used["cpu_throttled_s"], HELD_BACK * elapsed, 0.0006),
        "stalled": lambda: at_least((used["pressure"] or {}).get("memory_some_s"), HELD_BACK * elapsed, 0.0006),
        # On the peak itself, page cache included, and never beside a kill.
        "memory_underused": lambda: False if out["oom_killed"] or not mem or used["memory_peak_bytes"] is None
        else (lambda v: v if v is None else not v)(at_least(used["memory_peak_bytes"], UNDERUSED * mem, 1)),
    }
    for name, rule in rates.items():
        v = rule() if long_enough else False
        out[name] = bool(v) if v is not None or long_enough is not None else None
        if long_enough is None:
            out[name] = None
    return out


report = json.load(sys.stdin)
steps = [s for s in report["steps"] if s["step"] == a.step]
if len(steps) != 1:
    fail("%d steps named %s in the report, expected 1: %s" % (len(steps), a.step, report))
step = steps[0]
tasks = [json.loads(l) for l in open(a.tasks) if l.startswith("{")]
if len(step["nodes"]) != a.nodes:
    fail("%d records, expected one per node (%d)" % (len(step["nodes"]), a.nodes))
for rec in step["nodes"]:
    mine = [t for t in tasks if t["node"] == rec["node"]]
    used = rec["used"]
    own_cpu = sum(t["cpu_s"] for t in mine)
    print("%s: tasks %s (%d lines), cpu_s %s (tasks' own %.3f, from %s), peak %s (tasks' %s), "
          "cache %s, working set %s, oom %s, told %s, findings %s" % (
              rec["node"], rec["tasks"], len(mine), used["cpu_s"], own_cpu, used["cpu_source"],
              used["memory_peak_bytes"], [t["maxrss_bytes"] for t in mine],
              used.get("memory_cache_bytes"), used.get("memory_working_set_bytes"),
              used["oom_kills"], rec["told"], rec["findings"]))
    if rec["schema"] != "governor.step-report/1" or rec["uid"] is None:
        fail("not a step record: %s" % rec)
    if not a.oom and rec["tasks"] != len(mine):
        fail("%s: %s tasks recorded, %d ran there" % (rec["node"], rec["tasks"], len(mine)))
    if not a.oom and not (own_cpu - 0.05 <= used["cpu_s"] <= own_cpu * 1.1 + 0.5 * len(mine)):
        fail("%s: cpu_s %s against the tasks' own %.3f" % (rec["node"], used["cpu_s"], own_cpu))
    if mine and not a.oom and rec["elapsed_s"] < max(t["wall_s"] for t in mine) - 0.002:
        fail("%s: elapsed_s %s, shorter than a task's own %.3f s" % (
            rec["node"], rec["elapsed_s"], max(t["wall_s"] for t in mine)))
    for f, expected in judged(rec, a.min_s).items():
        if expected is not None and expected != (f in rec["findings"]):
            fail("%s: findings %s, but the rules give %s %s for its figures" % (
                rec["node"], rec["findings"], f, "present" if expected else "absent"))
    eff = used["cpu_s"] / (rec["elapsed_s"] * rec["budget"]["cpus"])
    # The record's seconds are rounded to the millisecond, its ratio from
    # the unrounded ones: allow what that rounding moves.
    slack = 0.0002 + eff * (0.0006 / max(used["cpu_s"], 0.001) + 0.0006 / rec["elapsed_s"])
    if abs(used["cpu_efficiency"] - eff) > slack:
        fail("cpu_efficiency %s, not cpu_s / (elapsed_s x cpus) = %.4f" % (used["cpu_efficiency"], eff))
    if mine and not a.oom:
        peak, top, total = used["memory_peak_bytes"], max(t["maxrss_bytes"] for t in mine), \
            sum(t["maxrss_bytes"] for t in mine)
        # Page cache the tasks made (a file written) counts in the peak, not
        # in their resident sets: what the step still held of it is allowed.
        cache = used.get("memory_cache_bytes") or 0
        if peak is None or not (top - 16 * MIB <= peak <= total + 96 * MIB + cache):
            fail("%s: memory peak %s against the tasks' own %s" % (rec["node"], peak, [t["maxrss_bytes"] for t in mine]))
    cache, wset = used.get("memory_cache_bytes"), used.get("memory_working_set_bytes")
    if used["memory_peak_bytes"] is not None and cache is not None:
        if wset != used["memory_peak_bytes"] - min(cache, used["memory_peak_bytes"]):
            fail("%s: working set %s, not the peak %s less the cache %s" % (
                rec["node"], wset, used["memory_peak_bytes"], cache))
        if abs(used["memory_efficiency"] - wset / rec["budget"]["memory_bytes"]) > 0.00006:
            fail("%s: memory_efficiency %s, not working set / budget" % (rec["node"], used["memory_efficiency"]))
    # The job's limit as slurmstepd gave the tasks its start and end (24.11
    # on; none on 22.05, nor for a job without a limit: a year, slurmctld's
    # stand-in, is none).
    times = {(t.get("job_start"), t.get("job_end")) for t in mine}
    for start, end in times:
        if start and end and 0 < int(end) - int(start) < 365 * 86400:
            if (rec.get("time_limit_s"), rec.get("job_end")) != (int(end) - int(start), int(end)):
                fail("%s: time_limit_s %s, job_end %s; the tasks saw start %s, end %s" % (
                    rec["node"], rec.get("time_limit_s"), rec.get("job_end"), start, end))
        elif rec.get("time_limit_s") is not None:
            fail("%s: time_limit_s %s, but the tasks saw no limit (%s, %s)" % (
                rec["node"], rec.get("time_limit_s"), start, end))
    if a.oom != (used["oom_kills"] not in (None, 0)):
        fail("%s: oom_kills %s" % (rec["node"], used["oom_kills"]))
    if a.told:
        told = rec["told"]
        threads = {int(t["threads"]) for t in mine}
        share = {int(t["memory_share"]) for t in mine if t["memory_share"]}
        if told is None or told["tasks"] != len(mine) or {told["threads"]} != threads or \
                (share and {told["memory_bytes"]} != share):
            fail("%s: told %s, the tasks saw threads %s, memory %s" % (rec["node"], told, threads, share))
    elif rec["told"] is not None:
        fail("%s: told %s in a step the plugin told nothing" % (rec["node"], rec["told"]))
    for f in a.finding:
        if f not in rec["findings"]:
            fail("%s: no finding %s in %s" % (rec["node"], f, rec["findings"]))
    for f in a.no_finding:
        if f in rec["findings"]:
            fail("%s: finding %s" % (rec["node"], f))
total = step["total"]
if a.nodes > 1:
    s = sum(r["used"]["cpu_s"] for r in step["nodes"])
    if abs(total["used"]["cpu_s"] - s) > 0.002 or total["tasks"] != sum(r["tasks"] for r in step["nodes"]):
        fail("the total does not add up the nodes: %s" % total)
print("total: %s" % json.dumps(total["used"]))
