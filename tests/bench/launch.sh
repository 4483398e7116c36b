#!/usr/bin/env bash
# Launch cost of governor.so: `srun ARGS true` plainly, with --governor and
# with --governor=runtimes, the three interleaved (each run rotates which
# goes first) so that drift affects them alike, on a throwaway local
# cluster (tests/slurm/cluster.sh) with the plugin loaded as a default
# install has it (no plugstack arguments).  The timed command is srun itself,
# run by the test user: the whole measuring loop runs inside one as_user.sh
# call, so no wrapper is inside the timing.  Prints the medians and the two
# ratios for each shape (target: at most 1.05), then munged's requests per
# step for each side (connections munged accepted during one step, counted
# with strace outside the timed runs): the plugin seals once per step and
# node, so a governed step adds one request a node whatever its task count.
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
	-h | --help) sed -n '2,15p' "$0"; exit 0 ;;
	*) echo "launch.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "launch.sh: --runs needs a positive number" >&2; exit 2; }
plugin=$build/spank/governor.so
[[ -f $plugin ]] || { echo "launch.sh: no $plugin; build first" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "launch.sh: must run as root (it starts Slurm)" >&2; exit 1; }
command -v strace >/dev/null || { echo "launch.sh: strace is missing (tests/install-deps.sh)" >&2; exit 1; }
if [[ ${#shapes[@]} -eq 0 ]]; then
	shapes=('-n1' '-N3 -n48 --overcommit' '-N1 -n32 --overcommit' '-N1 -n128 --overcommit'
		'-N1 -n256 --overcommit')
fi

trap '"$slurm/cluster.sh" stop --dir "$dir" >/dev/null 2>&1 || true' EXIT
"$slurm/cluster.sh" start --dir "$dir" --nodes 3 --plugin "$plugin" --plugin-args "$plugin_args" \
	--wait 300
eval "$("$slurm/cluster.sh" env --dir "$dir")"

# The sides: P plain, G --governor, R --governor=runtimes.
# The test user's loop: for each shape, one warm-up of each side, then RUNS
# rounds, each side once a round, the order rotated.  Prints
# "SHAPE_INDEX SIDE MICROSECONDS".
# shellcheck disable=SC2016 # expanded by the user's shell
loop='
runs=$1; shift
declare -A opt=([P]= [G]=--governor [R]=--governor=runtimes)
us() {
	local t0=$EPOCHREALTIME t1
	srun "$@" true >/dev/null 2>&1 || { echo "srun $* failed" >&2; exit 1; }
	t1=$EPOCHREALTIME
	echo $(( ${t1/./} - ${t0/./} ))
}
orders=("P G R" "G R P" "R P G")
k=0
for shape in "$@"; do
	read -r -a a <<<"$shape"
	for s in P G R; do us ${opt[$s]} "${a[@]}" >/dev/null; done
	for ((i = 0; i < runs; i++)); do
		for s in ${orders[i % 3]}; do
			echo "$k $s $(us ${opt[$s]} "${a[@]}")"
		done
	done
	k=$((k + 1))
done'
out=$("$slurm/as_user.sh" bash -c "$loop" loop "$runs" "${shapes[@]}")

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ms() { # MICROSECONDS
	awk -v u="$1" 'BEGIN { printf "%.1f", u / 1000 }'
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'
}
for k in "${!shapes[@]}"; do
	for s in P G R; do
		declare "m$s=$(awk -v k="$k" -v s="$s" '$1 == k && $2 == s { print $3 }' <<<"$out" | median)"
	done
	# shellcheck disable=SC2154 # declared just above
	printf 'srun %s true: median %s ms; --governor %s ms (ratio %s); --governor=runtimes %s ms (ratio %s); %d rounds\n' \
		"${shapes[k]}" "$(ms "$mP")" "$(ms "$mG")" "$(ratio "$mG" "$mP")" "$(ms "$mR")" \
		"$(ratio "$mR" "$mP")" "$runs"
done
echo "target: ratios at most 1.05"

# munged's requests: the connections it accepts while one step runs (the
# median of three), beside the same count for a plain srun of that shape,
# which is Slurm's own credentials (a few dozen, give or take the daemons'
# background traffic).
pid=$(cat "$dir/munge/munged.pid" 2>/dev/null) || { echo "munged: not this cluster's own; no count"; exit 0; }
accepts_once() { # SRUN ARGS...: munged's accept calls during one srun
	local log st t threads=()
	log=$(mktemp)
	for t in /proc/"$pid"/task/*; do
		threads+=(-p "${t##*/}")
	done
	strace -qq -e trace=accept,accept4 -o "$log" "${threads[@]}" &
	st=$!
	sleep 0.5   # attached to every thread of munged
	"$slurm/as_user.sh" srun "$@" true >/dev/null 2>&1 || true
	sleep 0.5
	kill -INT "$st" 2>/dev/null
	wait "$st" 2>/dev/null || true
	grep -c 'accept4\?(.*= [0-9]' "$log" || true
	rm -f "$log"
}
accepts() {
	{ accepts_once "$@"; accepts_once "$@"; accepts_once "$@"; } | median
}
for shape in "${shapes[@]}"; do
	read -r -a a <<<"$shape"
	p=$(accepts "${a[@]}") g=$(accepts --governor "${a[@]}") r=$(accepts --governor=runtimes "${a[@]}")
	printf 'munged requests, srun %s: plain %s, --governor %s (+%s), --governor=runtimes %s (+%s)\n' \
		"$shape" "$p" "$g" $((g - p)) "$r" $((r - p))
done
