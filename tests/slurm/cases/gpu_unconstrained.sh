#!/usr/bin/env bash
# covers: v1
# v2: ConstrainDevices=no (no filter, nothing refused: what gpu_whole_node shows v2 cannot tell apart); left out of the TCG guest for time
# The same GPU step with ConstrainDevices=no: every GPU node opens, so the
# grant in the variables is sealed unverified and not enforced, and
# governor doctor names the setting that closes the gap.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gpu_cluster --constrain-devices no
grep -qx 'ConstrainDevices=no' "$GOV_CLUSTER_DIR/etc/cgroup.conf"
out=$(gpu_probe nvidia --governor --gres=gpu:2 -n1 -w node1)
printf '%s\n' "$out"
gpu_expect "$out" 0 "6 0" "descriptor 2 false not_enforced 2" "environment 2 false not_enforced 2"

rc=0
out=$(as_user srun --governor --gres=gpu:2 -n1 -w node1 "$GOV_TOOL" doctor --json) || rc=$?
printf '%s\n' "$out"
assert_eq 1 "$rc" "doctor's exit status"
assert_eq error "$(doctor_finding "$out" gpu.not_enforced severity)" "doctor: GPUs not enforced"
assert_eq none "$(doctor_finding "$out" gpu.not_enforced enforced_by)" "doctor: nothing holds them"
assert_match 'ConstrainDevices=yes' "$(doctor_finding "$out" gpu.not_enforced fix)" "doctor's fix"
