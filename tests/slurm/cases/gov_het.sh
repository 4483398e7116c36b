#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (heterogeneous jobs' ids and node indexes in the seal); left out of the TCG guest for time
# Heterogeneous jobs: slurmstepd gives every task of a heterogeneous step the
# leader's job id and a node index counted across components, while each
# component's descriptor carries its own job id and node index.  Every task
# verifies: srun's own heterogeneous allocation (A : B), and an sbatch
# heterogeneous job with steps over both components, over the second alone,
# and over the first.  Slurm starts heterogeneous jobs from the backfill
# scheduler only, so the case shortens its interval.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

restart_cluster --conf-line SchedulerParameters=bf_interval=1
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
export GOV_TOOL
gov_plugstack
home=$(user_home)

# One line per task: a label, the node index slurmstepd exported, the sealed
# job id and node index, and the verify status.
# shellcheck disable=SC2016 # expanded in the task
show='echo "$0 env_job=$SLURM_JOB_ID env_node=$SLURM_NODEID $(eval "$GOV_PAYLOAD" | grep -E "^(job|node)=" | tr "\n" " ")$("$GOV_TOOL" verify --json | jq -r .status)"'

out=$(as_user srun --governor -n1 -w node1 bash -c "$show" het0 : -N2 -n2 -w node2,node3 bash -c "$show" het1 | sort)
printf '%s\n' "$out"
assert_eq 3 "$(grep -c ' verified$' <<<"$out")" "srun A : B tasks verified"
# The second component's tasks seal their own job and node indexes 0 and 1,
# exported as 1 and 2.
assert_line 'het1 env_job=[0-9]+ env_node=2 job=[0-9]+ node=1 verified' "$out" "second component"
assert_idle

rm -f "$home/gov_het.out"
printf '%s\n' '#!/bin/bash' '#SBATCH -N1 -n1 -w node1' '#SBATCH hetjob' '#SBATCH -N2 -n2 -w node2,node3' "
show='$show'"'
bash -c "$show" batch
srun --het-group=0,1 bash -c "$show" both
srun --het-group=1 bash -c "$show" second
srun bash -c "$show" first
' >"$home/gov_het.sh"
id=$(as_user sbatch --parsable --governor -o gov_het.out gov_het.sh)
# scontrol shows one JobState per component.
for ((i = 0; i < 250; i++)); do
	states=$(scontrol show job "$id" | sed -n 's/^ *JobState=\([A-Z_]*\).*/\1/p' | sort -u)
	[[ $states =~ (PENDING|RUNNING|CONFIGURING|COMPLETING) ]] || break
	sleep 0.2
done
assert_eq COMPLETED "$states" "the heterogeneous batch job's components"
out=$(sort "$home/gov_het.out")
printf '%s\n' "$out"
assert_eq 7 "$(grep -c ' verified$' <<<"$out")" "sbatch het: every task verified"
assert_no_match '(invalid|absent)' "$out" "sbatch het"
