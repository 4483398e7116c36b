#!/usr/bin/env bash
# What the tool says when it cannot do what it was asked: one line on
# stderr that names what failed and what to do, the exit status of
# governor(1) (2 a usage error; `run`'s 127 and 126 as a shell's).
# usage: test_messages.sh GOVERNOR
set -uo pipefail
gov=$1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

for verb in snapshot plan verify doctor watch run report; do
  err=$("$gov" "$verb" --no-such-option 2>&1 >/dev/null)
  check "$verb, an unknown option: exit 2, one line naming it and where the options are" \
    "2 1 governor: $verb: unknown option '--no-such-option'; 'governor $verb --help' lists them" \
    "$? $(wc -l <<<"$err") $err"
done
err=$("$gov" run 2>&1 >/dev/null)
check "run without a command: exit 2, one line with the form" \
  "2 governor: run: no command given: governor run [OPTIONS] -- COMMAND [ARGS...], or --dry-run" "$? $err"
err=$("$gov" run -- ls-typo 2>&1 >/dev/null)
check "run, a command not in PATH: exit 127, named" \
  "127 governor: run: ls-typo: command not found (not in PATH)" "$? $err"
err=$("$gov" run -- "$tmp/absent" 2>&1 >/dev/null)
check "run, a path that does not exist: exit 127, named with the reason" \
  "127 governor: run: cannot run $tmp/absent: No such file or directory" "$? $err"
touch "$tmp/not-executable"
err=$("$gov" run -- "$tmp/not-executable" 2>&1 >/dev/null)
check "run, a file it may not execute: exit 126, named with the reason" \
  "126 governor: run: cannot run $tmp/not-executable: Permission denied" "$? $err"
finish
