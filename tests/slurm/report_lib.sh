# shellcheck shell=bash
# Helpers for the step-report cases (tests/slurm/cases/gov_report*.sh), on
# top of gov_lib.sh: a report directory of root's, the task that measures
# itself (report_task.py), and the records of one job as `governor report
# --json` groups them.
# shellcheck source=gov_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/gov_lib.sh"

# Root's all the way down, as the plugin requires (not under the sticky /tmp).
REPORT_DIR=/var/lib/gov-test-report
REPORT_FILE=$REPORT_DIR/steps.jsonl
REPORT_TASK=$(user_copy "$GOV_SLURM_TESTS/report_task.py")
REPORT_TASKS=$GOV_CLUSTER_DIR/report-tasks.txt
rm -rf "$REPORT_DIR"

# report_plugstack [ARGS...]: the plugin with report=REPORT_DIR, judging
# every step of a second or more.
report_plugstack() {
	gov_plugstack "report=$REPORT_DIR" report_min_s=1 "$@"
}

# report_of JOB: the job's steps, as `governor report --json` shows them.
report_of() {
	"$GOV_BUILD_DIR/tool/governor" report --json --job "$1" "$REPORT_FILE"
}

# job_of FILE: the job id in the first task line of FILE.
job_of() {
	python3 -c 'import json, sys
print(next(json.loads(l)["job"] for l in open(sys.argv[1]) if l.startswith("{")))' "$1"
}

# record_count: the lines in the report file (0 without one).
record_count() {
	if [[ -e $REPORT_FILE ]]; then wc -l <"$REPORT_FILE"; else echo 0; fi
}

# wait_records N: until the file holds N lines (the last task's exit
# writes them, after srun has returned), at most 120 s.
wait_records() {
	local deadline=$((SECONDS + 120))
	while ((SECONDS < deadline)); do
		(($(record_count) >= $1)) && return 0
		sleep 0.2
	done
	die "$(record_count) records, expected $1"
}
