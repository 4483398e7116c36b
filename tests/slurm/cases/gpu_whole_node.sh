#!/usr/bin/env bash
# A whole-node GPU grant: node1 has all 4 emulated GPUs and its device
# cgroup denies none of them.  That looks exactly like a node whose GPUs
# Slurm does not know, where the grant is whatever the user exported
# (gov_forged_gpus), so the count is sealed unverified and its enforcement
# is unknown (issue 16); governor doctor says why.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpus 4
out=$(gpu_probe nvidia --governor --gres=gpu:4 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "4 0" "descriptor 4 false unknown 4" "environment 4 false unknown 4"

out=$(as_user srun --governor --gres=gpu:4 -n1 -w node1 "$GOV_TOOL" doctor --json)
printf '%s\n' "$out"
assert_eq info "$(doctor_finding "$out" gpu.whole_node_unverified severity)" "doctor's finding"
