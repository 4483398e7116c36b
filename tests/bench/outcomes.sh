#!/usr/bin/env bash
# What fitting pays (issue 37): real programs in real Slurm steps, each run
# plainly and with --governor=runtimes, the two interleaved (each round
# rotates which goes first), on a throwaway local cluster
# (tests/slurm/cluster.sh) with the plugin loaded as a default install
# has it.  For each run: the outcome (finished, killed by the kernel's OOM
# killer, the runtime's own out-of-memory, timeout), Slurm's own count of
# OOM kills (srun's "Detected N oom-kill event(s)"), wall time (srun
# itself, timed in the test user's shell: no wrapper inside the timing),
# the largest process's peak RSS, and the threads the tasks' runtimes
# started per CPU of the step.  Figures, not pass/fail: prints the table
# (tests/bench/outcomes_report.py) and writes OUT/outcomes.tsv,
# OUT/outcomes.md and the plot OUT/outcomes.svg (gnuplot).
#   outcomes.sh [--build DIR] [--probes DIR] [--runs N] [--dir DIR] [--out DIR]
#               [--cgroup v1|v2] [--timeout S] [--no-plot] [--no-doctor]
#               [--cases NAME,...]
# --probes: probes tests/runtimes/build.sh already built (the runtimes
# stage's), copied instead of built: a machine without the toolchains (the
# cgroup v2 guest) runs them so.  --cgroup: the cluster's (cluster.sh).
# --timeout: how long a program may run before it counts as thrashing
# (default 60 s; the emulated guest runs about ten times slower).
# --no-plot: the table alone (the guest has no gnuplot).
# --cases: only these programs (go node java blas rayon pool torch r;
# default all).  Also writes OUT/doctor_runtimes.txt: governor doctor
# --runtimes in a plain step of the memory-bound programs' shape
# (--no-doctor: not).
# Runs as root (it starts Slurm); the jobs run as the test user.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
slurm=$here/../slurm
build=$here/../../build
runs=3
dir=${GOV_CLUSTER_DIR:-/tmp/gov-outcomes}
out=
probes=
cgroup=v1
timeout=60
no_plot=
no_doctor=
only=
while [[ $# -gt 0 ]]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--runs) runs=${2:?--runs needs a number}; shift 2 ;;
	--dir) dir=${2:?--dir needs a directory}; shift 2 ;;
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--probes) probes=${2:?--probes needs a directory}; shift 2 ;;
	--cgroup) cgroup=${2:?--cgroup needs v1 or v2}; shift 2 ;;
	--timeout) timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--no-plot) no_plot=1; shift ;;
	--no-doctor) no_doctor=1; shift ;;
	--cases) only=${2:?--cases needs names}; shift 2 ;;
	-h | --help) sed -n '2,27p' "$0"; exit 0 ;;
	*) echo "outcomes.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "outcomes.sh: --runs needs a positive number" >&2; exit 2; }
[[ $timeout =~ ^[1-9][0-9]*$ ]] || { echo "outcomes.sh: --timeout needs whole seconds" >&2; exit 2; }
build=$(cd "$build" && pwd)
out=${out:-$build/outcomes}
plugin=$build/spank/governor.so
[[ -f $plugin ]] || { echo "outcomes.sh: no $plugin; build first" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "outcomes.sh: must run as root (it starts Slurm)" >&2; exit 1; }
[[ -z $probes || -f $probes/toolchains ]] ||
	{ echo "outcomes.sh: $probes holds no built probes (tests/runtimes/build.sh)" >&2; exit 2; }
[[ -n $no_plot ]] || command -v gnuplot >/dev/null || { echo "outcomes.sh: gnuplot is missing (tests/install-deps.sh)" >&2; exit 1; }
mkdir -p "$out"

