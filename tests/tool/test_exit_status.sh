#!/usr/bin/env bash
# One exit status convention for every verb, as governor(1) states it:
# 0 success or yes, 1 the verb's no, 2 usage error, 3 no answer, 4 verify:
# no descriptor; run: CMD's own status, 127 when CMD cannot be run.
# usage: test_exit_status.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

status() { # CMD...: its exit status, its output dropped
  "$@" >/dev/null 2>&1
  echo $?
}

check "no verb: usage" 2 "$(status "$gov")"
check "unknown verb: usage" 2 "$(status "$gov" bogus)"
check "--help" 0 "$(status "$gov" --help)"
check "--version" 0 "$(status "$gov" --version)"

# The same two for every verb; watch and run also with a value or a
# command missing.
for verb in snapshot plan run watch verify doctor; do
  check "$verb --help" 0 "$(status "$gov" "$verb" --help)"
  check "$verb --bogus: usage" 2 "$(status "$gov" "$verb" --bogus)"
  check "$verb, --json without its option's value: usage" 2 "$(status "$gov" "$verb" --json --sysroot)"
done
check "watch --interval without a value: usage" 2 "$(status "$gov" watch --interval)"
check "watch --interval below 10 ms: usage" 2 "$(status "$gov" watch --interval 5)"
check "run without a command: usage" 2 "$(status "$gov" run)"
check "run with the command before '--': usage" 2 "$(status "$gov" run true)"
check "verify --trusted-uid x: usage" 2 "$(status "$gov" verify --trusted-uid x)"
check "verify --munge-socket without a path: usage" 2 "$(status "$gov" verify --munge-socket)"
check "verify --sysroot: usage" 2 "$(status "$gov" verify --sysroot "$root")"
check "strict mode with a sysroot: usage" 2 "$(status "$gov" snapshot --require-descriptor --sysroot "$root")"

# Success, and each verb's answers.
check "snapshot" 0 "$(status env -i "$gov" snapshot --sysroot "$root")"
check "plan" 0 "$(status env -i "$gov" plan --sysroot "$root")"
check "watch" 0 "$(status env -i "$gov" watch --count 1 --sysroot "$root")"
step=(env -i SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_CPUS_PER_TASK=2 SLURM_CPUS_ON_NODE=2)
check "doctor, enforced: yes" 0 "$(status "${step[@]}" SLURM_MEM_PER_NODE=200 "$gov" doctor --sysroot "$root")"
check "doctor, not enforced: no" 1 "$(status "${step[@]}" SLURM_MEM_PER_NODE=100 "$gov" doctor --sysroot "$root")"
check "verify, invalid: no" 1 "$(status env -i GOVERNOR_DESCRIPTOR=MUNGE:forged: "$gov" verify)"
check "verify, absent" 4 "$(status env -i "$gov" verify)"

# No answer: strict mode without a verified descriptor, for every verb
# that takes a snapshot.
job=(env -i SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_NODEID=0 SLURM_CPUS_PER_TASK=1 SLURM_TASKS_PER_NODE=1)
check "snapshot, strict: no answer" 3 "$(status "${job[@]}" "$gov" snapshot --require-descriptor)"
check "plan, strict: no answer" 3 "$(status "${job[@]}" "$gov" plan --require-descriptor)"
check "watch, strict: no answer" 3 "$(status "${job[@]}" "$gov" watch --count 1 --require-descriptor)"
check "doctor, strict: no answer" 3 "$(status "${job[@]}" "$gov" doctor --require-descriptor)"
check "run, strict: no answer" 3 "$(status "${job[@]}" "$gov" run --require-descriptor -- true)"

# run: the command's own status once it runs.
check "run: CMD's status" 5 "$(status "$gov" run --sysroot "$root" -- sh -c 'exit 5')"
check "run: CMD's success" 0 "$(status "$gov" run --sysroot "$root" -- true)"
check "run: CMD cannot be run" 127 "$(status "$gov" run --sysroot "$root" -- /nonexistent/cmd)"
check "run --dry-run" 0 "$(status "$gov" run --dry-run --sysroot "$root")"
finish
