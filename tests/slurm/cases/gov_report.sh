#!/usr/bin/env bash
# covers: v1 v2
# The step report (issue 25): with report=DIR, each governed step writes one
# record per node when its last task there exits, and every figure holds
# against what the tasks measured of themselves, every finding against the
# rules applied to the record's own figures (report_check.py): a busy step
# on two nodes with two tasks each and --governor=runtimes (what the tasks
# were told), an idle one (cpu_underused, and memory_underused: it asked
# for 200 MiB and used a few), one near its memory limit, one whose peak
# was page cache (a file written and read back: its working set is small,
# not near the limit), an OOM-killed one; a step without --governor writes
# none.  Whether the busy
# step looks underused depends on how loaded the machine is (its four tasks
# share this machine's CPUs with whatever runs beside the suite), so it is
# held to the rule, not to a finding.  The file is root's, 0600; `governor
# report` shows, filters and exports them.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

report_plugstack
mark=$(log_mark)
check=$GOV_SLURM_TESTS/report_check.py

echo "== busy, two nodes, two tasks each, runtimes"
as_user srun --governor=runtimes -N2 --ntasks-per-node=2 -c1 --mem=400M "$REPORT_TASK" 1.0 60 0.3 >"$REPORT_TASKS"
cat "$REPORT_TASKS"
wait_records 2
busy=$(job_of "$REPORT_TASKS")
report_of "$busy" | "$check" "$REPORT_TASKS" 0 --nodes 2 --told --no-finding memory_near_limit ||
	die "the busy step's records"
[[ $(stat -c '%U %a' "$REPORT_FILE") == "root 600" ]] || die "the report file is $(stat -c '%U %a' "$REPORT_FILE"), not root's 0600"

echo "== idle"
as_user srun --governor -n1 -c2 --mem=200M "$REPORT_TASK" 0 0 2.0 >"$REPORT_TASKS"
wait_records 3
report_of "$(job_of "$REPORT_TASKS")" | "$check" "$REPORT_TASKS" 0 --finding cpu_underused \
	--finding memory_underused --no-finding memory_near_limit || die "the idle step's record"

echo "== near its memory limit"
as_user srun --governor -n1 --mem=200M "$REPORT_TASK" 0.2 182 >"$REPORT_TASKS"
wait_records 4
report_of "$(job_of "$REPORT_TASKS")" | "$check" "$REPORT_TASKS" 0 --finding memory_near_limit ||
	die "the step near its memory limit"

echo "== a peak of page cache: 160 MiB written and read back under --mem=200M"
files=$(as_user mktemp -d /var/tmp/gov-report.XXXXXX)
as_user srun --governor -n1 --mem=200M "$REPORT_TASK" 0 0 0 160 "$files" >"$REPORT_TASKS"
wait_records 5
rec=$(report_of "$(job_of "$REPORT_TASKS")")
rm -rf "$files"
"$check" "$REPORT_TASKS" 0 --no-finding memory_near_limit --no-finding memory_underused <<<"$rec" ||
	die "the page-cache step's record"
# shellcheck disable=SC2016 # a Python expression
read -r peak cache wset < <(python3 -c 'import json, sys
u = json.load(sys.stdin)["steps"][0]["nodes"][0]["used"]
print(u["memory_peak_bytes"], u["memory_cache_bytes"], u["memory_working_set_bytes"])' <<<"$rec")
echo "peak $peak, page cache at the end $cache, working set $wset"
((peak >= 150 << 20)) || die "a peak of $peak bytes: the file's pages were not charged to the step"
((cache >= 64 << 20 && wset < 100 << 20)) ||
	die "page cache $cache and working set $wset: the file's cache is not told apart"

echo "== OOM-killed"
rc=0
# shellcheck disable=SC2016 # expanded in the task
as_user srun --governor -n1 --mem=100M bash -c 'echo "{\"job\": \"$SLURM_JOB_ID\", \"node\": \"-\"}"; exec "$0" 0 300' \
	"$REPORT_TASK" >"$REPORT_TASKS" 2>/dev/null || rc=$?
((rc != 0)) || die "the task writing 300 MiB with --mem=100M was not stopped"
wait_records 6
oom=$(job_of "$REPORT_TASKS")
report_of "$oom" | "$check" "$REPORT_TASKS" 0 --oom --finding oom_killed || die "the OOM-killed step"

echo "== without --governor"
# A record is written by slurmstepd after srun returns; once each job is
# COMPLETED, slurmd has seen its steps end, so none can come later.
for mode in "" "--governor=off"; do
	# shellcheck disable=SC2086 # no word or an option
	id=$(as_user srun $mode -n1 printenv SLURM_JOB_ID)
	assert_eq COMPLETED "$(wait_job "$id")" "the job of 'srun $mode'"
done
assert_eq 6 "$(record_count)" "records after two steps without the governor"

echo "== governor report"
out=$("$GOV_BUILD_DIR/tool/governor" report "$REPORT_FILE")
printf '%s\n' "$out"
table=$(sed '/^$/,$d' <<<"$out")
grep -qE "^$busy +0 +${GOV_TEST_USER:-govtest} +\(total\) " <<<"$table" || die "no total row for the two-node step, by user name"
assert_eq 8 "$(wc -l <<<"$table")" "header, 2 nodes and a total, 4 one-node steps"
grep -qE "^$oom +oom_killed +killed for memory at 100.0 MiB a node: it needs more than --mem=100M" <<<"$out" ||
	die "no suggestion for the OOM-killed step"
# Given no file, the report reads the directory plugstack.conf names.
assert_eq "$out" "$("$GOV_BUILD_DIR/tool/governor" report)" "governor report with no file"
only=$("$GOV_BUILD_DIR/tool/governor" report --json --finding oom_killed "$REPORT_FILE")
assert_eq "$oom" "$(python3 -c 'import json, sys; print(" ".join(str(s["job"]) for s in json.load(sys.stdin)["steps"]))' <<<"$only")" \
	"--finding oom_killed selects the OOM-killed job only"
none=$("$GOV_BUILD_DIR/tool/governor" report --json --user root "$REPORT_FILE")
assert_eq '[]' "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["steps"])' <<<"$none")" "--user root: no step"
prom=$("$GOV_BUILD_DIR/tool/governor" report --prometheus --job "$busy" "$REPORT_FILE")
grep -qE "^governor_step_cpu_seconds\{slurm_job=\"$busy\",step=\"0\",node=\"node2\",uid=\"[0-9]+\",job=\"$busy\"\} [0-9.]+$" <<<"$prom" ||
	die "no Prometheus sample of the busy step's CPU time on node2"
if command -v promtool >/dev/null; then
	promtool check metrics <<<"$prom" || die "promtool check metrics"
fi
assert_no_match 'governor: ' "$(log_since "$mark")" "slurmd's logs"
rm -rf "$REPORT_DIR"
assert_no_drain
