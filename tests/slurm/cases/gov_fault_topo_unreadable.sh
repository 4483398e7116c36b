#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the topology cache); left out of the TCG guest for time
# Fault: the cached topology table cannot be used (garbage, a FIFO that would
# hang a careless reader, a directory in its place).  Steps still run with a
# topology, the table is discovered and written again where it can be, the
# log says so, and no node drains.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

# Under /run: run_dir below sticky /tmp is refused (gov_fault_run_dir_sticky).
cache=/run/gov-test-topo-cache
rm -rf "$cache"
trap 'rm -rf "$cache"' EXIT
gov_plugstack "topology_cache=$cache"
# shellcheck disable=SC2016 # expanded in the task
task='echo "$("$GOV_TOOL" verify --json | jq -r .status) $(eval "$GOV_PAYLOAD" | grep ^topo=)"'

mark=$(log_mark)
out=$(as_user srun --governor -n1 -w node1 bash -c "$task")
assert_match '^verified topo=1,1,' "$out" "first step"
file=$(find "$cache" -name 'topology-*.v2')
[[ -f $file ]] || die "no table was written in the cache directory"
assert_match 'governor: node topology discovered and cached' "$(log_since "$mark")" "log"

# damage KIND: puts an unusable thing at the table's name.
damage() {
	rm -rf "$file"
	case $1 in
	garbage) printf 'governor-topology/1\ncores=banana\n' >"$file" ;;
	fifo) mkfifo -m 644 "$file" ;;
	empty) : >"$file" ;;
	esac
}
for kind in garbage fifo empty; do
	damage "$kind"
	mark=$(log_mark)
	out=$(timeout 30 "$GOV_SLURM_TESTS/as_user.sh" srun --governor -n1 -w node1 bash -c "$task") ||
		die "a step with a $kind table did not run"
	assert_match '^verified topo=1,1,' "$out" "step with a $kind table"
	assert_match "governor: the cached node topology was not usable \(" "$(log_since "$mark")" "log after $kind"
	if ! { [[ -f $file && ! -p $file ]] && grep -q '^governor-topology/1$' "$file"; }; then
		die "the $kind table was not replaced"
	fi
done

# A directory where the file goes: it cannot be replaced, so the cache is
# off for the step, which still runs.
rm -f "$file"
mkdir "$file"
mark=$(log_mark)
out=$(as_user srun --governor -n1 -w node1 bash -c "$task")
assert_match '^verified topo=1,1,' "$out" "step with a directory as the table"
assert_match 'governor: the topology cache is not used \(the new table cannot be written' "$(log_since "$mark")" "log"
rmdir "$file"

assert_no_drain
assert_next_step_works
