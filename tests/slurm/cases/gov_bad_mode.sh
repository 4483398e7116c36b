#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (option parsing before any allocation); left out of the TCG guest for time
# A bad --governor MODE, or a bad plugstack.conf argument, stops srun,
# sbatch and salloc before any allocation, with a 'governor: ' message that
# says what is valid.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack
# Every job slurmctld knows, finished ones included (MinJobAge keeps them).
jobs_known() {
	scontrol -o show jobs 2>/dev/null | grep -c '^JobId=' || true
}
before=$(jobs_known)
for mode in bogus batch,interactive off,threads 'threads,'; do
	for cmd in "srun -n1 true" "sbatch --wrap true" "salloc -n1 true"; do
		rc=0
		# shellcheck disable=SC2086 # the command's words
		out=$(as_user ${cmd%% *} --governor="$mode" ${cmd#* } 2>&1) || rc=$?
		((rc != 0)) || die "${cmd%% *} --governor=$mode succeeded"
		assert_match 'governor: invalid --governor value; valid values: batch, interactive, threads, runtimes, noruntimes, off' \
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
assert_eq $((before + 1)) "$(jobs_known)" "jobs slurmctld knows"
