#!/usr/bin/env bash
# covers: v2
# v1: it reports what the QEMU guest's kernel sees; the host's topology is the host's
# Not a test: what the guest's kernel, hwloc and slurmd see of the machine
# QEMU made (tests/guest/run.sh --shape, --cpu), and what a trivial step
# costs there, run as a case of tests/slurm/run.sh inside the guest by
#   tests/guest/run.sh --build DIR --probe [--shape SHAPE] [--cpu MODEL]
# It starts once the cluster is up, so its first line dates "slurmd up"
# (seconds since the guest's kernel started). It fails only when a step
# does not run.
set -euo pipefail
# shellcheck source=tests/slurm/lib.sh
source "$(dirname "$0")/../slurm/lib.sh"

uptime_s() { cut -d' ' -f1 /proc/uptime; }
section() { printf '\n== %s\n' "$*"; }
show() { # FILE...: each file's name and content on one line
	local f
	for f in "$@"; do printf '%s: %s\n' "$f" "$(tr '\n' ' ' <"$f")"; done
}

printf 'probe: slurmd up after %s s of uptime\n' "$(uptime_s)"
section "cpuinfo"
grep -m1 -E '^vendor_id' /proc/cpuinfo
grep -m1 -E '^model name' /proc/cpuinfo
printf 'flags of note:'
for flag in ht topoext cmp_legacy x2apic hypervisor; do
	grep -m1 -E '^flags' /proc/cpuinfo | grep -qw "$flag" && printf ' %s' "$flag"
done
printf '\n'
section "lscpu"
lscpu | grep -E '^(Model name|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|NUMA node|CPU\(s\))'
section "lscpu -e"
lscpu -e=CPU,NODE,SOCKET,CORE,ONLINE
section "sysfs topology"
for cpu in /sys/devices/system/cpu/cpu[0-9]*; do
	t=$cpu/topology
	printf '%s: package %s die %s core %s core_cpus %s threads %s\n' "$(basename "$cpu")" \
		"$(cat "$t/physical_package_id")" "$(cat "$t/die_id" 2>/dev/null || echo -)" \
		"$(cat "$t/core_id")" "$(cat "$t/core_cpus_list" 2>/dev/null || echo -)" \
		"$(cat "$t/thread_siblings_list")"
done
section "sysfs NUMA nodes"
for node in /sys/devices/system/node/node[0-9]*; do
	printf '%s: cpulist %s distance %s %s\n' "$(basename "$node")" "$(cat "$node/cpulist")" \
		"$(cat "$node/distance")" "$(grep -E 'MemTotal' "$node/meminfo" | awk '{ print $(NF-1), $NF }')"
done
section "hwloc"
if command -v lstopo-no-graphics >/dev/null; then
	lstopo-no-graphics --no-io --of console
	for kind in package numanode core pu; do
		printf '%s: %s\n' "$kind" "$(hwloc-calc --number-of "$kind" all)"
	done
else
	echo "lstopo-no-graphics is not in the image"
fi
section "slurmd -C"
slurmd -C 2>&1 || true

section "a trivial step"
for i in 1 2 3; do
	t=$(uptime_s)
	as_user srun -N1 -n1 true </dev/null || die "srun -N1 -n1 true failed"
	printf 'srun -N1 -n1 true #%d: %s s\n' "$i" "$(awk -v t="$t" '{ printf "%.2f", $1 - t }' /proc/uptime)"
done
printf 'probe: done after %s s of uptime\n' "$(uptime_s)"
