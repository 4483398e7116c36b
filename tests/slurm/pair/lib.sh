# shellcheck shell=bash
# Helpers for the cases over two real machines (tests/slurm/pair/*.sh, run
# by tests/guest/pair.sh on the first guest, node1; node2 is the second
# guest, of another shape, with its own kernel, boot id, /dev and munged).
# The tools a task runs sit at the same path on both machines: the second
# guest copies them there itself (tests/guest/pair_node.sh).
# shellcheck source=../gov_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../gov_lib.sh"

[[ $GOV_CLUSTER_NODES == 2 ]] || die "these cases need the two-machine cluster of tests/guest/pair.sh"
FACTS=$(user_copy "$GOV_SLURM_TESTS/pair/task_facts.py")
user_copy "$GOV_SLURM_TESTS/topology_check.py" >/dev/null
user_copy "$GOV_SLURM_TESTS/../lib/sysfs_topology.py" >/dev/null
gov_plugstack

# facts NAME SRUN_ARGS...: task_facts.py in every task of one step, one
# JSON line per task, sorted by rank; fails when a task's descriptor does
# not verify or governor disagrees with what the task read itself.
facts() {
	local name=$1 out
	shift
	out=$(as_user srun "$@" python3 "$FACTS" "$GOV_TOOL") || die "$name: srun $* failed"
	out=$(jq -sc 'sort_by(.rank)[]' <<<"$out")
	printf '%s: srun %s\n%s\n' "$name" "$*" "$out" >&2
	[[ $(jq -s 'map(.diffs | length) | add' <<<"$out") == 0 ]] ||
		die "$name: governor and the task disagree: $(jq -c 'select(.diffs != []) | {node, diffs}' <<<"$out")"
	[[ $(jq -r .verify <<<"$out" | sort -u) == verified ]] ||
		die "$name: not every task verified: $(jq -c '{node, verify, reason_code}' <<<"$out")"
	printf '%s\n' "$out"
}

# per_node OUT JQ: "NODE VALUE" for each task's line.
per_node() {
	jq -r "\"\\(.node) \\($2)\"" <<<"$1"
}

# boot_ids OUT: how many different boot ids the tasks saw.
boot_ids() {
	jq -r .boot_id <<<"$1" | sort -u | wc -l
}

# node_boot_id K: nodeK's boot id, read by a task there.
node_boot_id() {
	as_user srun -N1 -w "node$1" cat /proc/sys/kernel/random/boot_id
}

# node2 copies the tools once its slurmd is up (and again after a reboot):
# wait until a task there finds them. A look is a step under TCG (seconds,
# more beside other work), so the bound is time, generous, not a count.
wait_tools() {
	local deadline=$((SECONDS + 300))
	until as_user srun -N1 -w node2 test -x "$GOV_TOOL" -a -r "$FACTS" 2>/dev/null; do
		((SECONDS < deadline)) || die "the tools were not on node2 within 300 s (tests/guest/pair_node.sh copies them)"
		sleep 2
	done
}
wait_tools
