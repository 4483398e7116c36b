#!/usr/bin/env bash
# covers: v1 v2
# Inside a real step under task/cgroup, the snapshot reports the step's
# memory limit (the task's own cgroup is unlimited: on v1 the step one level
# up carries it, on v2 step_0/user and job_N) and the step's CPUs.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

gov=$(user_copy "$GOV_BUILD_DIR/tool/governor")
out=$(as_user srun -n1 -c2 --mem=200M "$gov" snapshot --json)
get() { json_get "$1" <<<"$out"; }

assert_eq "governor.snapshot/1" "$(get .schema)" "schema"
assert_eq "$(by_mode v1=1 v2=2)" "$(get .cpu.cgroup.version)" "cgroup version"
assert_eq "$(by_mode v1=1 v2=2)" "$(get .memory.cgroup.version)" "memory cgroup version"
# On v2 Slurm sets memory.high equal to memory.max; v1 has no memory.high.
assert_eq "$(by_mode v1=null v2=209715200)" "$(get .memory.cgroup.high_bytes)" "memory.high"
assert_eq 209715200 "$(get .memory.cgroup.limit_bytes)" "the step's limit, not the task's"
assert_eq limited "$(get .memory.cgroup.status)" "memory status"
assert_eq 2 "$(get .cpu.cgroup.cpuset_count)" "step cpuset"
assert_eq 2 "$(get .cpu.affinity.count)" "affinity"
assert_eq 2 "$(get .cpu.scheduler.cpus)" "cpus-per-task"
assert_eq 2 "$(get .cpu.effective.workers)" "workers"
assert_eq 209715200 "$(get .memory.effective.limit_bytes)" "effective memory"
assert_eq enforced "$(get .enforcement.cpu)" "cpu enforcement"
# Without the sealed descriptor the allocation comes from the variables. A
# plain srun on 22.05 exports no memory variable into its tasks: the
# allocation is unknown, and so is its enforcement. 24.11 and 26.05 export
# SLURM_MEM_PER_NODE, and the step's cgroup holds it.
assert_eq "$(by_series 22.05=null 24.11=209715200 26.05=209715200)" "$(get .memory.scheduler.limit_bytes)" \
	"memory variable in a plain srun"
assert_eq "$(by_series 22.05=unknown 24.11=enforced 26.05=enforced)" "$(get .enforcement.memory)" \
	"memory enforcement of a plain srun without a descriptor"
assert_eq 1 "$(get .scheduler.tasks_on_node)" "tasks on node"

# Inside an allocation the step inherits SLURM_MEM_PER_NODE: the allocation
# is known and the step's cgroup holds it.
out=$(as_user salloc -N1 -n1 -c2 --mem=200M srun -n1 -c2 "$gov" snapshot --json)
assert_eq 209715200 "$(get .memory.scheduler.limit_bytes)" "allocation from the variables"
assert_eq environment "$(get .scheduler.source)" "variables, not a descriptor"
assert_eq enforced "$(get .enforcement.memory)" "memory enforcement"

# Privacy: no ids, names or paths in what the tool prints.
assert_no_match "slurm_node|slurmstepd|uid_|job_|/tmp/|govtest" "$out" "nothing identifying"

# Outside any job: no scheduler evidence, and the snapshot says so.
plain=$(as_user env -u SLURM_JOB_ID "$gov" snapshot --json)
assert_eq null "$(json_get .scheduler.source <<<"$plain")" "no scheduler outside a job"
assert_eq unknown "$(json_get .enforcement.memory <<<"$plain")" "nothing to compare with"

# The answer first: in each of two governed tasks on one node, the first
# line gives the task's share of the step's memory and that the kernel
# holds both; --get gives one figure for a script.
lines=$(as_user srun --governor -N1 -n2 -c1 --mem=300M "$gov" snapshot | grep '^this ')
printf '%s\n' "$lines"
assert_eq "2 1" "$(wc -l <<<"$lines") $(sort -u <<<"$lines" | wc -l)" "one first line a task, the same"
assert_eq "this task may use 1.00 cores (1 worker) and 150.0 MiB of memory (its share of the 300.0 MiB the step's 2 tasks on this node share); CPU enforced, memory enforced" \
	"$(head -n1 <<<"$lines")" "the snapshot's first line"
assert_eq 314572800 "$(as_user srun --governor -n1 --mem=300M "$gov" snapshot --get memory.effective.limit_bytes)" \
	"--get the effective memory"
