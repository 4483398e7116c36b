#!/usr/bin/env bash
# The long fuzzing run (not part of CI; docs/testing.md has its figures):
# every libFuzzer target of a -Dfuzz=true build, one after the other, until
# it has executed --runs inputs (default 10 million) or spent --max-time
# seconds (default 3600), starting from its seed corpus in
# tests/fuzz/corpus/NAME.  Prints one table row per target: executions,
# seconds, rate, coverage, corpus size.  A crash stops that target, keeps
# the input (crash-*) in the work directory and makes the exit status 1.
#   long-run.sh BUILDDIR [--runs N] [--max-time S] [--work DIR] [--update-seeds] [TARGET...]
# --update-seeds: add to tests/fuzz/corpus/NAME the inputs the run found
# that add coverage to the seeds (-merge=1), so that the seeds stay small.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:?usage: long-run.sh BUILDDIR [--runs N] [--max-time S] [--work DIR] [--update-seeds] [TARGET...]}
shift
runs=10000000 max_time=3600 work= update=false targets=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--runs) runs=${2:?--runs needs a count}; shift 2 ;;
	--max-time) max_time=${2:?--max-time needs seconds}; shift 2 ;;
	--work) work=${2:?--work needs a directory}; shift 2 ;;
	--update-seeds) update=true; shift ;;
	-h | --help) sed -n '2,13p' "$0"; exit 0 ;;
	-*) echo "long-run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) targets+=("$1"); shift ;;
	esac
done
[[ $runs =~ ^[0-9]+$ && $max_time =~ ^[0-9]+$ ]] || { echo "long-run.sh: --runs and --max-time take whole numbers" >&2; exit 2; }
[[ -d $build/tests/fuzz ]] || { echo "long-run.sh: no tests/fuzz in '$build': configure it with CC=clang meson setup DIR -Dfuzz=true -Db_lundef=false" >&2; exit 2; }
if [[ ${#targets[@]} -eq 0 ]]; then
	for t in "$build"/tests/fuzz/fuzz_*; do
		[[ -x $t && -f $t ]] && targets+=("$(basename "$t" | sed 's/^fuzz_//')")
	done
fi
work=${work:-$(mktemp -d /var/tmp/gov-fuzz-XXXXXX)}
mkdir -p "$work"
echo "long-run.sh: work directory $work; $(nproc) CPUs; $(uname -r); $(clang --version | head -n1)"
printf '%-14s %12s %8s %10s %6s %8s\n' target executions seconds exec/s cov corpus
status=0
for t in "${targets[@]}"; do
	exe=$build/tests/fuzz/fuzz_$t
	[[ -x $exe ]] || { echo "long-run.sh: no fuzz target '$t' in $build" >&2; exit 2; }
	corpus=$work/$t
	mkdir -p "$corpus"
	cp -rn "$here/corpus/$t/." "$corpus/"
	log=$work/$t.log
	t0=$(date +%s.%N)
	rc=0
	(cd "$work" && "$exe" -runs="$runs" -max_total_time="$max_time" -print_final_stats=1 \
		-artifact_prefix="$work/$t-" "$corpus" >"$log" 2>&1) || rc=$?
	secs=$(echo "$(date +%s.%N) - $t0" | bc)
	n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n1 | grep -o '[0-9]*$' || echo '?')
	printf '%-14s %12s %8.0f %10.0f %6s %8s%s\n' "$t" "$n" "$secs" "$(echo "$n / $secs" | bc)" "$cov" \
		"$(find "$corpus" -type f | wc -l)" "$( ((rc == 0)) || echo "  CRASH (exit $rc, see $log)")"
	((rc == 0)) || { status=1; continue; }
	# The seeds keep their names; only inputs that add coverage join them.
	if $update; then
		"$exe" -merge=1 "$here/corpus/$t" "$corpus" >"$work/$t.merge.log" 2>&1
	fi
done
exit "$status"
