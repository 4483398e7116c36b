#!/usr/bin/env bash
# One task of tests/bench/outcomes.sh: runs CASE's program from WORK (the
# probes tests/runtimes/build.sh built) and prints one line
# "outcome=WORD peak_kib=N threads=N": finished, runtime_oom (the
# runtime's own out-of-memory: Java's OutOfMemoryError, V8's fatal heap
# error), killed (a signal: the kernel's OOM killer) or timeout (still
# running after TIMEOUT s, default 60: thrashing at the memory limit).
#   outcome_task.sh WORK CASE [TIMEOUT]
set -uo pipefail
work=$1
case $2 in
go) cmd=("$work/churn" -live 220) ;;
node) cmd=(/usr/bin/node "$work/node_churn.js" 250 4) ;;
java) cmd=(/usr/lib/jvm/default-java/bin/java -cp "$work/java" Churn 200) ;;
blas) cmd=(/usr/bin/python3 "$work/blas_work.py" 150) ;;
# The pool as a site installs the Python binding: its startup hook in the
# user's site directory (WORK/pyuser), which does nothing without
# PYTHON_CPU_COUNT.
pool) cmd=(env PYTHONUSERBASE="$work/pyuser" /usr/bin/python3 "$work/pool_work.py" 48) ;;
r) cmd=(/usr/bin/Rscript "$work/r_work.R" 150) ;;
torch) cmd=(/usr/bin/python3 "$work/torch_work.py" 80) ;;
rayon) cmd=("$work/rayon_probe" work 1500) ;;
*) echo "outcome_task.sh: unknown case '$2'" >&2; exit 2 ;;
esac
peak=$(mktemp)
trap 'rm -f "$peak"' EXIT
rc=0
line=$(/usr/bin/time -f %M -o "$peak" timeout -k 5 "${3:-60}" "${cmd[@]}" 2>/dev/null) || rc=$?
case $rc in
0) outcome=finished ;;
3 | 134) outcome=runtime_oom ;;
124) outcome=timeout ;;
137) outcome=killed ;;
*) outcome="exit_$rc" ;;
esac
threads=$(tr ' ' '\n' <<<"$line" | sed -n 's/^\(threads\|rayon\)=//p' | head -n1)
echo "outcome=$outcome peak_kib=$(tail -n1 "$peak" | tr -cd 0-9) threads=${threads:-0}"
