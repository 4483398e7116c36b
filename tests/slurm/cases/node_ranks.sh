#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (how Slurm ranks a step's nodes); left out of the TCG guest for time
# A step's node ranks (SLURM_NODEID) need not follow the nodes' names:
# from 23.11 a topology plugin may rank them (topology/block with
# TopologyParam=BlockAsNodeRank here, node3 in the first block), and the
# step's lists follow the ranks (SLURM_STEP_NODELIST "node[3,1-2]",
# SLURM_STEP_TASKS_PER_NODE "1,2(x2)").  22.05 has no topology/block and
# ranks by name whatever slurm.conf's order (node3, node1, node2 here).
# Every task's tasks_on_node must be its own node's count, in a governed
# step (the plugin's node-local facts) and without a descriptor (the
# environment's list, indexed by the task's own rank).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

if [[ $(by_series 22.05=tree 24.11=block 26.05=block) == block ]]; then
	restart_cluster --node-order 3,1,2 --conf-line TopologyPlugin=topology/block \
		--conf-line TopologyParam=BlockAsNodeRank --topology-line 'BlockName=b1 Nodes=node3' \
		--topology-line 'BlockName=b2 Nodes=node[1-2]' --topology-line 'BlockSizes=1'
else
	restart_cluster --node-order 3,1,2
fi
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
gov_plugstack
home=$(user_home)

# run_step MODE: -N3 -n5 (1+2+2 or 2+2+1 tasks by rank); each task writes "node rank
# own-count tasks_on_node source" (its own count: SLURM_GTIDS, the global
# ids of the tasks on its node).
run_step() {
	rm -f "$home"/node_ranks.*
	# shellcheck disable=SC2016 # expanded in the task
	as_user srun --governor="$1" -N3 -n5 bash -c '
		json=$("$GOV_TOOL" snapshot --json)
		ids=${SLURM_GTIDS//,/ }; set -- $ids
		echo "$SLURMD_NODENAME $SLURM_NODEID $# $(jq -r ".scheduler.tasks_on_node, .scheduler.source" <<<"$json" | paste -sd" ")" \
			>"node_ranks.$SLURM_PROCID"'
	cat "$home"/node_ranks.* | sort
}

for mode in batch off; do
	out=$(run_step "$mode")
	printf -- '--governor=%s:\n%s\n' "$mode" "$out"
	assert_eq 5 "$(wc -l <<<"$out")" "tasks ($mode)"
	# node3's rank: first where a topology ranks it, last by name.
	assert_line "node3 $(by_series 22.05=2 24.11=0 26.05=0) 1 .*" "$out" "node3's rank and count ($mode)"
	assert_line "node1 $(by_series 22.05=0 24.11=1 26.05=1) 2 .*" "$out" "node1's rank and count ($mode)"
	want=$([[ $mode == off ]] && echo environment || echo descriptor)
	while read -r name rank own seen source; do
		assert_eq "$own" "$seen" "tasks_on_node of a task on $name (rank $rank, $mode)"
		assert_eq "$want" "$source" "scheduler source on $name ($mode)"
	done <<<"$out"
done
