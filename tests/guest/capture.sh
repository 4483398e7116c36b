#!/usr/bin/env bash
# covers: v2
# v1: it captures the cgroup v2 fixtures; the v1 ones come from the host's cluster
# Not a test: the fixtures of tests/fixtures/cgroup/slurm-v2* taken from real
# steps, run as a case of tests/slurm/run.sh inside the guest by
#   tests/guest/run.sh --build DIR --capture DEST
# Each task copies, while it runs, the kernel's own files that the library
# reads: /proc/self/{cgroup,mountinfo,status}, /proc/meminfo and
# /proc/pressure, the online CPUs, and the cgroup files of every level from
# its own cgroup up to the root, plus every cgroup below its node's scope
# (the step's "slurm" sibling, the scope's "system"). Layouts:
#   slurm-v2             srun --mem=200M -c1, right after the task starts
#   slurm-v2-page-cache  srun --mem=300M -c1, after writing, fsyncing and
#                        reading back 450 MiB on the guest's ext4 disk
#   slurm-v2-report      srun --mem=200M -c1, after burning a second of CPU
#                        and holding 64 MiB (the step report's figures)
set -euo pipefail
# shellcheck source=tests/slurm/lib.sh
source "$(dirname "$0")/../slurm/lib.sh"

dest=${GOV_CAPTURE_DIR:?GOV_CAPTURE_DIR: where the fixtures go (tests/guest/run.sh --capture)}
[[ $(cgroup_mode) == v2 ]] || die "the v2 fixtures come from a cgroup/v2 cluster"

# In the task: ROOT is where the tree goes (the test user's, then moved).
# shellcheck disable=SC2016 # expanded in the task
copy='
set -eu
out=$1
files="cgroup.controllers cgroup.subtree_control cgroup.type cpu.max cpu.pressure
cpu.stat cpuset.cpus.effective cpuset.mems.effective io.pressure memory.current
memory.events memory.high memory.max memory.peak memory.pressure memory.stat
memory.swap.max"
level() { # DIR: the files of one cgroup directory
	mkdir -p "$out$1"
	for f in $files; do
		[ -r "$1/$f" ] && cat "$1/$f" >"$out$1/$f"
	done
	return 0
}
mkdir -p "$out/proc/self" "$out/proc/pressure" "$out/sys/devices/system/cpu"
cat /proc/self/cgroup >"$out/proc/self/cgroup"
cat /proc/self/mountinfo >"$out/proc/self/mountinfo"
cat /proc/self/status >"$out/proc/self/status"
cat /proc/meminfo >"$out/proc/meminfo"
for p in cpu memory io; do cat "/proc/pressure/$p" >"$out/proc/pressure/$p"; done
cat /sys/devices/system/cpu/online >"$out/sys/devices/system/cpu/online"
own=/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)
scope=${own%%_slurmstepd.scope/*}_slurmstepd.scope
find "$scope" -type d | while read -r d; do level "$d"; done
d=$own
while [ "$d" != /sys/fs/cgroup ]; do
	d=${d%/*}
	level "$d"
done
'
take() { # LAYOUT SRUN_ARGS... -- SCRIPT: runs SCRIPT, then the copy, in one task
	local layout=$1 tmp
	shift
	tmp=$(as_user mktemp -d)
	as_user srun -w node1 -n1 "$@" "$tmp"
	rm -rf "${dest:?}/$layout"
	mkdir -p "$dest"
	mv "$tmp" "$dest/$layout"
	chown -R root: "$dest/$layout"
	printf '%s: %s files\n' "$layout" "$(find "$dest/$layout" -type f | wc -l)"
}

take slurm-v2 -c1 --mem=200M bash -c "$copy" _
# shellcheck disable=SC2016 # expanded in the task
io='f=$HOME/page-cache.$$
dd if=/dev/urandom of="$f" bs=1M count=450 conv=fsync status=none
cat "$f" >/dev/null
'
# The file stays until the copy is done: removing it drops its cache.
# shellcheck disable=SC2016 # expanded in the task
take slurm-v2-page-cache -c1 --mem=300M bash -c "$io$copy"'rm -f "$f"' _
# shellcheck disable=SC2016 # expanded in the task
busy='python3 -c "import time; b = b\"x\" * (64 << 20); t = time.process_time()
while time.process_time() - t < 1: pass"
'
take slurm-v2-report -c1 --mem=200M bash -c "$busy$copy" _
