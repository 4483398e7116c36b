#!/usr/bin/env bash
# covers: v1 v2
# GPU shares (issue 52) on emulated NVIDIA GPUs: what Slurm puts in a task
# that holds a share, gres/shard and gres/mps, each configured alone.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

show() { # SRUN_ARGS...
	as_user srun -l --governor -w node1 "$@" bash -c 'echo "env $(env | grep -E "^(CUDA|SLURM_(STEP_GPUS|GPUS_ON_NODE|SHARDS_ON_NODE|GPUS_PER_TASK))" | sort | tr "\n" " ")"; "$0" "$1" nvidia; "$1" snapshot --json | jq -c "[.scheduler.gpu_share_kind, .scheduler.gpu_share, .scheduler.gpu_share_source, .scheduler.gpu_memory_bytes, .enforcement.gpu_share]" | sed "s/^/share /"' "$GPU_PROBE" "$GOV_TOOL"
}
gpu_cluster --shards 4
for g in gpu:1 shard:1 shard:2 shard:4; do
	echo "== shards: --gres=$g"
	show -n1 --gres="$g"
done
echo "== shards: two tasks, --gres=shard:2"
show -n2 --gres=shard:2
gpu_cluster --mps 100
for g in mps:25 mps:50 mps:100; do
	echo "== mps: --gres=$g"
	show -n1 --gres="$g"
done
