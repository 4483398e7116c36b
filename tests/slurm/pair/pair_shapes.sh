#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# Steps over two machines of different shapes (node1: 2 sockets x 2 cores
# x 2 threads, 2 NUMA nodes, 4 GiB; node2: 4 cores, 1 NUMA node, 3 GiB): in
# every task the descriptor verifies, and the topology, memory and GPU
# device nodes governor reports are its own node's, as the task reads them
# itself; the two nodes' tasks see two boot ids.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

out=$(facts "a task per node" --governor -N2 -n2 --mem=300M)
assert_eq 2 "$(boot_ids "$out")" "-N2 -n2: boot ids"
assert_eq "node1 2 2 8
node2 1 1 4" "$(per_node "$out" '"\(.host_packages) \(.host_numa) \(.host_logical)"')" "-N2 -n2: each node's shape"
assert_eq "node1 0
node2 2" "$(per_node "$out" .nvidia_nodes)" "-N2 -n2: GPU device nodes only on node2"
node1_mem=$(jq -r 'select(.node == "node1") | .mem_total' <<<"$out")
node2_mem=$(jq -r 'select(.node == "node2") | .mem_total' <<<"$out")
((node1_mem > node2_mem)) || die "node1 ($node1_mem B) should have more memory than node2 ($node2_mem B)"

out=$(facts "two tasks per node, two CPUs each" --governor -N2 --ntasks-per-node=2 -c2 --mem=400M)
assert_eq "node1 2
node1 2
node2 2
node2 2" "$(per_node "$out" '.tasks_on_node')" "--ntasks-per-node=2: tasks on each node"
assert_eq "node1 2
node1 2
node2 2
node2 2" "$(per_node "$out" '.topology.task.pus')" "-c2: each task's PUs"
# On node1 two CPUs are one core's two threads; on node2 two cores.
assert_eq "node1 1
node1 1
node2 2
node2 2" "$(per_node "$out" '.topology.task.cores')" "-c2: each task's cores, per node shape"
assert_eq "node1 419430400
node1 419430400
node2 419430400
node2 419430400" "$(per_node "$out" .memory_scheduler)" "--mem=400M on each node"

out=$(facts "uneven tasks" --governor -N2 -n3 -c2 --mem=300M)
assert_eq "node1 2
node1 2
node2 1" "$(per_node "$out" .tasks_on_node)" "-N2 -n3: tasks per node"
assert_eq 2 "$(boot_ids "$out")" "-N2 -n3: boot ids"

out=$(facts "a whole socket and a whole node" --governor -N2 --ntasks-per-node=1 -c4 --mem=300M)
assert_eq "node1 1
node2 1" "$(per_node "$out" .topology.task.numa_nodes)" "-c4: one NUMA node each"
assert_eq "node1 2
node2 4" "$(per_node "$out" .topology.task.cores)" "-c4: a socket's 2 cores on node1, 4 cores on node2"
