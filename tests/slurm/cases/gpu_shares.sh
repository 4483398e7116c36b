#!/usr/bin/env bash
# covers: v1 v2
# GPU shares (issue 52) on emulated NVIDIA GPUs, gres/shard (4 a GPU) and
# gres/mps (100 a GPU), each configured alone: what Slurm puts in a task
# that holds a share (printed, for docs/snapshot.md's table), the share the
# snapshot tells, and the GPU variables --governor=runtimes sizes to each
# task's part of it.  The emulated cards have no memory figure, so an MPS
# client's pinned limit is left unset (gpu_memory_unknown).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# Per task, sorted by task: Slurm's variables on one line, then "kind share
# source enforcement | XLA TF CUPY MPS GOVERNOR_GPU_SHARE" ("-": unset).
grant() { # SRUN_ARGS...
	as_user srun -l --governor=runtimes -w node1 "$@" bash -c '
		echo "env $(env | grep -E "^(CUDA|SLURM_(STEP_GPUS|GPUS_ON_NODE|SHARDS_ON_NODE))" | sort | tr "\n" " ")" >&2
		s=$("$0" snapshot --json | jq -r "[.scheduler.gpu_share_kind, .scheduler.gpu_share, .scheduler.gpu_share_source, .enforcement.gpu_share] | map(tostring) | join(\" \")")
		echo "$s | ${XLA_PYTHON_CLIENT_MEM_FRACTION:--} ${TF_FORCE_GPU_ALLOW_GROWTH:--} ${CUPY_GPU_MEMORY_LIMIT:--} ${CUDA_MPS_PINNED_DEVICE_MEM_LIMIT:--} ${GOVERNOR_GPU_SHARE:--}"' "$GOV_TOOL" | sort
}

gpu_cluster --shards 4
assert_eq "0: gpu 1 descriptor enforced | - - - - -" "$(grant -n1 --gres=gpu:1)" \
	"--gres=gpu:1: a whole GPU, enforced; no GPU variable"
assert_eq "0: shard 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=shard:1)" \
	"--gres=shard:1 of 4: a quarter, not fenced; the pools at three quarters of it, no MPS limit"
assert_eq "0: shard 0.5 descriptor not_enforced | 0.375 true 37% - 0.500" "$(grant -n1 --gres=shard:2)" \
	"--gres=shard:2: a half"
assert_eq "0: shard 1 descriptor not_enforced | - - - - -" "$(grant -n1 --gres=shard:4)" \
	"--gres=shard:4: a whole GPU's shards; the runtime sizes it"
assert_eq "0: shard 0.5 descriptor not_enforced | 0.187 true 18% - 0.250
1: shard 0.5 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n2 --gres=shard:2)" \
	"two tasks on --gres=shard:2: the step's half, a quarter each"

gpu_cluster --mps 100
assert_eq "0: mps 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=mps:25)" \
	"--gres=mps:25 of 100: a quarter; no pinned limit without the card's memory"
assert_eq "0: mps 0.5 descriptor not_enforced | 0.375 true 37% - 0.500" "$(grant -n1 --gres=mps:50)" \
	"--gres=mps:50: a half"
assert_eq "0: mps 1 descriptor not_enforced | - - - - -" "$(grant -n1 --gres=mps:100)" \
	"--gres=mps:100: a whole GPU's count"
