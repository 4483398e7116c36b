#!/usr/bin/env bash
# covers: v1
# v2: the quota is made on this host's cgroup v1 cpu hierarchy; the narrowing is core/decide/runenv.c's on either version
# Tasks narrowed under a CPU quota spread over their shared mask (issue 26,
# item 5).  Two tasks of one step share both CPUs of their node
# (--cpu-bind=none); root gives a cgroup a quota of half a CPU and lets the
# test user move into it, as a container or a site's own cgroup would.
# Each task moves there and runs `governor run`, which narrows its mask to
# one CPU: before, both took the mask's lowest CPU and the other idled; now
# each starts at its SLURM_LOCALID, so the two differ.  Then node1's slurmd
# itself runs under the quota, so that its steps' tasks start there, and
# the plugin narrows them (--governor=runtimes, task_init) the same way.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

cpu=$(cgroup_mount cpu)
[[ -n $cpu ]] || die "no cgroup v1 cpu hierarchy, yet the cluster runs cgroup/v1"
quota=$cpu/gov-test-quota
rmdir "$quota" 2>/dev/null || true
mkdir "$quota"
trap 'rmdir "$quota" 2>/dev/null || true' EXIT
echo 50000 >"$quota/cpu.cfs_quota_us"
chown "${GOV_TEST_USER:-govtest}" "$quota/tasks" "$quota/cgroup.procs"
gov_plugstack

# shellcheck disable=SC2016 # expanded in the tasks
task='echo $$ >"$GOV_QUOTA/tasks" && exec "$GOV_TOOL" run -- python3 -c "import os
print(os.environ[\"SLURM_LOCALID\"], sorted(os.sched_getaffinity(0)))"'

# spread OUTPUT: two tasks, each narrowed to one CPU of its own.
spread() {
	local masks m
	printf '%s\n' "$1"
	assert_eq 2 "$(wc -l <<<"$1")" "two tasks"
	masks=$(sed 's/^[0-9]* //' <<<"$1" | sort -u)
	assert_eq 2 "$(wc -l <<<"$masks")" "the two tasks' narrowed masks differ"
	while read -r m; do
		assert_match '^\[[0-9]+\]$' "$m" "each mask narrowed to one CPU"
	done <<<"$masks"
}

spread "$(GOV_QUOTA=$quota as_user srun --governor -w node1 -n2 -c1 --cpu-bind=none bash -c "$task" | sort)"

slurmd=$(pgrep -f 'slurmd .*-N node1( |$)' | head -n1)
[[ -n $slurmd ]] || die "no slurmd of node1"
echo "$slurmd" >"$quota/cgroup.procs"
trap 'echo "$slurmd" >"$cpu/cgroup.procs"; rmdir "$quota" 2>/dev/null || true' EXIT
# shellcheck disable=SC2016 # expanded in the tasks
show='python3 -c "import os; print(os.environ[\"SLURM_LOCALID\"], sorted(os.sched_getaffinity(0)))"'
spread "$(as_user srun --governor=runtimes -w node1 -n2 -c1 --cpu-bind=none bash -c "$show" | sort)"
echo "$slurmd" >"$cpu/cgroup.procs"
assert_no_drain
