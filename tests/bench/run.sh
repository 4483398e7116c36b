#!/usr/bin/env bash
# Run every benchmark against a build directory and print its figures.
# usage: tests/bench/run.sh BUILDDIR
set -euo pipefail
build=$(cd "${1:?usage: run.sh BUILDDIR}" && pwd)
gov=$build/tool/governor
list=$(mktemp)
trap 'rm -f "$list"' EXIT

# The files one capture opens (after the topology load), from a real
# capture: the floor reads exactly these.
strace -qq -e trace=openat,access -o "$list.raw" "$build/tests/bench/bench_snapshot" --trace
sed -n '/governor-bench-capture-starts/,$p' "$list.raw" | grep '^openat(' | grep -v ' = -1 ' |
  sed 's/^openat([^"]*"\([^"]*\)".*/\1/' | sort -u >"$list"
rm -f "$list.raw"
"$build/tests/bench/bench_snapshot" "$list" "$gov" 2000
if [ -x "$build/tests/bench/bench_governor" ]; then
  "$build/tests/bench/bench_governor"
fi
"$build/tests/bench/bench_report" "$(dirname "$0")/../fixtures"
bash "$(dirname "$0")/report_scale.sh" "$build"
