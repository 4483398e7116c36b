#!/usr/bin/env bash
# covers: v1
# v2: cgroup-independent (the plugin's run directory); left out of the TCG guest for time
# Issue 16, item 5: a run_dir (or, as older versions spelled it,
# topology_cache=DIR) under a sticky directory such as /tmp.  Any user can
# create the directory there before root does and so turn the cache off for
# good; an older plugin accepted such a path whenever root got there first.
# Now it is refused whoever made it: the log says why and what to do, the
# steps run with a topology (discovered), and root writes nothing there.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

dir=/tmp/gov-test-run-dir
rm -rf "$dir"
trap 'rm -rf "$dir"' EXIT
# shellcheck disable=SC2016 # expanded in the task
task='echo "$("$GOV_TOOL" verify --json | jq -r .status) $(eval "$GOV_PAYLOAD" | grep ^topo=)"'
refused='governor: the topology cache is not used \(a directory on its path is writable by others \(sticky ones such as /tmp included\), not root.s, or a link\).*not /tmp'

# Root would create it: refused all the same.
for spelling in run_dir topology_cache; do
	gov_plugstack "$spelling=$dir"
	mark=$(log_mark)
	out=$(as_user srun --governor -n1 -w node1 bash -c "$task")
	printf '%s=%s: %s\n' "$spelling" "$dir" "$out"
	assert_match '^verified topo=1,1,' "$out" "the step, with a topology"
	assert_match "$refused" "$(log_since "$mark")" "log ($spelling)"
	[[ ! -e $dir ]] || die "root created $dir under sticky /tmp"
done

# The user made it first: the same refusal, and nothing of root's in it.
as_user mkdir -m 755 "$dir"
gov_plugstack "run_dir=$dir"
mark=$(log_mark)
out=$(as_user srun --governor -n2 -w node2 bash -c "$task")
printf 'user-made %s: %s\n' "$dir" "$(tr '\n' ' ' <<<"$out")"
assert_eq 2 "$(grep -Ec '^verified topo=1,2,' <<<"$out")" "both tasks verified, with the step's topology"
assert_match "$refused" "$(log_since "$mark")" "log (user-made directory)"
assert_eq "" "$(find "$dir" -user root)" "files root left in the user's directory"

assert_no_drain
gov_plugstack
assert_next_step_works
