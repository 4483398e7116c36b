#!/bin/sh
# A Slurm TaskProlog that runs `governor doctor` in each task before the task
# starts (slurm.conf: TaskProlog=/etc/slurm/governor-doctor-taskprolog.sh).
# A TaskProlog runs as the job's user inside the task's cgroups, with the
# task's affinity and GOVERNOR_DESCRIPTOR, so doctor sees what the task will
# see. docs/rollout.md explains the findings.
#
# - Warnings and errors go to syslog (tag governor-doctor) for the
#   administrators; nothing reaches the user's output. doctor prints no ids:
#   add "$SLURM_JOB_ID" to the tag if your logs need it.
# - STRICT=1: a task whose allocation the kernel does not enforce (doctor
#   exits 1) does not start. srun reports the task as failed, slurmd logs
#   "TaskProlog failed status=1", and the node stays up (Slurm 22.05).
#   doctor's other failures never stop a task.

GOVERNOR=/usr/bin/governor
STRICT=0
log() { logger -t governor-doctor -p user.warning; }

[ -x "$GOVERNOR" ] || exit 0
out=$("$GOVERNOR" doctor 2>&1)
rc=$?
if [ "$rc" -gt 1 ] || printf '%s\n' "$out" | grep -Eq '^(ERROR|warn) '; then
	printf '%s\n' "$out" | log
fi
if [ "$STRICT" = 1 ] && [ "$rc" -eq 1 ]; then
	exit 1
fi
exit 0
