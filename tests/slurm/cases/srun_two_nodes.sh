#!/usr/bin/env bash
# covers: v1 v2
# srun as the test user spreads two tasks over two emulated nodes.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"

out=$(as_user srun -N2 -n2 bash -c 'echo "$SLURMD_NODENAME $(id -un) $SLURM_PROCID"' | sort)
printf '%s\n' "$out"
assert_eq 2 "$(wc -l <<<"$out")" "task count"
assert_eq 2 "$(cut -d' ' -f1 <<<"$out" | sort -u | wc -l)" "distinct nodes"
assert_match '^node[0-9]+ govtest 0$' "$(sed -n 1p <<<"$out")" "task 0"
assert_match '^node[0-9]+ govtest 1$' "$(sed -n 2p <<<"$out")" "task 1"
assert_eq "$(printf "%s\n%s" "$(hostname)" "$(hostname)")" "$(as_user srun -N2 -n2 hostname)" "hostname of both tasks"
