#!/usr/bin/env bash
# `governor run`: a real OpenMP program's threads follow the plan, the
# runtime variables are set, kept or appended to as documented, and
# --explain / --dry-run / --verbose say what was done.
# usage: test_run.sh GOVERNOR OMP_COUNT FIXTURES SRCDIR MANPAGE
# (MANPAGE: governor.1.scd as the build makes it, its lists filled in)
set -euo pipefail
gov=$1 omp=$2 fixtures=$3 src=$4 man=$5
node_fix=$fixtures/snapshot/slurm-v1-node
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

# The value NAME has in the environment governor run gives a command.
run_env() { # NAME governor-run-args...
  local name=$1
  shift
  "$gov" run "$@" -- env | sed -n "s/^$name=//p"
}

# Start from an environment without any of the variables governor run sets.
while IFS= read -r v; do unset "$v"; done < <(
  "$gov" run --dry-run --json | python3 -c 'import json,sys; [print(n) for n in sorted({v["name"] for v in json.load(sys.stdin)["variables"]})]')
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
  check "--workers 1 is the same process" "threads=2 workers=1 per_worker=2" \
    "$(taskset -c 0,1 "$gov" run --workers 1 -- "$omp")"
  check "two workers share two CPUs" "threads=1 workers=2 per_worker=1" \
    "$(taskset -c 0,1 "$gov" run --workers 2 -- "$omp")"
  # A Slurm-like bound below the mask is honoured.
  check "cpus-per-task bounds threads" "threads=1 workers=1 per_worker=1" \
    "$(SLURM_JOB_ID=1 SLURM_CPUS_PER_TASK=1 taskset -c 0,1 "$gov" run -- "$omp")"
  # GNU nproc reads OMP_NUM_THREADS: it must not be undersubscribed.
  check "nproc sees both CPUs" 2 "$(taskset -c 0,1 "$gov" run -- nproc)"
fi
check "nproc in one CPU" 1 "$(taskset -c 0 "$gov" run -- nproc)"

# A user's own setting wins unless --force.
check "user setting kept" "threads=3" "$(OMP_NUM_THREADS=3 taskset -c 0 "$gov" run -- "$omp" | cut -d' ' -f1)"
check "--force overrides" "threads=1" "$(OMP_NUM_THREADS=3 taskset -c 0 "$gov" run --force -- "$omp" | cut -d' ' -f1)"
# What an earlier run exported is replaced by a nested one.
check "a nested run replaces the outer figures" "threads=1" \
  "$(taskset -c 0,1 "$gov" run -- taskset -c 0 "$gov" run -- "$omp" | cut -d' ' -f1)"

# The other runtimes' variables.
check "GOMAXPROCS" 1 "$(taskset -c 0 env "$gov" run -- env | sed -n 's/^GOMAXPROCS=//p')"
check "libuv's pool keeps its default 4" 4 "$(taskset -c 0 "$gov" run -- env | sed -n 's/^UV_THREADPOOL_SIZE=//p')"
# Memory hints need an allocation: the fixture's cgroup (200 MiB, of which
# 140 MiB free: the hints take the allocation's share, not what is free).
# Inside an allocation the batch profile keeps nothing back.
check "GOMEMLIMIT below the allocation" 180MiB \
  "$(SLURM_JOB_ID=1 run_env GOMEMLIMIT --sysroot "$node_fix")"
# Outside any scheduler the interactive profile keeps a quarter back for the
# person at the host, as governor watch does: the hints take 150 MiB.
check "the interactive profile's reserve applies to run" 135MiB \
  "$(run_env GOMEMLIMIT --sysroot "$node_fix")"
check "the interactive quarter in plan as in watch" \
  "$("$gov" watch --count 1 --json --sysroot "$node_fix" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ram"]["reserve_bytes"])')" \
  "$("$gov" plan --json --sysroot "$node_fix" | python3 -c 'import json,sys; print(json.load(sys.stdin)["reserve_memory_bytes"])')"
contains "plan says what it keeps back, no figure of 0" "kept back:           50.0 MiB (profile interactive" \
  "$("$gov" plan --sysroot "$node_fix")"
check "NODE_OPTIONS appended, never clobbered" "--require ./t.js --max-old-space-size=72 --max-semi-space-size=12" \
  "$(SLURM_JOB_ID=1 NODE_OPTIONS='--require ./t.js' run_env NODE_OPTIONS --sysroot "$node_fix")"
