#!/usr/bin/env bash
# covers: v2
# v1: runs only on the two guests of tests/guest/pair.sh (cgroup v2 under systemd; docs/testing.md says why not v1)
# A descriptor copied between two tasks of one step on two machines: the
# task on node2 prints its GOVERNOR_DESCRIPTOR, srun brings it home, and
# srun's own stdin carries it to the task on node1 (same job, step and
# user, another machine). There it does not verify, and the reason names
# the node binding (ENODE); that task's own descriptor verifies.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # expanded in the tasks
task='
if [ "$SLURM_PROCID" = 1 ]; then
	printf "from %s %s\n" "$SLURMD_NODENAME" "$GOVERNOR_DESCRIPTOR"
else
	printf "own %s %s\n" "$SLURMD_NODENAME" "$("$GOV_TOOL" verify --json | jq -c .)"
	read -r carried
	printf "carried %s %s\n" "$SLURMD_NODENAME" "$(GOVERNOR_DESCRIPTOR=$carried "$GOV_TOOL" verify --json | jq -c .)"
fi'
# shellcheck disable=SC2016 # the driver's own Python
driver='
import subprocess, sys
p = subprocess.Popen(["srun", "--governor", "-N2", "-n2", "--input=0", "bash", "-c", sys.argv[1]],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in p.stdout:
    if line.startswith("from "):
        _, node, carried = line.split(" ", 2)
        print("from", node, len(carried.strip()), "characters")
        p.stdin.write(carried)
        p.stdin.close()
    else:
        print(line, end="")
sys.exit(p.wait())
'
out=$(as_user python3 -c "$driver" "$task") || die "the step failed: $out"
printf '%s\n' "$out"
own=$(sed -n 's/^own node1 //p' <<<"$out")
carried=$(sed -n 's/^carried node1 //p' <<<"$out")
assert_match '^from node2 ' "$(grep '^from' <<<"$out")" "the descriptor came from node2"
assert_eq verified "$(json_get .status <<<"$own")" "node1's task, its own descriptor"
assert_eq invalid "$(json_get .status <<<"$carried")" "node1's task, node2's descriptor"
assert_eq ENODE "$(json_get .reason_code <<<"$carried")" "the reason names the node binding"
assert_match 'another node' "$(json_get .reason <<<"$carried")" "the reason's text"
