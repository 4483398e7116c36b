#!/usr/bin/env bash
# covers: v1
# v2: needs the runtimes' toolchains (Go, Rust, Java, Node.js, numpy), which the guest image leaves out; the cgroup facts they rely on are checked on v2 by memory_limit, page_cache and cpuset
# Real runtimes (tests/runtimes/probes) inside real steps, alone, under
# `governor run` in a governed step, and with --governor=runtimes and no
# wrapper: each reports the threads it started and the heap it allows
# itself, and a Go program churning garbage is killed by the step's memory
# cgroup alone but finishes under governor run and under the mode.
set -euo pipefail
# shellcheck source=../gov_lib.sh
source "$(dirname "$0")/../gov_lib.sh"

[[ -x $GOV_BUILD_DIR/tests/omp_count ]] || die "no tests/omp_count in the build directory: build with OpenMP (gcc's libgomp)"
gov_plugstack
# One directory per series: each root builds its probes with its own
# toolchains once and keeps them.
work=$GOV_CLUSTER_DIR/runtimes-$(slurm_series)
# Probes the runtimes stage built (run-all) save a build; build.sh finds
# them up to date.  A copy: that build tree may be closed to the test user.
if [[ -d ${GOV_RUNTIME_PROBES:-} ]]; then
	mkdir -p "$work"
	for f in gomaxprocs churn rayon_probe java toolchains; do
		[[ -e $GOV_RUNTIME_PROBES/$f ]] && cp -a "$GOV_RUNTIME_PROBES/$f" "$work/"
	done
fi
bash "$GOV_SRC_DIR/tests/runtimes/build.sh" "$work" >&2 || die "the runtime probes did not build"
omp=$(user_copy "$GOV_BUILD_DIR/tests/omp_count")
probe=$(user_copy "$GOV_SRC_DIR/tests/runtimes/probe.sh")
export GOV_RT_WORK=$work GOV_RT_OMP=$omp GOV_RT_PROBE=$probe

# One step running every CPU and heap probe; prints "NAME KEY=VALUE...".
# shellcheck disable=SC2016 # expanded in the task
all='for p in omp blas go rayon node python java nproc r; do echo "$p $("$@" "$GOV_RT_PROBE" "$GOV_RT_WORK" "$GOV_RT_OMP" "$p")"; done'

# step HOW SRUN_ARGS...: the probes' lines, alone, under governor run, or
# in a step whose tasks the plugin gave the same variables (the mode).
step() {
	local how=$1
	shift
	case $how in
	alone) as_user srun "$@" bash -c "$all" _ ;;
	governed) as_user srun --governor "$@" bash -c "$all" _ "$GOV_TOOL" run -- ;;
	mode) as_user srun --governor=runtimes "$@" bash -c "$all" _ ;;
	esac
}

