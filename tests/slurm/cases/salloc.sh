#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (salloc itself); left out of the TCG guest for time
# salloc works without a terminal: running srun directly, and a shell whose
# steps share the allocation.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

as_user salloc -N1 srun true </dev/null
out=$(as_user salloc -N2 -n2 bash -c 'echo "nodes=$SLURM_JOB_NUM_NODES"; srun hostname | wc -l' </dev/null)
printf '%s\n' "$out"
assert_match 'nodes=2' "$out" "salloc nodes"
assert_eq 2 "$(tail -n1 <<<"$out")" "tasks of the inner srun"
assert_status 5 as_user salloc -N1 bash -c 'exit 5' </dev/null
