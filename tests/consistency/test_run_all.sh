#!/usr/bin/env bash
# tests/run-all.sh's stage table: --list prints one line a stage and checks
# that each stage's command is a function of the script; every stage the
# full run starts is in the table, and --only refuses an unknown stage.
# usage: test_run_all.sh SRC
set -uo pipefail
src=$1
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

out=$(bash "$src/tests/run-all.sh" --list 2>&1)
check "--list: exit 0 (every command is a function)" 0 $?
ids=$(awk '{ print $1 }' <<<"$out" | sort)
used=$(sed -n '/^main() {/,/^}/p' "$src/tests/run-all.sh" |
	grep -oE '(run_stage|lane_start|lane_collect) [a-z0-9 .-]+|for id in [a-z0-9 .-]+' |
	sed -E 's/^(run_stage|lane_start|lane_collect|for id in) //' | tr ' ' '\n' | grep -v '^"' | grep -v '^$' | sort -u)
check "the full run starts only stages of the table" "" "$(comm -13 <(printf '%s\n' "$ids") <(printf '%s\n' "$used"))"
check "the full run starts every stage of the table" "" "$(comm -23 <(printf '%s\n' "$ids") <(printf '%s\n' "$used"))"
bash "$src/tests/run-all.sh" --only no-such-stage >/dev/null 2>&1
check "--only an unknown stage: exit 2" 2 $?
finish
