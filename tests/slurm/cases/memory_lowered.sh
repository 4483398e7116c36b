#!/usr/bin/env bash
# covers: v2
# v1: Slurm lowers a running job's memory.max on cgroup/v2 (26.05's memory resizing); the v1 guest series have no such update
# Slurm 26.05 lowers the memory of a running job (scontrol update job
# MinMemoryNode=, with SlurmctldParameters=enable_stepmgr,
# jobacct_gather/cgroup and PrologFlags=contain): the job's and the step's
# memory.max shrink under the running tasks, and nothing tells them.  In a
# governed step the snapshot keeps the sealed allocation and follows the
# kernel: its effective limit becomes the new one and
# .memory.cgroup.against_allocation says "below"; governor watch's budget
# follows at one of its next lines; the doctor warns (memory.lowered), and
# the step report records the limit at the step's end and the finding
# memory_lowered.  What the runtimes were told at start (GOMEMLIMIT) stays:
# that is the warning's point.  A Go program that follows the cgroup's
# limit itself (debug.SetMemoryLimit, tests/runtimes/probes/churn.go
# -follow) finishes under the lower limit; the same program without it is
# OOM-killed.  Then sbatch --mem-update lowers a job's memory by itself,
# and the governed step inside sees it the same way.  22.05 and 24.11
# cannot lower a running job's memory.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

if [[ $(by_series 22.05=no 24.11=no 26.05=yes) == no ]]; then
	echo "Slurm $(slurm_series) does not lower a running job's memory (26.05 does)"
	exit 0
fi
restart_cluster --conf-line SlurmctldParameters=enable_stepmgr \
	--conf-line JobAcctGatherType=jobacct_gather/cgroup --conf-line PrologFlags=contain
GOV_TOOL=$(user_copy "$GOV_BUILD_DIR/tool/governor")
[[ -x ${GOV_PROBES:-}/churn ]] ||
	die "no Go probe: give tests/guest/run.sh --outcomes DIR (tests/runtimes/build.sh DIR builds it)"
GOV_CHURN=$(user_copy "$GOV_PROBES/churn")
export GOV_CHURN
report_plugstack
dir=$(as_user mktemp -d /var/tmp/gov-lowered.XXXXXX)

# The task: its budget, then governor watch every 250 ms until the case
# has lowered the job's memory (the file "lowered") and watch has shown the
# new limit (bounded at 60 s, not a fixed wait: a loaded machine is slow),
# then its budget and the doctor again.
cat >"$dir/task.sh" <<'EOF'
d=$1
budget() {
	"$GOV_TOOL" snapshot --json | jq -r '[.memory.scheduler.limit_bytes, .memory.cgroup.limit_bytes,
		.memory.effective.limit_bytes, .memory.cgroup.against_allocation] | @tsv'
}
echo "$GOMEMLIMIT" >"$d/gomemlimit"
echo "$EPOCHREALTIME" >"$d/watch_start"
"$GOV_TOOL" watch --json --interval 250 --count 480 >"$d/watch" &
w=$!
budget >"$d/before.tmp" && mv "$d/before.tmp" "$d/before"
for ((i = 0; i < 1200; i++)); do [[ -f $d/lowered ]] && break; sleep 0.1; done
for ((i = 0; i < 600; i++)); do
	jq -e "select(.ram.detected_bytes != null and .ram.detected_bytes <= $((150 << 20)))" \
		"$d/watch" >/dev/null 2>&1 && break
	sleep 0.1
done
kill "$w"
budget >"$d/after"
"$GOV_TOOL" doctor --json >"$d/doctor" || true
# Two Go programs with the step's GOMEMLIMIT, sized for 400 MiB: one keeps
# its limit in step with the cgroup's (churn.go -follow, the pattern of
# docs/runtimes.md), one does not.  The second goes last: its OOM kill
# may take the step with it.
"$GOV_CHURN" -live 100 -churn 1024 -follow >"$d/go_follow" 2>&1
echo $? >"$d/go_follow_rc"
echo started >"$d/go_plain_rc"
"$GOV_CHURN" -live 100 -churn 1024 >"$d/go_plain" 2>&1
echo $? >"$d/go_plain_rc"
EOF
chmod 755 "$dir/task.sh"

as_user salloc -n1 -c1 --mem=400M srun --governor=runtimes -n1 -c1 --mem=400M bash "$dir/task.sh" "$dir" &
step=$!
for ((i = 0; i < 1200; i++)); do
	[[ -f $dir/before ]] && break
	sleep 0.1
done
[[ -f $dir/before ]] || die "the step did not start within 120 s"
job=$(squeue -h -o %i -u "${GOV_TEST_USER:-govtest}" | head -n1)
t0=$EPOCHREALTIME
scontrol update jobid="$job" MinMemoryNode=150
touch "$dir/lowered"
# The step ends with an OOM kill (the Go program that does not follow),
# which srun reports; the task's own files say how it went.
wait "$step" || true
[[ -f $dir/after && -f $dir/go_follow_rc ]] || die "the step did not run its task to the Go programs"

