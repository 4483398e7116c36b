#!/usr/bin/env bash
# `governor report` on records that real steps wrote (tests/fixtures/report:
# a cluster with report=DIR ran a busy three-node step, an idle one, one near
# its memory limit, an OOM-killed one and a two-node --governor=threads one):
# the table with its total rows, --json adding the nodes up, the filters,
# the lines it skips, the exit statuses; each job's suggestions on a 26.05
# run's jobs (jobs.jsonl, with time limits), --by user counted as --by job,
# and a report directory's rotated copies under --since.
# (test_report_formats.sh: the Prometheus text and the logrotate snippet;
# test_report_promql.sh: the admin guide's queries.)
# usage: test_report.sh GOVERNOR SRC
set -uo pipefail
gov=$1 src=$2
records=$src/tests/fixtures/report/steps.jsonl
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

py() { python3 -c "import json, sys; d = json.load(sys.stdin); $1" "${@:2}"; }

out=$("$gov" report "$records")
check "table: exit 0" 0 $?
table=$(sed '/^$/,$d' <<<"$out")
advice=$(sed '1,/^$/d' <<<"$out")
check "table: a header, 8 node rows, 2 total rows" 11 "$(wc -l <<<"$table")"
check "table: the three-node step's total" "1 0 (total) 6 8.45 22%" \
  "$(awk '$4 == "(total)" && $1 == 1 { print $1, $2, $4, $7, $8, $9 }' <<<"$table")"
check "table: the OOM-killed step's findings" "oom_killed,memory_near_limit" \
  "$(awk '$1 == 4 { print $NF }' <<<"$table")"
check "table: records without the page cache's figure have no working set" "- -" \
  "$(awk '$1 == 3 { print $10, $(NF - 2) }' <<<"$table")"
# One suggestion per kind of resource and job, under the table: the OOM
# kill's "more than" stands for its memory_near_limit too.
check "suggestions: a header and one per job and resource" 5 "$(wc -l <<<"$advice")"
check "suggestion: near the limit, from the peak (no working set in the record)" \
  "peak 182.7 MiB of 200.0 MiB a node: ask --mem=220M" \
  "$(awk '$1 == 3 && $2 == "memory_near_limit"' <<<"$advice" | cut -c31-)"
check "suggestion: the idle step's CPUs" "0.0 of 2 CPUs a node busy: 1 would do" \
  "$(awk '$1 == 2' <<<"$advice" | cut -c31-)"
check "suggestion: killed for memory, more than its limit, never a fifth more" \
  "killed for memory at 100.0 MiB a node: it needs more than --mem=100M (twice that: --mem=200M)" \
  "$(awk '$1 == 4' <<<"$advice" | cut -c31-)"

# Records with the page cache's figure (as the plugin writes them now): the
# working set and memory efficiency, memory_underused, --sort, and the steps
# summed per user.
ws=$tmp/ws.jsonl
cp "$src/tests/fixtures/report/working_set.jsonl" "$ws"
out=$("$gov" report "$ws")
check "working set and memory efficiency" "7.5 MiB 4%" \
  "$(awk '$1 == 7 { print $10, $11, $(NF - 2) }' <<<"$out" | head -1)"
check "a peak of page cache: a working set of 7.5 MiB, no finding" "7.5 MiB 4% -" \
  "$(awk '$1 == 9 { print $10, $11, $(NF - 2), $NF }' <<<"$out" | head -1)"
check "suggestion: the --mem that would have done, from the peak, at least 64M" \
  "peak 30.0 MiB of 200.0 MiB a node: --mem=64M would do" \
  "$(awk '$1 == 7 && $2 == "memory_underused"' <<<"$out" | cut -c31-)"
check "suggestion: the --mem with room" "working set 95.0 MiB of 100.0 MiB a node: ask --mem=114M" \
  "$(awk '$1 == 8 && $2 == "memory_near_limit"' <<<"$out" | cut -c31-)"
order() { py 'print(" ".join(str(s["job"]) for s in d["steps"]))'; }
check "--sort mem_eff: the least efficient first" "7 9 8" "$("$gov" report --json --sort mem_eff "$ws" | order)"
check "--sort mem_eff, the input reversed: the same" "7 9 8" \
  "$(tac "$ws" | "$gov" report --json --sort mem_eff - | order)"
check "--sort user: by uid" "8 7 9" "$("$gov" report --json --sort user "$ws" | order)"
users=$("$gov" report --by user --json --sort mem_eff "$ws")
check "--by user --json: one entry per uid, the least memory-efficient first" \
  "1001 0.0375 {'memory_underused': 1} | 0 0.95 {'memory_near_limit': 1}" \
  "$(py 'print(" | ".join("%s %s %s" % (u["uid"], u["memory_efficiency"], u["findings"]) for u in d["users"]))' <<<"$users")"
