# shellcheck shell=bash
# The cluster's nodes as Slurm reports them, for cluster.sh (waiting for a
# fresh cluster), run.sh (between cases) and the cases (lib.sh): the one
# definition of "every node idle".  Slurm's commands read SLURM_CONF.

# node_states: one 'NODE STATE' line per node (idle, mix, alloc, drain, down...).
node_states() {
	sinfo -h -N -o '%N %t'
}

# all_idle: true when every node of the cluster is idle. 'plnd' is idle too
# while no job is pending: the backfill scheduler planned the node for a job
# that has since run, and the flag stays until its next pass (bf_interval,
# 30 s), longer than a case waits.
all_idle() {
	local states pending
	states=$(node_states) || return 1
	[[ -n $states ]] || return 1
	grep -qv ' \(idle\|plnd\)$' <<<"$states" && return 1
	grep -q ' plnd$' <<<"$states" || return 0
	pending=$(squeue -h -t pending -o %i 2>/dev/null) || return 1
	[[ -z $pending ]]
}
