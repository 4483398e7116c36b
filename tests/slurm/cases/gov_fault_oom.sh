#!/usr/bin/env bash
# covers: v1 v2
# Fault: a governed task is OOM-killed by its memory cgroup (--mem
# exceeded).  srun reports the kill, the step's other task (which verified
# its descriptor and knew the limit) is unharmed, slurmd's and the kernel's
# logs say what happened, no node drains, and the next governed step
# verifies.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

[[ $(cgroup_mode) == v2 || -n $(cgroup_mount memory) ]] ||
	die "no cgroup v1 memory hierarchy, yet the cluster runs cgroup/v1"
gov_plugstack
mark=$(log_mark)
rc=0
# Task 0 reads its budget, then becomes a process that writes 400 MB; task
# 1 only reports.  The kill ends the step, so task 0 waits until task 1 has
# reported (a file in the user's home, which every node of this machine
# shares).
home=$(user_home)
rm -f "$home/gov_oom.t1"
# shellcheck disable=SC2016 # expanded in the tasks
out=$(as_user srun --governor -n2 --mem=100M bash -c '
	echo "task $SLURM_PROCID $("$GOV_TOOL" snapshot --json | jq -r "[.descriptor.status, .memory.scheduler.limit_bytes] | join(\" \")")"
	[ "$SLURM_PROCID" = 1 ] && touch "$HOME/gov_oom.t1"
	if [ "$SLURM_PROCID" = 0 ]; then
		deadline=$((SECONDS + 120))
		until [ -e "$HOME/gov_oom.t1" ] || [ $SECONDS -ge $deadline ]; do sleep 0.1; done
		exec python3 -c "b = b\"x\" * (400 << 20)"
	fi' 2>&1) || rc=$?
rm -f "$home/gov_oom.t1"
printf '%s\n' "$out"
((rc != 0)) || die "the task using 400 MB with --mem=100M was not stopped"
assert_line "task 1 verified $((100 << 20))" "$out" "the other task's sealed budget"
# Slurm 22.05 with cgroup/v1 reports the kill, not its cause; the kernel's
# log has the cause (on v2 too: the kill is the memory cgroup's).
assert_match 'task 0: (Killed|Out Of Memory)' "$out" "srun's report"
deadline=$((SECONDS + 60))
until grep -qE 'task 0 died by signal: 9|[Oo]ut [Oo]f [Mm]emory' <<<"$(log_since "$mark")" || ((SECONDS >= deadline)); do
	sleep 0.2
done
assert_match 'task 0 died by signal: 9|[Oo]ut [Oo]f [Mm]emory' "$(log_since "$mark")" "slurmd's log"
if kernel=$(dmesg 2>/dev/null); then
	assert_match 'Memory cgroup out of memory: Killed process [0-9]+ \(python3\)' "$kernel" "the kernel's log"
fi

assert_no_drain
assert_next_step_works
