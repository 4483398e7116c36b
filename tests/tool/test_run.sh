#!/usr/bin/env bash
# `governor run` caps a real OpenMP program's threads to the plan.
# usage: test_run.sh GOVERNOR OMP_COUNT
set -euo pipefail
gov=$1 omp=$2
fail=0

check() { # name expected actual
  if [ "$2" = "$3" ]; then echo "ok - $1"; else echo "not ok - $1: expected '$2', got '$3'"; fail=1; fi
}

unset OMP_NUM_THREADS OPENBLAS_NUM_THREADS MKL_NUM_THREADS BLIS_NUM_THREADS \
      VECLIB_MAXIMUM_THREADS NUMEXPR_NUM_THREADS GOVERNOR_WORKERS GOVERNOR_THREADS_PER_WORKER
unset SLURM_JOB_ID SLURM_CPUS_PER_TASK SLURM_CPUS_ON_NODE GOVERNOR_DESCRIPTOR

# Without governor run, OpenMP sizes itself from the affinity mask; with it, the
# plan decides.  Pin to one CPU: the plan must give one thread.
check "one CPU, one thread" "threads=1 workers=1 per_worker=1" "$(taskset -c 0 "$gov" run -- "$omp")"

ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
  # The default is one process using every CPU; a pool still learns its
  # ceiling from GOVERNOR_WORKERS, one thread per worker.
  check "one process gets both CPUs" "threads=2 workers=2 per_worker=1" \
    "$(taskset -c 0,1 "$gov" run -- "$omp")"
  # GNU nproc reads OMP_NUM_THREADS: it must not be undersubscribed.
  check "nproc sees both CPUs" 2 "$(taskset -c 0,1 "$gov" run -- nproc)"
  check "one worker gets both CPUs" "threads=2 workers=1 per_worker=2" \
    "$(taskset -c 0,1 "$gov" run --workers 1 -- "$omp")"
  check "two workers share two CPUs" "threads=1 workers=2 per_worker=1" \
    "$(taskset -c 0,1 "$gov" run --workers 2 -- "$omp")"
  # A Slurm-like bound below the mask is honoured.
  check "cpus-per-task bounds threads" "threads=1 workers=1 per_worker=1" \
    "$(SLURM_JOB_ID=1 SLURM_CPUS_PER_TASK=1 taskset -c 0,1 "$gov" run -- "$omp")"
fi

# A user's own setting wins unless --force.
check "user setting kept" "threads=3" "$(OMP_NUM_THREADS=3 taskset -c 0 "$gov" run -- "$omp" | cut -d' ' -f1)"
check "--force overrides" "threads=1" "$(OMP_NUM_THREADS=3 taskset -c 0 "$gov" run --force -- "$omp" | cut -d' ' -f1)"

# The tool's own hwloc setting never reaches the command; a user's does.
check "no hwloc setting leaks" "" "$(env -u HWLOC_PLUGINS_BLACKLIST "$gov" run -- env | grep '^HWLOC_PLUGINS_BLACKLIST=' || true)"
check "a user's hwloc setting is kept" "HWLOC_PLUGINS_BLACKLIST=x" "$(HWLOC_PLUGINS_BLACKLIST=x "$gov" run -- env | grep '^HWLOC_PLUGINS_BLACKLIST=')"

# Errors: no command, a command that does not exist, a bad worker count.
set +e
"$gov" run 2>/dev/null; check "no command exits 2" 2 $?
"$gov" run -- /nonexistent/cmd 2>/dev/null; check "missing command exits 127" 127 $?
"$gov" run --workers 0 -- true 2>/dev/null; check "zero workers exits 2" 2 $?
"$gov" run --workers x -- true 2>/dev/null; check "bad workers exits 2" 2 $?
msg=$("$gov" run --workers 5 -- true 2>&1 >/dev/null)
set -e
case "$msg" in *"exceed the CPU ceiling"*) echo "ok - oversubscription warns";; *) echo "not ok - no warning: $msg"; fail=1;; esac
exit $fail
