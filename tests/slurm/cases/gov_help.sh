#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the clients' --help); left out of the TCG guest for time
# srun, sbatch and salloc all list --governor in --help: the option is
# registered with spank_option_register() in every context.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
for cmd in srun sbatch salloc; do
	out=$(as_user "$cmd" --help 2>&1)
	assert_line ' *--governor(\[?=MODE\]?)? .*' "$out" "$cmd --help"
	assert_match 'batch \(default\) or' "$out" "$cmd --help text"
done
