#!/usr/bin/env bash
# Real runtimes from Debian's packages in real allocations, alone and under
# `governor run`: each probe (tests/runtimes/probes) reports what the
# runtime chose for itself (threads, heap limit, whether it finished).
# Prints the before/after table and checks that under `governor run` every
# runtime fits its allocation and none is undersubscribed.
#   run.sh BUILDDIR [WORKDIR]
# Allocations: the whole machine, `taskset -c 0`, and (as root, on a host
# with cgroup v1 cpu and memory controllers) a cgroup with a 0.5-CPU quota
# and a 512 MiB memory limit, made and removed here.  The real Slurm steps
# are tests/slurm/cases/gov_runtimes.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../slurm/lib.sh
source "$here/../slurm/lib.sh"
# shellcheck source=../lib/assert.sh
source "$here/../lib/assert.sh"

build=$(cd "${1:?usage: run.sh BUILDDIR [WORKDIR]}" && pwd)
work=${2:-$build/runtimes}
gov=$build/tool/governor
omp=$build/tests/omp_count
for f in "$gov" "$omp"; do
	[[ -x $f ]] || die "$f is missing: build with 'meson compile -C $build' (OpenMP needed)"
done
/usr/bin/python3 -c 'import numpy, threadpoolctl' 2>/dev/null ||
	die "Debian's python3 lacks numpy or threadpoolctl: apt-get install python3-numpy python3-threadpoolctl libopenblas0-pthread"
[[ -x /usr/bin/node ]] || die "/usr/bin/node is missing: apt-get install nodejs"
[[ -x /usr/lib/jvm/default-java/bin/java ]] || die "no Debian JVM: apt-get install default-jdk-headless"
bash "$here/build.sh" "$work"
java=/usr/lib/jvm/default-java/bin/java
# in_alloc ALLOC CMD...: CMD inside allocation ALLOC.
in_alloc() {
	local alloc=$1
	shift
	case $alloc in
	host) "$@" ;;
	taskset) taskset -c 0 "$@" ;;
	cgroup) sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" && shift 2 && exec "$@"' \
		_ "$cpu_cg" "$mem_cg" "$@" ;;
	esac
}

# run ALLOC MODE PROBE: the probe's line, alone or under governor run, from
# a clean environment: nothing of the caller's (NODE_OPTIONS,
# OMP_NUM_THREADS...) may decide the result.
run() {
	local pre=()
	[[ $2 == governed ]] && pre=("$gov" run --)
	in_alloc "$1" env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8 \
		"${pre[@]}" "$here/probe.sh" "$work" "$omp" "$3" "$churn_live"
}

# The cgroup allocation: children of this process's own v1 cgroups.
cgroup_dir() { # CONTROLLER
	local mnt path
	mnt=$(cgroup_mount "$1")
	[[ -n $mnt ]] || return 1
	path=$(awk -F: -v c="$1" '{ n = split($2, a, ","); for (i = 1; i <= n; i++) if (a[i] == c) print $3 }' /proc/self/cgroup)
	printf '%s%s/gov-runtimes-%s\n' "$mnt" "${path%/}" "$$"
}
allocs=(host taskset)
cpu_cg= mem_cg=
cleanup() {
	local d
	for d in "$cpu_cg" "$mem_cg"; do
		[[ -n $d && -d $d ]] && rmdir "$d" 2>/dev/null || true
	done
}
trap cleanup EXIT
if [[ $(id -u) -eq 0 ]] && cpu_cg=$(cgroup_dir cpu) && mem_cg=$(cgroup_dir memory); then
	mkdir -p "$cpu_cg" "$mem_cg"
	echo 100000 >"$cpu_cg/cpu.cfs_period_us"
	echo 50000 >"$cpu_cg/cpu.cfs_quota_us"
	echo $((512 << 20)) >"$mem_cg/memory.limit_in_bytes"
	# No swap to hide in: the limit must hold the memory itself.
	[[ -e $mem_cg/memory.memsw.limit_in_bytes ]] &&
		echo $((512 << 20)) >"$mem_cg/memory.memsw.limit_in_bytes" 2>/dev/null || true
	allocs+=(cgroup)
