#!/usr/bin/env bash
# The step's cpuset and the task's affinity hold exactly the CPUs asked for.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

mnt=$(cgroup_mount cpuset)
[[ -n $mnt ]] || skip "no cgroup v1 cpuset hierarchy on this machine"
script='
c=$(sed -n "s/^[0-9]*:cpuset://p" /proc/self/cgroup)
echo "cpuset $(cat "$1$c/cpuset.cpus")"
echo "affinity $(sed -n "s/^Cpus_allowed_list:\t*//p" /proc/self/status)"
echo "nproc $(nproc)"
'
count() { # CPU list (0-1,4) -> number of CPUs
	local n=0 r
	for r in ${1//,/ }; do
		if [[ $r == *-* ]]; then n=$((n + ${r#*-} - ${r%-*} + 1)); else n=$((n + 1)); fi
	done
	echo "$n"
}
for c in 1 2; do
	out=$(as_user srun -n1 -c"$c" bash -c "$script" _ "$mnt")
	printf -- '-c%s:\n%s\n' "$c" "$out"
	assert_eq "$c" "$(count "$(sed -n 's/^cpuset //p' <<<"$out")")" "cpuset size for -c$c"
	assert_eq "$c" "$(count "$(sed -n 's/^affinity //p' <<<"$out")")" "affinity size for -c$c"
	assert_eq "nproc $c" "$(grep '^nproc' <<<"$out")" "nproc for -c$c"
done
