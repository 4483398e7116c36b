#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (option parsing before any allocation); left out of the TCG guest for time
# A bad --governor MODE, or a bad plugstack.conf argument, stops srun,
# sbatch and salloc before any allocation, with a 'governor: ' message that
# says what this site takes; a MODE word after a space (srun runs it as the
# program) is named on srun's terminal.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# The jobs slurmctld has been given since job id $1, finished ones included
# (MinJobAge keeps them; older ones may be purged meanwhile, so not a count
# of every job).
jobs_since() {
	scontrol -o show jobs 2>/dev/null | sed -n 's/^JobId=\([0-9]*\) .*/\1/p' | awk -v n="$1" '$1 > n' | wc -l
}
before=$(scontrol -o show jobs 2>/dev/null | sed -n 's/^JobId=\([0-9]*\) .*/\1/p' | sort -n | tail -n1)
before=${before:-0}
for mode in bogus batch,interactive off,threads 'threads,'; do
	for cmd in "srun -n1 true" "sbatch --wrap true" "salloc -n1 true"; do
		rc=0
		# shellcheck disable=SC2086 # the command's words
		out=$(as_user ${cmd%% *} --governor="$mode" ${cmd#* } 2>&1) || rc=$?
		((rc != 0)) || die "${cmd%% *} --governor=$mode succeeded"
		assert_match 'governor: invalid --governor value; valid values here: batch, interactive, threads, runtimes, noruntimes, off, as a comma list' \
			"$out" "${cmd%% *} --governor=$mode"
	done
done
# An optional value given as an empty string is the default, not an error.
as_user srun -n1 --governor= true

gov_plugstack colour=blue
for cmd in "srun -n1 true" "sbatch --wrap true" "salloc -n1 true"; do
	rc=0
	# shellcheck disable=SC2086 # the command's words
	out=$(as_user $cmd 2>&1) || rc=$?
	((rc != 0)) || die "'$cmd' ran with a bad plugstack.conf line"
	assert_match "governor: unknown plugstack.conf argument 'colour'; known keys: default" "$out" "$cmd"
done
gov_plugstack ttl=99999
rc=0
out=$(as_user srun -n1 true 2>&1) || rc=$?
((rc != 0)) || die "srun ran with ttl=99999"
assert_match "governor: plugstack.conf key 'ttl' needs seconds from 1 to 3600" "$out" "ttl"
assert_no_match 'govtest' "$out" "message privacy"
# Only the one valid 'srun --governor=' above reached slurmctld.
assert_eq 1 "$(jobs_since "$before")" "jobs slurmctld was given during the case"

gov_plugstack
# A MODE word after a space is the program srun runs: said on the terminal.
rc=0
out=$(as_user srun -n1 --governor runtimes true 2>&1) || rc=$?
((rc != 0)) || die "srun ran a program called runtimes"
assert_match "governor: 'runtimes' after --governor is the program this step runs, not a mode: write --governor=runtimes" \
	"$out" "srun --governor runtimes"
assert_no_match "governor: 'true'" "$(as_user srun -n1 --governor true 2>&1)" "a program that is no MODE word"
