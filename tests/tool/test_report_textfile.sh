#!/usr/bin/env bash
# contrib/node_exporter/governor-textfile, the step report's recipe for
# node_exporter's textfile collector, run as the admin's cron would: the
# .prom file it leaves is whole (promtool reads it), readable by root and
# node_exporter's group only, and no temporary file is left; when the report
# cannot be read it fails and the previous file stays.
# usage: test_report_textfile.sh GOVERNOR PROMTOOL SRC
set -uo pipefail
gov=$1 promtool=$2 src=$3
script=$src/contrib/node_exporter/governor-textfile
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

group=$(id -gn)
mkdir "$tmp/textfile"
GOVERNOR=$gov GOVERNOR_SINCE=@0 "$script" "$src/tests/fixtures/report" "$tmp/textfile" "$group"
check "written: exit 0" 0 $?
check "the file, and nothing else" "governor.prom" "$(ls -A "$tmp/textfile")"
check "readable by root and the group only" "640 $group" "$(stat -c '%a %G' "$tmp/textfile/governor.prom")"
out=$("$promtool" check metrics <"$tmp/textfile/governor.prom" 2>&1)
check "promtool check metrics" "0 ''" "$? '$out'"
check "every step and node's CPU time" 8 "$(grep -c '^governor_step_cpu_seconds{' "$tmp/textfile/governor.prom")"
before=$(cat "$tmp/textfile/governor.prom")
err=$(GOVERNOR=$gov "$script" "$tmp/no-such-dir" "$tmp/textfile" "$group" 2>&1)
check "an unreadable report: exit 1" 1 $?
check "it says why" 1 "$(grep -c 'cannot read' <<<"$err")"
check "the previous file stays, nothing else" "governor.prom same" \
  "$(ls -A "$tmp/textfile") $([[ $(cat "$tmp/textfile/governor.prom") == "$before" ]] && echo same)"
err=$(GOVERNOR=$gov "$script" "$src/tests/fixtures/report" "$tmp/textfile" "$group" 2>&1)
check "a quiet window (no step in the last two hours): exit 0, nothing said" "0 ''" "$? '$err'"
finish
