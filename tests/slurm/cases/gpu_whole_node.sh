#!/usr/bin/env bash
# A whole-node GPU grant: node1 has all 4 emulated GPUs and nothing in its
# device cgroup is denied, yet the task sits in a devices cgroup that admits
# exactly its grant, so the count is verified and enforced.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpus 4
out=$(gpu_probe nvidia --governor --gres=gpu:4 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "4 0" "descriptor 4 true enforced 4" "environment 4 false enforced 4"