# CASE KIND CPUS SHAPE: memory-bound programs in one task whose memory the
# step's cgroup holds; CPU-bound ones in tasks that share one cpuset
# (--cpu-bind=none: each counts both CPUs), in one CPU (the pool) or in
# two (PyTorch, which counts cores its own way).
cases='go memory 1 -n1 -c1 --mem=400M
node memory 1 -n1 -c1 --mem=512M
java memory 1 -n1 -c1 --mem=512M
blas cpu 2 -n2 -c1 --mem=1G --cpu-bind=none
rayon cpu 2 -n2 -c1 --mem=1G --cpu-bind=none
pool cpu 1 -n1 -c1 --mem=1G
torch cpu 2 -n1 -c2 --mem=1G
r memory 1 -n1 -c1 --mem=400M'
if [[ -n $only ]]; then
	for n in ${only//,/ }; do
		grep -q "^$n " <<<"$cases" || { echo "outcomes.sh: no case '$n' (go node java blas rayon pool torch r)" >&2; exit 2; }
	done
	cases=$(grep -E "^(${only//,/|}) " <<<"$cases")
fi

trap '"$slurm/cluster.sh" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
"$slurm/cluster.sh" start --dir "$dir" --nodes 1 --plugin "$plugin" --cgroup "$cgroup" --wait 300
eval "$("$slurm/cluster.sh" env --dir "$dir")"
# shellcheck source=../slurm/lib.sh
source "$slurm/lib.sh"

# The probes, built with Debian's toolchains (or copied), where the test
# user reads them.
work=$dir/probes
if [[ -n $probes ]]; then
	rm -rf "$work" && mkdir -p "$work"
	for f in "$probes"/*; do
		[[ $(basename "$f") == cache || $(basename "$f") == rayon-src ]] || cp -a "$f" "$work/"
	done
	chmod -R a+rX "$work"
else
	bash "$here/../runtimes/build.sh" "$work" >&2
fi
# The Python binding's startup hook, where a user's site directory has it.
if grep -q '^pool ' <<<"$cases" || [[ -z $no_doctor ]]; then
	site=$work/pyuser/lib/python$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')/site-packages
	mkdir -p "$site"
	cp "$here/../../contrib/python/governor_cpu_count.py" "$here/../../contrib/python/governor-cpu-count.pth" "$site/"
	chmod -R a+rX "$work"
fi
task=$(user_copy "$here/outcome_task.sh")

# The test user's loop: RUNS rounds, each case once a side a round, the
# side that goes first alternating.  Prints "CASE SIDE ROUND MS OOM" and
# then the tasks' lines, each prefixed "task ".
# shellcheck disable=SC2016 # expanded by the user's shell
loop='
runs=$1 task=$2 work=$3 cases=$4 timeout=$5
for ((r = 1; r <= runs; r++)); do
	while read -r name kind cpus shape; do
		sides="P R"; ((r % 2)) || sides="R P"
		for s in $sides; do
			opt=; [[ $s == R ]] && opt=--governor=runtimes
			t0=$EPOCHREALTIME
			o=$(srun $opt $shape bash "$task" "$work" "$name" "$timeout" </dev/null 2>/tmp/outcomes.err.$$) || true
			t1=$EPOCHREALTIME
			oom=$(sed -n "s/.*Detected \([0-9]*\) oom.kill event.*/\1/p" /tmp/outcomes.err.$$ | head -n1)
			printf "run %s %s %d %d %s\n" "$name" "$s" "$r" \
				$(( (${t1/./} - ${t0/./}) / 1000 )) "${oom:-0}"
			sed "s/^/task /" <<<"$o"
		done
	done <<<"$cases"
done
rm -f /tmp/outcomes.err.$$'
"$slurm/as_user.sh" bash -c "$loop" _ "$runs" "$task" "$work" "$cases" "$timeout" >"$out/raw.txt"

# What each runtime decides in a plain step of the memory-bound
# programs' shape, asked by the governor itself (docs/outcomes.md).
if [[ -z $no_doctor ]]; then
	tool=$(user_copy "$build/tool/governor")
	mkdir -p "$work/doctor"
	for f in "$build"/tool/probes/governor-probe-*; do
		[[ ! -f $f ]] || cp "$f" "$work/doctor/"
	done
	chmod -R a+rX "$work/doctor"
	"$slurm/as_user.sh" srun -n1 -c1 --mem=400M env PYTHONUSERBASE="$work/pyuser" \
		"$tool" doctor --runtimes --probes "$work/doctor" >"$out/doctor_runtimes.txt"
fi

{
	printf 'host=%s cpus=%s slurm=%s cgroup=v%s\n' "$(uname -r)" "$(nproc)" \
		"$(scontrol version | awk '{print $2}')" "$([[ $(stat -fc %T /sys/fs/cgroup) == cgroup2fs ]] && echo 2 || echo 1)"
	# Go and Rust as the probes were built (toolchains: build.sh's record).
	printf 'runtimes: %s; %s; %s; %s; %s\n' "$(awk '/^go version/ {print $3}' "$work/toolchains")" \
		"Node.js $(/usr/bin/node --version)" \
		"$(/usr/lib/jvm/default-java/bin/java -version 2>&1 | head -n1)" \
		"$(/usr/bin/python3 -V) numpy $(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)')" \
		"$(awk '/^cargo/ {print "Rust", $2}' "$work/toolchains") rayon"
	printf 'PyTorch: %s\n' "$(/usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null || echo none)"
	printf 'R: %s\n' "$(/usr/bin/Rscript -e 'cat(R.version$major, R.version$minor, sep = ".")' 2>/dev/null || echo none)"
} >"$out/machine.txt"
python3 "$here/outcomes_report.py" ${no_plot:+--no-plot} "$out/raw.txt" "$cases" "$out"
