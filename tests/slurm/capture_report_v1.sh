#!/usr/bin/env bash
# Not a test: the fixture tests/fixtures/cgroup/slurm-v1-report, taken from a
# real step of a running test cluster (tests/slurm/cluster.sh, cgroup/v1):
#   eval "$(tests/slurm/cluster.sh env)"; tests/slurm/capture_report_v1.sh DEST
# A two-task step with --mem=200M: task 0 holds 64 MiB after burning half a
# second of CPU, task 1 writes 300 MiB and is OOM-killed, then task 0
# writes a 16 MiB file on disk (page cache the step holds to its end).  While task 0
# still runs, root copies what the step report reads: the task's
# /proc/PID/cgroup (as proc/self/cgroup), the mount table, and the memory
# files of the step's cgroup and of each task's below it.
set -euo pipefail
dest=${1:?usage: capture_report_v1.sh DEST}
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2016 # expanded in the tasks
"$here/as_user.sh" srun -w node1 -n2 --mem=200M bash -c '
if [ "$SLURM_PROCID" = 1 ]; then sleep 0.5; exec python3 -c "b = b\"x\" * (300 << 20)"; fi
exec python3 -c "import time
b = b\"x\" * (64 << 20)
t = time.process_time()
while time.process_time() - t < 0.5: pass
time.sleep(1.5)
import os, tempfile
with tempfile.TemporaryFile(dir=\"/var/tmp\") as f:
    f.write(b\"y\" * (16 << 20)); f.flush(); time.sleep(3.5)"' &
srun_pid=$!
sleep 3
# The task, not srun (whose command line says the same): the one in a task_N cgroup.
pid=
for p in $(pgrep -u "${GOV_TEST_USER:-govtest}" -f 'time.sleep\(3.5\)'); do
	grep -q ':memory:.*/task_0$' "/proc/$p/cgroup" && pid=$p
done
[[ -n $pid ]] || { echo "capture_report_v1: task 0 is not running" >&2; exit 1; }
rel=$(sed -n 's/^[0-9]*:memory://p' "/proc/$pid/cgroup")
step=/sys/fs/cgroup/memory${rel%/task_*}
out=$dest/slurm-v1-report
rm -rf "$out" && mkdir -p "$out/proc/self"
cp "/proc/$pid/cgroup" "$out/proc/self/cgroup"
cp /proc/self/mountinfo "$out/proc/self/mountinfo"
for d in "$step" "$step"/task_*; do
	mkdir -p "$out$d"
	for f in memory.max_usage_in_bytes memory.usage_in_bytes memory.limit_in_bytes memory.oom_control \
		memory.stat; do
		cat "$d/$f" >"$out$d/$f"
	done
done
wait "$srun_pid" || true
find "$out" -type f | wc -l
