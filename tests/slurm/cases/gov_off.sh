#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (site defaults and --governor=off); left out of the TCG guest for time
# A site default (default=on) and the user's --governor=off; an inherited
# GOVERNOR_DESCRIPTOR never survives into a step without the governor.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# shellcheck disable=SC2016 # expanded in the task
status='echo "$("$GOV_TOOL" verify --json | jq -r .status) ${GOVERNOR_DESCRIPTOR:-none}" | cut -c1-20'

gov_plugstack default=on
assert_match '^verified MUNGE:' "$(as_user srun -n1 bash -c "$status")" "site default on"
assert_eq "absent none" "$(as_user srun --governor=off -n1 bash -c "$status")" "--governor=off"
assert_eq "absent none" \
	"$(as_user env GOVERNOR_DESCRIPTOR=MUNGE:stale: srun --governor=off -n1 bash -c "$status")" \
	"an inherited descriptor under --governor=off"
assert_status 4 as_user srun --governor=off -n1 "$GOV_TOOL" verify

gov_plugstack default=off
assert_eq "absent none" \
	"$(as_user env GOVERNOR_DESCRIPTOR=MUNGE:stale: srun -n1 bash -c "$status")" \
	"an inherited descriptor with the governor off by default"
assert_match '^verified MUNGE:' "$(as_user srun --governor -n1 bash -c "$status")" "--governor"
