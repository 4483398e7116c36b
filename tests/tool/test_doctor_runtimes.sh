#!/usr/bin/env bash
# `governor doctor --runtimes` on a fixture step (1 CPU and 100 MiB of a
# task whose cgroup v1 node holds 2 CPUs and 200 MiB) with real runtimes:
# Debian's Python 3 and R, each asked plainly and under governor run; a
# runtime not on PATH, a compiled probe not installed, one that hangs and
# one that prints no figure; usage errors.
# usage: test_doctor_runtimes.sh GOVERNOR FIXTURES SRC
set -uo pipefail
gov=$1 root=$2/snapshot/slurm-v1-node src=$3
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

[[ -x /usr/bin/python3 ]] || { echo "not ok - /usr/bin/python3 is missing: tests/install-deps.sh installs it" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# What the user's PATH holds: Debian's commands (R's detectCores() runs
# grep), Python and R among them, but neither Java nor Node.js.
mkdir -p "$tmp/bin" "$tmp/probes"
for f in /usr/bin/*; do
  case ${f##*/} in java | node | nodejs) ;; *) ln -s "$f" "$tmp/bin/" ;; esac
done
step=(env -i PATH="$tmp/bin" HOME="$tmp" SLURM_JOB_ID=7 SLURM_STEP_ID=0 SLURM_CPUS_PER_TASK=1
  SLURM_CPUS_ON_NODE=1 SLURM_MEM_PER_NODE=100)
doctor=("$gov" doctor --runtimes --sysroot "$root" --probes "$tmp/probes")

# jq-less: one decision's field from the JSON, by runtime and key.
field() { # JSON RUNTIME KEY FIELD
  python3 -c 'import json, sys
d = json.loads(sys.argv[1])
r = [r for r in d["runtimes"] if r["runtime"] == sys.argv[2]][0]
if sys.argv[3] == "-":
    print(r[sys.argv[4]])
else:
    print([x for x in r["decisions"] if x["key"] == sys.argv[3]][0][sys.argv[4]])' "$@"
}

json=$("${step[@]}" "${doctor[@]}" --json)
check "asked: exit 0" 0 $?
check "schema and budget" 1 \
  "$(grep -c '^{"schema":"governor.doctor.runtimes/1","budget":{"threads":1,"memory_bytes":104857600},"runtimes":\[' <<<"$json")"
check "Java is not on PATH" absent "$(field "$json" java - status)"
check "Node.js is not on PATH" absent "$(field "$json" node - status)"
check "no Go probe installed" no_probe "$(field "$json" go - status)"
check "Python asked" "asked Python 3" "$(field "$json" python - status) $(field "$json" python - version | cut -c1-8)"

# Python before 3.13 counts the host under governor run too, unless the
# binding's startup hook is installed (python3-governor, on a machine with
# the packages); 3.13 reads PYTHON_CPU_COUNT itself.
if /usr/bin/python3 -c 'import governor_cpu_count' 2>/dev/null; then
  check "Python with python3-governor's hook installed: fixed" "2 1 fixed" \
    "$(for f in plain governed verdict; do field "$json" python cpu_count "$f"; done | xargs)"
elif /usr/bin/python3 -c 'import sys; sys.exit(sys.version_info >= (3, 13))'; then
  check "Python 3.11: the pool exceeds the budget governed" "2 2 1 exceeds" \
    "$(for f in plain governed budget verdict; do field "$json" python pool "$f"; done | xargs)"
  check "Python 3.11: the reason names the hook" 1 \
    "$(field "$json" python pool why | grep -c "python3-governor's startup hook")"
  site=$tmp/user/lib/python3.$(/usr/bin/python3 -c 'import sys; print(sys.version_info[1])')/site-packages
  mkdir -p "$site"
  cp "$src/contrib/python/governor_cpu_count.py" "$src/contrib/python/governor-cpu-count.pth" "$site/"
  hooked=$("${step[@]}" PYTHONUSERBASE="$tmp/user" "${doctor[@]}" --json)
  check "Python 3.11 with the hook: fixed" "2 1 fixed" \
    "$(for f in plain governed verdict; do field "$hooked" python pool "$f"; done | xargs)"
