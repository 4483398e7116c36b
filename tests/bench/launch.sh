#!/usr/bin/env bash
# Launch cost of governor.so: `srun -n1 true` with and without --governor,
# interleaved so that drift affects both alike, on a throwaway local cluster
# (tests/slurm/cluster.sh) with the plugin loaded.  Prints both medians and
# their ratio (target: at most 1.05).
#   launch.sh [--build DIR] [--runs N] [--dir DIR] [--plugin-args ARGS]
# Runs as root (it starts Slurm); the jobs run as the test user.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
slurm=$here/../slurm
build=$here/../../build
runs=30
dir=/tmp/gov-bench
plugin_args=
while [[ $# -gt 0 ]]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--runs) runs=${2:?--runs needs a number}; shift 2 ;;
	--dir) dir=${2:?--dir needs a directory}; shift 2 ;;
	--plugin-args) plugin_args=${2?--plugin-args needs a value}; shift 2 ;;
	-h | --help) sed -n '2,8p' "$0"; exit 0 ;;
	*) echo "launch.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "launch.sh: --runs needs a positive number" >&2; exit 2; }
plugin=$build/spank/governor.so
[[ -f $plugin ]] || { echo "launch.sh: no $plugin; build first" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "launch.sh: must run as root (it starts Slurm)" >&2; exit 1; }

# The topology cache is what keeps hwloc's I/O discovery off the launch path.
mkdir -p "$dir/topology"
chmod 700 "$dir/topology"
[[ -n $plugin_args ]] || plugin_args="topology_cache=$dir/topology"

trap '"$slurm/cluster.sh" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
"$slurm/cluster.sh" start --dir "$dir" --nodes 1 --plugin "$plugin" --plugin-args "$plugin_args" --wait 300
eval "$("$slurm/cluster.sh" env --dir "$dir")"
export GOV_CLUSTER_DIR=$dir

# ms ARGS...: wall time of one `srun ARGS -n1 true` as the test user.
ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$slurm/as_user.sh" srun "$@" -n1 true
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Warm up both paths (and fill the topology cache) before measuring.
ms >/dev/null
ms --governor >/dev/null
plain=() governed=()
for ((i = 0; i < runs; i++)); do
	if ((i % 2)); then
		governed+=("$(ms --governor)")
		plain+=("$(ms)")
	else
		plain+=("$(ms)")
		governed+=("$(ms --governor)")
	fi
done
mp=$(printf '%s\n' "${plain[@]}" | median)
mg=$(printf '%s\n' "${governed[@]}" | median)
printf 'srun -n1 true:            median %s ms over %d runs\n' "$mp" "$runs"
printf 'srun --governor -n1 true: median %s ms over %d runs\n' "$mg" "$runs"
awk -v g="$mg" -v p="$mp" 'BEGIN { printf "ratio: %.3f (target <= 1.05)\n", g / p }'
