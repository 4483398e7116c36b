#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (what slurmstepd makes of a failed init); left out of the TCG guest for time
# Fault: governor.so loads on the compute nodes but cannot start there: its
# plugstack line does not parse (a node's stale plugstack.conf).  The submit
# side keeps a good line (a private SLURM_CONF), so srun and sbatch let the
# job through and only slurmstepd meets the fault.  on_init_error= says what
# becomes of the step (docs/admin-guide.md, "When governor.so cannot start"):
#   run (default)  logged, the step runs ungoverned, nothing drains;
#   drain_node     init fails under Slurm's default: the node drains;
#   fail_job       init fails with slurm_spank_init_failure_mode =
#                  ESPANK_JOB_FAILURE (25.05+): the job fails, the node
#                  stays in service; before 25.05 srun and sbatch refuse
#                  the word, and a slurmstepd that meets it runs the step.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

home=$(user_home)
sed "s|^PlugStackConfig=.*|PlugStackConfig=$home/gov_good.plugstack|" "$SLURM_CONF" >"$home/gov_good.conf"
printf 'required %s default=on\n' "$GOV_PLUGIN" >"$home/gov_good.plugstack"
chmod 644 "$home/gov_good.conf" "$home/gov_good.plugstack"
submit() {
	as_user env SLURM_CONF="$home/gov_good.conf" "$@"
}
# The nodes' line: a bad value of seal=, and the policy word under test.
broken() {
	set_plugstack "required $GOV_PLUGIN default=on seal=sometimes $*"
}
governed='if [ -n "$GOVERNOR_DESCRIPTOR" ]; then echo governed; else echo ungoverned; fi'
# batch_job: a batch job on node1 whose script prints whether its step (the
# batch step) was governed; prints the job id.  No srun inside: one there
# reads the node's plugstack.conf, which is the broken one.
batch_job() {
	rm -f "$home/gov_init.out"
	submit sbatch --parsable -w node1 -o "$home/gov_init.out" --wrap "$governed"
}
# drain_reason: node1's drain reason once it has one (up to 30 s), or "".
drain_reason() {
	local reason='' i
	for ((i = 0; i < 150; i++)); do
		reason=$(sinfo -R -h -n node1 -o %E)
		[[ -n $reason ]] && break
		sleep 0.2
	done
	printf '%s\n' "$reason"
}

# run, the default: the step runs without the governor, and says why.
broken
mark=$(log_mark)
out=$(submit srun -n1 -w node1 sh -c "$governed")
assert_eq ungoverned "$out" "a step under a broken line (on_init_error unset)"
id=$(batch_job)
assert_eq COMPLETED "$(wait_job "$id")" "a batch job under a broken line"
assert_eq ungoverned "$(cat "$home/gov_init.out")" "its step"
log=$(log_since "$mark")
assert_match "governor: plugstack.conf key 'seal' needs required or optional" "$log" "slurmd's log"
assert_match 'governor: the step runs ungoverned \(on_init_error=run\)' "$log" "slurmd's log"
assert_no_drain

# drain_node: Slurm's default for a failing required plugin.
broken on_init_error=drain_node
id=$(batch_job)
reason=$(drain_reason)
printf 'on_init_error=drain_node: job %s; node1: %s\n' "$(job_state "$id")" "${reason:-not drained}"
[[ -n $reason ]] || die "node1 did not drain under on_init_error=drain_node"
scancel "$id" 2>/dev/null || true
scontrol update nodename=node1 state=resume
assert_idle

# fail_job.
if [[ $(by_series 22.05=old 24.11=old 26.05=new) == old ]]; then
	# No slurm_spank_init_failure_mode: srun refuses the word in a line
	# that is otherwise good...
	set_plugstack "required $GOV_PLUGIN default=on on_init_error=fail_job"
	rc=0
	out=$(as_user srun -n1 -w node1 true 2>&1) || rc=$?
	printf '%s\n' "$out"
	((rc != 0)) || die "srun accepted on_init_error=fail_job without slurm_spank_init_failure_mode"
	assert_match "on_init_error' is fail_job, which needs Slurm 25.05 or later" "$out" "srun's message"
	# ...and a slurmstepd that meets it runs the step rather than drain.
	broken on_init_error=fail_job
	mark=$(log_mark)
	out=$(submit srun -n1 -w node1 sh -c "$governed")
	assert_eq ungoverned "$out" "a step under fail_job without the failure mode"
	assert_match 'on_init_error=fail_job needs Slurm 25.05 or later; the step runs ungoverned' \
		"$(log_since "$mark")" "slurmd's log"
else
	broken on_init_error=fail_job
	rc=0
	out=$(submit srun -n1 -w node1 sh -c "$governed" 2>&1) || rc=$?
	printf 'a step under fail_job: status %s: %s\n' "$rc" "$out"
	((rc != 0)) || die "a step under on_init_error=fail_job ran"
	assert_no_match governed "$out" "the step's output"
	id=$(batch_job)
	state=$(wait_job "$id")
	printf 'on_init_error=fail_job: batch job %s; node1: %s\n' "$state" \
		"$(sinfo -h -n node1 -o %t)"
	assert_eq FAILED "$state" "a batch job under on_init_error=fail_job"
	assert_eq 0 "$(scontrol show job "$id" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')" \
		"its restarts (not requeued)"
fi
assert_no_drain

gov_plugstack
assert_next_step_works
