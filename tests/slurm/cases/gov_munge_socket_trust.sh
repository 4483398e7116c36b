#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the MUNGE socket's path); left out of the TCG guest for time
# The MUNGE socket's path is trusted only when root's or munge's all the way
# down (issue 26, item 2).  A careless munge_socket= names a socket in a
# directory the test user owns, where she listens herself: no governed task
# may hand her its descriptor (the plaintext, with root as her peer).  Under
# seal=optional the tasks run without one and slurmd's log says why; under
# seal=required they do not start.  The listener must receive nothing.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

user=${GOV_TEST_USER:-govtest}
dir=/run/gov-test-munge-user
rm -rf "$dir" && mkdir -m 755 "$dir" && chown "$user" "$dir"
got=$GOV_CLUSTER_DIR/munge-listener.txt
rm -f "$got" && touch "$got" && chown "$user" "$got"
# The user's listener: it counts the bytes each connection sends.
# shellcheck disable=SC2016 # python, not shell
as_user python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(16)
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        n = len(c.recv(65536))
    except OSError:
        n = 0
    with open(sys.argv[2], "a") as f:
        f.write("connection of %d bytes\n" % n)
    c.close()' "$dir/munge.socket" "$got" &
listener=$!
trap 'kill "$listener" 2>/dev/null; rm -rf "$dir"' EXIT
for ((i = 0; i < 50; i++)); do [[ -S $dir/munge.socket ]] && break; sleep 0.1; done
[[ -S $dir/munge.socket ]] || die "the user's listener did not start"

# shellcheck disable=SC2016 # expanded in the task
status='"$GOV_TOOL" verify --json | jq -r .status'
gov_plugstack "munge_socket=$dir/munge.socket" seal=optional
rm -f /run/slurm-governor/seal-skipped.*.stamp
mark=$(log_mark)
out=$(as_user srun --governor -N2 -n2 bash -c "$status")
assert_eq "absent absent" "$(tr '\n' ' ' <<<"$out" | sed 's/ $//')" "seal=optional: tasks without a descriptor"
assert_eq '' "$(cat "$got")" "what the user's listener received"
assert_match "governor: a directory on the MUNGE socket's path is not root's or munge's" "$(log_since "$mark")" "slurmd's log"

gov_plugstack "munge_socket=$dir/munge.socket" seal=required
mark=$(log_mark)
# The user is told the cause without the path; slurmd's log has it whole.
assert_refused "governor: the MUNGE socket is not one root may trust; this site requires a sealed descriptor, so the task does not start \(ask the administrators to check munged; slurmd's log on the node says why\)"
assert_no_match "$dir" "$(as_user srun --governor -n1 true 2>&1 || true)" "the user's message: no path"
assert_match "governor: a directory on the MUNGE socket's path is not root's or munge's.*this site requires a sealed descriptor, so this step's tasks do not start" \
	"$(log_since "$mark")" "slurmd's log"
assert_eq '' "$(cat "$got")" "what the user's listener received"

assert_no_drain
gov_plugstack seal=required
assert_next_step_works