check "--by user: uid 0 by its name" "root" "$("$gov" report --by user "$ws" | awk '$5 == "95%" { print $1 }')"
check "--by user --prometheus: a usage error" 2 "$("$gov" report --by user --prometheus "$ws" >/dev/null 2>&1; echo $?)"
jobs=$("$gov" report --by job --json --sort cpu_eff "$records")
check "--by job --json: one entry per job, the least CPU-efficient first" \
  "governor.report-jobs/1 2 1 5 4 3" \
  "$(py 'print(d["schema"], *(j["job"] for j in d["jobs"]))' <<<"$jobs")"
check "--by job: the three-node step's job, its elapsed and findings" "1 govtest 1 6.5 s 22% cpu_underused:1" \
  "$("$gov" report --by job "$records" | sed '/^$/,$d' | awk '$1 == 1 { print $1, $2, $3, $4, $5, $7, $NF }' | sed 's/^1 [^ ]* /1 govtest /')"
check "--by job --prometheus: a usage error" 2 "$("$gov" report --by job --prometheus "$records" >/dev/null 2>&1; echo $?)"
check "--by host: a usage error" 2 "$("$gov" report --by host "$records" >/dev/null 2>&1; echo $?)"
check "--sort size: a usage error" 2 "$("$gov" report --sort size "$ws" >/dev/null 2>&1; echo $?)"

# No file: the directory the plugstack line that loads governor.so names,
# found from slurm.conf ($SLURM_CONF) and through an include.
mkdir -p "$tmp/etc/plugstack.d" "$tmp/reports"
cp "$ws" "$tmp/reports/steps.jsonl"
printf 'ClusterName=x\nPlugStackConfig=%s/etc/stack.conf\n' "$tmp" >"$tmp/etc/slurm.conf"
printf 'optional /usr/lib/other.so report=/nowhere\ninclude %s/etc/plugstack.d/*.conf\n' "$tmp" \
  >"$tmp/etc/stack.conf"
printf '# the governor\nrequired /usr/lib/slurm/governor.so default=batch report=%s/reports # here\n' \
  "$tmp" >"$tmp/etc/plugstack.d/governor.conf"
check "no file: the configured directory" "7 8 9" "$(SLURM_CONF=$tmp/etc/slurm.conf "$gov" report --json | order)"
rm "$tmp/etc/plugstack.d/governor.conf"
err=$(SLURM_CONF=$tmp/etc/slurm.conf "$gov" report 2>&1 >/dev/null)
check "no file and no report key: a usage error that says where it looked" \
  "2 governor: report: no report=DIR for governor.so in $tmp/etc/stack.conf" \
  "$(SLURM_CONF=$tmp/etc/slurm.conf "$gov" report >/dev/null 2>&1; echo "$?") ${err%% (or*}"

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

# A real 26.05 run's jobs (tests/slurm/cases/report_advice.sh): a -c2
# --mem=1G batch job that slept, a step at 274 of 300 MiB, one OOM-killed at
# 200M, numpy in 1G, and a batch job waiting on a step at 274 of 300 MiB;
# ten minutes asked each.  One suggestion per job and resource, the batch
# step's own underuse left out where its job has a step, none equal to the
# request, the time limit's.
jobs_file=$src/tests/fixtures/report/jobs.jsonl
adv=$("$gov" report "$jobs_file" | sed '1,/^JOB  *FINDING/d')
check "jobs: the sleeper's suggestions" \
  "memory_underused: peak 1.2 MiB of 1.0 GiB a node: --mem=64M would do
cpu_underused: 0.0 of 2 CPUs a node busy: 1 would do
time_overrequested: ran 3.0 s of its 10 min limit: --time=1 would do" \
  "$(awk '$1 == 1 { $1 = ""; sub(/^ /, ""); sub(/ +/, ": "); print }' <<<"$adv")"
check "jobs: the OOM kill, and no time suggestion for a job cut short" \
  "oom_killed: killed for memory at 200.0 MiB a node: it needs more than --mem=200M (twice that: --mem=400M)" \
  "$(awk '$1 == 3 { $1 = ""; sub(/^ /, ""); sub(/ +/, ": "); print }' <<<"$adv")"
check "jobs: the waiting batch job: its step's memory, nothing of the batch step's own" \
  "memory_near_limit time_overrequested" "$(awk '$1 == 5 { print $2 }' <<<"$adv" | tr '\n' ' ' | sed 's/ $//')"
check "jobs: the step's name where the job has several" "step 0:" "$(awk '$1 == 5 && $2 == "memory_near_limit" { print $3, $4 }' <<<"$adv")"
check "jobs: sorted otherwise, the suggestions still come a job together" "$adv" \
  "$("$gov" report --sort elapsed "$jobs_file" | sed '1,/^JOB  *FINDING/d')"
check "jobs: --by job gives the same lines" "$adv" "$("$gov" report --by job "$jobs_file" | sed '1,/^JOB  *FINDING/d')"
check "jobs: --by job --json, per node as a user asks" \
  "1 64 None 1 1 | 2 329 None None 1 | 3 None 200 None None | 4 120 None None 1 | 5 329 None None 1" \
  "$("$gov" report --by job --json "$jobs_file" | py 'print(" | ".join("%d %s %s %s %s" % (j["job"], j["suggest"]["memory_mib"], j["suggest"]["memory_more_than_mib"], j["suggest"]["cpus"], j["suggest"]["time_min"]) for j in d["jobs"]))')"
