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
sock=$GOV_CLUSTER_DIR/run/gov-munge2.socket
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
for ((i = 0; i < 50; i++)); do
	munge -n -S "$sock" >/dev/null 2>&1 && break
	sleep 0.1
done
# The task verifies through the default socket: the same key decodes it.
# shellcheck disable=SC2016 # expanded in the task
status='"$GOV_TOOL" verify --json | jq -r .status'

gov_plugstack "munge_socket=$sock" seal=optional
assert_eq "verified
verified" "$(as_user srun --governor -n2 bash -c "$status")" "sealed through the second munged"

kill -STOP "$pid"
rm -f /run/slurm-governor/seal-skipped.stamp
mark=$(log_mark)
t0=$SECONDS
out=$(as_user srun --governor -n2 bash -c "$status")
elapsed=$((SECONDS - t0))
printf 'seal=optional, munged stopped: %s in %ss\n' "$(tr '\n' ' ' <<<"$out")" "$elapsed"
assert_eq "absent
absent" "$out" "tasks without a descriptor"
((elapsed <= 6)) || fail "the step took ${elapsed}s: the seal was not bounded"
log=$(log_since "$mark")
assert_eq 1 "$(grep -c 'governor: MUNGE cannot seal the descriptor (munged does not answer); tasks run without a descriptor' <<<"$log")" \
	"info lines for two tasks (rate-limited)"

gov_plugstack "munge_socket=$sock" seal=required
t0=$SECONDS
rc=0
out=$(as_user srun --governor -n1 echo should-not-run 2>&1) || rc=$?
elapsed=$((SECONDS - t0))
printf '%s\n' "$out"
((rc != 0)) || fail "the task ran without a seal under seal=required"
((elapsed <= 6)) || fail "the failing step took ${elapsed}s"
assert_no_match should-not-run "$out" "task output"
assert_match 'governor: MUNGE cannot seal the descriptor \(munged does not answer\); this site requires a sealed descriptor' "$out" "message"

kill -CONT "$pid"
assert_no_drain
gov_plugstack "munge_socket=$sock" seal=required
assert_next_step_works
