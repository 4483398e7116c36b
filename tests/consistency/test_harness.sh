#!/usr/bin/env bash
# The shell harness has one of each (issue 51): one assertion library with
# one skip (tests/lib/assert.sh: no other script defines its checks or its
# skip again; the cases' own helpers, assert_idle and the like, are built
# on them), one builder of Debian roots (tests/lib/debian_root.sh:
# no other script runs mmdebstrap), and one wait on a node's state
# (tests/slurm/nodes.sh's wait_node: no other script loops on sinfo's
# state of one node).
# usage: test_harness.sh SRC
set -uo pipefail
src=${1:?usage: test_harness.sh SRC}
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"
cd "$src" || exit 1
scripts=$(git ls-files 'tests/*.sh' 'tests/**/*.sh' 2>/dev/null | sort -u)
[[ -n $scripts ]] || scripts=$(find tests -name '*.sh' | sort)

# shellcheck disable=SC2086 # one file a word
names=$(sed -nE 's/^([a-z_]+)\(\).*/\1/p' tests/lib/assert.sh | paste -sd'|')
# shellcheck disable=SC2086 # one file a word
defs=$(grep -nE "^[[:space:]]*($names)[[:space:]]*\(\)" $scripts |
	grep -v '^tests/lib/assert.sh:')
check "checks and skips are defined in tests/lib/assert.sh alone" "" "$defs"

# shellcheck disable=SC2086
runs=$(grep -nE '^[^#]*\bmmdebstrap --' $scripts | grep -v '^tests/lib/debian_root.sh:')
check "mmdebstrap runs in tests/lib/debian_root.sh alone" "" "$runs"

# shellcheck disable=SC2086
waits=$(grep -nE '(until|while) .*sinfo -h -n .* -o %t' $scripts | grep -v '^tests/slurm/nodes.sh:' |
	grep -v '^tests/slurm/pair/pair_reboot.sh:')
check "a node's state is waited on through wait_node alone" "" "$waits"
finish
