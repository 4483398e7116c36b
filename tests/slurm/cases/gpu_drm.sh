#!/usr/bin/env bash
# covers: v1
# v2: gpu_verify's rules on DRM render nodes (the same v2 filter, another major); left out of the TCG guest for time
# The same verification for AMD and Intel GPUs, which are DRM render nodes
# (/dev/dri/renderD128..., char major 226): 2 emulated on each of node1 and
# node2, ConstrainDevices=yes.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpu-kind drm --gpus 2,2
out=$(gpu_probe drm --governor --gres=gpu:1 -n1 -w node2)
printf '%s\n' "$out"
gpu_expect "$out" 0 "1 3" "descriptor 1 true enforced 1" "environment 1 false enforced 1"
out=$(gpu_probe drm --governor -n1 -w node2)
printf '%s\n' "$out"
gpu_expect "$out" 0 "0 4" "descriptor 0 true enforced null" "environment null false unknown null"
