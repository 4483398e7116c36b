#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the plugin in the extern step, which hands nothing off); left out of the TCG guest for time
# The extern step (PrologFlags=contain) with the plugin on by default: the
# plugin runs in it (init, init_post_opt) and hands nothing off, since it
# has no tasks; no error, no drained node, and the job's own steps (batch
# and srun) still get verified descriptors while the extern step exists.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# debug2 makes slurmstepd log each SPANK callback and its return code.
restart_cluster --conf-line PrologFlags=contain --debug debug2
grep -x 'PrologFlags=contain' "$SLURM_CONF"
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
export GOV_TOOL
gov_plugstack default=on

home=$(user_home)
rm -f "$home"/gov_extern.{out,go}
# The job's steps report, then the srun step's tasks wait (at most 300 s)
# for the case to look at the running job's steps.
# shellcheck disable=SC2016 # expanded in the job
printf '%s\n' '#!/bin/bash' '
show() { p=$(eval "$GOV_PAYLOAD" 2>/dev/null | grep -E "^(kind|tasks_node)=" | tr "\n" " "); echo "$1 $("$GOV_TOOL" verify --json | jq -r .status) $p"; }
show batch
srun -n2 bash -c "$(declare -f show); show step; t=\$((SECONDS + 300)); until [[ -e gov_extern.go ]] || ((SECONDS >= t)); do sleep 0.2; done"
' >"$home/gov_extern.sh"
id=$(as_user sbatch --parsable -N2 -n2 -o gov_extern.out gov_extern.sh)
echo "job $id"

deadline=$((SECONDS + 120))
until [[ $(grep -c '^step ' "$home/gov_extern.out" 2>/dev/null) == 2 ]]; do
	((SECONDS < deadline)) || { as_user touch gov_extern.go; die "the srun step's tasks did not report: $(cat "$home/gov_extern.out")"; }
	sleep 0.2
done
steps=$(squeue -h -s -j "$id" -o '%i %N')
as_user touch gov_extern.go
printf 'steps while the job runs:\n%s\n' "$steps"
assert_line "$id\\.extern node\\[1-2\\]" "$steps" "the extern step on both nodes"
assert_line "$id\\.batch node1" "$steps" "the batch step"
assert_line "$id\\.0 node\\[1-2\\]" "$steps" "the srun step"
assert_eq COMPLETED "$(wait_job "$id")" "job state"

out=$(cat "$home/gov_extern.out")
printf '%s\n' "$out"
assert_line 'batch verified tasks_node=1 kind=batch ' "$out" "the batch step's descriptor"
assert_eq 2 "$(grep -c '^step verified tasks_node=1 kind=normal ' <<<"$out")" "the srun step's descriptors"

# Each node's slurmstepd for the extern step ran the plugin, which returned
# 0 and logged nothing; no task callback runs there (it has no tasks).
for n in 1 2; do
	ext=$(grep -F "[$id.extern]" "$GOV_CLUSTER_LOGS/slurmd-node$n.log")
	printf 'node%s, the extern step:\n%s\n' "$n" "$(grep -E 'spank|governor' <<<"$ext")"
	assert_match 'spank: governor\.so: init_post_opt = 0' "$ext" "node$n: the plugin in the extern step"
	assert_no_match 'governor:|task_init_privileged' "$ext" "node$n: extern step log"
	assert_no_match 'governor: ' "$(grep -F "[$id." "$GOV_CLUSTER_LOGS/slurmd-node$n.log")" "node$n: the job's steps"
done
assert_idle
assert_no_match 'drain|down' "$(node_states)" "node states"
