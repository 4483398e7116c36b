#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the descriptor binding through 200 parents); left out of the TCG guest for time
# A process 200 levels below its task (a build system, a workflow manager)
# still verifies the task's descriptor: the binding walks the whole chain of
# parents, not a fixed number of them.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# Each level is a shell that waits for the next one (the trailing
# assignment keeps the shell from exec'ing its last command); the bottom one
# counts its ancestors up to the task's slurmstepd and verifies.
# shellcheck disable=SC2016 # expanded in the task
nest='if [ "$1" -gt 0 ]; then sh -c "$0" "$0" $(($1 - 1)); r=$?; exit $r; fi
p=$$ n=0
while [ "$p" -gt 1 ] && [ "$(cat /proc/$p/comm)" != slurmstepd ]; do
	p=$(sed "s/^.*) . \([0-9]*\) .*/\1/" /proc/$p/stat)
	n=$((n + 1))
done
echo "depth $n"
"$GOV_TOOL" verify --json | jq -r .status'
out=$(as_user srun --governor -n1 sh -c "$nest" "$nest" 200)
printf '%s\n' "$out"
depth=$(sed -n 's/^depth //p' <<<"$out")
((depth >= 200)) || die "the bottom process is only $depth levels below slurmstepd"
assert_line verified "$out" "verify 200 levels below the task"
