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
on=node1 # the node grant() runs on
grant() { # SRUN_ARGS...
	as_user srun -l --governor=runtimes -w "$on" "$@" bash -c '
		echo "env $(env | grep -E "^(CUDA|SLURM_(STEP_GPUS|GPUS_ON_NODE|SHARDS_ON_NODE))" | sort | tr "\n" " ")" >&2
		s=$("$0" snapshot --json | jq -r "[.scheduler.gpu_share_kind, .scheduler.gpu_share, .scheduler.gpu_share_source, .enforcement.gpu_share] | map(tostring) | join(\" \")")
		echo "$s | ${XLA_PYTHON_CLIENT_MEM_FRACTION:--} ${TF_FORCE_GPU_ALLOW_GROWTH:--} ${CUPY_GPU_MEMORY_LIMIT:--} ${CUDA_MPS_PINNED_DEVICE_MEM_LIMIT:--} ${GOVERNOR_GPU_SHARE:--}"' "$GOV_TOOL" | sort
}
mig() { # GRES: "kind share memory enforcement gpus verified"
	as_user srun -l --governor -w node1 -n1 --gres="$1" bash -c '
		echo "env $(env | grep -E "^(CUDA|SLURM_(STEP_GPUS|GPUS_ON_NODE))" | sort | tr "\n" " ")" >&2
		"$0" snapshot --json | jq -r "[.scheduler.gpu_share_kind, .scheduler.gpu_share, .scheduler.gpu_memory_bytes, .enforcement.gpu_share, .scheduler.gpus_on_node, .scheduler.gpus_verified] | map(tostring) | join(\" \")"' "$GOV_TOOL"
}

# Under cgroup v2 (the TCG guest, where time is dear) what the eBPF device
# filter decides: a shard's one GPU, a MIG instance with its nvidia-caps
# nodes, each fenced as a whole GPU is.  The rest is the same as on v1.
if [[ $(cgroup_mode) == v2 ]]; then
	gpu_cluster --shards 4
	assert_eq "0: shard 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=shard:1)" \
		"v2: --gres=shard:1 of 4"
	gpu_cluster --mig yes
	assert_eq "0: mig 1 5000000000 enforced 1 true" "$(mig gpu:1g.5gb:1)" "v2: a 1g.5gb MIG instance"
	assert_eq "0: mig 1 20000000000 enforced 1 true" "$(mig gpu:3g.20gb:1)" "v2: a 3g.20gb MIG instance"
	exit 0
fi

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
on=node2
assert_eq "0: shard 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=shard:1)" \
	"node2, whose GPUs are /dev/nvidia4 and 5: SLURM_STEP_GPUS counts its own"
on=node1
out=$(as_user srun --governor -n1 -w node1 --gres=shard:1 "$GOV_TOOL" doctor --json || true)
assert_eq warn "$(doctor_finding "$out" gpu.share_unfenced severity)" "doctor: a shard is not fenced"
assert_match 'MIG' "$(doctor_finding "$out" gpu.share_unfenced fix)" "doctor's fix names MIG"
out=$(as_user srun --governor -n1 -w node1 --gres=shard:1 "$GOV_TOOL" plan)
assert_match 'GPU: +a quarter of a GPU through gres/shard, not fenced' "$out" "governor plan tells the share"
out=$(as_user srun --governor -n1 -w node1 --gres=shard:1 "$GOV_TOOL" run --explain -- true 2>&1)
assert_match '; GPU: a quarter of a GPU through gres/shard, not fenced' "$out" "run --explain tells the share"
assert_match 'set  XLA_PYTHON_CLIENT_MEM_FRACTION=0.187: .*75% of 0.250 of a GPU \(the task.s share\)' "$out" \
	"run --explain: JAX's fraction and what it derives from"
out=$(as_user srun --governor -n1 -w node1 --gres=gpu:1 "$GOV_TOOL" doctor --json || true)
assert_eq absent "$(doctor_finding "$out" gpu.share_unfenced severity)" "doctor: a whole GPU is no share"

gpu_cluster --mps 100
assert_eq "0: mps 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=mps:25)" \
	"--gres=mps:25 of 100: a quarter; no pinned limit without the card's memory"
assert_eq "0: mps 0.5 descriptor not_enforced | 0.375 true 37% - 0.500" "$(grant -n1 --gres=mps:50)" \
	"--gres=mps:50: a half"
assert_eq "0: mps 1 descriptor not_enforced | - - - - -" "$(grant -n1 --gres=mps:100)" \
	"--gres=mps:100: a whole GPU's count"
out=$(as_user srun --governor -n1 -w node1 --gres=mps:25 "$GOV_TOOL" doctor --json || true)
assert_eq warn "$(doctor_finding "$out" gpu.mps_no_memory_limit severity)" \
	"doctor: an MPS client's memory without a pinned limit"
out=$(as_user srun --governor -n1 -w node1 --gres=mps:25 \
	--export=ALL,CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=2G "$GOV_TOOL" doctor --json || true)
assert_eq absent "$(doctor_finding "$out" gpu.mps_no_memory_limit severity)" \
	"doctor: with the user's pinned limit, nothing to say"

# Both shares configured on one node: Slurm computes the MPS percentage
# against the shards (see docs/snapshot.md), so an MPS grant's share is not
# told; a shard's still is.
gpu_cluster --shards 4 --mps 100
assert_eq "0: shard 0.25 descriptor not_enforced | 0.187 true 18% - 0.250" "$(grant -n1 --gres=shard:1)" \
	"shards and MPS on one node: a shard's share"
assert_eq "0: mps null descriptor not_enforced | - - - - -" "$(grant -n1 --gres=mps:25)" \
	"shards and MPS on one node: no MPS share told"

# MIG instances of two profiles (fake nvidia-caps nodes): the hardware's
# fence and the profile's memory (decimal gigabytes); a whole GPU beside
# them.  Slurm numbers them in gres.conf's order (SLURM_STEP_GPUS 0, 2, 3).
gpu_cluster --mig yes
assert_eq "0: mig 1 5000000000 enforced 1 true" "$(mig gpu:1g.5gb:1)" "a 1g.5gb MIG instance"
assert_eq "0: mig 1 20000000000 enforced 1 true" "$(mig gpu:3g.20gb:1)" "a 3g.20gb MIG instance"
assert_eq "0: gpu 1 null enforced 1 true" "$(mig gpu:a100:1)" "a whole GPU beside them"
out=$(as_user srun --governor -n1 -w node1 --gres=gpu:1g.5gb:1 "$GOV_TOOL" doctor --json || true)
assert_eq absent "$(doctor_finding "$out" gpu.share_unfenced severity)" "doctor: a MIG instance is fenced"

# Six shards of four a GPU for one task, which would span two GPUs: 22.05,
# 24.11 and 26.05 never schedule it (the job waits on Resources).
gpu_cluster --shards 4
out=$(as_user srun --immediate=10 --governor -w node1 -n1 --gres=shard:6 true 2>&1) && rc=0 || rc=$?
assert_eq 1 "$rc" "--gres=shard:6 of 4 a GPU: not scheduled"
assert_match 'Requested nodes are busy' "$out" "srun --immediate says the node is busy"
