#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (an unreachable MUNGE); left out of the TCG guest for time
# MUNGE unreachable (munge_socket= pointing to a dead socket): with
# seal=optional the step runs without a descriptor; with seal=required the
# task fails with a clear message, and no node drains.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

dead=$(dead_munge_socket)

gov_plugstack "munge_socket=$dead" seal=optional
out=$(as_user srun --governor -n1 bash -c 'echo "ran ${GOVERNOR_DESCRIPTOR:-none}"; "$GOV_TOOL" verify --json | jq -r .status')
assert_eq "$(printf 'ran none\nabsent')" "$out" "seal=optional without MUNGE"

gov_plugstack "munge_socket=$dead" seal=required
assert_refused 'governor: MUNGE cannot seal the descriptor \(.+\); this site requires a sealed descriptor'
assert_idle

# The batch step fails the same way; the job fails, the node does not drain.
id=$(as_user sbatch --parsable --governor -o /dev/null --wrap 'echo should-not-run')
assert_match '^(FAILED|NODE_FAIL)$' "$(wait_job "$id")" "batch job state"
assert_idle
node_states
! node_states | grep -Eq 'drain|down' || die "a node drained"
