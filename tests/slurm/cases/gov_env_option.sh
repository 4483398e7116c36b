#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (how slurmstepd takes the option); left out of the TCG guest for time
# The option also reaches slurmstepd through the job's environment
# (_SLURM_SPANK_OPTION_governor_governor), which srun never checks (issue
# 26, item 1). Under default=on allow_off=no seal=optional runtimes=always a
# value that does not parse counts there as no value: the site's default
# applies, logged, so the task still gets its descriptor and the runtimes'
# variables; off and noruntimes sent that way are overruled too. Under
# seal=required such a value refuses the task, and no node drains.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

gov_plugstack default=on allow_off=no seal=optional runtimes=always
# shellcheck disable=SC2016 # expanded in the task
show='echo "$("$GOV_TOOL" verify --json | jq -r .status) ${OMP_NUM_THREADS-unset} ${GOVERNOR_MEMORY_SHARE-unset}"'
for value in bogus 'batch,,' off noruntimes 'off,batch'; do
	mark=$(log_mark)
	out=$(as_user env "_SLURM_SPANK_OPTION_governor_governor=$value" \
		srun -n1 -c1 --mem=200M bash -c "$show") || die "value '$value': the step failed"
	printf '%s: %s\n' "$value" "$out"
	assert_eq "verified 1 209715200" "$out" "value '$value' from the job's environment: the site's default"
	case $value in
	off) want='--governor=off reached this step although the site does not allow it' ;;
	noruntimes) want='--governor=noruntimes reached this step although the site sizes every runtime' ;;
	*) want='the --governor value that reached this step is not valid; the site.s default applies' ;;
	esac
	assert_match "governor: $want" "$(log_since "$mark")" "slurmd's log for '$value'"
done

gov_plugstack default=on allow_off=no seal=required runtimes=always
rc=0
out=$(as_user env _SLURM_SPANK_OPTION_governor_governor=bogus srun -n1 -c1 --mem=200M true 2>&1) || rc=$?
printf 'seal=required: %s (exit %s)\n' "$out" "$rc"
((rc != 0)) || die "seal=required: a task started with an invalid value from the environment"
assert_no_drain
assert_next_step_works
