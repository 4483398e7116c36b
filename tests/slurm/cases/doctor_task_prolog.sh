#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the TaskProlog hook; doctor_cgroup and doctor_affinity_only run the doctor on v2); left out of the TCG guest for time
# contrib/health/governor-doctor-taskprolog.sh as slurm.conf's TaskProlog:
# it runs inside each task, logs doctor's findings, and with STRICT=1 stops
# a task whose memory is not enforced (task/affinity alone) while a task
# under task/cgroup starts. The node never drains.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

log=$(user_home)/doctor-taskprolog.log
rm -f "$log"

# The cluster is started with this TaskProlog (a reconfigure would reach
# slurmd only some time later); install_prolog writes the script there.
prolog=$GOV_CLUSTER_DIR/bin/governor-doctor-taskprolog.sh

# install_prolog STRICT: the contrib script with this cluster's governor,
# logging into the test user's home, as this cluster's TaskProlog (read at
# each task's start).
install_prolog() {
	local gov
	gov=$(user_copy "$GOV_BUILD_DIR/tool/governor")
	sed -e "s|^GOVERNOR=.*|GOVERNOR=$gov|" -e "s|^STRICT=.*|STRICT=$1|" \
		-e "s|^log() .*|log() { cat >>'$log'; }|" \
		"$GOV_SRC_DIR/contrib/health/governor-doctor-taskprolog.sh" >"$prolog"
	chmod 755 "$prolog"
	if ! grep -q "^GOVERNOR=$gov\$" "$prolog" || ! grep -q "^log() { cat" "$prolog"; then
		die "the contrib script no longer has the lines this case edits"
	fi
}

run_task() {
	as_user salloc -N1 -n1 -c1 --mem=200M srun -n1 -c1 --mem=200M echo TASK RAN 2>&1
}

# task/affinity alone: memory is not enforced.
restart_cluster --task-plugin task/affinity --conf-line "TaskProlog=$prolog"
install_prolog 0
out=$(run_task) || die "the task failed without STRICT: $out"
printf '%s\n' "$out"
assert_line 'TASK RAN' "$out" "the task ran"
assert_line 'ERROR +memory +allocation 200.0 MiB, enforced by none' "$(cat "$log")" "logged error"
assert_no_match 'governor doctor' "$out" "nothing on the user's output"

install_prolog 1
rc=0
out=$(run_task) || rc=$?
printf '%s\n' "$out"
[[ $rc -ne 0 ]] || die "STRICT=1 let a task with unenforced memory start"
assert_no_match 'TASK RAN' "$out" "the task did not start"

# task/cgroup: everything enforced, the strict prolog lets the task start
# and logs no error (the variables-only warning, without --governor, stays).
restart_cluster --conf-line "TaskProlog=$prolog"
rm -f "$log"
install_prolog 1
out=$(run_task) || die "STRICT=1 stopped a task under task/cgroup: $out"
printf '%s\n' "$out"
assert_line 'TASK RAN' "$out" "the task ran"
assert_no_match 'ERROR' "$(cat "$log" 2>/dev/null || true)" "no error logged under task/cgroup"
rm -f "$log"
