#!/usr/bin/env bash
# covers: v1
# v2: task/affinity alone puts no limit in any cgroup, on v1 as on v2 (memory_limit and doctor_cgroup check v2's limits); left out of the TCG guest for time
# `governor doctor` on a cluster with TaskPlugin=task/affinity alone: the
# CPUs are still held by the affinity mask, but no cgroup limits memory, so
# the memory allocation is not enforced: exit 1, and the fix names
# ConstrainRAMSpace=yes.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

restart_cluster --task-plugin task/affinity
grep -x 'TaskPlugin=task/affinity' "$SLURM_CONF"
gov=$(user_copy "$GOV_BUILD_DIR/tool/governor")

rc=0
out=$(as_user salloc -N1 -n1 -c1 --mem=200M srun -n1 -c1 --mem=200M "$gov" doctor --json) || rc=$?
printf '%s\n' "$out"
assert_eq 1 "$rc" "doctor's exit status"
assert_eq 1 "$(json_get .exit <<<"$out")" "exit field"
assert_eq error "$(doctor_finding "$out" memory.not_enforced severity)" "memory not enforced"
assert_eq 209715200 "$(doctor_finding "$out" memory.not_enforced allocation)" "memory allocation"
assert_eq none "$(doctor_finding "$out" memory.not_enforced enforced_by)" "nothing holds memory"
assert_match 'ConstrainRAMSpace=yes' "$(doctor_finding "$out" memory.not_enforced fix)" "memory fix"
assert_eq ok "$(doctor_finding "$out" cpu.enforced severity)" "cpu still enforced"
assert_eq affinity "$(doctor_finding "$out" cpu.enforced enforced_by)" "by affinity alone"

human=$(as_user salloc -N1 -n1 -c1 --mem=200M srun -n1 -c1 --mem=200M "$gov" doctor) || true
printf '%s\n' "$human"
assert_match '^governor doctor: 1 error, ' "$human" "headline"
assert_line 'ERROR +memory +allocation 200.0 MiB, enforced by none' "$human" "the error comes first"
assert_line ' +fix: ConstrainRAMSpace=yes in cgroup.conf, with TaskPlugin=task/cgroup in slurm.conf' "$human" "fix line"

# With the plugin a plain srun knows its memory from the sealed descriptor,
# and the gap shows there too.
if [[ -n $GOV_PLUGIN ]]; then
	rc=0
	out=$(as_user srun -n1 -c1 --mem=200M --governor "$gov" doctor --json) || rc=$?
	printf '%s\n' "$out"
	assert_eq 1 "$rc" "doctor's exit status with --governor"
	assert_eq ok "$(doctor_finding "$out" descriptor.verified severity)" "descriptor verified"
	assert_eq error "$(doctor_finding "$out" memory.not_enforced severity)" "sealed memory, not enforced"
fi
