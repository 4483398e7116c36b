#!/usr/bin/env bash
# `governor report` on records that real steps wrote (tests/fixtures/report:
# a cluster with report=DIR ran a busy three-node step, an idle one, one near
# its memory limit, an OOM-killed one and a two-node --governor=threads one):
# the table with its total rows, --json adding the nodes up, the filters,
# the lines it skips, the exit statuses.  (test_report_formats.sh: the
# Prometheus text and the logrotate snippet.)
# usage: test_report.sh GOVERNOR SRC
set -uo pipefail
gov=$1 src=$2
records=$src/tests/fixtures/report/steps.jsonl
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/tap.sh
source "$(dirname "$0")/../lib/tap.sh"

py() { python3 -c "import json, sys; d = json.load(sys.stdin); $1"; }

table=$("$gov" report "$records")
check "table: exit 0" 0 $?
check "table: a header, 8 node rows, 2 total rows" 11 "$(wc -l <<<"$table")"
check "table: the three-node step's total" "1 0 (total) 6 8.45 22%" \
  "$(awk '$4 == "(total)" && $1 == 1 { print $1, $2, $4, $7, $8, $9 }' <<<"$table")"
check "table: the OOM-killed step's findings" "oom_killed,memory_near_limit" \
  "$(awk '$1 == 4 { print $NF }' <<<"$table")"

json=$("$gov" report --json "$records")
check "json: steps and their nodes" "governor.report/1 [3, 1, 1, 1, 2]" \
  "$(py 'print(d["schema"], [len(s["nodes"]) for s in d["steps"]])' <<<"$json")"
check "json: the total adds the nodes up" "True True True" \
  "$(py 's = d["steps"][0]; t = s["total"]; n = s["nodes"]
print(abs(t["used"]["cpu_s"] - sum(r["used"]["cpu_s"] for r in n)) < 0.002,
      t["budget"]["cpus"] == sum(r["budget"]["cpus"] for r in n),
      t["elapsed_s"] == max(r["elapsed_s"] for r in n))' <<<"$json")"
check "json: what the threads step's tasks were told" "1 1 None" \
  "$(py 't = d["steps"][4]["nodes"][0]["told"]; print(t["tasks"], t["threads"], t["memory_bytes"])' <<<"$json")"

jobs() { "$gov" report --json "$@" "$records" 2>/dev/null | py 'print(" ".join(str(s["job"]) for s in d["steps"]))'; }
check "--job 3" 3 "$(jobs --job 3)"
check "--finding cpu_underused" "1 2" "$(jobs --finding cpu_underused)"
check "--user 1001" "1 2 3 4 5" "$(jobs --user 1001)"
check "--user 0" "" "$(jobs --user=0)"
start=$(py 'print(d["steps"][3]["nodes"][0]["start"])' <<<"$json")
check "--since the OOM-killed step's start" "4 5" "$(jobs --since "@$start")"
check "--since a date long past" "1 2 3 4 5" "$(jobs --since 2020-01-01)"
check "--since a date to come" "" "$(jobs --since 2999-01-01T00:00)"
check "--until the OOM-killed step's start" "1 2 3" "$(jobs --until "@$start")"
check "--since and --until" "4" "$(jobs --since "@$start" --until "@$((start + 1))")"
# Relative to now: the fixture's steps ran before this test, after 2007.
check "--since -1000w" "1 2 3 4 5" "$(jobs --since -1000w)"
check "--since -1s" "" "$(jobs --since=-1s)"
check "--until -1s" "1 2 3 4 5" "$(jobs --until -1s)"
err=$("$gov" report --job 99 "$records" 2>&1 >/dev/null)
check "nothing selected: said on stderr" "governor: report: no steps matched" "$err"
check "a directory stands for its steps.jsonl" "$(jobs)" \
  "$("$gov" report --json "$(dirname "$records")" | py 'print(" ".join(str(s["job"]) for s in d["steps"]))')"

{ cat "$records"; echo 'not json'; echo '{"schema":"governor.step-report/9","job":1}'; } >"$tmp/mixed"
err=$("$gov" report --json "$tmp/mixed" "$records" 2>&1 >/dev/null)
lines=$(wc -l <"$records")
check "skipped lines: named by file and line, then counted" \
  "governor: report: $tmp/mixed:$((lines + 1)): skipped: not a step record
governor: report: $tmp/mixed:$((lines + 2)): skipped: a record of another schema
governor: report: skipped 1 lines that are not step records, 1 of another schema, 8 repeated" "$err"
for i in $(seq 12); do echo "garbage $i"; done >"$tmp/garbage"
check "skipped lines: ten named at most" 11 "$("$gov" report "$tmp/garbage" 2>&1 >/dev/null | grep -c skipped)"
check "skipped lines: the steps unchanged" "$(jobs)" \
  "$("$gov" report --json "$tmp/mixed" 2>/dev/null | py 'print(" ".join(str(s["job"]) for s in d["steps"]))')"

"$gov" report >/dev/null 2>&1; check "no file: usage" 2 $?
"$gov" report --json --prometheus "$records" >/dev/null 2>&1; check "--json --prometheus: usage" 2 $?
"$gov" report --finding slow "$records" >/dev/null 2>&1; check "an unknown finding: usage" 2 $?
"$gov" report --since yesterday "$records" >/dev/null 2>&1; check "a bad time: usage" 2 $?
"$gov" report --until -5x "$records" >/dev/null 2>&1; check "a bad relative time: usage" 2 $?
"$gov" report --job x "$records" >/dev/null 2>&1; check "a bad job: usage" 2 $?
"$gov" report "$tmp/none" >/dev/null 2>&1; check "a missing file: no answer" 3 $?

finish
