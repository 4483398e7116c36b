#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the task's own namespaces); left out of the TCG guest for time
# A task that runs its program in namespaces of its own, as a container
# runtime's --pid (or unshare --pid --mount-proc) does: pids are renumbered
# and, in a user namespace, uids mapped, so the seal's binding to the task
# cannot be checked.  The snapshot still exits 0 with the variables'
# figures, and the reason names the namespace (not "another job"), as
# docs/descriptor.md says.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

command -v unshare >/dev/null || die "unshare (util-linux) is missing"
# An unprivileged user may make a user namespace (Debian's default); the
# PID namespace needs one.  The kernel refuses it to a chrooted process,
# which is how the other Slurm series run here (tests/slurm/chroot.sh).
if ! as_user unshare --user --map-root-user true 2>/dev/null; then
	[[ $(stat -c %d:%i /) == "$(stat -c %d:%i /proc/1/root/)" ]] ||
		skip "this Slurm runs in a chroot (chroot.sh), where the kernel refuses user namespaces (CLONE_NEWUSER: EPERM)"
	die "the test user cannot make a user namespace (kernel.unprivileged_userns_clone=0?)"
fi

# shellcheck disable=SC2016 # expanded in the task
q='jq -c "[.descriptor.status, .descriptor.reason, .scheduler.source, .scheduler.cpus_per_task]"'
out=$(as_user srun --governor -n1 -c2 bash -c "\"\$GOV_TOOL\" snapshot --json | $q")
printf 'in the task: %s\n' "$out"
assert_eq '["verified",null,"descriptor",2]' "$out" "the task itself"

for ns in "--user --map-root-user --pid --fork --mount-proc" "--user --map-current-user"; do
	rc=0
	out=$(as_user srun --governor -n1 -c2 bash -c "unshare $ns \"\$GOV_TOOL\" snapshot --json | $q") || rc=$?
	printf 'unshare %s: %s (exit %s)\n' "$ns" "$out" "$rc"
	assert_eq 0 "$rc" "snapshot's exit status in the namespace"
	assert_match '^\["invalid","the process runs in another PID or user namespace than its Slurm task' "$out" \
		"reason ($ns)"
	assert_match '"environment",2\]$' "$out" "the variables' figures ($ns)"
done
