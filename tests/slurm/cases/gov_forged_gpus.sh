#!/usr/bin/env bash
# covers: v1
# v2: a grant of every GPU with nothing denied is gpu_whole_node's case on v2; a forged one looks the same there; left out of the TCG guest for time
# Issue 16, items 2 and 3: a node whose GPUs Slurm does not know (device
# nodes, no gres/gpu) with ConstrainDevices=yes.  Nothing is denied and
# slurmstepd leaves the GPU variables alone, so a user who exports
# SLURM_GPUS_ON_NODE equal to the node's GPU count used to get a grant
# sealed as verified and enforced.  Now: unverified, its source the
# environment, enforcement unknown; the other GPU facts root sealed from the
# job's environment (SLURM_GPUS_PER_TASK) say so too; strict mode refuses
# them all; governor doctor says why and counts GPUs, not bytes.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --gpus 6 --gres no
assert_eq "" "$(grep -i gres "$GOV_CLUSTER_DIR/etc/slurm.conf" || true)" "no gres in slurm.conf"
forged=--export=ALL,SLURM_GPUS_ON_NODE=6,SLURM_GPUS_PER_TASK=1000,CUDA_VISIBLE_DEVICES=5

# The kernel's view first: all six open (no driver: ENXIO), none denied.
out=$(gpu_probe nvidia --governor -n1 -w node1 "$forged")
printf '%s\n' "$out"
gpu_expect "$out" 0 "6 0" "descriptor 6 false unknown 1" "environment 6 false unknown 1"

# shellcheck disable=SC2016 # expanded in the task
q='"$GOV_TOOL" snapshot --json | jq -c "[.descriptor.status, .scheduler.source, .scheduler.gpus_on_node, .scheduler.gpus_on_node_source, .scheduler.gpus_per_task, .scheduler.gpus_per_task_source, .scheduler.gpus_verified, .enforcement.gpu]"'
out=$(as_user srun --governor -n1 -w node1 "$forged" bash -c "$q")
printf 'snapshot: %s\n' "$out"
assert_eq '["verified","descriptor",6,"environment",1000,"environment",false,"unknown"]' "$out" \
	"sealed, but the user's GPU facts"

# Strict mode refuses what the user wrote, sealed or not.
out=$(as_user srun --governor -n1 -w node1 "$forged" bash -c "${q/--json/--json --require-descriptor}")
printf 'strict: %s\n' "$out"
assert_eq '["verified","descriptor",null,null,null,null,false,"unknown"]' "$out" "strict mode"

# The doctor explains the whole-node case and counts GPUs.
rc=0
out=$(as_user srun --governor -n1 -w node1 "$forged" "$GOV_TOOL" doctor --json) || rc=$?
printf '%s\n' "$out"
assert_eq info "$(doctor_finding "$out" gpu.whole_node_unverified severity)" "doctor's finding"
assert_eq absent "$(doctor_finding "$out" gpu.enforced severity)" "no 'enforced' finding"
assert_match 'gres.conf' "$(doctor_finding "$out" gpu.whole_node_unverified fix)" "doctor's fix"

# A partial grant on the same node (fewer than its GPUs) is not enforced:
# the task can open more than it claims.
out=$(as_user srun --governor -n1 -w node1 --export=ALL,SLURM_GPUS_ON_NODE=2 "$GOV_TOOL" doctor) || true
printf '%s\n' "$out"
assert_line 'ERROR +gpu +allocation 2 GPUs, enforced by none' "$out" "doctor's human line (a count of GPUs)"
