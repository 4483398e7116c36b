#!/usr/bin/env bash
# Every verb that takes --sysroot refuses one that is not a directory: a
# usage error (exit 2) naming the path, never an all-unknown answer.  A
# tree without CPU topology is said in the tool's words, not hwloc's.
# usage: test_sysroot.sh GOVERNOR FIXTURES
set -uo pipefail
gov=$1 fixtures=$2
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"


for verb in snapshot plan watch doctor run; do
  extra=()
  [ "$verb" = run ] && extra=(--dry-run -- true)
  [ "$verb" = watch ] && extra=(--count 1)
  for bad in /nonexistent-sysroot "$fixtures/meminfo/thismachine/proc/meminfo"; do
    name=$(basename "$bad")
    err=$("$gov" "$verb" --sysroot "$bad" "${extra[@]}" 2>&1 >/dev/null)
    check "$verb --sysroot $name: exit 2" 2 $?
    check "$verb: the message names the path" 1 "$(grep -c -- "--sysroot $bad: " <<<"$err")"
    "$gov" "$verb" "--sysroot=$bad" "${extra[@]}" >/dev/null 2>&1
    check "$verb --sysroot=$name: exit 2" 2 $?
  done
  "$gov" "$verb" --sysroot "$fixtures/snapshot/slurm-v1-node" "${extra[@]}" >/dev/null 2>&1
  check "$verb with a real tree: exit 0" 0 $?
done

empty=$(mktemp -d) && trap 'rm -rf "$empty"' EXIT
mkdir -p "$empty/proc" "$empty/sys"
err=$("$gov" snapshot --sysroot "$empty" 2>&1 >/dev/null)
check "a tree without CPU topology: exit 0" 0 $?
check "... one line of the tool's, naming what is unknown, none of hwloc's" \
  "governor: --sysroot $empty: no sys/devices/system/cpu there, so the host's cores, packages and NUMA nodes are unknown" \
  "$err"
# shellcheck disable=SC2016 # expanded by the command
check "... run's command does not inherit the tool's hwloc settings" "ran unset unset" \
  "$("$gov" run --sysroot "$empty" -- sh -c 'echo ran "${HWLOC_HIDE_ERRORS-unset}" "${HWLOC_FSROOT-unset}"' 2>/dev/null)"
finish
