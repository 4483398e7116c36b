#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (which steps get a record); left out of the TCG guest for time
# The step report for each kind of step (issue 25): a batch job governed
# with sbatch --governor records its batch step and the srun step inside
# it, each against what its task measured of itself; salloc --governor's
# interactive step (LaunchParameters=use_interactive_step) records the
# shell's step as "interactive"; the extern step never has one.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

check=$GOV_SLURM_TESTS/report_check.py

echo "== batch"
restart_cluster --conf-line LaunchParameters=use_interactive_step
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
REPORT_TASK=$(user_copy "$GOV_SLURM_TESTS/report_task.py")
report_plugstack
out=$(user_home)/report-batch.out
rm -f "$out"
job=$(as_user sbatch --parsable --governor -N1 -n1 -c2 --mem=300M -o report-batch.out \
	--wrap "'$REPORT_TASK' 0.3 20; srun -n1 '$REPORT_TASK' 0.3 40")
assert_eq COMPLETED "$(wait_job "$job")" "the batch job"
cat "$out"
wait_records 2
head -n1 "$out" >"$REPORT_TASKS"
report_of "$job" | "$check" "$REPORT_TASKS" batch || die "the batch step's record"
tail -n1 "$out" >"$REPORT_TASKS"
report_of "$job" | "$check" "$REPORT_TASKS" 0 || die "the inner step's record"
assert_eq "0 batch" "$(report_of "$job" | python3 -c 'import json, sys
print(" ".join(s["step"] for s in json.load(sys.stdin)["steps"]))')" "the job's steps: no extern step"
# One line for the job: the batch step's allocation holds the inner step
# (its CPU time counts, its CPUs are not asked twice), and the batch step's
# own underuse is not the job's.
steps=$(report_of "$job")
"$GOV_BUILD_DIR/tool/governor" report --by job --json --job "$job" "$REPORT_FILE" |
	python3 -c 'import json, sys
steps = {s["step"]: s["total"] for s in json.loads(sys.argv[1])["steps"]}
jobs = json.load(sys.stdin)["jobs"]
assert len(jobs) == 1 and jobs[0]["steps"] == 2, jobs
j, b = jobs[0], steps["batch"]
asked = b["elapsed_s"] * b["budget"]["cpus"]
used = sum(s["used"]["cpu_s"] for s in steps.values())
assert abs(j["cpu_asked_s"] - asked) < 0.01, (j, asked)
assert abs(j["cpu_s"] - used) < 0.01, (j, used)
assert abs(j["elapsed_s"] - b["elapsed_s"]) < 0.01, (j, b)
for f in ("cpu_underused", "memory_underused"):
    assert j["findings"].get(f, 0) == (f in steps["0"]["findings"]), (f, j, steps)
print("job line:", j)' "$steps" || die "--by job: the job's one line"

echo "== interactive"
before=$(record_count)
# shellcheck disable=SC2016 # expanded in the interactive shell
"$GOV_SLURM_TESTS/pty_session.py" --timeout 45 -- "$GOV_SLURM_TESTS/as_user.sh" salloc -N1 -n1 --governor \
	<<<'echo "RES_job $SLURM_JOB_ID"; exit' >"$REPORT_TASKS" || die "salloc did not end within 45 s"
job=$(sed -n 's/^RES_job \([0-9]*\)$/\1/p' "$REPORT_TASKS")
[[ -n $job ]] || die "no answer from the interactive shell: $(cat "$REPORT_TASKS")"
wait_records $((before + 1))
assert_eq interactive "$(report_of "$job" | python3 -c 'import json, sys
print(" ".join(s["step"] for s in json.load(sys.stdin)["steps"]))')" "the interactive step's record"
rm -rf "$REPORT_DIR"
assert_idle
