#!/usr/bin/env bash
# covers: v1
# v2: GPU facts in batch steps, nothing v2-specific beyond gpu_verify; left out of the TCG guest for time
# An sbatch job with --gres=gpu:3: the batch script holds 3 GPUs (it gets
# SLURM_GPUS_ON_NODE, not SLURM_STEP_GPUS), an inner step asking gpu:1 holds
# 1, one asking none holds 0, and one asking nothing inherits all 3.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster
home=$(user_home)
# shellcheck disable=SC2016 # expanded in the job
script='#!/bin/bash
echo "== batch"; "$1" "$2" nvidia
echo "== gpu:1"; srun --gres=gpu:1 -n1 "$1" "$2" nvidia
echo "== none"; srun --gres=none -n1 "$1" "$2" nvidia
echo "== inherited"; srun -n1 "$1" "$2" nvidia
'
printf '%s' "$script" >"$home/gpu-job.sh"
chmod 755 "$home/gpu-job.sh"
as_user sbatch --wait --governor --gres=gpu:3 -w node1 -o gpu-job.out \
	gpu-job.sh "$GPU_PROBE" "$GOV_TOOL" >/dev/null
out=$(cat "$home/gpu-job.out")
rm -f "$home/gpu-job.sh" "$home/gpu-job.out"
printf '%s\n' "$out"
part() { sed -n "/^== $1\$/,/^== /p" <<<"$out" | grep -v '^== ' | sed 's/^/0: /'; }
gpu_expect "$(part batch)" 0 "3 3" "descriptor 3 true enforced 3" "environment 3 false enforced 3"
gpu_expect "$(part gpu:1)" 0 "1 5" "descriptor 1 true enforced 1" "environment 1 false enforced 1"
gpu_expect "$(part none)" 0 "0 6" "descriptor 0 true enforced null" "environment null false unknown null"
gpu_expect "$(part inherited)" 0 "3 3" "descriptor 3 true enforced 3" "environment 3 false enforced 3"
