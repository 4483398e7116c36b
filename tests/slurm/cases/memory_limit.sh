#!/usr/bin/env bash
# --mem=200M is enforced by the step's v1 memory cgroup, one level above the
# task's, and the task's own level is unlimited (what the runtime's cgroup
# collector must walk up to find). Using more than that gets the task killed.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

mnt=$(cgroup_mount memory)
[[ -n $mnt ]] || skip "no cgroup v1 memory hierarchy on this machine"
# Inside the step: print limit, soft limit and memsw limit of the task's
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

# 400 MB in one line: tail must hold it all, over the 100M limit.
rc=0
as_user srun --mem=100M -c1 bash -c 'head -c 400000000 /dev/zero | tail -n 1 >/dev/null' || rc=$?
[[ $rc -ne 0 ]] || fail "a step using 400 MB with --mem=100M was not stopped"
