#!/usr/bin/env bash
# `governor report --prometheus` on records real steps wrote
# (tests/fixtures/report) as Prometheus' own promtool checks it, and the
# logrotate snippet shipped for the record file as logrotate reads it.
# usage: test_report_formats.sh GOVERNOR PROMTOOL LOGROTATE SRC
set -uo pipefail
gov=$1 promtool=$2 logrotate=$3 src=$4
records=$src/tests/fixtures/report/steps.jsonl
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


"$gov" report --prometheus "$records" >"$tmp/m.prom"
check "prometheus: exit 0" 0 $?
out=$("$promtool" check metrics <"$tmp/m.prom" 2>&1)
check "prometheus: promtool check metrics" "0 ''" "$? '$out'"
check "prometheus: one CPU sample per step and node" 8 "$(grep -c '^governor_step_cpu_seconds{' "$tmp/m.prom")"
check "prometheus: the OOM kill's finding, slurm_job and (this release) job" 1 \
  "$(grep -c '^governor_step_finding{slurm_job="4",step="0",node="node1",uid="1001",job="4",finding="oom_killed"} 1$' "$tmp/m.prom")"
"$gov" report --prometheus "$src/tests/fixtures/report/working_set.jsonl" >"$tmp/w.prom"
out=$("$promtool" check metrics <"$tmp/w.prom" 2>&1)
check "prometheus, records with a working set: promtool check metrics" "0 ''" "$? '$out'"
check "prometheus: the working set and memory efficiency" \
  "governor_step_memory_working_set_bytes 7864320 governor_step_memory_efficiency_ratio 0.0375" \
  "$(grep -E '^governor_step_memory_(working_set_bytes|efficiency_ratio)\{slurm_job="7"' "$tmp/w.prom" | sed 's/{[^}]*}//' | tr '\n' ' ' | sed 's/ $//')"

# The snippet as logrotate parses it (debug mode: nothing rotated), for a
# file of this test's own.
sed "s|/var/log/slurm-governor/steps.jsonl|$tmp/steps.jsonl|" \
  "$src/contrib/logrotate/slurm-governor" >"$tmp/logrotate.conf"
cp "$records" "$tmp/steps.jsonl"
chmod 644 "$tmp/logrotate.conf"
out=$("$logrotate" -d -f -s "$tmp/state" "$tmp/logrotate.conf" 2>&1)
check "logrotate: the snippet parses" 0 $?
check "logrotate: it would rotate the file" 1 "$(grep -c "rotating log $tmp/steps.jsonl" <<<"$out")"
finish
