#!/usr/bin/env bash
# `governor snapshot`'s answer first, on a tree captured from a real
# cgroup/v1 node (tests/fixtures/snapshot/slurm-v1-node: a 200 MiB step):
# its first line says what the process may use, with its share where the
# step's tasks on the node share a limit, and whether the kernel holds it;
# --get prints one field of the JSON snapshot for scripts, nothing and exit 3
# when it is unknown, and names the members of an object it was given.
# usage: test_snapshot.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

first() { "$@" | head -n1; }
check "outside a step: the process, its cgroup's memory" \
  "this process may use 2.00 cores (2 workers) and 200.0 MiB of memory; no allocation to check them against" \
  "$(first env -i "$gov" snapshot --sysroot "$root")"
two=(env -i SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_NODEID=0 SLURM_CPUS_ON_NODE=2
  SLURM_TASKS_PER_NODE=2 SLURM_MEM_PER_NODE=300)
check "one of two tasks on the node: its share of the step's memory, enforced" \
  "this task may use 2.00 cores (2 workers) and 100.0 MiB of memory (its share of the 200.0 MiB the step's 2 tasks on this node share); CPU enforced, memory enforced" \
  "$(first "${two[@]}" "$gov" snapshot --sysroot "$root")"

# Then every field of the JSON under its section and label (the field
# table): n/a for what does not exist here, unknown for what could not be
# read, never a bare "-" that could mean either; the terms explained once.
text=$(env -i "$gov" snapshot --sysroot "$root")
check "no bare '-' in the value column" "" "$(awk 'length($0) > 37 { v = substr($0, 38); if (v ~ /(^| )-( |,|$)/) print }' <<<"$text")"
check "one row a visible field of the JSON" \
  "$(env -i "$gov" snapshot --sysroot "$root" --json | python3 -c '
import json, sys
def leaves(d):
    return sum(leaves(v) if isinstance(v, dict) else 1 for v in d.values())
s = json.load(sys.stdin)
del s["schema"], s["topology"]["task"]["numa"]
print(leaves(s))')" \
  "$(awk '/^DESCRIPTOR$/ { t = 1 } /^TERMS$/ { t = 0 } t && /^  [a-zA-Z]/ && !/^  task NUMA node / { n++ } END { print n }' <<<"$text")"
check "outside an allocation: every row of the scheduler's n/a" "" \
  "$(awk '/^SCHEDULER$/ { s = 1; next } /^[A-Z]/ { s = 0 } s && !/ n\/a$/' <<<"$text")"
check "cgroup v1: no memory.high" 1 "$(grep -c '^  cgroup: high (throttles past it)  *n/a$' <<<"$text")"
check "the terms, once" "1 1" "$(grep -c '^TERMS$' <<<"$text") $(grep -c '^  n/a, unknown  *does not exist here; exists but could not be read$' <<<"$text")"
stepped=$("${two[@]}" "$gov" snapshot --sysroot "$root")
check "in an allocation: the scheduler's figures, per task n/a under --mem" "1 1" \
  "$(grep -c '^  scheduler: per node  *300.0 MiB$' <<<"$stepped") $(grep -c '^  scheduler: per task  *n/a$' <<<"$stepped")"

get() { env -i "$gov" snapshot --sysroot "$root" --get "$@"; }
check "--get a number" "209715200 0" "$(get memory.effective.limit_bytes) $?"
check "--get with a leading dot, as docs/snapshot.md writes paths" 209715200 "$(get .memory.effective.limit_bytes)"
check "--get a string" "cgroup 0" "$(get memory.effective.binding) $?"
out=$(get scheduler.cpus_per_task)
check "--get an unknown figure: nothing, exit 3" "3 ''" "$? '$out'"
err=$(get cpu.effective 2>&1 >/dev/null)
check "--get an object: exit 2, its members named" \
  "2 governor: snapshot: --get: 'cpu.effective' is an object; name one of its members: capacity_cores, workers, binding" \
  "$? $err"
err=$(get cpu.nothing 2>&1 >/dev/null)
check "--get no such field: exit 2, where the fields are" \
  "2 governor: snapshot: --get: no field 'cpu.nothing'; 'governor snapshot --json' shows them (docs/snapshot.md)" \
  "$? $err"
"$gov" snapshot --json --get cpu.effective.workers >/dev/null 2>&1
check "--get and --json: a usage error" 2 $?
finish
