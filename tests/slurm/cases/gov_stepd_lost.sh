#!/usr/bin/env bash
# covers: v1
# v2: slurmstepd sits in its own cgroup (step_N/slurm) beside the tasks' on v2, and the epilog's sweep is cgroup-independent; left out of the TCG guest for time
# A step whose slurmstepd ends before the step does (issue 50, item 3):
# its descriptor file must not stay behind, and its record must not be
# lost.  slurmstepd killed outright (SIGKILL, every series), and on 22.05
# OOM-killed as a task that fills the step's memory with tmpfs pages makes
# the kernel do (cgroup v1 puts it in the step's memory cgroup): the job's
# epilog finds the step's note, removes the file, writes the record marked
# recovered (finding stepd_lost), and leaves no note.  The node stays up.
set -euo pipefail
# shellcheck source=../report_lib.sh
source "$(dirname "$0")/../report_lib.sh"

run_dir=/run/slurm-governor
report_plugstack handoff=munge,file

# stepd JOB STEP: the pid of that step's slurmstepd, once it runs (60 s).
stepd() {
	local deadline=$((SECONDS + 60)) pid
	while ((SECONDS < deadline)); do
		pid=$(pgrep -f "^slurmstepd: \[$1\.$2\]" | head -1 || true)
		[[ -n $pid ]] && { echo "$pid"; return 0; }
		sleep 0.2
	done
	die "no slurmstepd for step $1.$2"
}
# note_file JOB STEP: the descriptor file the step's note names, once the
# plugin has written the note (60 s): slurmstepd runs before it does (a
# CI run under load once read the note before it was there, and ended the
# case with sed's status 2, the job left running).
note_file() {
	local deadline=$((SECONDS + 60)) file
	while ((SECONDS < deadline)); do
		file=$(sed -n 's/^file=//p' "$run_dir"/pending/node1."$1"."$2" 2>/dev/null || true)
		[[ -n $file ]] && { echo "$file"; return 0; }
		sleep 0.2
	done
	die "step $1.$2 left no note"
}
# lost JOB: the job's step 0 left nothing but a recovered record.
lost() {
	local job=$1 file=$2 rec
	wait_job "$job" 180 >/dev/null
	# The epilog runs as the job ends on the node: give it its time.
	local deadline=$((SECONDS + 60))
	while [[ -e $run_dir/pending/node1.$job.0 || -e $run_dir/steps/$file ]] && ((SECONDS < deadline)); do
		sleep 0.2
	done
	[[ ! -e $run_dir/steps/$file ]] || die "job $job: its step's descriptor file is still there"
	[[ ! -e $run_dir/pending/node1.$job.0 ]] || die "job $job: its step's note is still there"
	rec=$("$GOV_BUILD_DIR/tool/governor" report --json --job "$job" "$REPORT_FILE")
	assert_eq "true stepd_lost" \
		"$(jq -r '.steps[] | select(.step == "0") | .nodes[0] | "\(.recovered) \(.findings | map(select(. == "stepd_lost")) | join(","))"' <<<"$rec")" \
		"job $job: step 0's record, written by the epilog"
	jq -c '.steps[] | select(.step == "0") | .nodes[0] | {elapsed_s, budget, used: {memory_peak_bytes: .used.memory_peak_bytes, oom_kills: .used.oom_kills}, findings}' <<<"$rec"
}

echo "== slurmstepd killed (SIGKILL)"
out=$(as_user sbatch --governor -N1 -n1 -w node1 --mem=200M -o /dev/null --wrap 'srun --governor sleep 300')
job=${out##* }
pid=$(stepd "$job" 0)
file=$(note_file "$job" 0)
[[ -n $file && -e $run_dir/steps/$file ]] || die "the step has no descriptor file noted (${file:-none})"
kill -9 "$pid"
scancel "$job"
lost "$job" "$file"

if [[ $(slurm_series) == 22.05 ]]; then
	echo "== 22.05: slurmstepd OOM-killed by tmpfs pages in the step's memory cgroup"
	# A job of one srun, so that the step's slurmstepd and its task are all
	# the job's memory cgroup holds: 99 MiB of tmpfs in 100M, then the
	# kernel kills the largest process there, slurmstepd.  srun then waits
	# for a step that will not answer: it is ended, and so the job.
	# shellcheck disable=SC2016 # expanded in the task
	as_user timeout 300 srun --governor -N1 -n1 -w node1 --mem=100M \
		bash -c 'head -c 99M /dev/zero >/dev/shm/gov-stepd-lost.$SLURM_JOB_ID; sleep 300' >/dev/null 2>&1 &
	srun_pid=$!
	deadline=$((SECONDS + 60))
	until job=$(squeue -h -o %i -u "${GOV_TEST_USER:-govtest}" -n bash | head -1) && [[ -n $job ]]; do
		((SECONDS < deadline)) || die "the srun job did not start"
		sleep 0.2
	done
	# slurmstepd may be dead already: its note is there from its start.
	file=$(note_file "$job" 0)
	deadline=$((SECONDS + 120))
	while pgrep -f "^slurmstepd: \[$job\.0\]" >/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
	pgrep -f "^slurmstepd: \[$job\.0\]" >/dev/null && die "the step's slurmstepd survived 99 MiB of tmpfs in 100M"
	rm -f "/dev/shm/gov-stepd-lost.$job"
	scancel "$job"
	kill "$srun_pid" 2>/dev/null || true
	wait "$srun_pid" 2>/dev/null || true
	lost "$job" "$file"
fi
rm -f /dev/shm/gov-stepd-lost.*
assert_no_drain
