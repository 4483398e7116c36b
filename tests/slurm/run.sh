#!/usr/bin/env bash
# Runs every end-to-end case (tests/slurm/cases/*.sh) against a throwaway
# local Slurm cluster, which it starts and always stops.
#   run.sh [--slurm SERIES] [--build DIR] [--plugin-args ARGS] [--nodes N]
#          [--dir DIR] [--debug LEVEL] [--case-timeout S] [--timeout S]
#          [--cgroup v1|v2] [--cluster-arg ARG]... [CASE...]
# Without --slurm it uses the host's Slurm and builds nothing. With --slurm
# 24.11 or 26.05 (series the host lacks) the whole run happens inside a cached
# Debian root of that series (root.sh, chroot.sh); with --slurm, DIR is first
# built against that series (build.sh: a directory of its own per series).
# --cluster-arg passes one more option to cluster.sh start (repeatable; two
# machines, tests/guest/pair.sh: --cluster-arg --machines --cluster-arg ...).
# Each case declares the cgroup modes it covers ('# covers: v1 v2', on every
# series the harness runs in that mode) and, for a mode it leaves out, why
# ('# v2: REASON'); a case that does not cover --cgroup (default v1) is
# listed with its reason and not run, one that declares nothing fails.
# A case exits 0 (pass), 77 (skip) or anything else (fail). The last line is
# 'N passed, N failed' (', N skipped' when some were). Exit status 0 only
# when nothing failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
argv=("$@")

series=
build=
plugin_args=
nodes=3
dir=${GOV_CLUSTER_DIR:-/tmp/gov-cluster}
case_timeout=240
total_timeout=1800
debug=info
cgroup=v1
extra=()
cases=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--slurm) series=${2:?--slurm needs a series such as 24.11}; shift 2 ;;
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--plugin-args) plugin_args=${2?--plugin-args needs a value}; shift 2 ;;
	--nodes) nodes=${2:?--nodes needs a value}; shift 2 ;;
	--dir) dir=${2:?--dir needs a directory}; shift 2 ;;
	--debug) debug=${2:?--debug needs a level}; shift 2 ;;
	--case-timeout) case_timeout=${2:?--case-timeout needs seconds}; shift 2 ;;
	--timeout) total_timeout=${2:?--timeout needs seconds}; shift 2 ;;
	--cgroup) cgroup=${2:?--cgroup needs v1 or v2}; shift 2 ;;
	--cluster-arg) extra+=("${2:?--cluster-arg needs a value}"); shift 2 ;;
	-h | --help) sed -n '2,19p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) cases+=("$1"); shift ;;
	esac
done
[[ $case_timeout =~ ^[0-9]+$ && $total_timeout =~ ^[0-9]+$ ]] ||
	{ echo "run.sh: timeouts are whole seconds" >&2; exit 2; }
