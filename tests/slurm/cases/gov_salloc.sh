#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (salloc's option inheritance); left out of the TCG guest for time
# salloc --governor: steps inside the allocation inherit the option; an
# inner srun --governor overrides salloc's 'off'.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# shellcheck disable=SC2016 # expanded in the allocation
out=$(as_user salloc --governor=threads -N2 -n3 \
	srun bash -c 'echo "$("$GOV_TOOL" verify --json | jq -r .status) ${OMP_NUM_THREADS:-unset}"' 2>/dev/null)
printf '%s\n' "$out"
assert_eq 3 "$(grep -c '^verified 1$' <<<"$out")" "tasks under salloc --governor=threads"

# shellcheck disable=SC2016 # expanded in the allocation
out=$(as_user salloc --governor=off -n1 bash -c '
	srun bash -c "\"\$GOV_TOOL\" verify --json | jq -r .status"
	srun --governor bash -c "\"\$GOV_TOOL\" verify --json | jq -r .status"' 2>/dev/null)
printf '%s\n' "$out"
assert_eq "$(printf 'absent\nverified')" "$out" "salloc --governor=off, then srun --governor"
