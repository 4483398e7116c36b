#!/usr/bin/env bash
# governor report at a cluster's scale (issue 49, item 4): each view over
# 10^4, 10^5 and 10^6 step records (report_records.py: a real 26.05 run's
# records repeated over 200 users and 1,000 nodes), timed as whole runs, each
# view's run right after a run of the baseline, --by user, on the same file:
# prints the medians, microseconds per record (flat across the sizes when
# it is linear) and each view's ratio to the baseline.  Figures only, never
# pass or fail on speed.
# usage: tests/bench/report_scale.sh BUILDDIR [SIZE...]   (default 10000 100000 1000000)
set -euo pipefail
build=$(cd "${1:?usage: report_scale.sh BUILDDIR [SIZE...]}" && pwd)
shift
sizes=("${@:-10000}")
(($#)) || sizes=(10000 100000 1000000)
here=$(cd "$(dirname "$0")" && pwd)
gov=$build/tool/governor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# now: seconds since the epoch, to the microsecond.
now() { printf '%s\n' "${EPOCHREALTIME/,/.}"; }
# run_once VIEW FILE: one whole run's wall seconds.
run_once() {
	local t0 t1
	t0=$(now)
	# shellcheck disable=SC2086 # the view's words
	"$gov" report $1 "$2" >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

views=("" "--by job" "--json" "--prometheus")
names=("per step" "--by job" "--json" "--prometheus")
printf '%-9s %-12s %9s %9s %12s %9s\n' RECORDS VIEW SECONDS US/REC "BASE(s)" RATIO
for n in "${sizes[@]}"; do
	python3 "$here/report_records.py" "$here/../fixtures/report/jobs.jsonl" "$n" >"$tmp/r.jsonl"
	# Fewer rounds on the largest file: each is seconds long already.
	rounds=3
	((n < 1000000)) || rounds=1
	"$gov" report --by user "$tmp/r.jsonl" >/dev/null 2>&1   # the file into the page cache
	for i in "${!views[@]}"; do
		: >"$tmp/base" && : >"$tmp/view"
		for _ in $(seq "$rounds"); do
			run_once "--by user" "$tmp/r.jsonl" >>"$tmp/base"
			run_once "${views[$i]}" "$tmp/r.jsonl" >>"$tmp/view"
		done
		b=$(median <"$tmp/base")
		v=$(median <"$tmp/view")
		awk -v n="$n" -v name="${names[$i]}" -v v="$v" -v b="$b" \
			'BEGIN { printf "%-9s %-12s %9.3f %9.2f %12.3f %9.2f\n", n, name, v, v * 1e6 / n, b, v / b }'
	done
done
