#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# A batch script on node1 (the first node of its allocation) whose inner
# srun -N2 reaches node2: the batch step's own descriptor verifies on
# node1, and the inner step's tasks verify on both machines, each with its
# own boot id and its own node's figures.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

home=$(user_home)
rm -f "$home/pair_batch.out"
# shellcheck disable=SC2016 # expanded in the batch script
id=$(as_user sbatch --parsable --governor -N2 -n2 --mem=300M -o pair_batch.out --wrap '
	printf "batch %s %s\n" "$SLURMD_NODENAME" "$("$GOV_TOOL" verify --json | jq -r .status)"
	srun python3 '"$FACTS"' "$GOV_TOOL"')
state=$(wait_job "$id" 300)
out=$(cat "$home/pair_batch.out")
printf '%s\n' "$out"
assert_eq COMPLETED "$state" "the batch job"
assert_line 'batch node1 verified' "$out" "the batch step on node1"
steps=$(grep '^{' <<<"$out" | jq -sc 'sort_by(.rank)[]')
assert_eq "node1 verified
node2 verified" "$(per_node "$steps" .verify)" "the inner step on both machines"
assert_eq 2 "$(boot_ids "$steps")" "the inner step's boot ids"
assert_eq 0 "$(jq -s 'map(.diffs | length) | add' <<<"$steps")" "governor against each task's own reading"
