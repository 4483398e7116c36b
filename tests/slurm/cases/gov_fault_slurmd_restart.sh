#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (descriptors across a slurmd restart); left out of the TCG guest for time
# Fault: slurmd restarts between steps (an upgrade, a crash and restart).
# A task that was running keeps its descriptor and still verifies after the
# restart (slurmstepd outlives slurmd); the restarted slurmd caches the
# node's topology again (here after its table was removed) and logs it; no
# node drains; the next governed step verifies.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
home=$(user_home)
rm -f "$home/gov_restart.out" "$home/gov_restart.go"
# The task verifies, then waits for the case to say that slurmd has
# restarted (gov_restart.go), and verifies again.
# shellcheck disable=SC2016 # expanded in the task
as_user srun --governor -n1 -w node1 -o gov_restart.out bash -c '
	echo "before $("$GOV_TOOL" verify --json | jq -r .status)"
	deadline=$((SECONDS + 200))
	until [ -e gov_restart.go ] || [ $SECONDS -ge $deadline ]; do sleep 0.1; done
	echo "after $("$GOV_TOOL" verify --json | jq -r .status)"' &
srun_pid=$!
deadline=$((SECONDS + 120))
until grep -q '^before' "$home/gov_restart.out" 2>/dev/null; do
	((SECONDS < deadline)) || die "the task did not start: $(cat "$home/gov_restart.out" 2>&1)"
	sleep 0.1
done

# The running slurmd has its table already; the restarted one must make it.
rm -f /run/slurm-governor/topology-*.v2
mark=$(log_mark)
"$GOV_SLURM_TESTS/cluster.sh" restart-slurmd --dir "$GOV_CLUSTER_DIR" --node 1 ||
	die "slurmd of node1 did not restart"
wait_node node1 up || die "node1 did not come back after its slurmd restarted"
as_user touch "$home/gov_restart.go"
wait "$srun_pid" || die "the step that spanned the restart failed"
rm -f "$home/gov_restart.go"
out=$(cat "$home/gov_restart.out")
printf '%s\n' "$out"
assert_line 'before verified' "$out" "the task before the restart"
assert_line 'after verified' "$out" "the same task after slurmd restarted"
assert_match 'governor: node topology discovered and cached for this boot' "$(log_since "$mark")" \
	"the restarted slurmd's log"
[[ -n $(find /run/slurm-governor -maxdepth 1 -name 'topology-*.v2') ]] ||
	die "the restarted slurmd wrote no table"

assert_no_drain
out=$(as_user srun --governor -n1 -w node1 "$GOV_TOOL" verify --json | jq -r .status)
assert_eq verified "$out" "a step on the restarted node"
assert_next_step_works
