#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (sealing without a MUNGE socket); left out of the TCG guest for time
# Fault: the MUNGE socket the plugin seals through does not exist (munged
# never started, or its socket was removed).  libmunge fails at once: with
# seal=optional the tasks run without a descriptor and slurmd's log says why
# at info level, once a minute at most (seal=required: gov_munge); no node
# drains; the next step with a working socket is sealed.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

missing=$(trusted_socket_dir)/gov-no-such.socket
rm -f "$missing" /run/slurm-governor/seal-skipped.*.stamp
# shellcheck disable=SC2016 # expanded in the task
status='"$GOV_TOOL" verify --json | jq -r .status'

gov_plugstack "munge_socket=$missing"
mark=$(log_mark)
# libmunge's stat of the socket fails at once: the log says that, not that
# munged did not answer within munge_timeout (timeout: a hang guard only).
out=$(timeout 120 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -N3 -n3 bash -c "$status") ||
	die "the step failed or hung (exit $?)"
assert_eq "absent absent absent" "$(tr '\n' ' ' <<<"$out" | sed 's/ $//')" "tasks without a descriptor"
log=$(log_since "$mark")
assert_no_match 'does not answer within' "$log" "slurmd's logs (the seal failed at once, not by its deadline)"
assert_eq 1 "$(grep -Ec 'governor: MUNGE cannot seal the descriptor \(Failed to access .*\); tasks run without a descriptor \(seal=optional\); this message comes' <<<"$log")" \
	"info lines for three tasks on three nodes (one node: rate-limited)"

assert_no_drain
gov_plugstack seal=required
assert_next_step_works
