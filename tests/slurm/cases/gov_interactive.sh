#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the interactive step's seal); left out of the TCG guest for time
# The interactive step (LaunchParameters=use_interactive_step): salloc with
# no command starts a shell in a step on the first node. With --governor
# that shell is one task with a verified descriptor of kind interactive,
# holding every CPU of the job on the node; without it (default=off) it
# has no descriptor. salloc needs a terminal: pty_session.py gives it one
# and types the case's commands into the shell once it answers.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

restart_cluster --conf-line LaunchParameters=use_interactive_step
grep -x 'LaunchParameters=use_interactive_step' "$SLURM_CONF"
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
export GOV_TOOL
gov_plugstack default=off

# What the shell runs. Each answer is one line "RES_NAME VALUE"; the
# terminal echoes the commands too, but their text reads "RES%s".
# shellcheck disable=SC2016 # expanded in the interactive shell
commands='printf "RES%s %s\n" _step "$SLURM_STEP_ID"
printf "RES%s %s\n" _desc "${GOVERNOR_DESCRIPTOR:+set}"
printf "RES%s %s\n" _verify "$("$GOV_TOOL" verify --json | jq -cM .status)"
printf "RES%s %s\n" _sched "$("$GOV_TOOL" snapshot --json | jq -cM .scheduler)"
printf "RES%s %s\n" _payload "$(eval "$GOV_PAYLOAD" 2>/dev/null | tr "\n" " ")"
printf "RES%s %s\n" _omp "${OMP_NUM_THREADS:-unset}"
printf "RES%s %s\n" _inner "$(timeout 20 srun -n1 bash -c "eval \"\$GOV_PAYLOAD\" 2>/dev/null | grep ^kind=" </dev/null)"
exit'

# interactive SALLOC_OPTIONS: the RES_ lines of one interactive session.
interactive() {
	local out
	# shellcheck disable=SC2086 # the options are words
	out=$("$GOV_SLURM_TESTS/pty_session.py" --timeout 45 -- "$GOV_SLURM_TESTS/as_user.sh" salloc $1 \
		<<<"$commands" | tr -d '\0') || die "salloc $1 did not end within 45 s:
$out"
	grep -a '^RES_' <<<"$out" || die "no answer from the interactive shell of salloc $1:
$out"
}

res() {
	sed -n "s/^RES_$1 //p" <<<"$2"
}

# SLURM_STEP_ID of the interactive step (0xfffffffa): 26.05 prints it as a
# signed int; the runtime reads both spellings.
step_id=$(by_series 22.05=4294967290 24.11=4294967290 26.05=-6)
on=$(interactive '-N1 -n2 --governor=threads')
printf '%s\n' "$on"
assert_eq "$step_id" "$(res step "$on")" "the shell runs in the interactive step"
assert_eq '"verified"' "$(res verify "$on")" "governor verify"
sched=$(res sched "$on")
assert_eq interactive "$(json_get .step <<<"$sched")" "scheduler.step"
assert_eq descriptor "$(json_get .source <<<"$sched")" "scheduler.source"
assert_eq 1 "$(json_get .tasks_on_node <<<"$sched")" "tasks_on_node"
assert_eq 1 "$(json_get .tasks_total <<<"$sched")" "tasks_total"
assert_eq 1 "$(json_get .nodes <<<"$sched")" "nodes"
assert_eq 2 "$(json_get .cpus_on_node <<<"$sched")" "cpus_on_node"
# The shell holds both of the job's cores, though the job asked -c1.
assert_eq 2 "$(json_get .cpus_per_task <<<"$sched")" "cpus_per_task"
payload=$(res payload "$on" | tr ' ' '\n')
assert_eq interactive "$(field kind "$payload")" "payload kind"
assert_eq "$(field job_cores "$payload")" "$(field step_cores "$payload")" "the step holds the job's cores"
assert_eq 2 "$(res omp "$on")" "OMP_NUM_THREADS with threads"
assert_eq kind=normal "$(res inner "$on")" "an srun from the shell gets its own descriptor"

off=$(interactive '-N1 -n1')
printf '%s\n' "$off"
assert_eq "$step_id" "$(res step "$off")" "without --governor, still the interactive step"
assert_eq '' "$(res desc "$off")" "GOVERNOR_DESCRIPTOR without --governor"
assert_eq '"absent"' "$(res verify "$off")" "governor verify without --governor"
assert_eq unset "$(res omp "$off")" "OMP_NUM_THREADS without --governor"

for n in $(seq 1 "$GOV_CLUSTER_NODES"); do
	assert_no_match 'governor: ' "$(cat "$GOV_CLUSTER_LOGS/slurmd-node$n.log")" "node$n: slurmd log"
done
assert_idle
