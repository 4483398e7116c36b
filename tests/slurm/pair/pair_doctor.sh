#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# governor doctor per node in one -N2 step: each machine's doctor judges
# its own node (cgroup v2 limits enforced on both: exit 0), and only on
# node1, where the two tasks of a node share one SMT core, do they hear
# about topology.split_cores; node2 has no SMT.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the tasks
out=$(as_user srun --governor -N2 --ntasks-per-node=2 -c1 --mem=300M bash -c '
	rc=0
	json=$("$GOV_TOOL" doctor --json) || rc=$?
	printf "%s %s %s\n" "$SLURMD_NODENAME" "$rc" "$(jq -c "[.findings[].id] | sort" <<<"$json")"' | sort)
printf '%s\n' "$out"
assert_eq "node1 0
node1 0
node2 0
node2 0" "$(cut -d' ' -f1,2 <<<"$out")" "a doctor per task, all enforced"
assert_eq 2 "$(grep -c '^node1 .*"topology.split_cores"' <<<"$out")" "node1: the two tasks split a core"
assert_no_match 'split_cores' "$(grep '^node2' <<<"$out")" "node2 has no SMT"