[[ $cgroup == v1 || $cgroup == v2 ]] || { echo "run.sh: --cgroup takes v1 or v2, got '$cgroup'" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "run.sh: must run as root (it starts Slurm daemons)" >&2; exit 1; }
if [[ ${#cases[@]} -eq 0 ]]; then
	cases=("$here"/cases/*.sh)
	[[ -e ${cases[0]} ]] || { echo "run.sh: no cases in $here/cases" >&2; exit 1; }
fi
for i in "${!cases[@]}"; do
	[[ -f ${cases[i]} ]] || { echo "run.sh: no case file '${cases[i]}'" >&2; exit 2; }
	cases[i]=$(realpath "${cases[i]}")
done

dir=$(realpath -m "$dir")

# The series the host (or this root) has installed: '22.05', '24.11', '26.05'.
installed_series() {
	dpkg-query -W -f='${Version}' slurmd 2>/dev/null | grep -oE '^[0-9]+\.[0-9]+' || true
}

if [[ -n $series ]]; then
	[[ $series =~ ^[0-9]+\.[0-9]+$ ]] || { echo "run.sh: --slurm takes a series such as 24.11, got '$series'" >&2; exit 2; }
	have=$(installed_series)
	if [[ $have != "$series" ]]; then
		# Inside a root already: its series is the wrong one.
		[[ -z ${GOV_IN_ROOT:-} ]] || { echo "run.sh: this root has Slurm ${have:-none}, not $series" >&2; exit 1; }
		binds=()
		[[ -n $build ]] && binds=(--bind "$(realpath -m "$build")")
		exec env GOV_IN_ROOT=1 bash "$here/chroot.sh" run --series "$series" ${binds[@]+"${binds[@]}"} \
			--cluster-dir "$dir" bash "$here/run.sh" "${argv[@]}"
	fi
	[[ -z $build ]] || bash "$here/build.sh" "$build"
fi

# Another engineer's cluster may be running: wait for it rather than fail.
cluster_args=(--dir "$dir" --nodes "$nodes" --debug "$debug" --wait 300 --cgroup "$cgroup" ${extra[@]+"${extra[@]}"})
plugin=
if [[ -n $build ]]; then
	[[ -d $build ]] || { echo "run.sh: build directory '$build' does not exist" >&2; exit 2; }
	build=$(cd "$build" && pwd)
	if [[ -f $build/spank/governor.so ]]; then
		plugin=$build/spank/governor.so
		cluster_args+=(--plugin "$plugin" --plugin-args "$plugin_args")
	else
		echo "run.sh: no spank/governor.so in $build; cases that need it are skipped" >&2
	fi
fi

stop_cluster() {
	"$here/cluster.sh" stop --dir "$dir" || true
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

# The test user exists before any case asks for its home (a fresh root
# has none until as_user.sh first runs).
"$here/as_user.sh" true

started=$SECONDS
if ! "$here/cluster.sh" start "${cluster_args[@]}"; then
	echo "run.sh: the cluster did not start (logs above)"
	echo "0 passed, ${#cases[@]} failed"
	exit 1
fi
eval "$("$here/cluster.sh" env --dir "$dir")"
printf 'run.sh: cluster up in %ss (%s)\n' $((SECONDS - started)) "$(scontrol version 2>&1 || true)"
# The plugin as plugstack.conf loads it: cluster.sh's readable copy.
[[ -n $plugin ]] && plugin=$GOV_CLUSTER_DIR/lib/$(basename "$plugin")
export GOV_PLUGIN=$plugin GOV_BUILD_DIR=$build GOV_CGROUP=$cgroup
# How this run started the cluster, for cases that restart it with other
# options (restart_cluster in lib.sh).
GOV_CLUSTER_START_ARGS=$(printf '%q ' "${cluster_args[@]}")
export GOV_CLUSTER_START_ARGS
GOV_SRC_DIR=$(cd "$here/../.." && pwd)
export GOV_SRC_DIR
# shellcheck source=lib.sh
source "$here/lib.sh"

results=$GOV_CLUSTER_LOGS/cases
mkdir -p "$results"
cp "$GOV_CLUSTER_DIR/etc/plugstack.conf" "$GOV_CLUSTER_DIR/run/plugstack.conf.orig"

# After a case: its jobs must be gone and every node must come back to idle
# by itself (the node leaves 'comp' shortly after a job ends); a job left
# behind, or a node drained or down, is a failure. Then everything is put
# back so the next case starts clean.
check_nodes() {
	local i states jobs job deadline=$((SECONDS + 120))
	while ((SECONDS < deadline)); do
		jobs=$(squeue -h -o '%i %u %T %j' 2>/dev/null || echo '? squeue does not answer')
		[[ -z $jobs ]] && all_idle && return 0
		states=$(node_states || true)
		grep -Eq ' (drain|drng|down|fail|failg)\*?$' <<<"$states" && break
		sleep 0.2
	done
	printf 'after the case, nodes not idle or jobs left:\n%s\n' "${states:-<no answer>}"
	sinfo -R 2>/dev/null || true
	if [[ -n $jobs ]]; then
		while IFS= read -r job; do
			printf 'left over job: %s\n' "$job"
		done <<<"$jobs"
		# shellcheck disable=SC2046 # one job id per word
		scancel --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null || true
	fi
	for ((i = 1; i <= GOV_CLUSTER_NODES; i++)); do
		scontrol update nodename="node$i" state=resume >/dev/null 2>&1 || true
	done
	deadline=$((SECONDS + 120))
	while ((SECONDS < deadline)); do
		[[ -z $(squeue -h -o %i 2>/dev/null) ]] && all_idle && return 1
		sleep 0.2
	done
	echo "restarting the cluster"
	"$here/cluster.sh" start "${cluster_args[@]}" || true
	cp "$GOV_CLUSTER_DIR/etc/plugstack.conf" "$GOV_CLUSTER_DIR/run/plugstack.conf.orig"
	return 1
}

# covers CASE: the cgroup modes CASE declares ('# covers: v1 v2').
covers() {
	sed -n 's/^# covers: *//p' "$1" | head -n1
}

passed=0 failed=0 skipped=0 other=0
for c in "${cases[@]}"; do
	name=$(basename "$c" .sh)
	modes=$(covers "$c")
	if [[ ! $modes =~ ^(v1|v2)( (v1|v2))*$ ]]; then
		printf 'FAIL  %s (declares no cgroup modes: add "# covers: v1 v2", or the ones it covers)\n' "$name"
		failed=$((failed + 1))
		continue
	fi
	if [[ " $modes " != *" $cgroup "* ]]; then
		why=$(sed -n "s/^# $cgroup: *//p" "$c" | head -n1)
		if [[ -z $why ]]; then
			printf 'FAIL  %s (covers %s, and says nowhere why not %s: add "# %s: REASON")\n' \
				"$name" "$modes" "$cgroup" "$cgroup"
			failed=$((failed + 1))
		else
			printf 'N/A   %s: cgroup %s: %s\n' "$name" "$cgroup" "$why"
			other=$((other + 1))
		fi
		continue
	fi
	out=$results/$name.log
	left=$((total_timeout - SECONDS + started))
	if ((left <= 0)); then
		printf 'FAIL  %s (not run: the %ss global time bound is spent)\n' "$name" "$total_timeout"
		failed=$((failed + 1))
		continue
	fi
	limit=$((left < case_timeout ? left : case_timeout))
	t0=$SECONDS
	rc=0
	(cd "$results" && timeout --kill-after=5 "$limit" bash "$c") >"$out" 2>&1 || rc=$?
	cp "$GOV_CLUSTER_DIR/run/plugstack.conf.orig" "$GOV_CLUSTER_DIR/etc/plugstack.conf"
	((rc == 124 || rc == 137)) && printf 'timed out after %ss\n' "$limit" >>"$out"
	if ! check_nodes >>"$out" 2>&1; then
		((rc == 0 || rc == 77)) && rc=1
	fi
	dt=$((SECONDS - t0))
	# A skip must name a fact of the machine (tests/skip-facts); any other
	# is a failure that would hide itself.
	reason=$(grep -m1 '^SKIP:' "$out" | cut -c7- || true)
	if ((rc == 77)) && ! "$here/../check-skips.sh" <<<"SKIP  $name: $reason" >>"$out"; then
		rc=1
	fi
	case $rc in
	0) printf 'PASS  %s (%ss)\n' "$name" "$dt"; passed=$((passed + 1)) ;;
	77) printf 'SKIP  %s: %s\n' "$name" "$reason"; skipped=$((skipped + 1)) ;;
	*)
		printf 'FAIL  %s (exit %s, %ss; log %s)\n' "$name" "$rc" "$dt" "$out"
		tail -n 30 "$out" | sed 's/^/    | /'
		failed=$((failed + 1))
		;;
	esac
done

if ((failed > 0)); then
	printf 'daemon logs: %s\n' "$GOV_CLUSTER_LOGS"
fi
stop_cluster
trap - EXIT
# Emulated GPU device nodes (cluster.sh --gpus) must not outlive the run.
if [[ -e $GOV_CLUSTER_DIR/fake-devices ]]; then
	printf 'run.sh: fake GPU devices left behind: %s\n' "$(tr '\n' ' ' <"$GOV_CLUSTER_DIR/fake-devices")"
	failed=$((failed + 1))
fi
((other > 0)) && printf 'run.sh: %s cases cover only the other cgroup mode (N/A above, with why)\n' "$other"
summary="$passed passed, $failed failed"
((skipped > 0)) && summary+=", $skipped skipped"
printf 'run.sh: total %ss\n' $((SECONDS - started))
echo "$summary"
((failed == 0))
