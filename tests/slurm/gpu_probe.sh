#!/usr/bin/env bash
# Runs in a task: what the kernel and the governor say about its GPUs, one
# "KEY VALUE..." line each (see gpu_probe in gov_lib.sh).
#   gpu_probe.sh GOVERNOR_TOOL nvidia|drm
set -eu
gov=$1 kind=$2
if [[ $kind == nvidia ]]; then pattern='/dev/nvidia[0-9]*'; else pattern='/dev/dri/renderD*'; fi
# open() of every GPU node: EPERM is the device cgroup's refusal; the fake
# nodes have no driver, so an admitted open fails with ENXIO instead.
python3 - "$pattern" <<'PY'
import errno, glob, os, sys
allowed = denied = 0
for path in sorted(glob.glob(sys.argv[1])):
    try:
        os.close(os.open(path, os.O_RDWR))
        allowed += 1
    except OSError as e:
        if e.errno == errno.EPERM:
            denied += 1
        else:
            allowed += 1
print("kernel", allowed, denied)
PY
snap() { "$gov" snapshot --json | python3 -c '
import json, sys
s = json.load(sys.stdin)
print(" ".join(json.dumps(v).strip("\"") for v in (
    s["scheduler"]["source"], s["scheduler"]["gpus_on_node"], s["scheduler"]["gpus_verified"],
    s["enforcement"]["gpu"], s["accelerators"]["visible"]["CUDA_VISIBLE_DEVICES"])))'; }
echo "sealed $(snap)"
echo "confined $("$gov" snapshot --json | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["accelerators"]["devices_confined"]))')"
# The same task recomputed from its variables alone (no descriptor).
echo "variables $(unset GOVERNOR_DESCRIPTOR; snap)"