else
  check "Python 3.13+: fixed by PYTHON_CPU_COUNT" "1 fixed" \
    "$(for f in governed verdict; do field "$json" python pool "$f"; done | xargs)"
fi

# R: mclapply's default follows MC_CORES; detectCores() counts the node.
# (R is no build dependency of the packages: a build daemon has none.)
if [[ -x /usr/bin/Rscript ]]; then
  check "R mclapply: fixed" "2 1 fixed" \
    "$(for f in plain governed verdict; do field "$json" r mc_cores "$f"; done | xargs)"
  check "R detectCores: exceeds, and why" "2 exceeds 1" \
    "$(field "$json" r detect_cores governed) $(field "$json" r detect_cores verdict) $(field "$json" r detect_cores why | grep -c 'counts the node')"
  if Rscript -e 'quit(status = !requireNamespace("parallelly", quietly = TRUE))' 2>/dev/null; then
    check "R parallelly::availableCores(): 1 both ways" "1 1 ok" \
      "$(for f in plain governed verdict; do field "$json" r available_cores "$f"; done | xargs)"
  fi
else
  check "R not installed: a row that says so" absent "$(field "$json" r - status)"
  skip "no /usr/bin/Rscript on this machine" "R's answers"
fi

# The table says the same to people.
human=$("${step[@]}" "${doctor[@]}")
check "human: the budget" "budget of one process: 1 thread, 100.0 MiB of memory" "$(sed -n 2p <<<"$human")"
check "human: a runtime not installed" "Java: not installed" "$(grep '^Java' <<<"$human")"
check "human: no probe" 1 "$(grep -c '^Go: not asked: this installation has no probe for it' <<<"$human")"
[[ ! -x /usr/bin/Rscript ]] || check "human: R's mclapply row" 1 \
  "$(grep -cE "^  mclapply\(\)'s default mc.cores +2 +1 +1  fixed by governor run$" <<<"$human")"

# A probe that hangs is killed at its deadline with its helpers; one that
# prints no figure is no answer either.  Neither is shown what it printed.
printf '#!/bin/sh\nsleep 300 &\nsleep 300\n' >"$tmp/probes/governor-probe-go"
printf '#!/bin/sh\necho threads=many; echo SECRET=/home/someone\n' >"$tmp/probes/governor-probe-rust"
chmod +x "$tmp/probes/"*
json=$("${step[@]}" "${doctor[@]}" --json --probe-timeout 1)
check "hung probe: no answer" "no_answer" "$(field "$json" go threads verdict)"
check "hung probe: said so" 1 "$(field "$json" go threads no_answer | grep -c '^no answer within [0-9]* ms$')"
check "hung probe: its group killed" 0 "$(pgrep -f 'sleep 300' | wc -l)"
check "no figure: no answer" "no_answer printed no figure" \
  "$(field "$json" rust threads verdict) $(field "$json" rust threads no_answer)"
check "nothing a probe printed is shown" 0 "$(grep -c 'SECRET\|/home' <<<"$json")"

# Usage.
"$gov" doctor --probes "$tmp" >/dev/null 2>"$tmp/err"
check "--probes without --runtimes" "2 1" "$? $(grep -c 'go with --runtimes' "$tmp/err")"
"$gov" doctor --runtimes --probe-timeout 601 >/dev/null 2>"$tmp/err"
check "--probe-timeout past 600" "2 1" "$? $(grep -c '1 to 600 seconds' "$tmp/err")"
"$gov" doctor --runtimes --probe-timeout 0 >/dev/null 2>&1
check "--probe-timeout 0" 2 $?
finish
