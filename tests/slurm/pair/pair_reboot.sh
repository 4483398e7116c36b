#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# node2 reboots between two steps (scontrol reboot, the site's way: slurmd
# runs RebootProgram, the guest restarts in place and its slurmd registers
# again): the descriptor a task had before, shown to a task of a new step
# after, does not verify, and the reason names the node binding (a new boot
# id); the node comes back idle, not drained, and steps verify on it.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

before=$(node_boot_id 2)
old=$(as_user srun --governor -N1 -w node2 --mem=100M printenv GOVERNOR_DESCRIPTOR)
[[ -n $old ]] || die "the step on node2 had no descriptor"
scontrol reboot nextstate=RESUME reason="pair_reboot" node2 || die "scontrol reboot refused"
t0=$SECONDS
# The node leaves idle when slurmd runs RebootProgram, then registers again.
# A look that gets no answer (slurmctld busy under TCG) is no state: only a
# state other than idle counts as the reboot under way.
deadline=$((SECONDS + 300))
while state=$(sinfo -h -n node2 -o %t 2>/dev/null || true); [[ -z $state || $state == idle ]]; do
	((SECONDS < deadline)) || die "node2 still ${state:-not shown} 300 s after scontrol reboot"
	sleep 0.5
done
printf 'node2: %s after %s s\n' "$state" $((SECONDS - t0))
deadline=$((SECONDS + 420))
while ((SECONDS < deadline)); do
	state=$(sinfo -h -n node2 -o %t 2>/dev/null || true)
	[[ $state == idle ]] && break
	sleep 2
done
printf 'node2: %s after %s s (states seen until then)\n' "$state" $((SECONDS - t0))
assert_eq idle "$state" "node2 after its reboot"
wait_tools
after=$(node_boot_id 2)
[[ $after != "$before" ]] || die "node2's boot id did not change: did it reboot?"

# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -N1 -w node2 --mem=100M bash -c \
	'GOVERNOR_DESCRIPTOR=$1 "$GOV_TOOL" verify --json' _ "$old" || true)
printf '%s\n' "$out"
assert_eq invalid "$(json_get .status <<<"$out")" "the descriptor of before the reboot"
assert_eq ENODE "$(json_get .reason_code <<<"$out")" "the reason names the node binding"
[[ -z $(sinfo -h -R -n node2) ]] || die "node2 has a reason set: $(sinfo -h -R -n node2)"
facts "both nodes after the reboot" --governor -N2 -n2 --mem=300M >/dev/null
