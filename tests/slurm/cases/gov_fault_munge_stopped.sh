#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (sealing through a stopped munged); left out of the TCG guest for time
# Fault: the MUNGE daemon the plugin seals through is stopped (SIGSTOP: it
# accepts connections and never answers, as a hung munged does).  libmunge
# alone waits about 10 s per task (5 attempts of 2 s); the plugin gives up
# after munge_timeout (2 s by default), then the task runs without a
# descriptor (seal=optional, logged at info level once a minute) or fails
# (seal=required); no node drains; once munged runs again the next step is
# sealed.  Slurm itself must keep its own MUNGE, so the plugin is pointed at
# a second munged with the cluster's key (munge_socket=).
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

key=$GOV_CLUSTER_DIR/munge/munge.key
[[ -f $key ]] || skip "the cluster uses a MUNGE daemon it did not start (no key to share)"
sock=$(trusted_socket_dir)/gov-munge2.socket
mkdir -p "$GOV_CLUSTER_DIR/munge2"
chmod 700 "$GOV_CLUSTER_DIR/munge2"
munged --key-file="$key" --socket="$sock" --pid-file="$GOV_CLUSTER_DIR/munge2/munged.pid" \
	--log-file="$GOV_CLUSTER_DIR/munge2/munged.log" --seed-file="$GOV_CLUSTER_DIR/munge2/seed" --force
pid=$(cat "$GOV_CLUSTER_DIR/munge2/munged.pid")
stop_munge2() {
	kill -CONT "$pid" 2>/dev/null || true
	kill "$pid" 2>/dev/null || true
}
trap stop_munge2 EXIT
deadline=$((SECONDS + 60))
until munge -n -S "$sock" >/dev/null 2>&1; do
	((SECONDS < deadline)) || die "the second munged does not answer on $sock"
	sleep 0.1
done
# The task verifies through the default socket: the same key decodes it.
# shellcheck disable=SC2016 # expanded in the task
status='"$GOV_TOOL" verify --json | jq -r .status'

gov_plugstack "munge_socket=$sock" seal=optional
assert_eq "verified
verified" "$(as_user srun --governor -n2 bash -c "$status")" "sealed through the second munged"

kill -STOP "$pid"
rm -f /run/slurm-governor/seal-skipped.*.stamp
# The socket named through a link (as /var/run/... names /run/...): the
# cancelled request's connection must not reach the task whatever the
# path (issue 16, item 4).  Each task counts the sockets it inherited.
link=$(trusted_socket_dir)/gov-munge2-link.socket
ln -sfn "$sock" "$link"
gov_plugstack "munge_socket=$link" seal=optional
# shellcheck disable=SC2016 # expanded in the task
sockets='n=0; for f in /proc/$$/fd/*; do [[ ${f##*/} -gt 2 && $(readlink "$f") == socket:* ]] && n=$((n + 1)); done; echo "sockets $n"'
# That the seal gives up at its deadline, not after libmunge's own retries,
# is the log line's "within 2s" (and test_seal_bounded's bound on a daemon
# that never answers); how long the step takes here follows the machine's
# load, so the timeouts are hang guards only.
mark=$(log_mark)
out=$(timeout 120 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -n2 bash -c "$status; $sockets" | sort) ||
	die "the step failed or hung"
printf 'seal=optional, munged stopped: %s\n' "$(tr '\n' ' ' <<<"$out")"
assert_eq "absent
absent
sockets 0
sockets 0" "$out" "tasks without a descriptor, and without MUNGE's socket"
log=$(log_since "$mark")
assert_eq 1 "$(grep -c 'governor: MUNGE cannot seal the descriptor (munged does not answer within 2s: stopped, hung, or busy; many open connections can hold all of its threads, see munged --num-threads); tasks run without a descriptor' <<<"$log")" \
	"info lines for two tasks (rate-limited), naming the likely causes"

gov_plugstack "munge_socket=$sock" seal=required
rc=0
out=$(timeout 120 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -n1 echo should-not-run 2>&1) || rc=$?
printf '%s\n' "$out"
((rc != 0 && rc != 124)) || die "the task ran without a seal under seal=required, or the step hung (exit $rc)"
assert_no_match should-not-run "$out" "task output"
assert_match 'governor: MUNGE cannot seal the descriptor \(munged does not answer within 2s: .*--num-threads\); this site requires a sealed descriptor' "$out" "message"

kill -CONT "$pid"
assert_no_drain
gov_plugstack "munge_socket=$sock" seal=required
assert_next_step_works
