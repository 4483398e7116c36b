#!/usr/bin/env bash
# A step gets Slurm's own v1 cgroups: freezer at the step level, memory one
# level further down at the task, and the cpuset at the step (22.05) or,
# like memory, at the task (24.11, 26.05).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

out=$(as_user srun --mem=200M -c1 cat /proc/self/cgroup)
printf '%s\n' "$out"
uid=$(id -u "${GOV_TEST_USER:-govtest}")
step="/slurm_node[0-9]+/uid_$uid/job_[0-9]+/step_0"
assert_line "[0-9]+:memory:$step/task_0" "$out" "memory cgroup"
assert_line "[0-9]+:cpuset:$(by_series 22.05="$step" 24.11="$step/task_0" 26.05="$step/task_0")" "$out" "cpuset cgroup"
assert_line "[0-9]+:freezer:$step" "$out" "freezer cgroup"
