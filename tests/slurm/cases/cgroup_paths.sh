#!/usr/bin/env bash
# covers: v2
# v1: the job directory's name (SLUID or job id) and CgroupSlice are cgroup/v2's
# Slurm 26.05 names a job's cgroup/v2 directory after its SLUID
# (.../nodeK_slurmstepd.scope/sEKNKTV3WPV500/step_0/user/task_0), or after
# its job id with CgroupJobIdPaths=yes (the layout of every series
# before), and CgroupSlice moves slurmd and the steps' scope out of
# system.slice.  Nothing in the project builds a cgroup path from a job id
# or a slice: the snapshot, the doctor and the step report find the step's
# cgroups from the process's own /proc/PID/cgroup.  In each layout this
# series has: the task's path, the step's limits as the snapshot and the
# doctor read them, and the step report's record of the step's use.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
records=0

# layout LABEL PATTERN: one governed step in the running cluster; its
# task's cgroup path matches PATTERN (an extended regular expression).
layout() {
	local out path got
	# shellcheck disable=SC2016 # expanded in the task
	out=$(as_user srun --governor -n1 -c1 --mem=300M bash -c 'sed -n "s/^0:://p" /proc/self/cgroup
		"$GOV_TOOL" snapshot --json | jq -r "[.descriptor.status, .memory.cgroup.limit_bytes, .memory.effective.limit_bytes, .cpu.cgroup.cpuset_count] | @tsv"
		"$GOV_TOOL" doctor --json | jq -c .
		python3 "$0" 0.2 20' "$REPORT_TASK")
	printf -- '--- %s:\n%s\n' "$1" "$out"
	path=$(sed -n 1p <<<"$out")
	[[ $path =~ $2 ]] || die "$1: the task's cgroup is $path, expected $2"
	got=$(sed -n 2p <<<"$out")
	assert_eq "$(printf 'verified\t%d\t%d\t1' $((300 << 20)) $((300 << 20)))" "$got" \
		"$1: descriptor, the step's memory.max, the effective limit, the cpuset"
	got=$(sed -n 3p <<<"$out")
	assert_eq "ok cgroup $((300 << 20))" "$(doctor_finding "$got" memory.enforced severity) $(doctor_finding "$got" memory.enforced enforced_by) $(doctor_finding "$got" memory.enforced allocation)" \
		"$1: the doctor finds the step's memory limit enforced by its cgroup"
	sed -n '4,$p' <<<"$out" >"$REPORT_TASKS"
	records=$((records + 1))
	wait_records "$records"
	report_of "$(job_of "$REPORT_TASKS")" | jq -e --argjson m $((300 << 20)) \
		'.steps[0].nodes[0] | .budget.memory_bytes == $m and .used.memory_limit_bytes == $m and
		 .used.memory_peak_bytes > 0 and (.findings | index("memory_lowered") == null)' >/dev/null ||
		die "$1: the step report has no record of the step's limit and use"
	assert_idle
}

# relayout CLUSTER_ARG...: the cluster again with one more cgroup.conf
# line; its restart empties the test user's bin/, so the tool and the task
# are copied again, and numbers jobs from 1 again, so the report starts
# afresh.
relayout() {
	restart_cluster "$@"
	rm -f "$REPORT_FILE"
	records=0
	GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
	REPORT_TASK=$(user_copy "$GOV_SLURM_TESTS/report_task.py")
	report_plugstack
}

scope='^/system\.slice/node1_slurmstepd\.scope'
case $(by_series 22.05=jobid 24.11=jobid 26.05=sluid) in
jobid)
	layout "job id paths" "$scope/$(v2_job_dir)/step_0/user/task_0\$"
	echo "Slurm $(slurm_series) has neither SLUID paths nor CgroupJobIdPaths and CgroupSlice (26.05 has)"
	;;
sluid)
	layout "SLUID paths (the default)" "$scope/$(v2_job_dir)/step_0/user/task_0\$"
	relayout --cgroup-line CgroupJobIdPaths=yes
	layout "CgroupJobIdPaths=yes" "$scope/job_[0-9]+/step_0/user/task_0\$"
	relayout --cgroup-line CgroupSlice=gov.slice
	layout "CgroupSlice=gov.slice" "^/gov\\.slice/node1_slurmstepd\\.scope/$(v2_job_dir)/step_0/user/task_0\$"
	;;
esac
