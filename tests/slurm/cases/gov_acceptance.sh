#!/usr/bin/env bash
# covers: v1 v2
# The key acceptance: a non-root user's
#   srun --governor -N2 -n3 -c1 --mem=200M governor snapshot --json
# gives each task a verified descriptor and its own node's values.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
home=$(user_home)
rm -f "$home"/gov_acceptance.*
# Each task writes its own file: srun may split long lines of several tasks.
# shellcheck disable=SC2016 # expanded in the task
as_user srun --governor -N2 -n3 -c1 --mem=200M \
	bash -c 'echo "$SLURM_NODEID $("$GOV_TOOL" snapshot --json)" >"gov_acceptance.$SLURM_PROCID"'
out=$(cat "$home"/gov_acceptance.* | sort)
printf '%s\n' "$out"
assert_eq 3 "$(wc -l <<<"$out")" "tasks"
while read -r node json; do
	want=$((node == 0 ? 2 : 1))
	assert_eq verified "$(jq -r .descriptor.status <<<"$json")" "node $node status"
	assert_eq descriptor "$(jq -r .scheduler.source <<<"$json")" "node $node source"
	assert_eq "$want" "$(jq -r .scheduler.tasks_on_node <<<"$json")" "node $node tasks_on_node"
	assert_eq 1 "$(jq -r .cpu.scheduler.cpus <<<"$json")" "node $node cpus"
	assert_eq $((200 << 20)) "$(jq -r .memory.scheduler.limit_bytes <<<"$json")" "node $node memory"
	assert_no_match 'govtest|node[0-9]' "$json" "privacy of the snapshot"
done <<<"$out"

# The text view, as the demo prints it: these nodes have no GPU device
# nodes, which is what verified their grant of none.
text=$(as_user srun --governor -n1 -w node1 "$GOV_TOOL" snapshot)
assert_line '  GPU grant confirmed by the kernel +yes \(the node has no GPU device nodes\)' "$text" "GPU line without GPUs"
