#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# GPUs on one machine only (node2: 2 emulated NVIDIA devices as gres/gpu,
# ConstrainDevices=yes; node1 has none and no decoy gres): a step granted
# one GPU on node2 gets it sealed and verified by the device filter there;
# a -N2 step without GPUs sees none on node1 and none usable on node2.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

out=$(facts "one GPU on node2" --governor -N1 -w node2 --gpus=1 --mem=300M)
assert_eq "node2 1 true 1" "$(per_node "$out" '"\(.gpus_on_node) \(.gpus_verified) \(.nvidia_usable)"')" \
	"--gpus=1 on node2: sealed, verified, one device usable"

out=$(facts "no GPUs, both nodes" --governor -N2 -n2 --mem=300M)
assert_eq "node1 0 0
node2 2 0" "$(per_node "$out" '"\(.nvidia_nodes) \(.nvidia_usable)"')" "without --gpus: device nodes and usable ones per node"
