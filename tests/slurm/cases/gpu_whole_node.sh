#!/usr/bin/env bash
# covers: v1 v2
# A whole-node GPU grant: node1 has all 4 emulated GPUs and nothing in its
# device cgroup is denied.  That looks exactly like a node whose GPUs Slurm
# does not know, where the grant is whatever the user exported
# (gov_forged_gpus), so the count is sealed unverified and its enforcement
# is unknown (issue 16), on v1 (a devices cgroup that lists every GPU) as on
# v2 (an eBPF filter that refuses nothing here); governor doctor says why.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpus 4
out=$(gpu_probe nvidia --governor --gres=gpu:4 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "4 0" "descriptor 4 false unknown 4" "environment 4 false unknown 4"
if [[ $(cgroup_mode) == v1 ]]; then
	assert_line '0: confined true' "$out" "the v1 devices cgroup"
else
	assert_line '0: confined null' "$out" "no refusal: the v2 filter is not seen"
fi
out=$(as_user srun --governor --gres=gpu:4 -n1 -w node1 "$GOV_TOOL" doctor --json) || true
printf '%s\n' "$out"
assert_eq info "$(doctor_finding "$out" gpu.whole_node_unverified severity)" "doctor's finding"
if [[ $(cgroup_mode) == v2 ]]; then
	assert_eq info "$(doctor_finding "$out" gpu.filter_unobservable severity)" "doctor: the filter cannot be seen"
fi