mib=$((1 << 20))
before=$(tr '\t' ' ' <"$dir/before") after=$(tr '\t' ' ' <"$dir/after")
printf -- '--- sealed cgroup effective against: before %s; after MinMemoryNode=150: %s\n' "$before" "$after"
assert_eq "$((400 * mib)) $((400 * mib)) $((400 * mib)) equal" "$before" "the budget before"
assert_eq "$((400 * mib)) $((150 * mib)) $((150 * mib)) below" "$after" "the budget once lowered"
doctor=$(<"$dir/doctor")
assert_eq "ok warn" "$(doctor_finding "$doctor" memory.enforced severity) $(doctor_finding "$doctor" memory.lowered severity)" \
	"the doctor: still enforced, and lowered"
# governor watch: its budget (ram.detected_bytes) was the allocation's
# before and the new limit at a later line; when, in seconds after the
# update, is printed, not held to a figure (it depends on the machine).
read -r first seen < <(python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
low = [l for l in lines if l["ram"]["detected_bytes"] is not None and l["ram"]["detected_bytes"] <= int(sys.argv[2])]
print(lines[0]["ram"]["detected_bytes"], low[0]["elapsed_ms"] if low else -1)' "$dir/watch" $((150 * mib)))
((first > 150 * mib)) || die "governor watch's first budget was $first bytes, not above the lowered limit"
((seen >= 0)) || die "governor watch never showed the lowered limit"
awk -v s="$(<"$dir/watch_start")" -v e="$seen" -v t="$t0" \
	'BEGIN { printf "--- governor watch showed the lowered limit %.2f s after scontrol update\n", s + e / 1000 - t }'
# The runtimes keep what they were told at start: 90 % of 400 MiB less
# the reserve (docs/runtimes.md), not of 150.
printf -- '--- GOMEMLIMIT told at start: %s\n' "$(<"$dir/gomemlimit")"
# Go: the follower lowered its limit below the new one and finished; the
# same program without it kept 360 MiB and was killed.
printf -- '--- Go after the shrink: following: %s (status %s); not following: %s (status %s)\n' \
	"$(tr '\n' ' ' <"$dir/go_follow")" "$(<"$dir/go_follow_rc")" "$(tr '\n' ' ' <"$dir/go_plain")" \
	"$(<"$dir/go_plain_rc")"
assert_eq 0 "$(<"$dir/go_follow_rc")" "the Go program that follows the limit finishes"
limit=$(sed -n 's/.*memlimit_mib=\([0-9]*\).*/\1/p' "$dir/go_follow")
((limit > 0 && limit < 150)) || die "the following Go program's limit at its end was '$limit' MiB, not under the lowered 150"
assert_match '^(137|started)$' "$(<"$dir/go_plain_rc")" "the Go program that keeps its start limit is OOM-killed"
# The step report: the sealed budget, the kernel's limit at the end, and
# the finding.
wait_records 1
rec=$(report_of "$job" | jq -c '.steps[0].nodes[0] | [.budget.memory_bytes, .used.memory_limit_bytes, (.findings | index("memory_lowered") != null)]')
printf -- '--- the step record (budget, limit at the end, memory_lowered): %s\n' "$rec"
assert_eq "[$((400 * mib)),$((150 * mib)),true]" "$rec" "the step report of a lowered step"
assert_idle

# sbatch --mem-update=MARGIN@DELAY: Slurm itself lowers the job's memory to
# its use plus MARGIN per cent, DELAY after the start.  A governed step
# holding 64 MiB watches its snapshot until the limit falls (bounded at
# 150 s); the doctor names it.
rm -f "$dir"/mu_*
cat >"$dir/mu_task.sh" <<'EOF'
d=$1
python3 -c '
import sys, time
hold = bytearray(64 << 20)
for i in range(0, len(hold), 4096):
    hold[i] = 1
time.sleep(float(sys.argv[1]))' 200 &
hold=$!
for ((i = 0; i < 150; i++)); do
	"$GOV_TOOL" snapshot --json | jq -r '[.memory.scheduler.limit_bytes, .memory.effective.limit_bytes,
		.memory.cgroup.against_allocation] | @tsv' >"$d/mu_now"
	[[ $(cut -f3 "$d/mu_now") == below ]] && break
	sleep 1
done
"$GOV_TOOL" doctor --json >"$d/mu_doctor" || true
kill "$hold"
EOF
chmod 755 "$dir/mu_task.sh"
job=$(as_user sbatch --parsable -n1 -c1 --mem=400M --mem-update=50@0:30 -o "$dir/mu_out" \
	--wrap "srun --governor -n1 -c1 --mem=400M bash $dir/mu_task.sh $dir")
state=$(wait_job "$job" 300)
read -r sealed effective against < <(tr '\t' ' ' <"$dir/mu_now")
printf -- '--- sbatch --mem-update=50@0:30: job %s; sealed %s, effective %s (%s)\n' "$state" "$sealed" \
	"$effective" "$against"
assert_eq "COMPLETED $((400 * mib)) below" "$state $sealed $against" "the step once Slurm lowered the job's memory itself"
((effective < 400 * mib && effective >= 40 * mib)) ||
	die "the effective limit after --mem-update is $effective bytes (the use plus 50 %, at least a tenth of 400 MiB)"
assert_eq warn "$(doctor_finding "$(<"$dir/mu_doctor")" memory.lowered severity)" "the doctor after --mem-update"
rm -rf "$dir"
assert_idle
