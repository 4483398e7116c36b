#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# slurmd restarts on one machine (node1) while a -N2 step runs: the tasks
# on both machines verify before and after, the step ends well, no node
# drains, and the next -N2 step verifies on both.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

log=$(mktemp)
go=$(mktemp -u)
mkfifo -m 600 "$go"
trap 'rm -f "$log" "$go"' EXIT
# The tasks verify, wait for the case to say that node1's slurmd has
# restarted, and verify again; no sleep of theirs is assumed to outlast
# the restart (under TCG it can take longer than any such guess). The word
# is a line on srun's stdin, which srun hands to every task on both
# machines (each machine has its own home: a file there would take another
# job on node2). The case holds the pipe open from the start (fd 3, which
# nothing it starts keeps), so srun's open does not wait for a writer and
# the tasks see no end of input until the case writes or exits; should the
# case die first, its end closes the pipe and the tasks stop at once.
# Their own bound is the case's time (pair.sh's --case-timeout).
exec 3<>"$go"
# shellcheck disable=SC2016 # expanded in the tasks
as_user srun --governor -N2 -n2 --mem=300M bash -c '
	echo "before $SLURMD_NODENAME $("$GOV_TOOL" verify --json | jq -r .status)"
	if read -r -t 600 word; then
		echo "after $SLURMD_NODENAME $("$GOV_TOOL" verify --json | jq -r .status)"
	else
		echo "after $SLURMD_NODENAME: no word from the case (end of input or 600 s)"
	fi' <"$go" >"$log" 3>&- &
srun_pid=$!
# Both tasks have verified once. Bounded generously: a step over the two
# emulated machines starts in seconds, many more with other work beside.
deadline=$((SECONDS + 300))
until (($(grep -c '^before' "$log") == 2)); do
	kill -0 "$srun_pid" 2>/dev/null || die "the step ended before both tasks had begun: $(cat "$log")"
	((SECONDS < deadline)) || die "both tasks had not begun 300 s after srun: $(cat "$log")"
	sleep 0.2
done
"$GOV_SLURM_TESTS/cluster.sh" restart-slurmd --dir "$GOV_CLUSTER_DIR" --node 1 3>&- ||
	die "slurmd of node1 did not restart"
wait_node node1 up || die "node1 did not come back after its slurmd restarted"
# Only now, with the new slurmd in place, do the tasks verify again.
printf 'go\n' >&3
exec 3>&-
wait "$srun_pid" || die "the step that spanned the restart failed: $(cat "$log")"
out=$(sort "$log")
printf '%s\n' "$out"
assert_eq "after node1 verified
after node2 verified
before node1 verified
before node2 verified" "$out" "the tasks on both machines, before and after"
# The node leaves 'mix' shortly after the step ends.
wait_node node1 idle || die "node1 is not idle after the step ended"
facts "the next step" --governor -N2 -n2 --mem=300M >/dev/null
