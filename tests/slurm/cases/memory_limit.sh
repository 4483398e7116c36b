#!/usr/bin/env bash
# covers: v1 v2
# --mem=200M is enforced by the step's memory cgroup, and the task's own
# level is unlimited (what the runtime's cgroup collector must walk up to
# find). v1: the step one level above the task, and the job, carry the
# limit. v2 (24.11, 26.05): the job's level (job_N, 26.05's SLUID) and
# step_0/user carry it, memory.high equal to memory.max on both; task_0 and
# step_0 are unlimited. Using more than that
# gets the task killed.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

if [[ $(cgroup_mode) == v1 ]]; then
	mnt=$(cgroup_mount memory)
	[[ -n $mnt ]] || die "no cgroup v1 memory hierarchy, yet the cluster runs cgroup/v1"
	# Inside the step: limit, soft limit and memsw limit of the task's
	# level, the step's and the job's.
	script='
m=$(sed -n "s/^[0-9]*:memory://p" /proc/self/cgroup)
for d in "$m" "${m%/*}" "${m%/*/*}"; do
	f=$1$d
	echo "${d##*/} $(cat "$f/memory.limit_in_bytes" "$f/memory.soft_limit_in_bytes" "$f/memory.memsw.limit_in_bytes" | tr "\n" " ")"
done
echo "root $(cat "$1/memory.limit_in_bytes")"
'
	out=$(as_user srun --mem=200M -c1 bash -c "$script" _ "$mnt")
	printf '%s\n' "$out"
	unlimited=$(sed -n 's/^root \([0-9]*\)$/\1/p' <<<"$out")
	assert_match '^[0-9]+$' "$unlimited" "root limit"
	assert_match "^task_0 $unlimited " "$(sed -n 1p <<<"$out")" "task level unlimited"
	assert_match '^step_0 209715200 ' "$(sed -n 2p <<<"$out")" "step level limit"
	assert_match '^job_[0-9]+ 209715200 ' "$(sed -n 3p <<<"$out")" "job level limit"
else
	mnt=$(cgroup2_mount)
	# Every level from the task up to the scope: memory.max memory.high
	# memory.swap.max.
	script='
d=$1$(sed -n "s/^0:://p" /proc/self/cgroup)
for i in 1 2 3 4 5; do
	echo "${d##*/} $(cat "$d/memory.max" "$d/memory.high" "$d/memory.swap.max" | tr "\n" " ")"
	d=${d%/*}
done
'
	out=$(as_user srun --mem=200M -c1 bash -c "$script" _ "$mnt")
	printf '%s\n' "$out"
	assert_line 'task_0 max max max ' "$out" "the task's level"
	assert_line 'user 209715200 209715200 max ' "$out" "step_0/user: the step's limit"
	assert_line 'step_0 max max max ' "$out" "step_0 itself"
	assert_line "$(v2_job_dir) 209715200 209715200 max " "$out" "the job's level"
	assert_line 'node[0-9]+_slurmstepd.scope max max max ' "$out" "the node's scope"
fi

# 400 MB in one line: tail must hold it all, over the 100M limit.
rc=0
as_user srun --mem=100M -c1 bash -c 'head -c 400000000 /dev/zero | tail -n 1 >/dev/null' || rc=$?
[[ $rc -ne 0 ]] || die "a step using 400 MB with --mem=100M was not stopped"
