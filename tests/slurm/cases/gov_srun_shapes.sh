#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the credential's facts in the seal); left out of the TCG guest for time
# srun --governor in several shapes: every task gets a descriptor that
# verifies, carrying the credential's facts for its own node, sealed once
# per step and node (format version 4).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# One line per task: node index, verify status, then the sealed payload.
# shellcheck disable=SC2016 # expanded in the task
task='p=$(eval "$GOV_PAYLOAD"); s=$("$GOV_TOOL" verify --json | jq -r .status); echo "$SLURM_NODEID $s $(tr "\n" " " <<<"$p")"'

# run SRUN_ARGS...: prints the task lines, sorted, and checks them all verified.
run() {
	local out
	out=$(as_user srun --governor "$@" bash -c "$task" | sort)
	printf '%s\n' "$out" >&2
	assert_no_match ' (absent|invalid) ' "$out" "verify status with $*"
	printf '%s\n' "$out"
}

# val LINE KEY: a payload value from one task line.
val() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"
}

out=$(run -n2)
assert_eq 2 "$(grep -c ' verified ' <<<"$out")" "-n2 tasks"
line=$(head -n1 <<<"$out")
assert_eq 2 "$(val "$line" tasks_node)" "-n2 tasks on node"
assert_eq 1 "$(val "$line" cpt)" "-n2 cpus per task"
assert_eq normal "$(val "$line" kind)" "-n2 step kind"
assert_eq "$(id -u govtest)" "$(val "$line" uid)" "-n2 uid"
# One descriptor for the step on this node, sealed once, bound to the
# step's slurmstepd (each task's parent): both tasks carry the same one.
assert_eq 1 "$(cut -d' ' -f3- <<<"$out" | sort -u | wc -l)" "distinct descriptors on one node"
# shellcheck disable=SC2016 # expanded in the task
parents=$(as_user srun --governor -n2 bash -c 'echo "$PPID $(eval "$GOV_PAYLOAD" | sed -n "s/^pid=//p")"')
printf 'parent, sealed pid: %s\n' "$(tr '\n' ' ' <<<"$parents")"
assert_eq 0 "$(awk '$1 != $2' <<<"$parents" | wc -l)" "the sealed pid is each task's parent, slurmstepd"
assert_idle

line=$(run -n1 -c2)
assert_eq 2 "$(val "$line" cpt)" "-c2 cpus per task"
assert_eq 2 "$(val "$line" ncpus)" "-c2 cpus on node"
assert_eq 2 "$(val "$line" step_cores)" "-c2 cores"
assert_match '^topo=1,2,2,1$' "topo=$(val "$line" topo)" "-c2 topology summary"
assert_idle

line=$(run -n1 --mem=300M)
assert_eq 300 "$(val "$line" step_mem)" "--mem=300M step memory (MiB)"
assert_eq "" "$(val "$line" mem_per_cpu)" "--mem=300M is not per CPU"
assert_idle

out=$(run -n2 --mem-per-cpu=100M)
line=$(head -n1 <<<"$out")
assert_eq 200 "$(val "$line" step_mem)" "--mem-per-cpu=100M x 2 CPUs"
# srun alone exports no SLURM_MEM_PER_CPU on 22.05: per-CPU memory stays
# unknown (gov_sbatch checks it where sbatch exports the variable). 24.11
# and 26.05 export it, it agrees with the credential's total, and it is sealed.
assert_eq "$(by_series 22.05= 24.11=100 26.05=100)" "$(val "$line" mem_per_cpu)" "srun --mem-per-cpu"
assert_idle

out=$(run -N2 -n3 -c1 --mem=200M)
assert_eq 3 "$(wc -l <<<"$out")" "-N2 -n3 tasks"
while read -r node _ rest; do
	assert_eq "$node" "$(val "$rest" node)" "sealed node index"
	want=$((node == 0 ? 2 : 1))
	assert_eq "$want" "$(val "$rest" tasks_node)" "tasks on node $node"
	assert_eq "$want" "$(val "$rest" ncpus)" "cpus on node $node"
	assert_eq 2 "$(val "$rest" nodes)" "nodes"
	assert_eq 3 "$(val "$rest" tasks)" "tasks"
	assert_eq 200 "$(val "$rest" step_mem)" "step memory on node $node"
done <<<"$out"
