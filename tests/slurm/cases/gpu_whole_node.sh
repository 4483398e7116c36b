#!/usr/bin/env bash
# covers: v1 v2
# A whole-node GPU grant: node1 has all 4 emulated GPUs and nothing in its
# device cgroup is denied. On v1 the task sits in a devices cgroup that
# admits exactly its grant, so the count is verified and enforced. On v2 the
# eBPF filter cannot be read back and refuses nothing here, so nothing the
# task can observe tells a filter from none: not verified, not confirmed,
# and the doctor says why.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpus 4
out=$(gpu_probe nvidia --governor --gres=gpu:4 -n1 -w node1)
printf '%s\n' "$out"
if [[ $(cgroup_mode) == v1 ]]; then
	gpu_expect "$out" 0 "4 0" "descriptor 4 true enforced 4" "environment 4 false enforced 4"
	assert_line '0: confined true' "$out" "the v1 devices cgroup"
else
	gpu_expect "$out" 0 "4 0" "descriptor 4 false not_enforced 4" "environment 4 false not_enforced 4"
	assert_line '0: confined null' "$out" "no refusal: the v2 filter is not seen"
	out=$(as_user srun --governor --gres=gpu:4 -n1 -w node1 "$GOV_TOOL" doctor --json) || true
	printf '%s\n' "$out"
	assert_eq info "$(doctor_finding "$out" gpu.filter_unobservable severity)" "doctor: the filter cannot be seen"
fi
