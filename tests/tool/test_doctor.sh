#!/usr/bin/env bash
# `governor doctor` on a fixture tree (a task of a step with 2 CPUs and a
# 200 MiB cgroup v1 limit): exit status, human and JSON output, usage errors.
# usage: test_doctor.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


# A step's variables, as srun exports them inside an allocation.
step=(env -i SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_CPUS_PER_TASK=2 SLURM_CPUS_ON_NODE=2)

out=$("${step[@]}" SLURM_MEM_PER_NODE=200 "$gov" doctor --json --sysroot "$root")
check "enforced: exit 0" 0 $?
check "schema" 1 "$(grep -c '^{"schema":"governor.doctor/1","findings":\[' <<<"$out")"
check "cpu enforced by affinity and cpuset" 1 \
  "$(grep -c '"id":"cpu.enforced","severity":"ok","resource":"cpu","allocation":2,"unit":"cpus","enforced_by":"affinity,cpuset"' <<<"$out")"
check "memory enforced by the cgroup" 1 \
  "$(grep -c '"id":"memory.enforced","severity":"ok","resource":"memory","allocation":209715200,"unit":"bytes","enforced_by":"cgroup"' <<<"$out")"
check "variables only" 1 "$(grep -c '"id":"scheduler.unverified","severity":"warn"' <<<"$out")"
check "exit field" 1 "$(grep -c '"exit":0}$' <<<"$out")"
# The mask 4-5 takes one thread each of two cores: their siblings 12-13 are
# outside it.
check "split cores" 1 "$(grep -c '"id":"topology.split_cores","severity":"info","resource":"cpu"' <<<"$out")"
check "one NUMA node: no spread" 0 "$(grep -c 'topology.numa_spread' <<<"$out")"

# One CPU and 100 MiB allocated: the fixture's 2 CPUs and 200 MiB are wider.
human=$("${step[@]}" SLURM_CPUS_ON_NODE=1 SLURM_CPUS_PER_TASK=1 SLURM_MEM_PER_NODE=100 "$gov" doctor --sysroot "$root")
check "not enforced: exit 1" 1 $?
check "headline" "governor doctor: 2 errors, 1 warning, 2 notes, 0 ok" "$(head -1 <<<"$human")"
check "errors first" "ERROR  cpu         allocation 1 CPU, enforced by none" "$(sed -n 2p <<<"$human")"
check "cpu fix" 1 "$(grep -c 'fix: TaskPlugin=task/affinity in slurm.conf, or TaskPlugin=task/cgroup with ConstrainCores=yes' <<<"$human")"

# The step holds 2 CPUs (its cpuset, the fixture's 2) and a task asked 1:
# the step is held, the task shares its CPUs; the advice is the task's
# option, never a plugin the site runs.
human=$("${step[@]}" SLURM_CPUS_PER_TASK=1 SLURM_MEM_PER_NODE=200 "$gov" doctor --sysroot "$root")
check "shared in the step: a warning, exit 0" "0 warn   cpu         allocation 1 CPU, enforced by none" \
  "$? $(grep '^warn   cpu' <<<"$human")"
check "shared in the step: srun -c, not a plugin" "1 0" \
  "$(grep -c 'fix: give each task its own CPUs: srun -c N' <<<"$human") $(grep -c 'TaskPlugin' <<<"$human")"

# Outside any job there is nothing to check.
env -i "$gov" doctor --sysroot "$root" >/dev/null; check "no job: exit 0" 0 $?

"$gov" doctor --bogus 2>/dev/null; check "unknown option exits 2" 2 $?
"$gov" doctor --sysroot 2>/dev/null; check "--sysroot without a value exits 2" 2 $?
help=$("$gov" doctor --help); check "help exits 0" 0 $?
check "help names the exit statuses" 1 "$(grep -c 'Exit status: 0 every known allocation is enforced, 1' <<<"$help")"
finish
