#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (seal=required and allow_off=no); left out of the TCG guest for time
# seal=required with default=on guarantees a descriptor:
# - allow_off=no: srun and sbatch refuse --governor=off before anything is
#   allocated, and an off that reaches slurmstepd anyway is overruled;
# - a --governor value that srun never checked (a user's own client plugin
#   with the same name, loaded through a private SLURM_CONF) fails the task
#   instead of starting it without a descriptor;
# - in the job, --require-descriptor refuses the SLURM_* fallback.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

home=$(user_home)
gov_plugstack default=on seal=required allow_off=no

rc=0
out=$(as_user srun --governor=off -n1 echo should-not-run 2>&1) || rc=$?
printf '%s\n' "$out"
((rc != 0)) || die "srun --governor=off ran under allow_off=no"
assert_match 'governor: this site does not allow --governor=off \(allow_off=no\)' "$out" "srun's message"
rc=0
out=$(as_user sbatch --governor=off --wrap true 2>&1) || rc=$?
((rc != 0)) || die "sbatch --governor=off was accepted under allow_off=no"
assert_match 'does not allow --governor=off' "$out" "sbatch's message"
assert_eq "" "$(squeue -h)" "jobs submitted"

# A private configuration whose plugstack loads the fake client plugin in
# place of governor.so: srun then sends values the real plugin never
# checked locally.
fake=$(user_copy "$GOV_BUILD_DIR/tests/fake_governor.so")
sed "s|^PlugStackConfig=.*|PlugStackConfig=$home/gov_strict.plugstack|" "$SLURM_CONF" >"$home/gov_strict.conf"
printf 'required %s\n' "$fake" >"$home/gov_strict.plugstack"
chmod 644 "$home/gov_strict.conf" "$home/gov_strict.plugstack"
mine() {
	as_user env SLURM_CONF="$home/gov_strict.conf" "$@"
}

mark=$(log_mark)
# shellcheck disable=SC2016 # expanded in the task
out=$(mine srun --governor=off -n1 bash -c '"$GOV_TOOL" verify --json | jq -r .status')
assert_eq verified "$out" "off sent past srun's check: the step is governed all the same"
assert_match 'governor: --governor=off reached this step although the site does not allow it' \
	"$(log_since "$mark")" "slurmd's log"

mark=$(log_mark)
rc=0
out=$(mine srun --governor=bogus -n1 echo should-not-run 2>&1) || rc=$?
printf '%s\n' "$out"
((rc != 0)) || die "a task started with an invalid --governor value under seal=required"
assert_no_match 'should-not-run' "$out" "task output"
assert_match "governor: this step's --governor value is not valid; this site requires a sealed descriptor, so the task does not start" \
	"$out$(log_since "$mark")" "message"
assert_idle

# --require-descriptor: fine in a governed step, refused without one.
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun -n1 bash -c '"$GOV_TOOL" snapshot --json --require-descriptor | jq -r .scheduler.source')
assert_eq descriptor "$out" "strict snapshot in a governed step"
gov_plugstack default=off
rc=0
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun -n1 bash -c '"$GOV_TOOL" plan --require-descriptor' 2>&1) || rc=$?
((rc != 0)) || die "plan --require-descriptor succeeded without a descriptor"
assert_match 'no verified descriptor \(none in GOVERNOR_DESCRIPTOR\)' "$out" "strict plan's message"

assert_no_drain
