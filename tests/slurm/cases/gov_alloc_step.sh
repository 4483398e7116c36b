#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (a step's seal inside a larger allocation); left out of the TCG guest for time
# A step inside an allocation that is smaller than the allocation: the
# variables the step inherits describe the job, the seal describes the step,
# and the snapshot follows the seal. Whether srun takes the allocation's
# --cpus-per-task differs between series, and the seal follows each.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# One KEY=VALUE per line: the inherited variables, the sealed payload, the
# snapshot's scheduler figures.
# shellcheck disable=SC2016 # expanded in the task
task='echo "env_mem=${SLURM_MEM_PER_NODE:-unset}"; echo "env_cpt=${SLURM_CPUS_PER_TASK:-unset}"
echo "omp=${OMP_NUM_THREADS:-unset}"; eval "$GOV_PAYLOAD"
"$GOV_TOOL" snapshot --json | jq -r "\"source=\(.scheduler.source)\", \"mem=\(.memory.scheduler.limit_bytes)\", \"cpus=\(.cpu.scheduler.cpus)\""'

# Memory: the allocation has 400 MiB, the step asks for 100 MiB. Both series
# leave the job's SLURM_MEM_PER_NODE in the step's environment.
out=$(as_user salloc -n1 --mem=400M srun --governor -n1 --mem=100M bash -c "$task" </dev/null 2>/dev/null)
printf '%s\n' "$out"
assert_eq 400 "$(field env_mem "$out")" "inherited SLURM_MEM_PER_NODE (the job's)"
assert_eq 400 "$(field job_mem "$out")" "sealed job memory"
assert_eq 100 "$(field step_mem "$out")" "sealed step memory"
assert_eq descriptor "$(field source "$out")" "snapshot source"
assert_eq $((100 << 20)) "$(field mem "$out")" "snapshot: the step's memory, not the variable's"
assert_idle

# CPUs: salloc -c2, then srun without -c. Both series export the
# allocation's SLURM_CPUS_PER_TASK=2 to the step. 22.05's srun ignores it
# (it seals 1 CPU per task), yet gives the step both CPUs and binds the
# task to both; 24.11's and 26.05's take it again (2).  Every series: the
# task's share of the step's CPUs, 2, what the task holds (nproc), and
# doctor finds CPUs enforced, with no advice about plugins the site runs.
# shellcheck disable=SC2016 # expanded in the task
task_cpu="$task"'
echo "nproc=$(nproc)"; "$GOV_TOOL" doctor --json | jq -r "\"doctor_cpu=\(.findings[] | select(.resource == \"cpu\") | .id)\""
"$GOV_TOOL" snapshot | grep -c "^  scheduler: CPUs of this task  *2 (its share of the step.s 2 CPUs here, above the 1 per task sealed" | sed "s/^/why=/"'
out=$(as_user salloc -n1 -c2 srun --governor=threads bash -c "$task_cpu" </dev/null 2>/dev/null)
printf '%s\n' "$out"
assert_eq 2 "$(field env_cpt "$out")" "inherited SLURM_CPUS_PER_TASK"
assert_eq "$(by_series 22.05=1 24.11=2 26.05=2)" "$(field cpt "$out")" "sealed cpus per task"
assert_eq 2 "$(field nproc "$out")" "what the task holds (nproc)"
assert_eq 2 "$(field omp "$out")" "OMP_NUM_THREADS: the task's share"
assert_eq 2 "$(field cpus "$out")" "snapshot: the task's share of the step's CPUs"
assert_eq cpu.enforced "$(field doctor_cpu "$out")" "doctor: CPUs enforced"
assert_eq "$(by_series 22.05=1 24.11=0 26.05=0)" "$(field why "$out")" "the snapshot says why (where the seal says 1)"
