#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (Slurm's plugin loading); left out of the TCG guest for time
# Fault: the plugin's .so is missing on the compute nodes (a package not yet
# installed there, a wrong path).  Under `required` Slurm cannot start the
# plugin stack in slurmstepd: the batch job fails and the node is drained,
# which is why rollout.md starts with `optional`.  Under `optional` the
# same steps and jobs run (ungoverned), no node drains, and the log says
# what happened (26.05: only at verbose level).  The submit side keeps a plugstack without the plugin
# (a private SLURM_CONF), as a login node would have it installed or not.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

home=$(user_home)
missing=$GOV_CLUSTER_DIR/lib/gov-missing/governor.so
sed "s|^PlugStackConfig=.*|PlugStackConfig=$home/gov_missing.plugstack|" "$SLURM_CONF" >"$home/gov_missing.conf"
: >"$home/gov_missing.plugstack"
chmod 644 "$home/gov_missing.conf" "$home/gov_missing.plugstack"
submit() {
	as_user env SLURM_CONF="$home/gov_missing.conf" "$@"
}

# required: the batch step cannot load its plugin stack and drains the node.
set_plugstack "required $missing"
mark=$(log_mark)
id=$(submit sbatch --parsable -w node1 -o /dev/null --wrap true)
# The job's own state says little (22.05 calls it COMPLETED, 24.11 and
# 26.05 requeue it, PENDING): the drain reason tells.  26.05's
# slurm_spank_init_failure_mode cannot change this: a plugin that does not
# load declares nothing.
for ((i = 0; i < 150; i++)); do
	reason=$(sinfo -R -h -n node1)
	[[ -n $reason ]] && break
	sleep 0.2
done
printf 'required, .so missing: job %s; node1: %s\n' "$(job_state "$id")" "${reason:-not drained}"
[[ -n $reason ]] || die "node1 did not drain: rollout.md's warning would be wrong"
assert_match 'Failed to load plugin|spank' "$(log_since "$mark")" "slurmd's log"
scancel "$id" 2>/dev/null || true
scontrol update nodename=node1 state=resume
assert_idle

# optional: everything runs, nothing drains.
set_plugstack "optional $missing"
mark=$(log_mark)
assert_eq ok "$(submit srun -n1 -w node1 echo ok)" "a step"
id=$(submit sbatch --parsable -w node1 -o /dev/null --wrap true)
assert_eq COMPLETED "$(wait_job "$id")" "a batch job under optional"
log=$(log_since "$mark")
printf '%s\n' "$log" | grep -i 'spank\|plugin' || true
# 22.05 and 24.11 log the missing optional plugin as an error; 26.05 only
# at verbose level, so at the default (info) its logs say nothing.
if [[ $(by_series 22.05=error 24.11=error 26.05=verbose) == error ]]; then
	assert_match 'governor.so' "$log" "slurmd's log names the plugin it could not load"
else
	assert_no_match 'governor.so' "$log" "slurmd's log at info level"
	assert_no_drain
	restart_cluster --debug verbose
	GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
	set_plugstack "optional $missing"
	mark=$(log_mark)
	assert_eq ok "$(submit srun -n1 -w node1 echo ok)" "a step, slurmd at verbose level"
	log=$(log_since "$mark")
	printf '%s\n' "$log" | grep -i 'spank' || true
	assert_match "spank: $missing: " "$log" "slurmd's log at verbose level names the plugin it could not load"
fi
assert_no_drain
gov_plugstack
assert_next_step_works