else
	cpu_cg= mem_cg=
	echo "run.sh: SKIP the cgroup allocation: needs root and cgroup v1 cpu and memory controllers"
fi

declare -A ceiling=([host]=$(nproc) [taskset]=1 [cgroup]=1)
declare -A title=([host]="whole machine ($(nproc) CPUs)" [taskset]="taskset -c 0"
	[cgroup]="cgroup v1: 0.5 CPU, 512 MiB")
probes=(omp blas go rayon node python java nproc churn jchurn)
declare -A label=([omp]="gcc -fopenmp" [blas]="numpy/OpenBLAS" [go]="Go $(/usr/bin/go env GOVERSION)"
	[rayon]="Rust rayon" [node]="Node.js $(/usr/bin/node --version)"
	[python]="$(/usr/bin/python3 -V)" [java]="Java $("$java" -version 2>&1 | sed -n '1s/.*"\(.*\)".*/\1/p')"
	[nproc]="coreutils nproc" [churn]="Go churn" [jchurn]="Java churn")
declare -A res
t0=$SECONDS
for a in "${allocs[@]}"; do
	churn_live=280
	for p in "${probes[@]}"; do
		# The churn program only means something where memory is limited.
		[[ $p == *churn && $a != cgroup ]] && continue
		for m in alone governed; do
			res[$a,$p,$m]=$(run "$a" "$m" "$p" 2>&1 | tail -n1)
		done
	done
done

printf '\n%-22s %-30s %s\n' runtime allocation "alone  ->  under governor run"
for p in "${probes[@]}"; do
	for a in "${allocs[@]}"; do
		[[ -n ${res[$a,$p,alone]+x} ]] || continue
		printf '%-22s %-30s %s  ->  %s\n' "${label[$p]}" "${title[$a]}" "${res[$a,$p,alone]}" "${res[$a,$p,governed]}"
	done
done
printf '(%ss)\n\n' $((SECONDS - t0))

# value ALLOC PROBE MODE KEY: one KEY=VALUE of a probe's line.
value() {
	tr ' ' '\n' <<<"${res[$1,$2,$3]}" | sed -n "s/^$4=//p"
}
at_most() { # WHAT LIMIT ACTUAL
	if [[ $3 =~ ^[0-9]+$ ]] && (($3 <= $2)); then
		pass "$1 ($3 <= $2)"
	else
		fail "$1" "'$3' is not at most $2"
	fi
}
for a in "${allocs[@]}"; do
	c=${ceiling[$a]}
	# Exactly the allocation: within it, and the single process not
	# undersubscribed.
	check "$a: OpenMP threads" "$c" "$(value "$a" omp governed threads)"
	check "$a: OpenBLAS threads" "$c" "$(value "$a" blas governed blas)"
	check "$a: GOMAXPROCS" "$c" "$(value "$a" go governed gomaxprocs)"
	check "$a: rayon threads" "$c" "$(value "$a" rayon governed rayon)"
	check "$a: JVM processors" "$c" "$(value "$a" java governed cpus)"
	check "$a: nproc" "$c" "$(value "$a" nproc governed nproc)"
	# Runtimes that count only the affinity mask: governor run narrows it
	# under a quota.
	check "$a: Node.js availableParallelism" "$c" "$(value "$a" node governed parallelism)"
	check "$a: Python sched_getaffinity" "$c" "$(value "$a" python governed affinity)"
done
if [[ -n $mem_cg ]]; then
	at_most "cgroup: V8 heap limit within 512 MiB" 512 "$(value cgroup node governed heap_limit_mib)"
	at_most "cgroup: JVM heap within 512 MiB" 512 "$(value cgroup java governed maxheap_mib)"
	check "cgroup: Go churn alone is killed" killed "$(value cgroup churn alone churn | cut -d'(' -f1)"
	check "cgroup: Go churn under governor run finishes" finished "$(value cgroup churn governed churn)"
	# 200 MiB live in 512 MiB: the JVM's own quarter runs out of heap.
	check "cgroup: Java churn alone runs out of heap" out_of_heap \
		"$(value cgroup jchurn alone jchurn | cut -d'(' -f1)"
	check "cgroup: Java churn under governor run finishes" finished "$(value cgroup jchurn governed jchurn)"
fi
finish
