#!/usr/bin/env bash
# covers: v2
# v1: IgnoreSystemd is a setting of Slurm's cgroup/v2 plugin only
# cgroup.conf IgnoreSystemd=yes: slurmd, started by hand outside any
# systemd service (alone in a cgroup of its own, as 25.11 and later need:
# cluster.sh), makes its node's slurmstepd scope itself. Steps land in
# the same layout as under systemd, and a governed task's snapshot reads the
# same memory limits. 24.11 and 26.05 (EnableControllers=yes) enable the controllers
# down to the scope; 22.05 has no such setting, and below system.slice only
# memory is enabled for it, so there ConstrainCores holds nothing: the
# task's cpuset is the whole machine's.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

restart_cluster --systemd no
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
gov_plugstack
grep -qx 'IgnoreSystemd=yes' "$GOV_CLUSTER_DIR/etc/cgroup.conf" || die "cgroup.conf does not ignore systemd"
# slurmd is no systemd service here: it stays in the cgroup it was started in.
pid=$(cat "$GOV_CLUSTER_DIR/run/slurmd-node1.pid")
assert_no_match 'gov-slurmd-' "$(cat "/proc/$pid/cgroup")" "slurmd's own cgroup"

# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -w node1 -n1 -c1 --mem=200M bash -c '
	cat /proc/self/cgroup
	echo "controllers $(cat "/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)/cgroup.controllers")"
	"$GOV_TOOL" snapshot --json | jq -r "[.descriptor.status, .memory.cgroup.limit_bytes, .memory.cgroup.high_bytes, .cpu.cgroup.cpuset_count, .enforcement.memory] | join(\" \")"')
printf '%s\n' "$out"
assert_line "0::/system.slice/node1_slurmstepd.scope/$(v2_job_dir)/step_0/user/task_0" "$out" "the task's cgroup"
assert_line "controllers $(by_series 22.05=memory 24.11="cpuset cpu memory" 26.05="cpuset cpu memory")" "$out" \
	"the controllers of the task's cgroup"
assert_line "verified $((200 << 20)) $((200 << 20)) $(by_series 22.05=2 24.11=1 26.05=1) enforced" "$out" \
	"the snapshot"
