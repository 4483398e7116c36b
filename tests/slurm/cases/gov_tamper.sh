#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (tampered descriptors); left out of the TCG guest for time
# What a user can do to a descriptor never makes it verify: a flipped
# character, a credential they seal themselves with `munge`, a descriptor
# from another step (even with the SLURM_* ids set to match it).  SLURM_*
# variables changed inside the task do not change the sealed values.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
home=$(user_home)
rm -f "$home/gov_tamper.cred" "$home/gov_tamper.ids"

# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -n1 bash -c '
	d=$GOVERNOR_DESCRIPTOR
	verify() { GOVERNOR_DESCRIPTOR=$1 "$GOV_TOOL" verify --json | jq -r "[.status, .reason_code] | join(\" \")"; }
	i=$((${#d} / 2)); c=${d:i:1}; [[ $c == A ]] && n=B || n=A
	echo "flipped $(verify "${d:0:i}$n${d:i+1}")"
	echo "own_munge $(verify "$(eval "$GOV_PAYLOAD" | munge)")"
	echo "genuine $(verify "$d")"
	echo "$d" >gov_tamper.cred
	echo "$SLURM_JOB_ID $SLURM_STEP_ID $SLURM_NODEID" >gov_tamper.ids
	echo "forged_cpus $(SLURM_CPUS_PER_TASK=64 SLURM_MEM_PER_NODE=999999 verify "$d")"
	echo "claims_other_job $(SLURM_JOB_ID=$((SLURM_JOB_ID + 1)) verify "$d")"
')
printf '%s\n' "$out"
assert_line 'flipped invalid ESEAL' "$out" "a flipped character"
assert_line 'own_munge invalid EUNTRUSTED' "$out" "a credential the user sealed"
assert_line 'genuine verified ' "$out" "the genuine descriptor"
assert_line 'forged_cpus verified ' "$out" "SLURM_* changes leave the seal intact"
assert_line 'claims_other_job invalid EBINDING' "$out" "another job's claim"

read -r job step node <"$home/gov_tamper.ids"
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor -n1 bash -c '
	verify() { GOVERNOR_DESCRIPTOR=$(cat gov_tamper.cred) "$GOV_TOOL" verify --json | jq -r "[.status, .reason_code] | join(\" \")"; }
	echo "other_step $(verify)"
	echo "other_step_forged_ids $(SLURM_JOB_ID='"$job"' SLURM_STEP_ID='"$step"' SLURM_NODEID='"$node"' verify)"
')
printf '%s\n' "$out"
assert_line 'other_step invalid EBINDING' "$out" "a descriptor from another step"
assert_line 'other_step_forged_ids invalid EBINDING' "$out" "another step's descriptor with matching ids"
# Outside any task (on the submit side) it does not verify either.
rc=0
as_user env GOVERNOR_DESCRIPTOR="$(cat "$home/gov_tamper.cred")" SLURM_JOB_ID="$job" \
	SLURM_STEP_ID="$step" SLURM_NODEID="$node" "$GOV_TOOL" verify >/dev/null || rc=$?
assert_eq 1 "$rc" "verify exit status outside the task"

# Sealed facts outrank the variables: the snapshot ignores forged ones.
# shellcheck disable=SC2016 # expanded in the task
json=$(as_user srun --governor -n1 -c1 --mem=100M bash -c \
	'SLURM_CPUS_PER_TASK=64 SLURM_MEM_PER_NODE=999999 SLURM_TASKS_PER_NODE=9 "$GOV_TOOL" snapshot --json')
assert_eq descriptor "$(jq -r .scheduler.source <<<"$json")" "scheduler source"
assert_eq 1 "$(jq -r .cpu.scheduler.cpus <<<"$json")" "sealed cpus"
assert_eq 1 "$(jq -r .scheduler.tasks_on_node <<<"$json")" "sealed tasks on node"
assert_eq $((100 << 20)) "$(jq -r .memory.scheduler.limit_bytes <<<"$json")" "sealed memory"