asked() { "$gov" report --by "$1" --json "$jobs_file" | py 'print(round(sum(g["cpu_asked_s"] for g in d[sys.argv[1]]), 3))' "$2"; }
check "jobs: --by user asks what --by job asks" "$(asked job jobs)" "$(asked user users)"
check "jobs: --by user counts a job's time once" 4 \
  "$("$gov" report --by user --json "$jobs_file" | py 'print(d["users"][0]["findings"]["time_overrequested"])')"
check "jobs: the time limit's metric" 6 "$("$gov" report --prometheus "$jobs_file" | grep -c '^governor_step_time_limit_seconds{.*} 600$')"

# A directory stands for steps.jsonl and, with --since, the rotated copies
# beside it written since then (logrotate's delaycompress: .1 plain, .2.gz).
rot=$tmp/rotated
mkdir "$rot"
grep '"job":1,' "$jobs_file" >"$rot/steps.jsonl"
grep '"job":2,' "$jobs_file" >"$rot/steps.jsonl.1"
grep '"job":3,' "$jobs_file" | gzip >"$rot/steps.jsonl.2.gz"
grep '"job":4,' "$jobs_file" | gzip >"$rot/steps.jsonl-20261101.gz"
# Times from the fixture's own (its steps started after s0), not from now.
s0=$(($(py 'print(min(s["nodes"][0]["start"] for s in d["steps"]))' <<<"$("$gov" report --json "$jobs_file")") - 1))
touch -d "@$((s0 + 100))" "$rot/steps.jsonl.1"
touch -d "@$((s0 - 2 * 86400))" "$rot/steps.jsonl.2.gz"
touch -d "@$((s0 - 40 * 86400))" "$rot/steps.jsonl-20261101.gz"
rjobs() { "$gov" report --json "$@" 2>/dev/null | py 'print(" ".join(str(s["job"]) for s in d["steps"]))'; }
check "rotated: without --since, steps.jsonl alone" "1" "$(rjobs "$rot")"
check "rotated: --since then, the copies written since" "1 2" "$(rjobs --since "@$s0" "$rot")"
check "rotated: --since 3 days before, compressed ones too" "1 2 3" "$(rjobs --since "@$((s0 - 3 * 86400))" "$rot")"
check "rotated: --since 60 days before, dateext's names too" "1 2 3 4" "$(rjobs --since "@$((s0 - 60 * 86400))" "$rot")"
printf 'not gzip' >"$rot/steps.jsonl.3.gz"
"$gov" report --since "@$((s0 - 60 * 86400))" "$rot" >/dev/null 2>"$tmp/err"
check "rotated: a copy gzip cannot read: no answer, named" "3 1" \
  "$? $(grep -c "cannot decompress $rot/steps.jsonl.3.gz" "$tmp/err")"

# What is not a file of records: refused, never waited on or read for ever;
# a line longer than a record skipped without holding it; a read error is
# an error, never the end of the records.
mkfifo "$tmp/fifo"
err=$(timeout 20 "$gov" report "$tmp/fifo" 2>&1 >/dev/null)
check "a FIFO: refused at once (exit 3), not waited on" "3 governor: report: cannot read $tmp/fifo: not a regular file" "$? $err"
err=$(timeout 20 "$gov" report /dev/zero 2>&1 >/dev/null)
check "a device: refused (exit 3)" "3 governor: report: cannot read /dev/zero: not a regular file" "$? $err"
{ head -1 "$records"; head -c 3000000 /dev/zero | tr '\0' x; echo; tail -1 "$records"; } >"$tmp/long"
err=$("$gov" report --json "$tmp/long" 2>&1 >"$tmp/long.json")
check "a 3 MB line: skipped, the records around it kept" \
  "2 governor: report: $tmp/long:2: skipped: a line longer than a record can be" \
  "$(py 'print(len(d["steps"]))' <"$tmp/long.json") $(head -1 <<<"$err")"
err=$("$gov" report - </ 2>&1 >/dev/null)
check "a read error (standard input a directory): no answer (exit 3), said" \
  "3 governor: report: cannot read (standard input): Is a directory" "$? $err"

"$gov" report >/dev/null 2>&1; check "no file: usage" 2 $?
"$gov" report --json --prometheus "$records" >/dev/null 2>&1; check "--json --prometheus: usage" 2 $?
"$gov" report --finding slow "$records" >/dev/null 2>&1; check "an unknown finding: usage" 2 $?
"$gov" report --since yesterday "$records" >/dev/null 2>&1; check "a bad time: usage" 2 $?
"$gov" report --until -5x "$records" >/dev/null 2>&1; check "a bad relative time: usage" 2 $?
"$gov" report --job x "$records" >/dev/null 2>&1; check "a bad job: usage" 2 $?
"$gov" report "$tmp/none" >/dev/null 2>&1; check "a missing file: no answer" 3 $?

finish
