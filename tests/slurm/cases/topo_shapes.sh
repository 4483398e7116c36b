#!/usr/bin/env bash
# covers: v2
# v1: the host's nodes are emulated 2-CPU nodes without SMT or NUMA; the shape lives in the QEMU guest (tests/guest/run.sh --shape smt-numa)
# The allocation's topology on a node of real shape (2 sockets, 2 threads
# per core, a NUMA node per socket, as the guest's QEMU makes it), with the
# node line slurmd -C gives: in steps that split and do not split cores,
# stay in one socket and span both, bind and do not bind, with and without
# --hint, and without --governor, every task's topology, plans and
# variables agree with the kernel's own sysfs in that task
# (topology_check.py), and the doctor says what each shape does. Every step
# runs on node1: this machine, as one node of slurmd -C's shape, or the
# first of the two machines of tests/guest/pair.sh, declared as its QEMU
# shape makes it (then the cluster stays as it is).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

threads=$(tr ',' '\n' </sys/devices/system/cpu/cpu0/topology/thread_siblings_list | wc -l)
numa=$(grep -lv '^$' /sys/devices/system/node/node*/cpulist 2>/dev/null | wc -l)
if [[ $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list) != *[-,]* ]] || ((numa < 2)); then
	skip "this node has no SMT or a single NUMA node (threads per core: $threads, NUMA nodes: $numa)"
fi
if ! grep -Eq "^NodeName=node1 .*ThreadsPerCore=$threads " "$SLURM_CONF"; then
	restart_cluster --nodes 1 --node-shape hardware
	# The restart made a new cluster directory: copy the tools again.
	GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
fi
grep -E '^NodeName=node1 ' "$SLURM_CONF"
check=$(user_copy "$GOV_SLURM_TESTS/topology_check.py")
user_copy "$GOV_SLURM_TESTS/../lib/sysfs_topology.py" >/dev/null
gov_plugstack

# shape NAME SRUN_ARGS...: runs the checker in every task of one step and
# prints its lines; fails on any disagreement with sysfs.
shape() {
	local name=$1 out
	shift
	# Memory per step, not per CPU: DefMemPerCPU times 8 CPUs is more than
	# the node's RealMemory.
	out=$(as_user srun -w node1 --mem=500M "$@" python3 "$check" "$GOV_TOOL") || die "$name: srun $* failed"
	printf '%s: srun %s\n%s\n' "$name" "$*" "$out" >&2
	[[ $(jq -s 'map(.diffs | length) | add' <<<"$out") == 0 ]] ||
		die "$name: governor and sysfs disagree: $(jq -c 'select(.diffs != []) | .diffs' <<<"$out")"
	printf '%s\n' "$out"
}
# field OUT JQ: the value in each task's line, one per line, sorted.
field() {
	jq -r "$2" <<<"$1" | sort
}

out=$(shape "one core, both threads" --governor -n1 -c2)
assert_eq descriptor "$(field "$out" .source)" "sealed step part"
assert_eq "2 1 1 1" "$(field "$out" '"\(.task.pus) \(.task.cores) \(.task.whole_cores) \(.task.numa_nodes)"')" "-c2 covers"
assert_eq "" "$(field "$out" '.findings[]')" "-c2: no topology finding"

out=$(shape "one socket" --governor -n1 -c4)
assert_eq "4 2 2 1" "$(field "$out" '"\(.task.pus) \(.task.cores) \(.task.whole_cores) \(.task.numa_nodes)"')" "-c4 covers"
assert_eq 2 "$(field "$out" .per_core_threads)" "-c4 --per-core: a thread per core"

out=$(shape "both sockets" --governor -n1 -c8)
assert_eq "8 4 4 2" "$(field "$out" '"\(.task.pus) \(.task.cores) \(.task.whole_cores) \(.task.numa_nodes)"')" "-c8 covers"
assert_eq 2 "$(field "$out" '.numa_workers | length')" "-c8: a NUMA worker per socket"
assert_eq "4 4" "$(field "$out" '[.numa_workers[].threads] | map(tostring) | join(" ")')" "-c8: each worker its node's PUs"

out=$(shape "a socket per task" --governor -n2 -c4)
assert_eq "1
1" "$(field "$out" .task.numa_nodes)" "-n2 -c4: each task in one NUMA node"
assert_eq 2 "$(field "$out" '.task.numa[0][0]' | uniq | wc -l)" "-n2 -c4: the tasks on different nodes"

out=$(shape "threads of one core in two tasks" --governor -n2 -c1)
assert_eq "1
1" "$(field "$out" .task.pus)" "-n2 -c1: a PU each"
assert_eq "0
0" "$(field "$out" .task.whole_cores)" "-n2 -c1: no whole core"
assert_eq "topology.split_cores
topology.split_cores" "$(field "$out" '.findings[]')" "-n2 -c1: the doctor says the tasks split a core"

out=$(shape "no multithreading" --governor -n1 -c2 --hint=nomultithread)
assert_eq "2 2 0" "$(field "$out" '"\(.task.pus) \(.task.cores) \(.task.whole_cores)"')" "--hint=nomultithread: a thread on each of 2 cores"
assert_eq "" "$(field "$out" '.findings[]')" "--hint=nomultithread: the siblings idle on purpose, no finding"

out=$(shape "unbound" --governor -n2 -c2 --cpu-bind=none)
assert_eq "4
4" "$(field "$out" .task.pus)" "--cpu-bind=none: each task the step's CPUs"

out=$(shape "without --governor" -n1 -c4)
assert_eq live "$(field "$out" .source)" "no descriptor: only the task part"
assert_eq null "$(field "$out" .step.pus)" "no descriptor: no step part"

out=$(shape "runtimes" --governor=runtimes -n1 -c4)
assert_eq "$(field "$out" .sysfs.pus)" "$(field "$out" .omp_num_threads)" "--governor=runtimes: a thread per PU (sysfs), not per core, by default"

# The site makes --per-core the default of --governor=runtimes.
gov_plugstack per_core=yes
out=$(shape "runtimes, a thread per core" --governor=runtimes -n1 -c4)
assert_eq "$(field "$out" .sysfs.cores)" "$(field "$out" .omp_num_threads)" "per_core=yes: a thread per physical core (sysfs)"
assert_eq 2 "$(field "$out" .omp_num_threads)" "per_core=yes: the -c4 step's 2 cores"