check "a user's heap size kept" "--max-old-space-size=64 --max-semi-space-size=12" \
  "$(SLURM_JOB_ID=1 NODE_OPTIONS='--max-old-space-size=64' run_env NODE_OPTIONS --sysroot "$node_fix")"
if [ "$("$gov" plan --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["memory_binding"])')" = host ]; then
  check "no memory hint without an allocation" "" "$(run_env GOMEMLIMIT)"
else
  skip "this machine's memory is bounded by more than the host" "no memory hint without an allocation"
fi
check "pool memory per worker" $((209715200 / 2)) \
  "$(SLURM_JOB_ID=1 run_env GOVERNOR_MEMORY_PER_WORKER --sysroot "$node_fix" --workers 2)"

# --explain's reasons fit the command run: never the plugin's threads mode.
lacks "--explain never blames --governor=threads" "not asked for" "$("$gov" run --explain -- true 2>&1)"
contains "--explain names the option a skipped list needs" \
  "skip GOVERNOR_WORKER_CPUS: only with --workers numa" "$("$gov" run --explain -- true 2>&1)"

# --explain shows a kept value and how it compares; --verbose warns without
# printing the value.
out=$(OMP_NUM_THREADS=7 taskset -c 0 "$gov" run --explain -- true 2>&1)
contains "--explain shows the kept value" "keep OMP_NUM_THREADS=7: yours, kept" "$out"
contains "--explain compares it" "EXCEEDS the plan's 1" "$out"
contains "--explain names the runtime" "read by OpenMP" "$out"
out=$(OMP_NUM_THREADS=7 taskset -c 0 "$gov" run --verbose -- true 2>&1)
contains "--verbose warns" "your OMP_NUM_THREADS exceeds the plan's 1" "$out"
# The warning line only: the plan's line has memory figures ("22.7 GiB").
lacks "--verbose keeps the value to itself" "7" "$(grep warning <<<"$out")"
out=$(taskset -c 0 "$gov" run -- true 2>&1)
check "silent by default" "" "$out"
check "--dry-run runs nothing" "" "$("$gov" run --dry-run -- touch /nonexistent/x 2>&1 >/dev/null)"
json=$(OMP_NUM_THREADS=7 taskset -c 0 "$gov" run --dry-run --json)
check "--dry-run --json" "governor.run/1 keep 7 true" "$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
v = [x for x in d["variables"] if x["name"] == "OMP_NUM_THREADS"][0]
print(d["schema"], v["action"], v["user"], str(v["exceeds"]).lower())' "$json")"

# Every variable is documented: docs/runtimes.md and governor(1).
missing=
for v in $(python3 -c 'import json,sys; [print(x["name"]) for x in json.loads(sys.argv[1])["variables"]]' "$json" | sort -u); do
  grep -q "\`$v\`" "$src/docs/runtimes.md" || missing+=" $v(docs/runtimes.md)"
  grep -q "\*$v\*" "$man" || missing+=" $v(governor.1.scd)"
done
check "every variable documented" "" "$missing"

# The tool's own hwloc setting never reaches the command; a user's does.
check "no hwloc setting leaks" "" "$(env -u HWLOC_PLUGINS_BLACKLIST "$gov" run -- env | grep '^HWLOC_PLUGINS_BLACKLIST=' || true)"
check "a user's hwloc setting is kept" "HWLOC_PLUGINS_BLACKLIST=x" "$(HWLOC_PLUGINS_BLACKLIST=x "$gov" run -- env | grep '^HWLOC_PLUGINS_BLACKLIST=')"

# Errors: no command, a command that does not exist, a bad worker count.
set +e
"$gov" run 2>/dev/null; check "no command exits 2" 2 $?
"$gov" run -- /nonexistent/cmd 2>/dev/null; check "missing command exits 127" 127 $?
"$gov" run --workers 0 -- true 2>/dev/null; check "zero workers exits 2" 2 $?
"$gov" run --workers x -- true 2>/dev/null; check "bad workers exits 2" 2 $?
"$gov" run --json -- true 2>/dev/null; check "--json without --dry-run exits 2" 2 $?
msg=$("$gov" run --workers 5 -- true 2>&1 >/dev/null)
set -e
contains "oversubscription warns" "exceed the CPU ceiling" "$msg"
finish
