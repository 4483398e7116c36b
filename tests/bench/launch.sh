#!/usr/bin/env bash
# Launch cost of governor.so: `srun ARGS true` with and without --governor,
# A and B interleaved so that drift affects both alike, on a throwaway local
# cluster (tests/slurm/cluster.sh) with the plugin loaded as a default
# install has it (no plugstack arguments).  The timed command is srun itself,
# run by the test user: the whole measuring loop runs inside one as_user.sh
# call, so no wrapper is inside the timing.  Prints both medians and their
# ratio for each shape (target: at most 1.05).
#   launch.sh [--build DIR] [--runs N] [--dir DIR] [--plugin-args ARGS]
#             [--shape 'SRUN ARGS']...
# Runs as root (it starts Slurm); the jobs run as the test user.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
slurm=$here/../slurm
build=$here/../../build
runs=30
dir=${GOV_CLUSTER_DIR:-/tmp/gov-bench}
plugin_args=
shapes=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--runs) runs=${2:?--runs needs a number}; shift 2 ;;
	--dir) dir=${2:?--dir needs a directory}; shift 2 ;;
	--plugin-args) plugin_args=${2?--plugin-args needs a value}; shift 2 ;;
	--shape) shapes+=("${2:?--shape needs srun arguments}"); shift 2 ;;
	-h | --help) sed -n '2,11p' "$0"; exit 0 ;;
	*) echo "launch.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "launch.sh: --runs needs a positive number" >&2; exit 2; }
plugin=$build/spank/governor.so
[[ -f $plugin ]] || { echo "launch.sh: no $plugin; build first" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "launch.sh: must run as root (it starts Slurm)" >&2; exit 1; }
if [[ ${#shapes[@]} -eq 0 ]]; then
	shapes=('-n1' '-N3 -n12 --overcommit' '-N3 -n48 --overcommit' '-N1 -n64 --overcommit')
fi

trap '"$slurm/cluster.sh" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
"$slurm/cluster.sh" start --dir "$dir" --nodes 3 --plugin "$plugin" --plugin-args "$plugin_args" \
	--wait 300
eval "$("$slurm/cluster.sh" env --dir "$dir")"

# The test user's loop: for each shape, one warm-up of each side, then RUNS
# pairs, alternating which side goes first.  Prints "SHAPE_INDEX A|B MS".
# shellcheck disable=SC2016 # expanded by the user's shell
loop='
runs=$1; shift
ms() {
	local t0=$EPOCHREALTIME t1
	srun "$@" true >/dev/null 2>&1 || { echo "srun $* failed" >&2; exit 1; }
	t1=$EPOCHREALTIME
	echo $(( (${t1/./} - ${t0/./}) / 1000 ))
}
k=0
for shape in "$@"; do
	read -r -a a <<<"$shape"
	ms "${a[@]}" >/dev/null; ms --governor "${a[@]}" >/dev/null
	for ((i = 0; i < runs; i++)); do
		if ((i % 2)); then
			echo "$k B $(ms --governor "${a[@]}")"; echo "$k A $(ms "${a[@]}")"
		else
			echo "$k A $(ms "${a[@]}")"; echo "$k B $(ms --governor "${a[@]}")"
		fi
	done
	k=$((k + 1))
done'
out=$("$slurm/as_user.sh" bash -c "$loop" loop "$runs" "${shapes[@]}")

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for k in "${!shapes[@]}"; do
	mp=$(awk -v k="$k" '$1 == k && $2 == "A" { print $3 }' <<<"$out" | median)
	mg=$(awk -v k="$k" '$1 == k && $2 == "B" { print $3 }' <<<"$out" | median)
	printf 'srun %s true: median %s ms; with --governor %s ms; ratio %s over %d pairs\n' \
		"${shapes[k]}" "$mp" "$mg" "$(awk -v g="$mg" -v p="$mp" 'BEGIN { printf "%.3f", g / p }')" "$runs"
done
echo "target: ratio at most 1.05"
