#!/usr/bin/env bash
# covers: v1
# v2: the suggestions read the records, whose v2 figures gov_report holds on the guest; left out of the TCG guest for time
# The report's advice is what an admin would send (issue 49, item 3), for
# jobs run for real with report=DIR: a -c2 job that sleeps (1 CPU and
# 64M would do), a step at about 274 of 300 MiB (ask about 330M), a step
# OOM-killed at 200M that needs 400M (more than 200M), numpy on 2 CPUs
# peaking near 110 MiB of 1G (about 133M), and an sbatch job whose batch
# step waits on one such step (the job's suggestion, not the batch step's
# own underuse).  Each suggestion is held to the record's own figures; none
# equals what was asked; the per-step view, --by job and --by user agree
# (--by user counts a batch step's allocation once, as --by job does).
# From Slurm 24.11 on the records carry the job's time limit: the jobs that
# ran seconds of ten minutes (the test partition's MaxTime) are told
# time_overrequested with a --time.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
home=$(user_home)
gov=$GOV_BUILD_DIR/tool/governor
series=$(slurm_series)
jobid() { sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' <<<"$1"; }

echo "== a -c2 --mem=1G job that sleeps"
sleeper=$(jobid "$(as_user sbatch --governor -N1 -n1 -c2 --mem=1G --time=10 --wait -o /dev/null --wrap 'sleep 3')")
echo "== a step near its 300M"
as_user srun --governor -n1 --mem=300M --time=10 "$REPORT_TASK" 0.2 268 >"$REPORT_TASKS"
near=$(job_of "$REPORT_TASKS")
echo "== a step killed at 200M that needs 400M"
rc=0
as_user srun --governor -n1 --mem=200M --time=10 python3 -c 'b = bytearray(400 << 20)' || rc=$?
((rc != 0)) || die "a step needing 400M ran in 200M"
echo "== numpy on 2 CPUs in 1G"
numpy='import numpy as np, time
a = np.random.rand(2200, 2200)
t = time.time()
while time.time() - t < 4:
    a @ a'
as_user srun --governor=threads -n1 -c2 --mem=1G --time=10 python3 -c "$numpy"
echo "== an sbatch job whose batch step waits on a step near its limit"
out=$(as_user sbatch --governor -N1 -n1 -c1 --mem=300M --time=10 --wait -o /dev/null \
	--wrap "srun --governor $REPORT_TASK 0.2 268 >/dev/null")
waiter=$(jobid "$out")
wait_records 6
"$gov" report "$REPORT_FILE"
"$gov" report --by job "$REPORT_FILE"
"$gov" report --by user "$REPORT_FILE"
"$gov" report --by job --json "$REPORT_FILE" >"$GOV_CLUSTER_DIR/advice.json"
jobs_json=$(cat "$GOV_CLUSTER_DIR/advice.json")
oom=$(jq -r '.jobs[] | select(.oom_kills > 0) | .job' <<<"$jobs_json")
numpy_job=$(jq -r --argjson a "$sleeper" --argjson b "$near" --argjson c "$oom" --argjson d "$waiter" \
	'.jobs[] | .job | select(. != $a and . != $b and . != $c and . != $d)' <<<"$jobs_json")
echo "jobs: sleeper $sleeper, near $near, oom $oom, numpy $numpy_job, waiter $waiter"

# advice JOB: the job's lines under the per-step table, and under --by job:
# the same lines in both views.
advice() {
	local steps byjob
	steps=$("$gov" report "$REPORT_FILE" | sed '1,/^JOB  *FINDING/d' | awk -v j="$1" '$1 == j')
	byjob=$("$gov" report --by job "$REPORT_FILE" | sed '1,/^JOB  *FINDING/d' | awk -v j="$1" '$1 == j')
	[[ $steps == "$byjob" ]] || die "job $1: the per-step view's suggestions
$steps
differ from --by job's
$byjob"
	printf '%s\n' "$steps"
}
suggest() { jq -c --argjson j "$1" '.jobs[] | select(.job == $j) | .suggest' <<<"$jobs_json"; }
mib() { python3 -c 'import math, sys; print(math.ceil(int(sys.argv[1]) * 1.2 / 1048576))' "$1"; }
record() { "$gov" report --json --job "$1" "$REPORT_FILE" | jq -c "$2"; }

# The sleeper: 1 CPU, 64M; never the 2 CPUs or 1G asked.
a=$(advice "$sleeper")
assert_line "$sleeper +cpu_underused +0\.0 of 2 CPUs a node busy: 1 would do" "$a" "the sleeper's CPUs"
assert_line "$sleeper +memory_underused +peak .* of 1\.0 GiB a node: --mem=64M would do" "$a" "the sleeper's memory"
# Near the limit: the working set's --mem with a fifth more, above 300M.
ws=$(record "$near" '.steps[0].nodes[0].used.memory_working_set_bytes')
want=$(mib "$ws")
((want > 300 && want < 400)) || die "a working set of $ws bytes: ask ${want}M?"
assert_line "$near +memory_near_limit +working set .* of 300\.0 MiB a node: ask --mem=${want}M" "$(advice "$near")" \
	"the step near its limit"
assert_eq "$want" "$(suggest "$near" | jq .memory_mib)" "--by job --json: the same --mem"
# Killed at 200M: more than 200M, and twice that to start; never 20 % more.
assert_line "$oom +oom_killed +killed for memory at 200\.0 MiB a node: it needs more than --mem=200M \(twice that: --mem=400M\)" \
	"$(advice "$oom")" "the OOM-killed step"
assert_eq '200 null' "$(suggest "$oom" | jq -r '"\(.memory_more_than_mib) \(.memory_mib)"')" "--by job --json"
# numpy: its 2 CPUs busy, no CPU line; its peak's --mem.
peak=$(record "$numpy_job" '.steps[0].nodes[0].used.memory_peak_bytes')
a=$(advice "$numpy_job")
assert_no_match cpu_underused "$a" "numpy kept its 2 CPUs busy"
assert_line "$numpy_job +memory_underused +peak .* of 1\.0 GiB a node: --mem=$(mib "$peak")M would do" "$a" \
	"numpy's memory"
# The waiting batch step's own underuse is not the job's: one --mem line,
# the step's.
a=$(advice "$waiter")
assert_line "$waiter +memory_near_limit +step 0: working set .* of 300\.0 MiB a node: ask --mem=[0-9]+M" "$a" \
	"the waiting job: its step's memory"
assert_no_match 'underused' "$a" "the waiting job: no underuse from its batch step"

# --by user counts each job as --by job does.
read -r by_job by_user < <(python3 -c 'import json, subprocess, sys
g = sys.argv[1]
j = json.loads(subprocess.run([g, "report", "--by", "job", "--json", sys.argv[2]], capture_output=True, check=True).stdout)
u = json.loads(subprocess.run([g, "report", "--by", "user", "--json", sys.argv[2]], capture_output=True, check=True).stdout)
print(round(sum(x["cpu_asked_s"] for x in j["jobs"]), 3), round(sum(x["cpu_asked_s"] for x in u["users"]), 3))' \
	"$gov" "$REPORT_FILE")
assert_eq "$by_job" "$by_user" "CPU seconds asked: --by user against --by job"

# The time limit (24.11 on): ten minutes asked, seconds used.
if [[ $series == 22.05 ]]; then
	assert_eq null "$(record "$sleeper" '.steps[0].nodes[0].time_limit_s')" "22.05: no time limit in the record"
	assert_no_match time_overrequested "$("$gov" report "$REPORT_FILE")" "22.05: no time finding"
else
	assert_eq 600 "$(record "$sleeper" '.steps[0].nodes[0].time_limit_s')" "the sleeper's time limit"
	assert_eq '["memory_underused","cpu_underused","time_overrequested"]' \
		"$(record "$sleeper" '.steps[0].nodes[0].findings')" "the sleeper's batch step"
	for j in "$sleeper" "$near" "$numpy_job" "$waiter"; do
		assert_line "$j +time_overrequested +ran [0-9.]+ s of its 10 min limit: --time=1 would do" "$(advice "$j")" \
			"job $j: its time"
	done
	# The OOM kill cut its job short: its time says nothing.
	assert_no_match time_overrequested "$(advice "$oom")" "the OOM-killed job's time"
	# Once per job: --by user counts the four jobs.
	assert_match 'time_overrequested:4' "$("$gov" report --by user "$REPORT_FILE")" "--by user's count"
fi
rm -f "$home"/slurm-*.out
# GOV_REPORT_CAPTURE=FILE keeps these records: tests/fixtures/report/jobs.jsonl
# is a 26.05 run's, for the tool tests.
[[ -z ${GOV_REPORT_CAPTURE:-} ]] || cp "$REPORT_FILE" "$GOV_REPORT_CAPTURE"
assert_idle
