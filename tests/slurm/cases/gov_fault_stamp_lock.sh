#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (a failed seal's log stamp); left out of the TCG guest for time
# Issue 16, items 1 and 7.  When a seal fails under seal=optional, the task
# launch path (root, task_init_privileged) stamps a file to rate-limit the
# log line.  An older plugin left that stamp readable by all and waited for
# its lock without a bound, so a user holding a shared lock on it
# (exec 9<stamp; flock -s 9) hung every failed-seal task of every user on
# the node.  Now the stamp is root's alone (an open one is replaced), its
# lock is tried for at most 50 ms, and it lives in the site's run_dir, also
# with topology_cache=off.  The test user holds the lock from a job of her
# own; the governed tasks still start within munge_timeout.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

run_dir=/run/gov-test-rundir
rm -rf "$run_dir"
cleanup() {
	scancel --quiet --user="${GOV_TEST_USER:-govtest}" 2>/dev/null || true
	rm -rf "$run_dir"
}
trap cleanup EXIT
mkdir -m 755 "$run_dir"
# The stamp of this cause (MUNGE fails) and user.
stamp=$run_dir/seal-skipped.munge.$(id -u "${GOV_TEST_USER:-govtest}").stamp
# What an older plugin left: mode 0644, used once.
printf '\n' >"$stamp"
chmod 644 "$stamp"
touch -d '1 hour ago' "$stamp"
inode=$(stat -c %i "$stamp")
default_stamp=/run/slurm-governor/${stamp##*/}
rm -f "$default_stamp"

# The user's job holds a shared lock on the stamp for the rest of the case.
held=$GOV_CLUSTER_DIR/stamp-holder.out
rm -f "$held"
GOV_STAMP=$stamp as_user srun -n1 -w node1 --job-name=stamp-holder \
	bash -c 'exec 9<"$GOV_STAMP" && flock -s 9 && echo held && exec sleep 300' >"$held" 2>&1 &
wait_for_line "$held" held

# Seals fail at once: nothing listens on this socket.
gov_plugstack "run_dir=$run_dir" topology_cache=off seal=optional munge_timeout=1 \
	"munge_socket=$(trusted_socket_dir)/no-munged.socket"
# The user's lock lasts 300 s: a step that waited on it would hit the
# timeout (a hang guard, not a measure of how fast the step ran).
mark=$(log_mark)
rc=0
out=$(timeout 120 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -n2 -w node2 \
	bash -c '"$GOV_TOOL" verify --json | jq -r .status') || rc=$?
printf 'tasks: %s (exit %s)\n' "$(tr '\n' ' ' <<<"$out")" "$rc"
((rc != 124)) || die "the governed step hung behind the user's lock"
assert_eq "absent
absent" "$out" "tasks started without a descriptor"

# The stamp was replaced by a private one, in run_dir and nowhere else.
assert_eq "600 root" "$(stat -c '%a %U' "$stamp")" "the stamp's mode and owner"
[[ $(stat -c %i "$stamp") != "$inode" ]] || die "the readable stamp was kept, not replaced"
[[ ! -e $default_stamp ]] || die "a stamp was written in /run/slurm-governor, not in run_dir"
log=$(log_since "$mark")
assert_eq 1 "$(grep -c 'governor: MUNGE cannot seal the descriptor .*tasks run without a descriptor' <<<"$log")" \
	"one info line for two tasks (rate-limited through run_dir's stamp)"
# The user cannot open the new stamp to hold it again.
as_user bash -c "exec 9<'$stamp'" 2>/dev/null && die "the test user can open the new stamp"

scancel --quiet --name=stamp-holder --user="${GOV_TEST_USER:-govtest}"
wait || true
assert_no_drain
gov_plugstack
assert_next_step_works
