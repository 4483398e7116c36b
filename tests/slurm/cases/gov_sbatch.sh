#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (sbatch's option inheritance and the batch step's seal); left out of the TCG guest for time
# sbatch --governor: the batch step is sealed (one task: the script, with
# every CPU of the job on its node), inner steps inherit the option, and an
# inner srun --governor=X overrides it.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
home=$(user_home)
rm -f "$home/gov_sbatch.out"
# The job script, as a bash file (--wrap would run it with sh).
# shellcheck disable=SC2016 # expanded in the job
printf '%s\n' '#!/bin/bash' '
show() { p=$(eval "$GOV_PAYLOAD" 2>/dev/null | tr "\n" " "); s=$("$GOV_TOOL" verify --json | jq -r .status); echo "$1 $s omp=${OMP_NUM_THREADS:-unset} $p"; }
show batch
echo "stepid ${SLURM_STEP_ID-unset} $(env -u GOVERNOR_DESCRIPTOR "$GOV_TOOL" snapshot --json | jq -r "[.scheduler.source, .scheduler.step] | join(\" \")")"
srun -n3 bash -c "$(declare -f show); show inherit"
srun --governor=off -n1 bash -c "$(declare -f show); show off"
srun --governor=interactive -n1 bash -c "$(declare -f show); show interactive"
export OMP_NUM_THREADS=7
srun -n1 bash -c "$(declare -f show); show user_omp"
' >"$home/gov_sbatch.sh"
as_user sbatch --wait --governor=threads -N2 -n3 -o gov_sbatch.out gov_sbatch.sh >/dev/null
out=$(cat "$home/gov_sbatch.out")
printf '%s\n' "$out"

val() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"
}

batch=$(grep '^batch ' <<<"$out")
assert_match '^batch verified ' "$batch" "batch step"
assert_eq batch "$(val "$batch" kind)" "batch kind"
assert_eq 1 "$(val "$batch" tasks_node)" "batch: the script is the one task"
assert_eq 1 "$(val "$batch" tasks)" "batch: one task in the step"
assert_eq 1 "$(val "$batch" nodes)" "batch: one node"
# The batch step's cpus-per-task is all of the job's CPUs on its node (2).
assert_eq 2 "$(val "$batch" cpt)" "batch cpus per task"
assert_eq 2 "$(val "$batch" omp)" "batch OMP_NUM_THREADS"
assert_eq 1 "$(val "$batch" threads)" "batch threads flag"
# The script's own SLURM_STEP_ID: none before 26.05, which prints the batch
# id (0xfffffffb) as a signed int; read from the variables, either way the
# batch step.
assert_eq "$(by_series 22.05=unset 24.11=unset 26.05=-5) environment batch" \
	"$(sed -n 's/^stepid //p' <<<"$out")" "the script's SLURM_STEP_ID, and the snapshot without descriptor"

assert_eq 3 "$(grep -c '^inherit verified ' <<<"$out")" "inner steps inherit --governor"
while read -r line; do
	assert_eq normal "$(val "$line" kind)" "inner step kind"
	assert_eq 1 "$(val "$line" threads)" "inherited threads"
	# The batch script's OMP_NUM_THREADS=2 came from the plugin: replaced.
	assert_eq 1 "$(val "$line" omp)" "inner OMP_NUM_THREADS"
done < <(grep '^inherit ' <<<"$out")

assert_match '^off absent omp=unset *$' "$(grep '^off ' <<<"$out")" "inner --governor=off"
inter=$(grep '^interactive ' <<<"$out")
assert_match '^interactive verified omp=unset ' "$inter" "inner --governor=interactive"
assert_eq interactive "$(val "$inter" profile)" "overridden profile"
assert_eq 0 "$(val "$inter" threads)" "overridden: no threads"
# A value the user set is never replaced.
assert_match '^user_omp verified omp=7 ' "$(grep '^user_omp ' <<<"$out")" "user's OMP_NUM_THREADS"

# Memory per CPU: sbatch exports SLURM_MEM_PER_CPU, and it agrees with the
# credential's total, so it is sealed.
rm -f "$home/gov_sbatch_mem.out"
# shellcheck disable=SC2016 # expanded in the job
as_user sbatch --wait --governor -n2 --mem-per-cpu=100M -o gov_sbatch_mem.out \
	--wrap 'srun -n2 sh -c "eval \"\$GOV_PAYLOAD\" | grep -E \"^(step_mem|mem_per_cpu)=\"" | sort -u' >/dev/null
out=$(cat "$home/gov_sbatch_mem.out")
printf '%s\n' "$out"
assert_eq "$(printf 'mem_per_cpu=100\nstep_mem=200')" "$out" "inner step memory facts"
