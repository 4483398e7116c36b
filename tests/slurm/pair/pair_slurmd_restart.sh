#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# slurmd restarts on one machine (node1) while a -N2 step runs: the tasks
# on both machines verify before and after, the step ends well, no node
# drains, and the next -N2 step verifies on both.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

log=$(mktemp)
# shellcheck disable=SC2016 # expanded in the tasks
as_user srun --governor -N2 -n2 --mem=300M bash -c '
	echo "before $SLURMD_NODENAME $("$GOV_TOOL" verify --json | jq -r .status)"
	sleep 8
	echo "after $SLURMD_NODENAME $("$GOV_TOOL" verify --json | jq -r .status)"' >"$log" &
srun_pid=$!
for ((i = 0; i < 300; i++)); do
	(($(grep -c '^before' "$log") == 2)) && break
	sleep 0.1
done
"$GOV_SLURM_TESTS/cluster.sh" restart-slurmd --dir "$GOV_CLUSTER_DIR" --node 1 ||
	die "slurmd of node1 did not restart"
wait "$srun_pid" || die "the step that spanned the restart failed: $(cat "$log")"
out=$(sort "$log")
rm -f "$log"
printf '%s\n' "$out"
assert_eq "after node1 verified
after node2 verified
before node1 verified
before node2 verified" "$out" "the tasks on both machines, before and after"
for ((i = 0; i < 150; i++)); do
	[[ $(sinfo -h -n node1 -o %t) == idle ]] && break
	sleep 0.2
done
assert_eq idle "$(sinfo -h -n node1 -o %t)" "node1 after its slurmd restarted"
facts "the next step" --governor -N2 -n2 --mem=300M >/dev/null
