# shellcheck shell=bash
# The cluster's nodes as Slurm reports them, for cluster.sh (waiting for a
# fresh cluster), run.sh (between cases) and the cases (lib.sh): the one
# definition of "every node idle", and of one node's wait (wait_node).  Slurm's commands read SLURM_CONF.

# node_states: one 'NODE STATE' line per node (idle, mix, alloc, drain, down...).
node_states() {
	sinfo -h -N -o '%N %t'
}

# node_is NODE STATE: NODE's state is STATE: 'idle' (plnd too, as all_idle
# has it), 'up' (idle, plnd, mix or alloc: its slurmd answers), or a state
# word of sinfo's %t.
node_is() {
	local got
	got=$(sinfo -h -n "$1" -o %t 2>/dev/null) || return 1
	case $2 in
	idle) [[ $got == idle || $got == plnd ]] ;;
	up) [[ $got =~ ^(idle|plnd|mix|alloc)$ ]] ;;
	*) [[ $got == "$2" ]] ;;
	esac
}

# wait_node NODE STATE [SECONDS]: wait until node_is NODE STATE; after
# SECONDS (default 120) say what NODE is on stderr and return 1.
wait_node() {
	local deadline=$((SECONDS + ${3:-120}))
	until node_is "$1" "$2"; do
		if ((SECONDS >= deadline)); then
			printf '%s is %s, not %s, after %s s\n' "$1" "$(sinfo -h -n "$1" -o %t 2>/dev/null)" \
				"$2" "${3:-120}" >&2
			return 1
		fi
		sleep 0.2
	done
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