# val LINES PROBE KEY
val() {
	sed -n "s/^$2 //p" <<<"$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

for shape in "1 400" "2 600"; do
	read -r c mem <<<"$shape"
	alone=$(step alone -n1 -c"$c" --mem="${mem}M")
	printf -- '--- -c%s --mem=%sM alone:\n%s\n' "$c" "$mem" "$alone"
	# R's default is two workers whatever the step; detectCores() the node.
	assert_eq "2 2 $(nproc)" "$(val "$alone" r mc_cores) $(val "$alone" r workers) $(val "$alone" r detect)" \
		"-c$c alone: R mclapply's default mc.cores and workers, detectCores()"
	for how in governed mode; do
		out=$(step "$how" -n1 -c"$c" --mem="${mem}M")
		printf -- '--- %s:\n%s\n' "$how" "$out"
		assert_eq "$c" "$(val "$out" omp threads)" "-c$c $how: OpenMP threads"
		assert_eq "$c" "$(val "$out" blas blas)" "-c$c $how: OpenBLAS threads"
		assert_eq "$c" "$(val "$out" go gomaxprocs)" "-c$c $how: GOMAXPROCS"
		assert_eq "$c" "$(val "$out" rayon rayon)" "-c$c $how: rayon threads"
		assert_eq "$c" "$(val "$out" java cpus)" "-c$c $how: JVM processors"
		assert_eq "$c" "$(val "$out" nproc nproc)" "-c$c $how: nproc"
		assert_eq "$c" "$(val "$out" node parallelism)" "-c$c $how: Node.js availableParallelism"
		assert_eq "$c" "$(val "$out" python affinity)" "-c$c $how: Python sched_getaffinity"
		assert_eq "$c $c $c" "$(val "$out" r mc_cores) $(val "$out" r workers) $(val "$out" r available)" \
			"-c$c $how: R mclapply's default mc.cores, its workers, parallelly::availableCores()"
		heap=$(val "$out" node heap_limit_mib)
		assert_match '^[0-9]+$' "$heap" "-c$c $how: V8 heap limit"
		((heap <= mem)) || die "-c$c --mem=${mem}M: V8 heap limit $heap MiB ($how)"
		heap=$(val "$out" java maxheap_mib)
		((heap <= mem)) || die "-c$c --mem=${mem}M: JVM heap $heap MiB ($how)"
	done
	assert_idle
done

# churn PROBE MEM [LIVE]: PROBE's line in a -n1 -c1 --mem=MEM step alone,
# under governor run and with --governor=runtimes, one line each.
churn() {
	# shellcheck disable=SC2016 # expanded in the task
	local cmd='"$@" "$GOV_RT_PROBE" "$GOV_RT_WORK" "$GOV_RT_OMP" '"$1 ${3:-}"
	as_user srun -n1 -c1 --mem="$2" bash -c "$cmd" _ 2>/dev/null || true
	as_user srun --governor -n1 -c1 --mem="$2" bash -c "$cmd" _ "$GOV_TOOL" run -- || true
	as_user srun --governor=runtimes -n1 -c1 --mem="$2" bash -c "$cmd" _ || true
}

# A live set of 55 % of the step's memory: the Go collector's default heap
# goal (twice the live set) is beyond the step's cgroup.
mapfile -t r < <(churn churn 400M $((400 * 55 / 100)))
printf -- '--- Go churn in --mem=400M: alone %s, under governor run %s, --governor=runtimes %s\n' "${r[@]}"
assert_match '^churn=killed' "${r[0]}" "Go churn alone in --mem=400M"
assert_eq churn=finished "${r[1]}" "Go churn under governor run in --mem=400M"
assert_eq churn=finished "${r[2]}" "Go churn with --governor=runtimes in --mem=400M"
assert_idle

# 200 MiB live in --mem=512M (issue 37): HotSpot sees the step's limit and
# gives its heap a quarter of it, and runs out; the governor's three
# quarters hold the live set.
mapfile -t r < <(churn jchurn 512M)
printf -- '--- Java churn in --mem=512M: alone %s, under governor run %s, --governor=runtimes %s\n' "${r[@]}"
assert_match '^jchurn=out_of_heap' "${r[0]}" "Java churn alone in --mem=512M"
assert_match '^jchurn=finished maxheap_mib=3[0-9][0-9]$' "${r[1]}" "Java churn under governor run in --mem=512M"
assert_match '^jchurn=finished maxheap_mib=3[0-9][0-9]$' "${r[2]}" "Java churn with --governor=runtimes in --mem=512M"
assert_idle

# In a container with its own cgroup namespace (pyxis joins one) the JVM
# sees the host, not the step: the heap's percentage must apply to a
# MaxRAM pinned to the share, or 75 % of the host would be its heap.  The
# kernel refuses user namespaces in a Slurm root (a chroot): there the
# host's series checks it.
if user_namespaces; then
	# shellcheck disable=SC2016 # expanded in the task
	java_in='bwrap --unshare-user --bind / / --dev-bind /dev /dev --unshare-cgroup -- "$GOV_RT_PROBE" "$GOV_RT_WORK" "$GOV_RT_OMP" java'
	alone=$(as_user srun -n1 -c1 --mem=512M bash -c "$java_in" 2>/dev/null)
	mode=$(as_user srun --governor=runtimes -n1 -c1 --mem=512M bash -c "$java_in" 2>/dev/null)
	printf -- '--- JVM in a cgroup namespace, --mem=512M: alone %s, --governor=runtimes %s\n' "$alone" "$mode"
	heap=$(val "java $mode" java maxheap_mib)
	assert_match '^[0-9]+$' "$heap" "the JVM's heap in a cgroup namespace"
	((heap <= 512)) || die "--governor=runtimes in a cgroup namespace: JVM heap $heap MiB past --mem=512M"
else
	echo "$CHROOT_NO_USERNS: the JVM in a cgroup namespace is checked on the host's series"
fi
assert_idle

# Two tasks sharing the step's cpuset (--cpu-bind=none) each count both
# CPUs: joblib's n_jobs=-1 would start two workers in each.  loky reads
# LOKY_MAX_CPU_COUNT: each task then starts its share, one.
# shellcheck disable=SC2016 # expanded in the task
loky='/usr/bin/python3 -c "import joblib; print(joblib.cpu_count())"'
alone=$(as_user srun -n2 -c1 --cpu-bind=none bash -c "$loky" | sort | tr '\n' ' ')
mode=$(as_user srun --governor=runtimes -n2 -c1 --cpu-bind=none bash -c "$loky" | sort | tr '\n' ' ')
printf -- '--- joblib.cpu_count() in two tasks sharing 2 CPUs: alone %s, --governor=runtimes %s\n' "$alone" "$mode"
assert_eq "2 2 " "$alone" "joblib counts the shared cpuset alone"
assert_eq "1 1 " "$mode" "joblib's share with --governor=runtimes"
assert_idle

# 26.05's salloc --exclusive=allocation: whole nodes, and every step all of
# the allocation (no --exact): a step of one task is told both CPUs, two
# tasks of one step that share them (--cpu-bind=none) one each, each
# narrowed onto its own CPU (as gov_narrow_spread shows).  Steps
# that overlap each hold the whole allocation by Slurm's own rule; the
# governor sees one step and cannot divide between them (docs/runtimes.md).
if [[ $(by_series 22.05=no 24.11=no 26.05=yes) == yes ]]; then
	# shellcheck disable=SC2016 # expanded in the steps
	steps='srun -n1 bash -c "$0"; srun --governor=runtimes -n1 bash -c "$0"
		srun -n2 --cpu-bind=none bash -c "$0"; srun --governor=runtimes -n2 --cpu-bind=none bash -c "$0"'
	# shellcheck disable=SC2016 # expanded in the task
	show='echo "$SLURM_STEP_ID $(nproc) ${OMP_NUM_THREADS:-unset}"'
	out=$(as_user salloc --exclusive=allocation -n2 bash -c "$steps" "$show" 2>/dev/null | sort | tr '\n' ' ')
	printf -- '--- salloc --exclusive=allocation -n2, steps (id cpus OMP_NUM_THREADS): %s\n' "$out"
	assert_eq "0 2 unset 1 2 2 2 2 unset 2 2 unset 3 1 1 3 1 1 " "$out" \
		"--exclusive=allocation: each step the allocation, tasks sharing it their share"
	assert_idle
else
	echo "Slurm $(slurm_series) has no --exclusive=allocation (26.05 does)"
fi

# --governor=threads exports the same list of CPU variables: Go sizes itself
# from it without governor run.
# shellcheck disable=SC2016 # expanded in the task
out=$(as_user srun --governor=threads -n1 -c1 bash -c \
	'echo "$GOMAXPROCS $UV_THREADPOOL_SIZE $PYTHON_CPU_COUNT $("$GOV_RT_WORK/gomaxprocs")"')
assert_eq "1 4 1 gomaxprocs=1 numcpu=1" "$out" "--governor=threads for Go, libuv, Python"
assert_idle

# governor doctor --runtimes in a plain -n1 -c1 --mem=400M step: every
# runtime installed asked plainly and under governor run (Python with the
# binding's startup hook in the user's site, as python_pools installs it).
# Under governor run every answer is the budget or within it, but R's
# detectCores(), which counts the node by design and says why.
probes=$GOV_CLUSTER_DIR/probes
mkdir -p "$probes"
for p in go rust openmp; do
	f=$GOV_BUILD_DIR/tool/probes/governor-probe-$p
	[[ -x $f ]] || die "no $f: the build found no compiler for it (go, rustc, gcc's OpenMP)"
	install -m 755 "$f" "$probes/"
done
chmod 755 "$probes"
site=$GOV_CLUSTER_DIR/pyuser/lib/python$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/site-packages
mkdir -p "$site"
cp "$GOV_SRC_DIR/contrib/python/governor_cpu_count.py" "$GOV_SRC_DIR/contrib/python/governor-cpu-count.pth" "$site/"
chmod -R a+rX "$GOV_CLUSTER_DIR/pyuser"
json=$(as_user srun --governor -n1 -c1 --mem=400M env PYTHONUSERBASE="$GOV_CLUSTER_DIR/pyuser" \
	"$GOV_TOOL" doctor --runtimes --json --probes "$probes")
as_user srun --governor -n1 -c1 --mem=400M env PYTHONUSERBASE="$GOV_CLUSTER_DIR/pyuser" \
	"$GOV_TOOL" doctor --runtimes --probes "$probes" || die "governor doctor --runtimes failed"
asked=$(jq -r '[.runtimes[] | select(.status == "asked") | .runtime] | join(" ")' <<<"$json")
assert_match '^go java node python openblas openmp( pytorch)?( joblib)? rust r$' "$asked" \
	"doctor --runtimes asked every runtime the case needs"
assert_eq "1 $((400 << 20))" "$(jq -r '"\(.budget.threads) \(.budget.memory_bytes)"' <<<"$json")" \
	"doctor --runtimes: the budget of one process"
off=$(jq -r '[.runtimes[] | select(.status == "asked") | .runtime as $r | .decisions[]
	| select(.verdict != "ok" and .verdict != "fixed") | "\($r).\(.key)=\(.verdict)"] | join(" ")' <<<"$json")
assert_eq "r.detect_cores=exceeds" "$off" "doctor --runtimes: every governed answer within the budget but detectCores()"
assert_eq "1" "$(jq -r '[.runtimes[] | select(.runtime == "r") | .decisions[] | select(.key == "detect_cores") | .why | test("counts the node")] | length' <<<"$json")" \
	"doctor --runtimes: detectCores() says why"
fixed=$(jq -r '[.runtimes[] | .runtime as $r | .decisions[]? | select(.verdict == "fixed") | "\($r).\(.key)"] | join(" ")' <<<"$json")
printf -- '--- doctor --runtimes, fixed by governor run: %s\n' "$fixed"
for d in go.memory node.memory python.cpu_count r.mc_cores; do
	[[ " $fixed " == *" $d "* ]] || die "doctor --runtimes: $d not fixed by governor run: $fixed"
done
assert_idle

# Two tasks on one node share the step's 400 MiB: each plans for 200 MiB.
out=$(as_user srun --governor -N1 -n2 -c1 --mem=400M "$GOV_TOOL" plan --json |
	jq -r .memory_limit_per_worker_bytes | sort -u)
assert_eq $((200 << 20)) "$out" "memory per task of a two-task step"
