#!/usr/bin/env bash
# covers: v1 v2
# Verified GPUs (issue 10) on emulated NVIDIA GPUs: node1 has 4, node2 2,
# ConstrainDevices=yes.  In every task the sealed count must equal what the
# kernel lets the task open (open() per device node: EPERM is the device
# cgroup's refusal), and a user's exported variables must not inflate it,
# sealed or recomputed from the variables.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster
out=$(gpu_probe nvidia --governor --gres=gpu:2 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "2 4" "descriptor 2 true enforced 2" "environment 2 false enforced 2"
# v1: the devices cgroup below the root; v2: the filter's refusals (EPERM).
assert_line '0: confined true' "$out" "device confinement"

# Across nodes whose GPUs are different files (nvidia0-3, nvidia4-5).
out=$(gpu_probe nvidia --governor -N2 -n2 --gres=gpu:1 -w 'node[1-2]')
printf '%s\n' "$out"
for rank in 0 1; do
	gpu_expect "$out" "$rank" "1 5" "descriptor 1 true enforced 1" "environment 1 false enforced 1"
done

# The user exports four devices and a GPU list of their own.
out=$(gpu_probe nvidia --governor --gres=gpu:1 -n1 -w node1 \
	--export=ALL,CUDA_VISIBLE_DEVICES=0,1,2,3,SLURM_STEP_GPUS=0,1,2,3,SLURM_GPUS_ON_NODE=4)
printf '%s\n' "$out"
gpu_expect "$out" 0 "1 5" "descriptor 1 true enforced 1" "environment 1 false enforced 1"

# No --gres: slurmstepd removes the variables and the device cgroup denies
# every GPU; the seal says none, verified (0, not unknown).
out=$(gpu_probe nvidia --governor -n1 -w node1 --export=ALL,SLURM_STEP_GPUS=0,1,2,3)
printf '%s\n' "$out"
gpu_expect "$out" 0 "0 6" "descriptor 0 true enforced null" "environment null false unknown null"

# Without --governor the same step has only its variables.
out=$(gpu_probe nvidia --gres=gpu:2 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "2 4" "environment 2 false enforced 2" "environment 2 false enforced 2"

# governor doctor reports the GPU enforcement.
out=$(as_user srun --governor --gres=gpu:2 -n1 -w node1 "$GOV_TOOL" doctor --json)
printf '%s\n' "$out"
assert_eq ok "$(doctor_finding "$out" gpu.enforced severity)" "doctor: GPUs enforced"
assert_eq 2 "$(doctor_finding "$out" gpu.enforced allocation)" "doctor: the grant"
assert_eq devices "$(doctor_finding "$out" gpu.enforced enforced_by)" "doctor: by the device cgroup"
# On v2 the doctor says the filter was seen only through its refusals.
assert_eq "$(by_mode v1=absent v2=info)" "$(doctor_finding "$out" gpu.filter_observed severity)" \
	"doctor: the v2 device filter"

# The text view says what the verification rested on.
out=$(as_user srun --governor --gres=gpu:2 -n1 -w node1 "$GOV_TOOL" snapshot)
assert_line '  GPU grant confirmed by the kernel +yes \(the device cgroup admits exactly these\)' "$out" "GPU line"
