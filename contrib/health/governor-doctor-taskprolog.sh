#!/bin/sh
# A Slurm TaskProlog that runs `governor doctor` in each task before the task
# starts (slurm.conf: TaskProlog=/etc/slurm/governor-doctor-taskprolog.sh).
# A TaskProlog runs as the job's user inside the task's cgroups, with the
# task's affinity and GOVERNOR_DESCRIPTOR, so doctor sees what the task will
# see. docs/rollout.md explains the findings.
#
# - Warnings and errors go to syslog (tag governor-doctor) for the
#   administrators; nothing reaches the user's output. doctor prints no ids:
#   add "$SLURM_JOB_ID" to the tag if your logs need it. Where no syslog
#   daemon listens, the findings go to the task's output instead (Slurm
#   prints a TaskProlog's "print" lines there), never nowhere.
# - STRICT=1: a task whose allocation the kernel does not enforce (doctor
#   exits 1) does not start. srun reports the task as failed, slurmd logs
#   "TaskProlog failed status=1", the user's output says why, and the node
#   stays up. doctor's other failures never stop a task.

GOVERNOR=/usr/bin/governor
STRICT=0
# --socket-errors=on: without it logger drops the message and exits 0 when
# nothing listens on /dev/log.
log() { logger --socket-errors=on -t governor-doctor -p user.warning 2>/dev/null; }

[ -x "$GOVERNOR" ] || exit 0
out=$("$GOVERNOR" doctor 2>&1)
rc=$?
if [ "$rc" -gt 1 ] || printf '%s\n' "$out" | grep -Eq '^(ERROR|warn) '; then
	if ! printf '%s\n' "$out" | log; then
		echo "print governor-doctor: no syslog to log to (/dev/log); its findings:"
		printf '%s\n' "$out" | sed 's/^/print governor-doctor: /'
	fi
fi
if [ "$STRICT" = 1 ] && [ "$rc" -eq 1 ]; then
	echo "print governor-doctor: this task does not start: the kernel does not enforce its allocation (STRICT=1); the administrators have the findings"
	exit 1
fi
exit 0
