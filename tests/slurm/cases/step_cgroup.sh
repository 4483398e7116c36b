#!/usr/bin/env bash
# covers: v1 v2
# A step gets Slurm's own cgroups. v1: freezer at the step level, memory one
# level further down at the task, and the cpuset at the step (22.05) or,
# like memory, at the task (24.11, 26.05). v2 (24.11, 26.05, under
# systemd): one cgroup, the task's, below step_0/user in the node's own
# slurmstepd scope, in the job's directory (job_N; 26.05: its SLUID).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

out=$(as_user srun --mem=200M -c1 cat /proc/self/cgroup)
printf '%s\n' "$out"
uid=$(id -u "${GOV_TEST_USER:-govtest}")
if [[ $(cgroup_mode) == v2 ]]; then
	assert_line "0::/system.slice/node[0-9]+_slurmstepd.scope/$(v2_job_dir)/step_0/user/task_0" "$out" "v2 cgroup"
	assert_eq 1 "$(wc -l <<<"$out")" "lines of /proc/self/cgroup on a unified hierarchy"
	exit 0
fi
step="/slurm_node[0-9]+/uid_$uid/job_[0-9]+/step_0"
assert_line "[0-9]+:memory:$step/task_0" "$out" "memory cgroup"
assert_line "[0-9]+:cpuset:$(by_series 22.05="$step" 24.11="$step/task_0" 26.05="$step/task_0")" "$out" "cpuset cgroup"
assert_line "[0-9]+:freezer:$step" "$out" "freezer cgroup"
