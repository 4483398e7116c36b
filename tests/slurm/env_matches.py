#!/usr/bin/env python3
"""Runs in a task: does the task's environment hold exactly what `governor
run` would give it there?  Reads `governor run --dry-run --json` on stdin.
Every variable governor run would set must already hold that value (its
reason then says the value is ours: replaced, pool or marker), every one it
would skip must be absent, a kept one is the user's, and the affinity needs
no narrowing.  Prints one line per mismatch (names, never values), else
"matches N variables"; exit status 1 on a mismatch."""
import json
import os
import sys

plan = json.load(sys.stdin)
bad = []
checked = 0
for v in plan["variables"]:
    name, opt, action, why, setting = (v["name"], v["option"], v["action"], v["reason"],
                                       v["setting"])
    what = name + (" " + opt if opt else "")
    cur = os.environ.get(name)
    words = cur.split() if cur is not None else []
    has_opt = opt is not None and any(w.split("=")[0] in (opt, opt.rstrip("=")) for w in words)
    checked += 1
    if action == "set":
        if why not in ("replaced", "pool", "marker"):
            bad.append("%s: governor run would still set it (%s)" % (what, why))
        elif opt is None and cur != setting:
            bad.append("%s: the task's value differs from governor run's" % what)
        elif opt is not None and setting not in words:
            bad.append("%s: the option is not in the task's variable as governor run sets it" % what)
    elif action == "skip":
        if why == "cleared":
            bad.append("%s: governor run would remove it" % what)
        elif (opt is None and cur is not None) or has_opt:
            bad.append("%s: set in the task, governor run sets nothing there (%s)" % (what, why))
if plan["affinity"]["action"] != "keep":
    bad.append("affinity: governor run would still narrow it")
for line in bad:
    print(line)
if not bad:
    print("matches %d variables" % checked)
sys.exit(1 if bad else 0)
