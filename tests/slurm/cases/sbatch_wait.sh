#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (sbatch itself); left out of the TCG guest for time
# sbatch --wait returns when the job ends, with the batch script's exit
# status, and the script's inner srun runs on every allocated node.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

home=$(user_home)
rm -f "$home/sbatch_wait.out"
assert_status 3 as_user sbatch --wait -N2 -n2 -o sbatch_wait.out \
	--wrap 'srun hostname; echo "batch on $SLURMD_NODENAME"; exit 3' >/dev/null
out=$(cat "$home/sbatch_wait.out")
printf '%s\n' "$out"
assert_eq 2 "$(grep -c "^$(hostname)\$" <<<"$out")" "inner srun tasks"
assert_match 'batch on node[0-9]+' "$out" "batch step"

id=$(as_user sbatch --parsable -o /dev/null --wrap 'true')
assert_eq COMPLETED "$(wait_job "$id")" "state of job $id"
