#!/usr/bin/env bash
# --require-descriptor (strict mode): without a verified descriptor every
# snapshot-based verb refuses the SLURM_* variables and says why, where the
# default falls back to them.  (Inside a governed step it passes: the
# end-to-end case gov_strict.)
# usage: test_strict.sh GOVERNOR
set -uo pipefail
gov=$1
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


job=(env -i SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_NODEID=0 SLURM_CPUS_PER_TASK=1 SLURM_TASKS_PER_NODE=1)
out=$("${job[@]}" "$gov" snapshot --json)
check "default: exit 0" 0 $?
check "default: the variables" environment \
  "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["scheduler"]["source"])' <<<"$out")"

err=$("${job[@]}" "$gov" snapshot --json --require-descriptor 2>&1 >/dev/null)
check "strict snapshot: exit 3" 3 $?
check "strict snapshot: says why" 1 "$(grep -c 'no verified descriptor (none in GOVERNOR_DESCRIPTOR); --require-descriptor refuses the SLURM_\* variables' <<<"$err")"
"${job[@]}" GOVERNOR_DESCRIPTOR=MUNGE:forged: "$gov" plan --require-descriptor >/dev/null 2>&1
check "strict plan, forged descriptor: exit 3" 3 $?
"${job[@]}" "$gov" doctor --require-descriptor >/dev/null 2>&1
check "strict doctor: exit 3" 3 $?
"${job[@]}" "$gov" watch --count 1 --require-descriptor >/dev/null 2>&1
check "strict watch: exit 3" 3 $?
err=$("$gov" snapshot --require-descriptor --sysroot /tmp 2>&1 >/dev/null)
check "strict with a sysroot: a usage error" 2 $?
check "strict with a sysroot: says why" 1 "$(grep -c 'needs the live process' <<<"$err")"
finish
