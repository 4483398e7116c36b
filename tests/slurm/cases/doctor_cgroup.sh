#!/usr/bin/env bash
# covers: v1 v2
# `governor doctor` inside a real step under task/cgroup (ConstrainCores,
# ConstrainRAMSpace) and task/affinity: both allocations are enforced, the
# exit status is 0, and nothing identifying is printed.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

gov=$(user_copy "$GOV_BUILD_DIR/tool/governor")

# Inside an allocation the step inherits SLURM_MEM_PER_NODE, so the memory
# allocation is known even without the plugin's descriptor.
rc=0
out=$(as_user salloc -N1 -n1 -c1 --mem=200M srun -n1 -c1 --mem=200M "$gov" doctor --json) || rc=$?
printf '%s\n' "$out"
assert_eq 0 "$rc" "doctor's exit status"
assert_eq governor.doctor/1 "$(json_get .schema <<<"$out")" "schema"
assert_eq 0 "$(json_get .exit <<<"$out")" "exit field"
assert_eq ok "$(doctor_finding "$out" memory.enforced severity)" "memory enforced"
assert_eq 209715200 "$(doctor_finding "$out" memory.enforced allocation)" "memory allocation"
assert_eq cgroup "$(doctor_finding "$out" memory.enforced enforced_by)" "memory held by"
assert_eq ok "$(doctor_finding "$out" cpu.enforced severity)" "cpu enforced"
assert_eq 1 "$(doctor_finding "$out" cpu.enforced allocation)" "cpu allocation"
assert_eq affinity,cpuset "$(doctor_finding "$out" cpu.enforced enforced_by)" "cpu held by"
# Without --governor the facts are the variables', and doctor says so.
assert_eq warn "$(doctor_finding "$out" scheduler.unverified severity)" "variables only"
assert_no_match '"severity":"error"' "$out" "no error"
assert_no_match "slurm_node|uid_|job_[0-9]|/tmp/|govtest" "$out" "nothing identifying"

# The human form: a headline, then one line per finding.
human=$(as_user salloc -N1 -n1 -c1 --mem=200M srun -n1 -c1 --mem=200M "$gov" doctor)
printf '%s\n' "$human"
assert_match '^governor doctor: 0 errors, ' "$human" "headline"
assert_line 'ok +memory +allocation 200.0 MiB, enforced by cgroup' "$human" "memory line"
assert_line 'ok +cpu +allocation 1 CPU, enforced by affinity,cpuset' "$human" "cpu line"

# With the plugin, a plain srun is enough: the sealed descriptor carries
# the step's memory, and the facts are verified.
if [[ -n $GOV_PLUGIN ]]; then
	rc=0
	out=$(as_user srun -n1 -c1 --mem=200M --governor "$gov" doctor --json) || rc=$?
	printf '%s\n' "$out"
	assert_eq 0 "$rc" "doctor's exit status with --governor"
	assert_eq ok "$(doctor_finding "$out" descriptor.verified severity)" "descriptor verified"
	assert_eq absent "$(doctor_finding "$out" scheduler.unverified severity)" "no variables warning"
	assert_eq 209715200 "$(doctor_finding "$out" memory.enforced allocation)" "sealed memory"
	assert_eq ok "$(doctor_finding "$out" cpu.enforced severity)" "cpu enforced"

	# Two tasks of one step: each task's cpuset is the step's (every series
	# and mode, see cpuset), so only its affinity holds it to its one CPU,
	# and the doctor says that the task could widen it.
	# The whole output first: a pipe into head would close early and kill
	# srun with SIGPIPE when the second task's line comes late.
	out=$(as_user srun -N1 -n2 -c1 --mem=200M --governor "$gov" doctor --json)
	out=${out%%$'\n'*}
	printf '%s\n' "$out"
	assert_eq affinity "$(doctor_finding "$out" cpu.enforced enforced_by)" "cpu held by, two tasks"
	assert_eq info "$(doctor_finding "$out" cpu.affinity_only severity)" "affinity-only finding"
fi
