#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (slurmstepd's environment limit); left out of the TCG guest for time
# slurmstepd refuses a variable past its length limit (issue 26, item 4): a
# user's NODE_OPTIONS near the kernel's limit, which --governor=runtimes
# would lengthen with the heap options. The task starts with the user's own
# value, slurmd's log names the variable (never its value), and the task's
# GOVERNOR_ENV_REFUSED says which were refused; a step where nothing is
# refused has none, even when it inherits one.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# 9360 options of 14 characters: 131040 bytes, which exec takes (the
# kernel's MAX_ARG_STRLEN is 131072 with the name) and the heap options
# would take past it.
big=$(printf -- '--no-warnings %.0s' $(seq 9360))
# shellcheck disable=SC2016 # expanded in the task
show='echo "${#NODE_OPTIONS} ${GOVERNOR_ENV_REFUSED-unset} ${GOMEMLIMIT-unset}"'
mark=$(log_mark)
out=$(as_user env NODE_OPTIONS="$big" srun --governor=runtimes -n1 -c1 --mem=400M bash -c "$show")
printf 'near the limit: %s\n' "$out"
assert_eq "${#big} NODE_OPTIONS 360MiB" "$out" "the user's NODE_OPTIONS kept, the refusal named, the rest set"
log=$(log_since "$mark")
assert_match 'governor: slurmstepd refused NODE_OPTIONS \(' "$log" "slurmd's log"
assert_no_match 'no-warnings' "$log" "the log carries no value"

out=$(as_user env GOVERNOR_ENV_REFUSED=NODE_OPTIONS srun --governor=runtimes -n1 -c1 --mem=400M bash -c "$show")
printf 'inherited: %s\n' "$out"
assert_match '^[0-9]+ unset 360MiB$' "$out" "nothing refused: no GOVERNOR_ENV_REFUSED, also when inherited"
assert_no_drain
