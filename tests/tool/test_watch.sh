#!/usr/bin/env bash
# `governor watch` on a fixture tree: JSON lines, the fixture's budget, the
# ceiling growing with healthy observations, and clear errors.
# usage: test_watch.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


out=$("$gov" watch --json --sysroot "$root" --interval 10 --count 7 --max-batch 4)
check "exit 0" 0 $?
check "one line per observation" 7 "$(printf '%s\n' "$out" | wc -l)"
check "schema" 7 "$(printf '%s\n' "$out" | grep -c '"schema":"governor.watch/1"')"
first=$(printf '%s\n' "$out" | head -1)
# The fixture's step has 200 MiB; without a site policy the profile is
# interactive, which keeps a quarter (50 MiB).
check "detected RAM" 1 "$(grep -c '"detected_bytes":209715200' <<<"$first")"
check "interactive reserve" 1 "$(grep -c '"reserve_bytes":52428800' <<<"$first")"
check "PSI memory gate" 1 "$(grep -c '"gate":"memory_pressure"' <<<"$first")"
check "ceiling starts at 1" 1 "$(grep -c '"ceiling":1,' <<<"$first")"
check "no trigger handed: every line on the interval" 7 "$(grep -c '"trigger":null' <<<"$out")"
# A trigger that cannot be used is said once; the lines keep the interval.
err=$(MEMORY_PRESSURE_WATCH=/nonexistent/memory.pressure \
  MEMORY_PRESSURE_WRITE=c29tZSAyMDAwMDAgMjAwMDAwMA== \
  "$gov" watch --json --sysroot "$root" --interval 10 --count 3 2>&1 >/dev/null)
check "unusable trigger: exit 0" 0 $?
check "unusable trigger: said once" 1 "$(grep -c 'pressure triggers in the environment cannot be used (not found); lines come every interval only' <<<"$err")"
err=$(MEMORY_PRESSURE_WATCH=/dev/null "$gov" watch --json --sysroot "$root" --interval 10 --count 2 2>&1 >/dev/null)
check "systemd's none (/dev/null): nothing said" "" "$err"
# The fixture's memory PSI (2.88 %) holds new admissions: the ceiling is
# held at 1 and no observation counts as healthy while it does (a snapshot
# a loaded machine lets age past 1 s is not observed at all: no_observation).
check "gate closed: the ceiling held at 1, no healthy streak, reason gated" 7 \
  "$(grep -cE '"ceiling":1,"ceiling_reason":"(gated|no_observation)","healthy_streak":0,' <<<"$out")"
# The same node with its PSI under the gates (pressure files rewritten in a
# copy, in the kernel's format).
calm=$(mktemp -d) && trap 'rm -rf "$calm"' EXIT
cp -a "$root/." "$calm/"
for f in cpu memory; do
  printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=5205123\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
    >"$calm/proc/pressure/$f"
done
out=$("$gov" watch --json --sysroot "$calm" --interval 10 --count 7 --max-batch 4)
check "gate open: exit 0" 0 $?
check "gate open" 7 "$(grep -c '"gate":null' <<<"$out")"
# Healthy observations 3 and 6 double it: 1, 2, 4 (capped by --max-batch 4),
# over 7 lines when each snapshot is observed.  One counts only if the
# governor sees it within 1 s of its capture, which a loaded machine may not
# grant the tool, so each line is held to its own healthy streak: one more
# than the line before (or the same, when more than 990 ms passed since
# that line, time in which this snapshot may have aged past 1 s), and the
# ceiling that streak gives.
wrong=$(printf '%s\n' "$out" |
  sed -E 's/.*"elapsed_ms":([0-9]+),.*"ceiling":([0-9]+),.*"healthy_streak":([0-9]+),.*/\1 \2 \3/' |
  awk '{ late = $1 - t > 990; t = $1
         c = 1; for (k = 3; k <= $3 && c < 4; k += 3) c *= 2
         if (NF != 3 || $2 != c || !($3 == s + 1 || (late && $3 == s))) print
         s = $3 }')
check "ceiling doubled by every 3 healthy observations, up to 4" "" "$wrong"

human=$("$gov" watch --sysroot "$root" --count 1)
check "a header, as vmstat has" "TIME LEVEL CEILING RAM_FREE RAM RESERVE THREADS IO GPU PSI_CPU PSI_MEM PSI_FROM NEW_WORK" \
  "$(head -1 <<<"$human" | tr -s ' ' | sed 's/^ //')"
check "human line: the budget, the pressure's source, why new work waits" \
  "0 green 1 90.0 MiB 200.0 MiB 50.0 MiB 2/2 4 0 2.9% 2.9% system waits: memory_pressure" \
  "$(sed -n 2p <<<"$human" | tr -s ' ' | sed 's/^ //; s/^[0-9.]*s/0/')"

# One default profile for every verb: interactive outside a scheduler,
# batch inside an allocation (here the variables of a step).
profile_of() { # VERB [ENV...]: the "profile" of one JSON line
  local verb=$1 once=()
  shift
  [ "$verb" = watch ] && once=(--count 1)
  env -u SLURM_JOB_ID "$@" "$gov" "$verb" --json --sysroot "$root" "${once[@]}" |
    grep -o '"profile":"[a-z]*"'
}
check "snapshot outside a scheduler" '"profile":"interactive"' "$(profile_of snapshot)"
check "watch outside a scheduler" '"profile":"interactive"' "$(profile_of watch)"
slurm=(SLURM_JOB_ID=5 SLURM_STEP_ID=0 SLURM_NODEID=0 SLURM_CPUS_PER_TASK=2 SLURM_MEM_PER_NODE=200)
check "snapshot in an allocation" '"profile":"batch"' "$(profile_of snapshot "${slurm[@]}")"
check "watch in an allocation" '"profile":"batch"' "$(profile_of watch "${slurm[@]}")"

"$gov" watch --interval 5 2>/dev/null; check "interval too short exits 2" 2 $?
"$gov" watch --count 0 2>/dev/null; check "zero count exits 2" 2 $?
"$gov" watch --bogus 2>/dev/null; check "unknown option exits 2" 2 $?
"$gov" watch --help >/dev/null; check "help exits 0" 0 $?
finish
