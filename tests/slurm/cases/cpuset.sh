#!/usr/bin/env bash
# covers: v1 v2
# The step's cpuset and the task's affinity hold exactly the CPUs asked for.
# With two tasks in one step, each task's affinity holds its own CPU, and
# its cpuset is the step's two, on every series and mode seen here (22.05
# and 24.11 on v1, where 24.11 gives the task a cgroup of its own with the
# step's CPUs; 24.11 on v2).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

# The task's cpuset as its own cgroup shows it: v1's cpuset hierarchy, or
# the v2 cgroup's effective CPUs.
if [[ $(cgroup_mode) == v1 ]]; then
	mnt=$(cgroup_mount cpuset)
	[[ -n $mnt ]] || die "no cgroup v1 cpuset hierarchy, yet the cluster runs cgroup/v1"
	# shellcheck disable=SC2016 # expanded in the task
	own='$1$(sed -n "s/^[0-9]*:cpuset://p" /proc/self/cgroup)/cpuset.cpus'
else
	mnt=$(cgroup2_mount)
	# shellcheck disable=SC2016 # expanded in the task
	own='$1$(sed -n "s/^0:://p" /proc/self/cgroup)/cpuset.cpus.effective'
fi
script='
echo "cpuset $(cat "'"$own"'")"
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

# Two tasks of one step on one node, one CPU each.
out=$(as_user srun -N1 -n2 -c1 -l bash -c "$script" _ "$mnt")
printf -- '-n2 -c1:\n%s\n' "$out"
for rank in 0 1; do
	assert_eq 1 "$(count "$(sed -n "s/^$rank: affinity //p" <<<"$out")")" "task $rank's affinity"
	assert_eq 2 "$(count "$(sed -n "s/^$rank: cpuset //p" <<<"$out")")" "task $rank's cpuset"
done
