#!/usr/bin/env bash
# `governor watch` on a fixture tree: JSON lines, the fixture's budget, the
# ceiling growing with healthy observations, and clear errors.
# usage: test_watch.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node
# shellcheck source=../lib/tap.sh
source "$(dirname "$0")/../lib/tap.sh"


out=$("$gov" watch --json --sysroot "$root" --interval 10 --count 7 --max-batch 4)
check "exit 0" 0 $?
check "one line per observation" 7 "$(printf '%s\n' "$out" | wc -l)"
check "schema" 7 "$(printf '%s\n' "$out" | grep -c '"schema":"governor.watch/1"')"
first=$(printf '%s\n' "$out" | head -1)
last=$(printf '%s\n' "$out" | tail -1)
# The fixture's step has 200 MiB; without a site policy the profile is
# interactive, which keeps a quarter (50 MiB).
check "detected RAM" 1 "$(grep -c '"detected_bytes":209715200' <<<"$first")"
check "interactive reserve" 1 "$(grep -c '"reserve_bytes":52428800' <<<"$first")"
check "PSI memory gate" 1 "$(grep -c '"gate":"memory_pressure"' <<<"$first")"
check "ceiling starts at 1" 1 "$(grep -c '"ceiling":1,' <<<"$first")"
# Healthy observations 3 and 6 double it: 1, 2, 4 (capped by --max-batch 4).
check "ceiling after 7 observations" 1 "$(grep -c '"ceiling":4,' <<<"$last")"

human=$("$gov" watch --sysroot "$root" --count 1)
check "human line" 1 "$(grep -c 'green  ceiling 1 .*RAM free 90.0 MiB of 200.0 MiB (reserve 50.0 MiB)' <<<"$human")"

# One default profile for every verb: interactive outside a scheduler,
# batch inside an allocation (here the variables of a step).
profile_of() { # VERB [ENV...]: the "profile" of one JSON line
  local verb=$1 once=()
  shift
  [ "$verb" = watch ] && once=(--count 1)
  env -u SLURM_JOB_ID "$@" "$gov" "$verb" --json --sysroot "$root" "${once[@]}" |
    grep -o '"profile":"[a-z]*"'
}
check "snapshot outside a scheduler" '"profile":"interactive"' "$(profile_of snapshot)"
check "watch outside a scheduler" '"profile":"interactive"' "$(profile_of watch)"
slurm=(SLURM_JOB_ID=5 SLURM_STEP_ID=0 SLURM_NODEID=0 SLURM_CPUS_PER_TASK=2 SLURM_MEM_PER_NODE=200)
check "snapshot in an allocation" '"profile":"batch"' "$(profile_of snapshot "${slurm[@]}")"
check "watch in an allocation" '"profile":"batch"' "$(profile_of watch "${slurm[@]}")"

"$gov" watch --interval 5 2>/dev/null; check "interval too short exits 2" 2 $?
"$gov" watch --count 0 2>/dev/null; check "zero count exits 2" 2 $?
"$gov" watch --bogus 2>/dev/null; check "unknown option exits 2" 2 $?
"$gov" watch --help >/dev/null; check "help exits 0" 0 $?
finish
